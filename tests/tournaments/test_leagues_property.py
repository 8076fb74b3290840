"""A league of one event has the event's tables (issue 26, "What it must show"): its
individual table lists the event's players in the event's order, with the event's
ranks (shared ones shared) and points."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import ClubFactory, PlayerFactory
from tests.tournaments.leagues_data import D, event
from tournaments.models import LeagueRow
from tournaments.services import leagues

pytestmark = pytest.mark.django_db

# Each player's (big points in quarters, small points); places follow from them.
FIELD = st.lists(st.tuples(st.integers(0, 100), st.integers(-300, 300)), min_size=1, max_size=12)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(FIELD)
def test_a_league_of_one_event_has_the_events_individual_table(db, scores):
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in scores]
    ordered = sorted(
        zip(players, scores, strict=True), key=lambda ps: (-ps[1][0], -ps[1][1], ps[0].pk)
    )
    rows, place = {}, 0
    for i, (player, (big, small)) in enumerate(ordered):
        if i == 0 or (big, small) != ordered[i - 1][1]:
            place = i + 1
        rows[player] = (place, F(big, 4), small)
    league = leagues.league_create(organiser=club, name="L", game="kop", season="1")
    leagues.event_add(league=league, tournament=event(club, D(2026, 1, 1), rows, game="kop"))
    table = LeagueRow.objects.filter(table__league=league, kind="individual").order_by("position")
    assert [(r.who, r.rank, r.tied, F(r.big_points), F(r.small_points)) for r in table] == [
        (p.pk, place, [v[0] for v in rows.values()].count(place) > 1, big, small)
        for p, (place, big, small) in sorted(rows.items(), key=lambda pr: (pr[1][0], pr[0].pk))
    ]
