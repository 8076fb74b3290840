"""Tables through the read API, the same as their pages: a league's (E17's league of
tests/tournaments/test_leagues_views.py), a series' (the Spring Cup's) and a
tournament's classes (tests/tournaments/test_competition_tools.py's Spring Cup)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.clubs.test_club_access_tournaments import world  # noqa: F401 (a fixture)
from tests.tournaments.leagues_data import psb  # noqa: F401 (a fixture)
from tests.tournaments.test_competition_tools import REASON, document, options, spring  # noqa: F401
from tests.tournaments.test_leagues_views import e17  # noqa: F401 (a fixture)
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def test_a_leagues_table_is_the_pages(e17, client):  # noqa: F811
    body = client.get(f"/api/v1/leagues/{e17.slug}/").json()
    page = client.get(reverse("tournaments:league_detail", args=[e17.slug])).context["page"]
    assert body["final"] is True and body["after_event"] == 2
    assert [(r["name"], r["rank"], r["big_points"], r["small_points"]) for r in body["teams"]] == [
        (r.name, r.rank, r.big, r.small) for r in page.teams
    ]
    assert [r["name"] for r in body["individual"]] == [r.name for r in page.individual]
    members = body["teams"][1]["results"][1]["members"]
    assert [(m["name"], m["substitute"]) for m in members][-1] == ("Jan", True)
    first = client.get(f"/api/v1/leagues/{e17.slug}/", {"after": 1}).json()
    assert [(r["name"], r["big_points"]) for r in first["teams"]] == [("KAR", "23"), ("PUC", "15")]
    assert client.get(f"/api/v1/leagues/{e17.slug}/", {"after": "x"}).status_code == 400
    listed = client.get("/api/v1/leagues/").json()
    assert [league["slug"] for league in listed["results"]] == [e17.slug]


def test_a_series_hides_a_tournament_that_hides_its_standings(world):  # noqa: F811
    url = f"/api/v1/series/{world.series.slug}/"
    hidden = Client().get(url).json()
    assert hidden["rows"] == [] and hidden["pending"] == [world.spring.slug]
    Tournament.objects.filter(pk=world.spring.pk).update(hide_standings=False)
    shown = Client().get(url).json()
    assert shown["tournaments"] == [world.spring.slug] and shown["rows"]


def test_standings_carry_each_classs_table(spring, commit):  # noqa: F811
    t = spring.tournament
    services.competition_set(
        tournament=t,
        user=None,
        options=options(classes=[{"code": "W", "label": "Women"}, {"code": "M", "label": "Men"}]),
        reason=REASON,
    )
    Registration.objects.filter(pk__in=[spring.seat[1].pk, spring.seat[2].pk]).update(classes=["W"])
    with commit():
        services.results_changed(tournament=t)
    body = Client().get(f"/api/v1/tournaments/{t.slug}/standings/").json()
    assert body["classes"] == document(t)["classes"]
    assert [r["number"] for r in body["classes"][0]["rows"]] == [
        spring.seat[1].number,
        spring.seat[2].number,
    ]
