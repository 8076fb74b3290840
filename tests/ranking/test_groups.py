"""Pairs and teams classifications from the same play (product.md: Kop ranks all three)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tests.ranking.examples import MET_ROUNDS, NINE_BYES, NINE_ROUNDS
from tournaments.ranking import RankingError, group_standings, kop_standings


def test_pairs_sum_their_members_points():
    rows = kop_standings(NINE_ROUNDS, byes=NINE_BYES)
    pairs = {"A": [1, 2], "B": [3, 4], "C": [5, 9], "D": [6, 7], "E": [8]}
    result = group_standings(rows, pairs)
    # A 103/12 + 28/3, C 45/4 + 43/12, B 33/4 + 17/4, D 7 + 21/4, E 13/4 (hand sums)
    assert [(g.group, g.rank, g.big_points, g.small_points) for g in result] == [
        ("A", 1, F(215, 12), 45),
        ("C", 2, F(89, 6), 30),
        ("B", 3, F(25, 2), 0),
        ("D", 4, F(49, 4), -35),
        ("E", 5, F(13, 4), -40),
    ]
    assert result[0].members == (1, 2)
    assert (result[0].firsts, result[0].seconds, result[0].rounds_played) == (3, 3, 6)


def test_groups_level_on_every_tie_break_share_the_rank_in_the_order_given():
    rows = kop_standings(MET_ROUNDS)
    # A: 8 + 1 big, 40 - 40 small, 1 win, 1 second, 1 third; B: 8 + 1, 40 - 40, the same.
    teams = {"A": [2, 3], "B": [5, 7], "C": [6, 8], "D": [1, 4]}
    result = group_standings(rows, teams)
    assert [(g.group, g.rank_label, g.big_points) for g in result] == [
        ("D", "1", 10),
        ("A", "=2", 9),
        ("B", "=2", 9),
        ("C", "4", 8),
    ]


@pytest.mark.parametrize(
    ("groups", "kwargs", "problem"),
    [
        ({"A": [1, 2], "B": [2, 3]}, {}, "player 2 is in both 'A' and 'B'"),
        ({"A": [1, 99]}, {}, "'A': player 99 has no result"),
        ({"A": []}, {}, "'A' has no players"),
        ({"A": [1]}, {"tie_breaks": ("head_to_head",)}, "unknown tie-break 'head_to_head'"),
    ],
)
def test_bad_groupings_are_refused(groups, kwargs, problem):
    rows = kop_standings(MET_ROUNDS)
    with pytest.raises(RankingError) as caught:
        group_standings(rows, groups, **kwargs)
    assert problem in caught.value.problems[0]
