"""The simulated association (``manage.py simulate_association``, small): its leagues'
tables are computed from the events' stored rows, and a page reads them."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from clubs.models import Club
from tournaments.models import League, LeagueTable, StandingsRow

pytestmark = pytest.mark.django_db


def test_simulate_association_builds_clubs_players_and_league_seasons(client, profiles):
    call_command(
        "simulate_association",
        "--clubs=5",
        "--players=60",
        "--seasons=2",
        "--events=3",
        "--field=16",
        "--teams=3",
        stdout=None,
    )
    association = Club.objects.get(kind=Club.ASSOCIATION)
    assert association.member_clubs.count() == 5
    assert League.objects.filter(organiser=association).count() == 2
    league = League.objects.order_by("season").first()
    assert LeagueTable.objects.filter(league=league).count() == 3
    assert (
        StandingsRow.objects.filter(snapshot__tournament__league_events__league=league).count()
        == 48
    )
    page = client.get(reverse("tournaments:league_detail", args=[league.slug]))
    assert page.status_code == 200
    assert (
        1 <= len(page.context["page"].teams) <= 3
    )  # a team with no licensed player yet has no row
