"""The site administrators' pages (``config.admin.SiteAdmin``: superusers only): clubs
and associations, and each club's first director (a ``Membership`` row inline)."""

from django.contrib import admin

from clubs.models import Club, ClubRecord, Membership, Player


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "kind", "association"]
    list_filter = ["kind"]
    search_fields = ["name", "city"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "club", "federation_id"]
    list_filter = ["club"]
    search_fields = ["name", "federation_id"]


@admin.register(ClubRecord)
class ClubRecordAdmin(admin.ModelAdmin):
    list_display = ["at", "club", "action", "user"]
    list_filter = ["action"]
    readonly_fields = ["club", "user", "action", "detail", "at"]
