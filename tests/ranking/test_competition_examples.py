"""The worked examples of competitions.md §11 (E1-E14), table-driven.

Every expected value is copied from the document, not computed by the code under
test. E15-E17 (leagues) are in ``test_league_examples.py``.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from scoring.engines.kop_sheet import score_kop_sheet
from tournaments.ranking.competition import (
    Adjustment,
    ClassDef,
    FixedScore,
    KopEvent,
    KopOptions,
    KopRound,
    Player,
    Table,
    Team,
    VintEvent,
    VintOptions,
    VintRound,
    VintTable,
    score_kop_event,
    score_vint_event,
)

PSB = FixedScore(3, 35)
PSB_OPTIONS = KopOptions(bye_score=PSB, walkout_score=PSB)
DEFAULT = KopOptions()


def table(seats: dict[int, int], *, walkout: int | None = None) -> Table:
    """A table of four from ``{player: small points}`` in seat order."""
    return Table(tuple(seats), tuple(seats.values()), walkout)


def event(
    *rounds: KopRound,
    players: int | None = None,
    options: KopOptions = DEFAULT,
    adjustments: tuple[Adjustment, ...] = (),
    teams: tuple[Team, ...] = (),
    classes: dict[int, tuple[str, ...]] | None = None,
) -> KopEvent:
    ids = sorted(
        {p for r in rounds for t in r.tables for p in t.players}
        | {p for r in rounds for p in r.byes}
    )
    if players is not None:
        ids = list(range(1, players + 1))
    return KopEvent(
        players=tuple(Player(p, f"P{p}", (classes or {}).get(p, ())) for p in ids),
        rounds=rounds,
        options=options,
        adjustments=adjustments,
        teams=teams,
    )


def by_player(result):
    return {row.player: row for row in result.individual}


def order(result) -> list[tuple[int, str]]:
    return [(row.player, row.rank_label) for row in result.individual]


# ----------------------------------------------------------------------------- E1, E2


@pytest.mark.parametrize(
    ("name", "small", "big_table", "big", "places"),
    [
        ("E1", (30, 6, -12, -24), (5, 3, 1, 0), (5, 3, 1, 0), (1, 2, 3, 4)),
        (
            "E2 two tied 1st",
            (20, 20, -20, -20),
            (5, 3, 1, 0),
            (4, 4, F(1, 2), F(1, 2)),
            (1, 1, 3, 3),
        ),
        (
            "E2 three tied 2nd",
            (30, -10, -10, -10),
            (5, 3, 1, 0),
            (5, F(4, 3), F(4, 3), F(4, 3)),
            (1, 2, 2, 2),
        ),
        ("E2 four tied", (0, 0, 0, 0), (5, 3, 1, 0), (F(9, 4),) * 4, (1, 1, 1, 1)),
        (
            "E2 under 4/3/2/1",
            (20, 20, -20, -20),
            (4, 3, 2, 1),
            (F(7, 2), F(7, 2), F(3, 2), F(3, 2)),
            (1, 1, 3, 3),
        ),
    ],
)
def test_e1_e2_one_table_big_points_and_places(name, small, big_table, big, places):
    result = score_kop_event(
        event(
            KopRound((table(dict(zip((1, 2, 3, 4), small, strict=True))),)),
            options=KopOptions(big_points=big_table),
        )
    )
    rows = by_player(result)
    assert tuple(rows[p].big_points for p in (1, 2, 3, 4)) == big
    assert tuple(rows[p].rounds[0].place for p in (1, 2, 3, 4)) == places
    firsts = sum(rows[p].firsts for p in rows)
    assert firsts == places.count(1)
    assert sum(rows[p].big_points for p in rows) == sum(big_table)
    assert sum(rows[p].small_points for p in rows) == 0


# ----------------------------------------------------------------------------- E3


def test_e3_small_points_from_deals_second_and_third_share():
    sheet = {
        "game": "kop",
        "players": ["a", "b", "c", "d"],
        "deals": [
            {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60},
            {"contract": "zolo", "declarers": [3], "doublings": 0, "declarer_points": 70},
            {"contract": "normal", "declarers": [2, 4], "doublings": 0, "declarer_points": 80},
        ],
    }
    small = score_kop_sheet(sheet)["totals"]
    assert small == [-6, -4, 14, -4]
    rows = by_player(score_kop_event(event(KopRound((Table((1, 2, 3, 4), tuple(small)),)))))
    assert [rows[p].big_points for p in (1, 2, 3, 4)] == [0, 2, 5, 2]
    assert [rows[p].rounds[0].place for p in (1, 2, 3, 4)] == [4, 2, 1, 2]


# ----------------------------------------------------------------------------- E4


@pytest.mark.parametrize(
    ("options", "p5", "ranks"),
    [
        (KopOptions(), (F(9, 4), 0), {1: "1", 2: "2", 3: "4", 4: "5", 5: "3"}),
        (PSB_OPTIONS, (3, 35), {1: "1", 2: "3", 3: "4", 4: "5", 5: "2"}),
    ],
    ids=["average", "PSB"],
)
def test_e4_a_bye_both_modes(options, p5, ranks):
    result = score_kop_event(
        event(KopRound((table({1: 10, 2: 2, 3: -4, 4: -8}),), byes=(5,)), options=options)
    )
    rows = by_player(result)
    assert [(rows[p].big_points, rows[p].small_points) for p in (1, 2, 3, 4)] == [
        (5, 10),
        (3, 2),
        (1, -4),
        (0, -8),
    ]
    assert (rows[5].big_points, rows[5].small_points) == p5
    assert {p: r.rank_label for p, r in rows.items()} == ranks
    assert (rows[5].byes, rows[5].rounds_played) == (1, 0)
    assert (rows[5].firsts, rows[5].seconds, rows[5].thirds, rows[5].fourths) == (0, 0, 0, 0)


# ----------------------------------------------------------------------------- E5, E6

WALKOUT_ROUND = KopRound(
    (
        table({1: 12, 2: -4, 3: 8, 4: -16}, walkout=4),
        table({5: 20, 6: 4, 7: -6, 8: -18}),
    )
)


def test_e5_a_walkout_average():
    result = score_kop_event(event(WALKOUT_ROUND))
    rows = by_player(result)
    expected = {  # player: big, small, place, rank
        5: (5, 20, 1, "1"),
        6: (3, 4, 2, "2"),
        1: (F(9, 4), 0, None, "=3"),
        2: (F(9, 4), 0, None, "=3"),
        3: (F(9, 4), 0, None, "=3"),
        7: (1, -6, 3, "6"),
        4: (0, 0, None, "7"),
        8: (0, -18, 4, "8"),
    }
    assert [row.player for row in result.individual] == list(expected)
    for p, (big, small, place, label) in expected.items():
        row = rows[p]
        assert (row.big_points, row.small_points, row.rounds[0].place, row.rank_label) == (
            big,
            small,
            place,
            label,
        )
    assert all(rows[p].rounds_played == 1 for p in (1, 2, 3, 4))
    assert [rows[p].walkouts for p in (1, 2, 3, 4)] == [0, 0, 0, 1]
    assert [rows[p].rounds[0].situation for p in (1, 2, 3, 4)] == [
        "stayer",
        "stayer",
        "stayer",
        "leaver",
    ]


def test_e6_the_same_walkout_psb_scores():
    result = score_kop_event(event(WALKOUT_ROUND, options=PSB_OPTIONS))
    assert order(result) == [
        (5, "1"),
        (1, "=2"),
        (2, "=2"),
        (3, "=2"),
        (6, "5"),
        (7, "6"),
        (4, "7"),
        (8, "8"),
    ]
    rows = by_player(result)
    assert [(rows[p].big_points, rows[p].small_points) for p in (1, 2, 3, 4)] == [
        (3, 35),
        (3, 35),
        (3, 35),
        (0, 0),
    ]
    assert sum(rows[p].big_points for p in (1, 2, 3, 4)) == 9
    assert sum(rows[p].small_points for p in (1, 2, 3, 4)) == 105


# ----------------------------------------------------------------------------- E7


def test_e7_a_short_table_and_an_absent_player_psb():
    result = score_kop_event(
        event(
            KopRound((table({1: 10, 2: 6, 3: -4, 4: -12}), table({5: 9, 6: 3, 7: -3, 8: -9}))),
            KopRound((table({1: 8, 5: -2, 2: 4, 6: -10}), Table((3, 7, 4)))),
            options=PSB_OPTIONS,
        )
    )
    rows = by_player(result)
    expected = {  # player: round 1, round 2 (None: absent), total, rank
        1: ((5, 10), (5, 8), (10, 18), "1"),
        2: ((3, 6), (3, 4), (6, 10), "2"),
        5: ((5, 9), (1, -2), (6, 7), "3"),
        7: ((1, -3), (3, 35), (4, 32), "4"),
        3: ((1, -4), (3, 35), (4, 31), "5"),
        4: ((0, -12), (3, 35), (3, 23), "6"),
        6: ((3, 3), (0, -10), (3, -7), "7"),
        8: ((0, -9), None, (0, -9), "8"),
    }
    assert [row.player for row in result.individual] == list(expected)
    for p, (one, two, total, label) in expected.items():
        row = rows[p]
        assert (row.rounds[0].big_points, row.rounds[0].small_points) == one
        if two is None:
            assert row.rounds[1].situation == "absent"
            assert (row.rounds[1].big_points, row.rounds[1].small_points) == (0, 0)
        else:
            assert (row.rounds[1].big_points, row.rounds[1].small_points) == two
        assert (row.big_points, row.small_points, row.rank_label) == (*total, label)
    assert [rows[p].rounds_played for p in (3, 4, 7, 8)] == [2, 2, 2, 1]
    assert [rows[p].rounds[1].place for p in (3, 4, 7)] == [None, None, None]


# ----------------------------------------------------------------------------- E8


def test_e8_adjustments_never_change_places():
    adjustments = (
        Adjustment(1, "left the hall without the referee's leave", big=F(-3), round=1),
        Adjustment(3, "award: wrong ruling by the referee in deal 7", big=F(1, 2)),
    )
    result = score_kop_event(
        event(KopRound((table({1: 30, 2: 6, 3: -12, 4: -24}),)), adjustments=adjustments)
    )
    expected = {  # big, adjustment, small, firsts/seconds/thirds/fourths, rank
        2: (3, 0, 6, (0, 1, 0, 0), "1"),
        1: (2, -3, 30, (1, 0, 0, 0), "2"),
        3: (F(3, 2), F(1, 2), -12, (0, 0, 1, 0), "3"),
        4: (0, 0, -24, (0, 0, 0, 1), "4"),
    }
    assert [row.player for row in result.individual] == list(expected)
    for row in result.individual:
        assert (
            row.big_points,
            row.adjustment_big,
            row.small_points,
            (row.firsts, row.seconds, row.thirds, row.fourths),
            row.rank_label,
        ) == expected[row.player]
    assert result.adjustments == adjustments


# ----------------------------------------------------------------------------- E9-E12

E9_ROUNDS = (
    KopRound((table({1: 20, 2: 10, 3: -10, 4: -20}), table({5: 20, 6: 10, 7: -10, 8: -20}))),
    KopRound((table({1: -5, 6: 5, 3: 10, 8: -10}), table({5: -5, 2: 5, 7: 10, 4: -10}))),
)


def test_e9_the_tie_break_chain_shares_ranks():
    result = score_kop_event(event(*E9_ROUNDS))
    expected = {  # big, small, places, rank
        1: (6, 15, (1, 3), "=1"),
        5: (6, 15, (1, 3), "=1"),
        2: (6, 15, (2, 2), "=3"),
        6: (6, 15, (2, 2), "=3"),
        3: (6, 0, (3, 1), "=5"),
        7: (6, 0, (3, 1), "=5"),
        4: (0, -30, (4, 4), "=7"),
        8: (0, -30, (4, 4), "=7"),
    }
    assert [row.player for row in result.individual] == list(expected)
    for row in result.individual:
        places = tuple(s.place for s in row.rounds)
        assert (row.big_points, row.small_points, places, row.rank_label) == expected[row.player]


E10_ROUNDS = (
    KopRound((table({1: 30, 2: 10, 3: -10, 4: -30}), table({5: 30, 6: 10, 7: -10, 8: -30}))),
    KopRound((table({2: 10, 5: 20, 7: -10, 4: -20}), table({1: -20, 3: 30, 6: 0, 8: -10}))),
)
E10_TOTALS = {
    5: (10, 50),
    2: (6, 20),
    3: (6, 20),
    6: (6, 10),
    1: (5, 10),
    7: (2, -20),
    8: (1, -40),
    4: (0, -50),
}


@pytest.mark.parametrize(
    ("tie_breaks", "expected"),
    [
        (
            ("small_points", "round_wins", "second_places", "third_places"),
            [5, 3, 2, 6, 1, 7, 8, 4],
        ),
        (("head_to_head", "small_points"), [5, 2, 3, 6, 1, 7, 8, 4]),
    ],
    ids=["koscian", "head-to-head"],
)
def test_e10_head_to_head_against_round_wins(tie_breaks, expected):
    result = score_kop_event(event(*E10_ROUNDS, options=KopOptions(tie_breaks=tie_breaks)))
    assert order(result) == [(p, str(i)) for i, p in enumerate(expected, 1)]
    assert {r.player: (r.big_points, r.small_points) for r in result.individual} == E10_TOTALS


def test_e11_a_class_table():
    result = score_kop_event(
        event(
            *E9_ROUNDS,
            options=KopOptions(classes=(ClassDef("W", "Women"),)),
            classes={2: ("W",), 5: ("W",), 6: ("W",)},
        )
    )
    (women,) = result.classes
    assert (women.code, women.label) == ("W", "Women")
    assert [(r.player, r.overall_rank_label, r.rank_label) for r in women.rows] == [
        (5, "=1", "1"),
        (2, "=3", "=2"),
        (6, "=3", "=2"),
    ]


def test_e12a_teams_the_cut_takes_the_lower_id():
    teams = (Team("X", "X", (1, 3, 5, 7)), Team("Y", "Y", (2, 4, 6, 8)))
    result = score_kop_event(event(*E9_ROUNDS, options=KopOptions(team_counting=3), teams=teams))
    x, y = result.teams
    assert (x.team, x.rank_label, x.counted) == ("X", "1", (1, 5, 3))
    assert (x.big_points, x.small_points, x.firsts, x.thirds) == (18, 30, 3, 3)
    assert (y.team, y.rank_label, y.counted) == ("Y", "2", (2, 6, 4))
    assert (y.big_points, y.small_points, y.seconds, y.fourths) == (12, 0, 4, 2)


def test_e12b_teams_tied_share_the_rank_in_input_order():
    teams = (Team("X", "X", (1, 2, 3, 4)), Team("Y", "Y", (5, 6, 7, 8)))
    result = score_kop_event(event(*E9_ROUNDS, teams=teams))
    assert [(t.team, t.rank_label) for t in result.teams] == [("X", "=1"), ("Y", "=1")]
    for t in result.teams:
        assert (t.big_points, t.small_points, t.firsts, t.seconds, t.thirds, t.fourths) == (
            18,
            0,
            2,
            2,
            2,
            2,
        )


# ----------------------------------------------------------------------------- E13

NAMES = {
    1: "Ala",
    2: "Bartek",
    3: "Celina",
    4: "Darek",
    5: "Ewa",
    6: "Filip",
    7: "Grażyna",
    8: "Henryk",
    9: "Irena",
}
E13_ROUNDS = (
    KopRound(
        (Table((1, 2, 3, 4), (-6, -4, 14, -4)), table({5: 25, 6: 5, 7: -15, 8: -15})),
        byes=(9,),
    ),
    KopRound(
        (
            table({1: 12, 5: -8, 9: 20, 6: -24}),
            table({2: 6, 7: -10, 3: 8, 8: -4}, walkout=8),
        ),
        byes=(4,),
    ),
)


def e13(counting: int | str = 4) -> KopEvent:
    women = {1, 3, 5, 7, 9}
    return KopEvent(
        players=tuple(Player(p, n, ("W",) if p in women else ()) for p, n in NAMES.items()),
        rounds=E13_ROUNDS,
        options=KopOptions(
            bye_score=PSB,
            walkout_score=PSB,
            classes=(ClassDef("W", "Women"),),
            team_counting=counting,  # type: ignore[arg-type]
        ),
        adjustments=(Adjustment(5, "late for round 2", big=F(-1), round=2),),
        teams=(Team("KAR", "Kartuzy", (1, 2, 3, 4, 5)), Team("PUC", "Puck", (6, 7, 8, 9))),
    )


def test_e13_a_whole_event():
    result = score_kop_event(e13())
    expected = [  # rank, player, big, small, 1st/2nd/3rd/4th, played, byes, walkouts, adj. big
        ("1", 9, 8, 55, (1, 0, 0, 0), 1, 1, 0, 0),
        ("2", 3, 8, 49, (1, 0, 0, 0), 2, 0, 0, 0),
        ("=3", 2, 5, 31, (0, 1, 0, 0), 2, 0, 0, 0),
        ("=3", 4, 5, 31, (0, 1, 0, 0), 1, 1, 0, 0),
        ("5", 5, 5, 17, (1, 0, 1, 0), 2, 0, 0, -1),
        ("6", 7, F(7, 2), 20, (0, 0, 1, 0), 2, 0, 0, 0),
        ("7", 1, 3, 6, (0, 1, 0, 1), 2, 0, 0, 0),
        ("8", 6, 3, -19, (0, 1, 0, 1), 2, 0, 0, 0),
        ("9", 8, F(1, 2), -15, (0, 0, 1, 0), 2, 0, 1, 0),
    ]
    assert [
        (
            r.rank_label,
            r.player,
            r.big_points,
            r.small_points,
            (r.firsts, r.seconds, r.thirds, r.fourths),
            r.rounds_played,
            r.byes,
            r.walkouts,
            r.adjustment_big,
        )
        for r in result.individual
    ] == expected
    (women,) = result.classes
    assert [(r.player, r.rank_label) for r in women.rows] == [
        (9, "1"),
        (3, "2"),
        (5, "3"),
        (7, "4"),
        (1, "5"),
    ]
    kar, puc = result.teams
    assert (kar.team, kar.rank_label, kar.counted) == ("KAR", "1", (3, 2, 4, 5))
    assert (kar.big_points, kar.small_points) == (23, 128)
    assert (kar.firsts, kar.seconds, kar.thirds, kar.fourths) == (2, 2, 1, 0)
    assert (puc.team, puc.rank_label, puc.counted) == ("PUC", "2", (9, 7, 6, 8))
    assert (puc.big_points, puc.small_points) == (15, 41)
    assert (puc.firsts, puc.seconds, puc.thirds, puc.fourths) == (1, 1, 2, 1)


def test_e13_without_her_penalty_ewa_is_third_alone_and_all_count_gives_kar_26():
    plain = e13("all")
    result = score_kop_event(plain)
    assert result.teams[0].team == "KAR" and result.teams[0].big_points == 26
    unpenalised = KopEvent(plain.players, plain.rounds, plain.options, (), plain.teams)
    rows = by_player(score_kop_event(unpenalised))
    assert (rows[5].big_points, rows[5].rank_label) == (6, "3")


# ----------------------------------------------------------------------------- E14


def test_e14_vint_nets_an_adjustment_a_class():
    vint = VintEvent(
        players=tuple(Player(p, f"P{p}", ("S",) if p in (2, 4, 7) else ()) for p in range(1, 9)),
        rounds=(
            VintRound(
                (
                    VintTable((1, 2, 3, 4), (3400, 1200, 2600, 1800), (2, 1, 2, 1)),
                    VintTable((5, 6, 7, 8), (2000, 2002, 1500, 1500), (1, 1, 1, 1)),
                )
            ),
            VintRound(
                (
                    VintTable((1, 5, 2, 6), (1500, 2500, 2500, 1500), (1, 2, 2, 1)),
                    VintTable((3, 7, 4, 8), (2200, 1800, 2400, 1600), (2, 1, 1, 0)),
                )
            ),
        ),
        options=VintOptions(classes=(ClassDef("S", "Seniors"),)),
        adjustments=(Adjustment(1, "late for round 2", net=F(-100), round=2),),
    )
    result = score_vint_event(vint)
    expected = [  # rank, player, net, rubbers won, total points
        ("1", 5, F(1499, 2), 3, 4500),
        ("2", 3, 550, 4, 4800),
        ("3", 1, 550, 3, 4900),
        ("4", 4, -50, 2, 4200),
        ("5", 6, F(-497, 2), 2, 3502),
        ("6", 7, F(-901, 2), 2, 3300),
        ("7", 2, -550, 3, 3700),
        ("8", 8, F(-1301, 2), 1, 3100),
    ]
    assert [
        (r.rank_label, r.player, r.net, r.rubbers_won, r.total_points) for r in result.individual
    ] == expected
    (seniors,) = result.classes
    assert [(r.player, r.rank_label) for r in seniors.rows] == [(4, "1"), (7, "2"), (2, "3")]
    assert by_player(result)[1].adjustment_net == -100
