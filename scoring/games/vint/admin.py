"""Vint's deals in the admin: read-only, like every deal (the table page and its history
are where deals change)."""

from __future__ import annotations

from django.contrib import admin

from scoring.admin import ReadOnlyAdmin
from scoring.games.vint.models import VintDeal


@admin.register(VintDeal)
class VintDealAdmin(ReadOnlyAdmin):
    list_display = ["session", "rubber", "number", "voided"]
