"""Kop's and Baśka's deals in the admin: read-only, like every deal (the table page and its
history are where deals change)."""

from __future__ import annotations

from django.contrib import admin

from scoring.admin import ReadOnlyAdmin
from scoring.games.kop.models import KopDeal


@admin.register(KopDeal)
class KopDealAdmin(ReadOnlyAdmin):
    list_display = ["session", "number", "contract", "declarer_points", "value", "voided"]
    list_filter = ["contract", "voided"]
