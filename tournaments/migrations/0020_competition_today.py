"""Existing tournaments keep today's results (issue 25): their competition options say
what the app did before them -- byes and walkouts at the table average (the defaults),
every team member counted, teams of any size they were registered with. New tournaments
take the rules' defaults (teams of 4 to 5, the best 4 counting)."""

from __future__ import annotations

from collections import Counter

from django.db import migrations


def today(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Registration = apps.get_model("tournaments", "Registration")
    # Vint events have no teams, byes or walkouts (competitions.md §9): their defaults are
    # today's already. (A migration is history: the games as they were when it was made.)
    for tournament in Tournament.objects.filter(competition={}).exclude(game="vint").only("pk"):
        sizes = Counter(
            Registration.objects.filter(tournament_id=tournament.pk)
            .exclude(team="")
            .values_list("team", flat=True)
        )
        largest = max(sizes.values(), default=1)
        Tournament.objects.filter(pk=tournament.pk).update(
            competition={
                "team_counting": "all",
                "team_size_min": 1,
                "team_size_max": max(largest, 5),
            }
        )


def undo(apps, schema_editor):
    apps.get_model("tournaments", "Tournament").objects.update(competition={})


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0019_competition")]
    operations = [migrations.RunPython(today, undo)]
