"""The site administrators' pages (``config.admin.SiteAdmin``: superusers only): clubs
and associations, and each club's first director (a ``Membership`` row inline)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from clubs.models import ApiToken, Club, ClubRecord, Membership, Person, Player


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "kind", "association", "publishes_federation_ids"]
    list_filter = ["kind"]
    search_fields = ["name", "city"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "club", "federation_id", "person"]
    list_filter = ["club"]
    search_fields = ["name", "federation_id"]
    # A new row's person comes from its federation id (``Player.save``); rows of one
    # person are linked by a director's merge, which keeps a record, not here.
    readonly_fields = ["person"]


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ["name", "federation_id", "created_at"]
    search_fields = ["name", "federation_id"]
    readonly_fields = ["federation_id"]


@admin.register(ClubRecord)
class ClubRecordAdmin(admin.ModelAdmin):
    list_display = ["at", "club", "action", "user"]
    list_filter = ["action"]
    readonly_fields = ["club", "user", "action", "detail", "at"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Read-API tokens: a site administrator sees whose they are and may delete one (the
    secret is never kept; its owner makes them on the members page)."""

    list_display = ("label", "user", "prefix", "created_at", "last_used_at")
    readonly_fields = ("user", "label", "prefix", "digest", "created_at", "last_used_at")
    search_fields = ("label", "user__username", "prefix")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
