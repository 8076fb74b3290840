"""Existing tournaments keep today's results (issue 25): migration 0020 gives every Kop
or Baśka tournament made before the competition options the options that say what the
app did (every team member counted, teams of the sizes registered, byes and walkouts
at the table average); a Vint tournament keeps its defaults; new ones take the rules'."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournaments.models import Tournament
from tournaments.ranking.competition import TODAY, kop_options

BEFORE = [("tournaments", "0019_competition")]


def _tournament(apps, game: str, slug: str, teams: dict[str, int]):
    profile = apps.get_model("scoring", "RuleProfile").objects.create(
        slug=f"p-{slug}", name=slug, game=game
    )
    version = apps.get_model("scoring", "RuleProfileVersion").objects.create(
        profile=profile, version=1
    )
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name=slug, slug=slug, game=game, profile_version=version
    )
    club = apps.get_model("clubs", "Club").objects.get_or_create(name="Klub")[0]
    number = 0
    for team, size in teams.items():
        for _ in range(size):
            number += 1
            player = apps.get_model("clubs", "Player").objects.create(
                club=club, number=number + 100 * tournament.pk, name=f"{slug} {number}"
            )
            apps.get_model("tournaments", "Registration").objects.create(
                tournament=tournament, player=player, number=number, team=team
            )
    return tournament.pk


@pytest.mark.django_db(transaction=True)
def test_tournaments_made_before_keep_todays_options():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE[0]).apps
    big_teams = _tournament(old, "kop", "big-teams", {"Kartuzy": 7, "Puck": 3})
    no_teams = _tournament(old, "baska", "no-teams", {"": 4})
    vint = _tournament(old, "vint", "vint-night", {"": 4})

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    options = {t.slug: t.competition for t in Tournament.objects.all()}
    assert Tournament.objects.get(pk=big_teams).competition == {
        "team_counting": "all",
        "team_size_min": 1,
        "team_size_max": 7,
    }
    assert Tournament.objects.get(pk=no_teams).competition == {
        "team_counting": "all",
        "team_size_min": 1,
        "team_size_max": 5,
    }
    assert Tournament.objects.get(pk=vint).competition == {}
    # What they say is today's rules: average byes and walkouts, every member counted.
    today = kop_options(options["big-teams"])
    assert (today.bye_score, today.walkout_score, today.team_counting) == (
        TODAY.bye_score,
        TODAY.walkout_score,
        "all",
    )
