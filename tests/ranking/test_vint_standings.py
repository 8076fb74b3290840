"""Vint across tables (vint.md 4.11): sum of nets, then rubbers won, head-to-head, totals."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tournaments.ranking import RankingError, VintSession, vint_standings

# Two rounds of two tables; nets worked by hand (total minus the table's average):
# S1 avg 900: 1 +300, 2 -100, 3 +100, 4 -300    S2 avg 700: 5 -200, 6 +200, 7 0, 8 0
# S3 avg 800: 1 -200, 6 +200, 3 +100, 8 -100    S4 avg 750: 2 +250, 5 +250, 4 -350, 7 -150
SESSIONS = [
    VintSession({1: 1200, 2: 800, 3: 1000, 4: 600}, {1: 2, 2: 1, 3: 2, 4: 1}),
    VintSession({5: 500, 6: 900, 7: 700, 8: 700}, {5: 1, 6: 2, 7: 1, 8: 2}),
    VintSession({1: 600, 6: 1000, 3: 900, 8: 700}, {1: 1, 6: 2, 3: 2, 8: 1}),
    VintSession({2: 1000, 5: 1000, 4: 400, 7: 600}, {2: 2, 5: 2, 4: 1, 7: 1}),
]
# player: (net, rubbers won, total points)
EXPECTED = {
    6: (400, 4, 1900),
    3: (200, 4, 1900),
    2: (150, 3, 1800),
    1: (100, 3, 1800),
    5: (50, 3, 1500),
    8: (-100, 3, 1400),
    7: (-150, 2, 1300),
    4: (-650, 2, 1000),
}


def test_four_sessions_ranked_on_the_sum_of_nets():
    rows = vint_standings(SESSIONS)
    assert [r.player for r in rows] == list(EXPECTED)
    assert [r.rank for r in rows] == list(range(1, 9))
    assert {r.player: (r.net, r.rubbers_won, r.total_points) for r in rows} == EXPECTED
    assert all(r.sessions == 2 for r in rows)
    assert sum(r.net for r in rows) == 0


def test_nets_are_exact_when_the_average_is_not_whole():
    rows = vint_standings([VintSession({1: 101, 2: 0, 3: 0, 4: 0})])
    assert rows[0].net == F(303, 4)
    assert rows[1].net == F(-101, 4)


def test_rubbers_won_then_total_points_break_ties():
    # 1 and 5 both +300 with two rubbers and never met: 5 has 2000 points, 1 has 1000.
    # 2 and 6: -100, two rubbers; 6 has 1600 points. 3/4 and 7/8: -100, one rubber each,
    # level within each table on everything (their meeting was a draw).
    sessions = [
        VintSession({1: 1000, 2: 600, 3: 600, 4: 600}, {1: 2, 2: 2, 3: 1, 4: 1}),
        VintSession({5: 2000, 6: 1600, 7: 1600, 8: 1600}, {5: 2, 6: 2, 7: 1, 8: 1}),
    ]
    rows = vint_standings(sessions)
    assert [(r.player, r.rank_label) for r in rows] == [
        (5, "1"),
        (1, "2"),
        (6, "3"),
        (2, "4"),
        (7, "=5"),
        (8, "=5"),
        (3, "=7"),
        (4, "=7"),
    ]


def test_head_to_head_comes_before_total_points():
    # 1 and 2: +300 each, 2 rubbers each, 1900 points each; 1 beat 2 in session 1.
    sessions = [
        VintSession({1: 1100, 2: 900, 3: 700, 4: 500}, {1: 1, 2: 1, 3: 2, 4: 2}),
        VintSession({1: 800, 5: 800, 6: 800, 7: 800}, {1: 1, 5: 1, 6: 2, 7: 2}),
        VintSession({2: 1000, 8: 800, 9: 700, 10: 700}, {2: 1, 8: 2, 9: 2, 10: 1}),
    ]
    top = [(r.player, r.rank_label) for r in vint_standings(sessions)[:2]]
    assert top == [(1, "1"), (2, "2")]
    without = vint_standings(sessions, tie_breaks=("rubbers_won", "total_points"))
    assert [(r.player, r.rank_label) for r in without[:2]] == [(1, "=1"), (2, "=1")]


def test_an_unfinished_rubber_counts_for_nobody():
    # Time called in rubber 3 (vint.md A27): its entries stand, two rubbers had winners.
    rows = vint_standings([VintSession({1: 900, 2: 700, 3: 800, 4: 800}, {1: 2, 2: 0, 3: 1, 4: 1})])
    assert [r.rubbers_won for r in rows] == [2, 1, 1, 0]


@pytest.mark.parametrize(
    ("sessions", "kwargs", "problem"),
    [
        ([VintSession({1: 0, 2: 0, 3: 0})], {}, "session 1: 3 players, a Vint table has 4"),
        ([VintSession({1: 0.5, 2: 0, 3: 0, 4: 0})], {}, "session 1: total of player 1 must be"),
        (
            [VintSession({1: 0, 2: 0, 3: 0, 4: 0}, {1: 2, 2: 1})],
            {},
            "session 1: rubbers won add up to 3; each finished rubber has two winners",
        ),
        (
            [VintSession({1: 0, 2: 0, 3: 0, 4: 0}, {9: 2})],
            {},
            "session 1: player 9 won rubbers but has no total",
        ),
        (
            [VintSession({1: 0, 2: 0, 3: 0, 4: 0}, {1: -2})],
            {},
            "session 1: rubbers won by player 1 must be 0 or more",
        ),
        ([], {"tie_breaks": ("round_wins",)}, "unknown tie-break 'round_wins'"),
    ],
)
def test_bad_sessions_are_refused(sessions, kwargs, problem):
    with pytest.raises(RankingError) as caught:
        vint_standings(sessions, **kwargs)
    assert any(p.startswith(problem) for p in caught.value.problems), caught.value.problems
