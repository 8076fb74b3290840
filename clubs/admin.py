from django.contrib import admin

from clubs.models import Club, Person, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city"]


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
