from django.contrib import admin

from scoring.admin import ReadOnlyAdmin
from tournaments.models import (
    Registration,
    Round,
    RoundTable,
    Series,
    SeriesTournament,
    StandingsSnapshot,
    Tournament,
)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "rounds_planned", "results_version", "created_at"]
    list_filter = ["game"]
    search_fields = ["name"]
    inlines = [RegistrationInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "source", "seed", "algorithm"]
    list_filter = ["tournament"]


@admin.register(RoundTable)
class RoundTableAdmin(ReadOnlyAdmin):
    """Read-only: acceptance goes through the table page, which keeps it in the history."""

    list_display = ["round", "number", "accepted_at", "accepted_seat", "accepted_user"]
    list_filter = ["round__tournament"]


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["tournament", "results_version", "computed_at"]


class SeriesTournamentInline(admin.TabularInline):
    model = SeriesTournament
    extra = 0


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["name"]
    inlines = [SeriesTournamentInline]
