"""The league examples of competitions.md §11 (E15-E17), values copied from the document."""

from __future__ import annotations

import datetime
from fractions import Fraction as F

import pytest

from tournaments.ranking.league import (
    EventRow,
    LeagueEvent,
    league_placings,
    league_standings,
    lineup_problems,
)
from tournaments.ranking.ratings import SeriesRules, series_standings

ALA, BARTEK, CELINA, DAREK = 1, 2, 3, 4
D = datetime.date

# (rank, big points, small points) per player, per event (E15's table).
E15 = [
    (
        D(2025, 10, 4),
        {ALA: (1, 14, 80), BARTEK: (2, 12, 40), CELINA: (3, 11, 10), DAREK: (5, 9, -30)},
    ),
    (
        D(2025, 11, 8),
        {ALA: (2, 12, 20), BARTEK: (3, 11, 5), CELINA: (1, 15, 70), DAREK: (4, 10, 0)},
    ),
    (
        D(2025, 12, 6),
        {ALA: (2, 13, 25), BARTEK: (1, 16, 90), CELINA: (2, 13, 25), DAREK: (7, 8, -50)},
    ),
]
EVENTS = [
    LeagueEvent(day, tuple(EventRow(p, r, F(big), F(small)) for p, (r, big, small) in rows.items()))
    for day, rows in E15
]
LICENCES = {ALA: D(2025, 9, 1), CELINA: D(2025, 9, 1), BARTEK: D(2025, 11, 1)}


@pytest.mark.parametrize(
    ("licences", "expected"),
    [
        (
            LICENCES,
            [(ALA, "1", 39, 125, 1), (CELINA, "2", 39, 105, 1), (BARTEK, "3", 27, 95, 1)],
        ),
        (
            None,
            [
                (BARTEK, "1", 39, 135, 1),
                (ALA, "2", 39, 125, 1),
                (CELINA, "3", 39, 105, 1),
                (DAREK, "4", 27, -80, 0),
            ],
        ),
    ],
    ids=["licences-required", "licences-not-required"],
)
def test_e15_league_sum_with_and_without_licences(licences, expected):
    rows = league_standings(EVENTS, licences)
    assert [(r.who, r.rank_label, r.big_points, r.small_points, r.event_wins) for r in rows] == (
        expected
    )


def test_e16_league_placement_shares_the_points_of_shared_places():
    rows = series_standings(
        league_placings(EVENTS, LICENCES), SeriesRules(points=(10, 8, 6, 5, 4, 3, 2, 1))
    )
    assert [(r.player, r.rank, r.total) for r in rows] == [
        (ALA, 1, 25),
        (CELINA, 2, 23),
        (BARTEK, 3, 16),
    ]
    ala = next(r for r in rows if r.player == ALA)
    assert ala.points == (10, 8, 7)


ROSTERS = {"KAR": (1, 2, 3, 4, 5), "PUC": (6, 7, 8, 9)}


def test_e17_league_teams_with_a_substitute():
    events = [
        LeagueEvent(
            D(2025, 10, 4), (EventRow("KAR", 1, F(23), F(128)), EventRow("PUC", 2, F(15), F(41)))
        ),
        LeagueEvent(
            D(2025, 11, 8), (EventRow("PUC", 1, F(21), F(64)), EventRow("KAR", 2, F(17), F(12)))
        ),
    ]
    rows = league_standings(events)
    assert [(r.who, r.rank_label, r.big_points, r.small_points, r.event_wins) for r in rows] == [
        ("KAR", "1", 40, 140, 1),
        ("PUC", "2", 36, 105, 1),
    ]
    assert lineup_problems("KAR", [1, 2, 3, 4], ROSTERS) == []
    assert lineup_problems("PUC", [6, 7, 9, 20], ROSTERS) == []  # 20 substitutes for 8


@pytest.mark.parametrize(
    ("lineup", "code"),
    [([6, 7, 20, 21], "league.substitutes"), ([5, 6, 7, 9], "league.substitute_on_roster")],
    ids=["two-substitutes", "on-another-roster"],
)
def test_e17_refused_line_ups(lineup, code):
    assert [p.code for p in lineup_problems("PUC", lineup, ROSTERS)] == [code]


def test_a_line_up_member_needs_a_licence_when_the_league_requires_them():
    licences = {6: D(2025, 9, 1), 7: D(2025, 9, 1), 9: D(2025, 9, 1), 20: D(2025, 12, 1)}
    problems = lineup_problems(
        "PUC", [6, 7, 9, 20], ROSTERS, licences=licences, date=D(2025, 11, 8)
    )
    assert [(p.code, p.params["player"]) for p in problems] == [("league.unlicensed", 20)]
