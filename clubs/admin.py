from django.contrib import admin

from clubs.models import Club, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "club", "federation_id"]
    list_filter = ["club"]
    search_fields = ["name", "federation_id"]
