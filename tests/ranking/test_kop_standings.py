"""Kop standings (kop.md 8.2 step 3): big points, then the organiser's tie-breaks."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tests.ranking.examples import LEVEL_ROUNDS, MET_ROUNDS, NINE_BYES, NINE_ROUNDS
from tournaments.ranking import (
    KOP_TIE_BREAKS,
    WOLSZTYN,
    RankingError,
    RoundEntry,
    kop_standings,
)

# player: (big points, small points, 1st, 2nd, 3rd, 4th, rounds played, byes), by hand:
# round 1: 1 5, 2 3, 3 1, 4 0 | 5 and 6 tied 1st 4 each, 7 1, 8 0 | 9 sits out 9/4
# round 2: 5 5, then 1, 9, 2 tied 2nd (3+1+0)/3 = 4/3 | 3 5, 7 and 4 tied 2nd 2, 6 0 | 8 9/4
# round 3: 2 5, 6 3, 8 1, 9 0 | 1, 3, 5, 7 all tied 9/4 (all 1st) | 4 sits out 9/4
NINE_EXPECTED = {
    5: (F(45, 4), 55, 3, 0, 0, 0, 3, 0),
    2: (F(28, 3), 15, 1, 2, 0, 0, 3, 0),
    1: (F(103, 12), 30, 2, 1, 0, 0, 3, 0),
    3: (F(33, 4), 30, 2, 0, 1, 0, 3, 0),
    6: (F(7), -20, 1, 1, 0, 1, 3, 0),
    7: (F(21, 4), -15, 1, 1, 1, 0, 3, 0),
    4: (F(17, 4), -30, 0, 1, 0, 1, 2, 1),
    9: (F(43, 12), -25, 0, 1, 0, 1, 2, 1),
    8: (F(13, 4), -40, 0, 0, 1, 1, 2, 1),
}


def test_nine_players_with_sit_outs_worked_by_hand():
    rows = kop_standings(NINE_ROUNDS, byes=NINE_BYES)
    assert [r.player for r in rows] == list(NINE_EXPECTED)
    assert [r.rank for r in rows] == list(range(1, 10))
    for row in rows:
        assert (
            row.big_points,
            row.small_points,
            row.firsts,
            row.seconds,
            row.thirds,
            row.fourths,
            row.rounds_played,
            row.byes,
        ) == NINE_EXPECTED[row.player]
    assert sum(r.big_points for r in rows) == 6 * 9 + 3 * F(9, 4)


def test_a_players_rounds_show_tables_places_and_the_bye():
    rows = {r.player: r for r in kop_standings(NINE_ROUNDS, byes=NINE_BYES)}
    assert rows[9].rounds_detail == (
        RoundEntry(round=1, table=None, small_points=0, big_points=F(9, 4), place=None),
        RoundEntry(round=2, table=1, small_points=-10, big_points=F(4, 3), place=2),
        RoundEntry(round=3, table=1, small_points=-15, big_points=F(0), place=4),
    )


def test_wolsztyn_points_and_bye_score():
    # Player 9: sit-out 10/4, tied 2nd of three (3+2+1)/3 = 2, 4th 1.
    rows = {r.player: r for r in kop_standings(NINE_ROUNDS, WOLSZTYN, byes=NINE_BYES)}
    assert rows[9].big_points == F(11, 2)
    assert sum(r.big_points for r in rows.values()) == 6 * 10 + 3 * F(10, 4)


def test_sit_outs_of_a_round_without_results_score_nothing_yet():
    # Live standings after round 2: round 3 is seated (player 4 sits out) but unplayed.
    for rounds in (NINE_ROUNDS[:2], [*NINE_ROUNDS[:2], []]):
        rows = {r.player: r for r in kop_standings(rounds, byes=NINE_BYES)}
        assert (rows[4].big_points, rows[4].byes) == (2, 0)
        assert (rows[8].big_points, rows[8].byes) == (F(9, 4), 1)


def test_rounds_may_be_given_by_round_number():
    by_number = dict(enumerate(NINE_ROUNDS, 1))
    byes = dict(enumerate(NINE_BYES, 1))
    assert kop_standings(by_number, byes=byes) == kop_standings(NINE_ROUNDS, byes=NINE_BYES)


# (tie-breaks, expected (player, rank label) from the top), worked by hand on LEVEL_ROUNDS:
# big points 6: 8, players 2/3/5: 6, 1: 5, 7: 4, 4: 1, 8: 0; small points 2/3/5: 20 each;
# round wins 3 and 5: 1, 2: 0; second places 2: 2, 3 and 5: 0; third places 3 and 5: 1.
LEVEL_CASES = [
    (
        KOP_TIE_BREAKS,
        [(6, "1"), (3, "=2"), (5, "=2"), (2, "4"), (1, "5"), (7, "6"), (4, "7"), (8, "8")],
    ),
    (("second_places",), [(6, "1"), (2, "2"), (3, "=3"), (5, "=3"), (1, "5")]),
    (("small_points",), [(6, "1"), (2, "=2"), (3, "=2"), (5, "=2"), (1, "5")]),
    ((), [(6, "1"), (2, "=2"), (3, "=2"), (5, "=2"), (1, "5")]),
    (("third_places", "second_places"), [(6, "1"), (3, "=2"), (5, "=2"), (2, "4"), (1, "5")]),
]


@pytest.mark.parametrize(("tie_breaks", "expected"), LEVEL_CASES)
def test_tie_breaks_apply_in_the_organisers_order(tie_breaks, expected):
    rows = kop_standings(LEVEL_ROUNDS, tie_breaks=tie_breaks)
    assert [(r.player, r.rank_label) for r in rows[: len(expected)]] == expected


def test_head_to_head_counts_only_games_among_the_tied_players():
    # Among 2, 5, 6: 2 beat 6 (+1) and lost to 5 (-1): 0; 5 beat 2: +1; 6 lost to 2: -1.
    plain = kop_standings(MET_ROUNDS)
    assert [(r.player, r.rank_label) for r in plain[:3]] == [(2, "=1"), (5, "=1"), (6, "=1")]
    rows = kop_standings(MET_ROUNDS, tie_breaks=(*KOP_TIE_BREAKS, "head_to_head"))
    expected = [(5, "1"), (2, "2"), (6, "3"), (4, "4"), (1, "5"), (3, "=6"), (7, "=6"), (8, "8")]
    assert [(r.player, r.rank_label) for r in rows] == expected


@pytest.mark.parametrize(
    ("rounds", "byes", "kwargs", "problem"),
    [
        ([[{1: 1, 2: -1, 3: 0}]], (), {}, "round 1, table 1: 3 players, a table has 4"),
        ([[{1: 1.5, 2: -1.5, 3: 0, 4: 0}]], (), {}, "round 1, table 1: small points of player 1"),
        ([[{1: 5, 2: 0, 3: 0, 4: 0}]], (), {}, "round 1, table 1: small points sum to 5, not 0"),
        (
            [[{1: 1, 2: -1, 3: 0, 4: 0}, {1: 1, 5: -1, 6: 0, 7: 0}]],
            (),
            {},
            "player 1 appears twice in round 1 (table 1, table 2)",
        ),
        (
            [[{1: 1, 2: -1, 3: 0, 4: 0}]],
            [[4]],
            {},
            "player 4 appears twice in round 1 (table 1, sitting out)",
        ),
        ([], (), {"tie_breaks": ("small_points", "coin_toss")}, "unknown tie-break 'coin_toss'"),
        (
            [],
            (),
            {"tie_breaks": ("round_wins", "round_wins")},
            "tie-break 'round_wins' is listed twice",
        ),
        ([], (), {"big_points": (5, 3, 1)}, "big points must be four whole numbers"),
    ],
)
def test_bad_input_is_refused_with_every_problem(rounds, byes, kwargs, problem):
    with pytest.raises(RankingError) as caught:
        kop_standings(rounds, byes=byes, **kwargs)
    assert any(p.startswith(problem) for p in caught.value.problems), caught.value.problems
    assert isinstance(caught.value, ValueError)


def test_raw_card_points_can_skip_the_zero_sum_check():
    # kop.md A14's alternative (not recommended): card points, which do not sum to zero.
    rows = kop_standings([[{1: 60, 2: 44, 3: 0, 4: 0}]], require_zero_sum=False)
    assert [(r.player, r.rank_label, r.big_points) for r in rows] == [
        (1, "1", 5),
        (2, "2", 3),
        (3, "=3", F(1, 2)),
        (4, "=3", F(1, 2)),
    ]


def test_no_results_give_no_rows():
    assert kop_standings([]) == []
