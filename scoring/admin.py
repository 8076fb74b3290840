from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from scoring.models import (
    DealHistory,
    KopDeal,
    RuleProfile,
    RuleProfileVersion,
    TableSeat,
    TableSession,
    VintDeal,
)


class VersionInline(admin.TabularInline):
    model = RuleProfileVersion
    extra = 0
    readonly_fields = ["version", "options", "tournament", "created_at"]
    can_delete = False


@admin.register(RuleProfile)
class RuleProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "builtin"]
    inlines = [VersionInline]


class SeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(TableSession)
class TableSessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game", "created_at", "locked_at"]
    list_filter = ["game"]
    search_fields = ["title"]
    inlines = [SeatInline]


@admin.register(KopDeal)
class KopDealAdmin(admin.ModelAdmin):
    """Read-only here: deals change through the scorer's page, which keeps the history."""

    list_display = ["session", "number", "contract", "declarer_points", "value", "voided"]
    list_filter = ["contract", "voided"]

    def has_change_permission(self, request: HttpRequest, obj: KopDeal | None = None) -> bool:
        return False


@admin.register(VintDeal)
class VintDealAdmin(admin.ModelAdmin):
    list_display = ["session", "rubber", "number", "voided"]

    def has_change_permission(self, request: HttpRequest, obj: VintDeal | None = None) -> bool:
        return False


@admin.register(DealHistory)
class DealHistoryAdmin(admin.ModelAdmin):
    list_display = ["session", "deal_number", "action", "actor", "at"]
    list_filter = ["action"]
