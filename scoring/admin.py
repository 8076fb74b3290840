from __future__ import annotations

from importlib import import_module
from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext as _

from clubs.roles import scores_for
from scoring.games import GAME_PACKAGES
from scoring.models import (
    DealHistory,
    RuleProfile,
    RuleProfileVersion,
    TableSeat,
    TableSession,
)


class VersionInline(admin.TabularInline):
    model = RuleProfileVersion
    extra = 0
    readonly_fields = ["version", "options", "tournament", "created_at"]
    can_delete = False


@admin.register(RuleProfile)
class RuleProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "builtin", "club"]
    inlines = [VersionInline]


class ReadOnly:
    """Shown, never added, changed or deleted here: deals, seats and the history change
    only through the scoring services, which keep the history (a deal deleted here would
    leave a gap in the numbering and no trace). Mixed into model admins and inlines."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    pass


class SeatInline(ReadOnly, admin.TabularInline):
    model = TableSeat
    extra = 0
    raw_id_fields = ["player"]


class TableSessionForm(forms.ModelForm):
    class Meta:
        model = TableSession
        fields = ["title", "scorers"]

    def clean_scorers(self) -> Any:
        """Only the table's club's scorers are given it (``entry_actor`` asks again on
        every save, so a scorer whose role ends stops there)."""
        scorers = self.cleaned_data["scorers"]
        outside = [u.get_username() for u in scorers if not scores_for(u, self.instance.club_id)]
        if outside:
            raise forms.ValidationError(
                _("Not a scorer of this table's club: %(names)s") % {"names": ", ".join(outside)}
            )
        return scorers


@admin.register(TableSession)
class TableSessionAdmin(admin.ModelAdmin):
    """Only the title and the assigned scorers are edited here; locks and the table link
    go through the table page (they are kept in its history), and a session with deals
    is never deleted."""

    form = TableSessionForm
    list_display = ["__str__", "club", "game", "created_at", "locked_at"]
    list_filter = ["game", "club"]
    search_fields = ["title"]
    inlines = [SeatInline]
    fields = ["title", "scorers", "club", "game", "profile_version", "planned_deals", "created_by"]
    readonly_fields = ["club", "game", "profile_version", "planned_deals", "created_by"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(DealHistory)
class DealHistoryAdmin(ReadOnlyAdmin):
    list_display = ["session", "deal_number", "action", "actor", "seat", "user", "at"]
    list_filter = ["action"]


# Each game's deals have their admin in the game's package.
for _package in GAME_PACKAGES:
    import_module(f"{_package}.admin")
