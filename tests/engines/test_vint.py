"""Vint scoring, checked against ``rules/vint.md``.

Every expected number below is typed from the document (§6 worked examples,
the three rubbers, the session standings, §6.5 for the alternative options),
or, for options the document gives no example of, worked out by hand from the
rule text quoted next to the case. Nothing is computed by the code under test.
"""

from __future__ import annotations

import pytest

from scoring.engines.errors import RuleError
from scoring.engines.vint import (
    NEW_RUBBER,
    OPTIONS,
    AceDump,
    AcesInHand,
    Contract,
    DealEntries,
    Holding,
    Seating,
    TrickSplit,
    VintDeal,
    VintRules,
    all_pass_deal,
    check_deal,
    contract_deal,
    deal_problems,
    dealer_of,
    parse_contract,
    parse_rules,
    rubber_apply,
    rubber_close,
    rubber_player_totals,
    rules_to_options,
    score_deal,
    score_rubber,
    session_partnerships,
    session_result,
)

D = contract_deal
PASS = all_pass_deal


def items(entries: DealEntries) -> list[tuple[str, str, str, int]]:
    return sorted((e.side, e.where, e.kind, e.points) for e in entries.entries)


# ============================================================ §6.1 single deals

# (name, deal, expected items (side, where, kind, points), NS total, EW total).
# The document's zero rows ("EW below 0", "overtrick at level 4: nothing")
# are not written by the engine, so they are not listed.
SINGLE_DEALS = [
    (
        "E1 4H by N, made exactly",
        D("4H", "N", 10, honours=("NS", 5)),
        [
            ("NS", "above", "made", 1000),
            ("NS", "above", "honours", 200),
            ("NS", "below", "trick_points", 40),
            ("EW", "below", "trick_points", 12),
        ],
        1240,
        12,
    ),
    (
        "E2 5C by S, one over",
        D("5C", "S", 12, honours=("NS", 6)),
        [
            ("NS", "above", "made", 2000),
            ("NS", "above", "overtricks", 200),
            ("NS", "above", "honours", 300),
            ("NS", "below", "trick_points", 60),
            ("EW", "below", "trick_points", 5),
        ],
        2560,
        5,
    ),
    (
        "E3 6S by E, down two",
        D("6S", "E", 10, honours=("EW", 6)),
        [
            ("NS", "above", "undertricks", 1200),
            ("NS", "above", "special", 400),
            ("NS", "below", "trick_points", 18),
            ("EW", "above", "honours", 360),
            ("EW", "below", "trick_points", 60),
        ],
        1618,
        420,
    ),
    (
        "E4 7 grand by S, 13 tricks",
        D("7G", "S", 13, grand_aces=("NS", 4), aces_in_hand=[("S", 3)], sequences=[("S", "S", 4)]),
        [
            ("NS", "above", "made", 4500),
            ("NS", "above", "grand_aces", 280),
            ("NS", "above", "aces_in_hand", 200),
            ("NS", "above", "sequence", 400),
            ("NS", "below", "trick_points", 91),
        ],
        5471,
        0,
    ),
    (
        "E5 4 grand by W, doubled, 11 tricks",
        D("4G", "W", 11, doubling=1, grand_aces=("EW", 3)),
        [
            ("EW", "above", "made", 2000),
            ("EW", "above", "grand_aces", 120),
            ("EW", "below", "trick_points", 88),
            ("NS", "below", "trick_points", 16),
        ],
        16,
        2208,
    ),
    (
        "E6 5D by N, redoubled, down one",
        D("5D", "N", 10, doubling=2, honours=("NS", 5)),
        [
            ("EW", "above", "undertricks", 2000),
            ("EW", "below", "trick_points", 60),
            ("NS", "above", "honours", 250),
            ("NS", "below", "trick_points", 200),
        ],
        450,
        2060,
    ),
    (
        "E7 4 misère by E, EW take 2",
        D("4M", "E", 2, ace_dumps=[("E", 5), ("N", 9)]),
        [
            ("EW", "above", "made", 1000),
            ("EW", "above", "ace_dump", 500),
            ("EW", "below", "trick_points", 44),
            ("NS", "above", "ace_dump", 900),
            ("NS", "below", "trick_points", 8),
        ],
        908,
        1544,
    ),
    (
        "E8 6 misère by S, NS take 3",
        D("6M", "S", 3),
        [
            ("EW", "above", "undertricks", 1200),
            ("EW", "above", "special", 400),
            ("EW", "below", "trick_points", 18),
            ("NS", "below", "trick_points", 60),
        ],
        60,
        1618,
    ),
    (
        "E9 7 misère by W, doubled, EW take 0",
        D("7M", "W", 0, doubling=1, ace_dumps=[("W", 12), ("E", 3)]),
        [
            ("EW", "above", "made", 9000),
            ("EW", "above", "ace_dump", 2400),
            ("EW", "above", "ace_dump", 600),
            ("EW", "below", "trick_points", 182),
        ],
        0,
        12182,
    ),
    (
        "E10 all-pass, NS 4 EW 9",
        PASS(4, 9, ace_dumps=[("S", 7), ("E", 11)]),
        [
            ("NS", "above", "all_pass_penalty", 500),
            ("NS", "above", "ace_dump", 700),
            ("EW", "above", "ace_dump", 1100),
        ],
        1200,
        1100,
    ),
    (
        "E11 5H by N, doubled, defenders hold the honours",
        D("5H", "N", 11, doubling=1, honours=("EW", 5), sequences=[("N", "D", 3)]),
        [
            ("NS", "above", "made", 4000),
            ("NS", "above", "sequence", 100),
            ("NS", "below", "trick_points", 110),
            ("EW", "above", "honours", 250),
            ("EW", "below", "trick_points", 20),
        ],
        4210,
        270,
    ),
    (
        "E12 6 grand by E, one over",
        D("6G", "E", 13, grand_aces=("EW", 3), sequences=[("E", "H", 5)]),
        [
            ("EW", "above", "made", 3000),
            ("EW", "above", "overtricks", 200),
            ("EW", "above", "grand_aces", 180),
            ("EW", "above", "sequence", 600),
            ("EW", "below", "trick_points", 78),
        ],
        0,
        4058,
    ),
    (
        "E13 4S by S, doubled, down three",
        D("4S", "S", 7, doubling=1, honours=("NS", 7), sequences=[("S", "S", 5)]),
        [
            ("EW", "above", "undertricks", 2400),
            ("EW", "below", "trick_points", 48),
            ("NS", "above", "honours", 280),
            ("NS", "above", "sequence", 600),
            ("NS", "below", "trick_points", 56),
        ],
        936,
        2448,
    ),
    (
        "E14 7H by W, redoubled, down one",
        D("7H", "W", 12, doubling=2, honours=("EW", 8)),
        [
            ("NS", "above", "undertricks", 2800),
            ("NS", "above", "special", 4000),
            ("NS", "below", "trick_points", 28),
            ("EW", "above", "honours", 560),
            ("EW", "below", "trick_points", 336),
        ],
        6828,
        896,
    ),
    (
        "E15 5S by N, two over, no slam bonus",
        D("5S", "N", 13, honours=("NS", 9), aces_in_hand=[("N", 4)], sequences=[("N", "S", 3)]),
        [
            ("NS", "above", "made", 2000),
            ("NS", "above", "overtricks", 400),
            ("NS", "above", "honours", 450),
            ("NS", "above", "aces_in_hand", 400),
            ("NS", "above", "sequence", 200),
            ("NS", "below", "trick_points", 65),
        ],
        3515,
        0,
    ),
    (
        "E16 4C by W, defenders hold the honours",
        D("4C", "W", 10, honours=("NS", 6)),
        [
            ("EW", "above", "made", 1000),
            ("EW", "below", "trick_points", 40),
            ("NS", "above", "honours", 240),
            ("NS", "below", "trick_points", 12),
        ],
        252,
        1040,
    ),
]


@pytest.mark.parametrize(
    ("deal", "expected", "ns", "ew"),
    [case[1:] for case in SINGLE_DEALS],
    ids=[case[0] for case in SINGLE_DEALS],
)
def test_worked_single_deals(deal, expected, ns, ew):
    entries = score_deal(deal)
    assert items(entries) == sorted(expected)
    assert (entries.total("NS"), entries.total("EW")) == (ns, ew)


def test_entries_carry_what_a_sheet_shows():
    entries = score_deal(SINGLE_DEALS[3][1])  # E4
    run = next(e for e in entries.entries if e.kind == "sequence")
    assert (run.seat, run.suit, run.count) == ("S", "S", 4)
    honours = next(e for e in score_deal(SINGLE_DEALS[1][1]).entries if e.kind == "honours")
    assert honours.count == 6
    dumps = [e for e in score_deal(SINGLE_DEALS[6][1]).entries if e.kind == "ace_dump"]
    assert sorted((e.seat, e.count) for e in dumps) == [("E", 5), ("N", 9)]
    assert score_deal(SINGLE_DEALS[0][1]).items("NS", "below")[0].count == 10


# ======================================================== §6.5 single deals


@pytest.mark.parametrize(
    ("deal", "options", "ns", "ew"),
    [
        # E7 misère trick points: mirror 908/1544, as_taken 944/1508, none 900/1500.
        (SINGLE_DEALS[6][1], {"misere_trick_credit": "as_taken"}, 944, 1508),
        (SINGLE_DEALS[6][1], {"misere_trick_credit": "none"}, 900, 1500),
        # E3 failed 6S: declarer_only takes NS's 18 below away (NS 1600).
        (SINGLE_DEALS[2][1], {"trick_sides": "declarer_only"}, 1600, 420),
        # E5 doubled grand: the grand aces doubled too (EW 2328).
        (SINGLE_DEALS[4][1], {"double_scope": "all"}, 16, 2328),
        # E4: aces in one hand doubled at grand (NS 5671).
        (SINGLE_DEALS[3][1], {"grand_doubles_ace_premium": True}, 5671, 0),
    ],
    ids=["E7 as_taken", "E7 none", "E3 declarer_only", "E5 double_scope=all", "E4 ace premium"],
)
def test_alternative_options_on_single_deals(deal, options, ns, ew):
    entries = score_deal(deal, parse_rules(options))
    assert (entries.total("NS"), entries.total("EW")) == (ns, ew)


def test_e7_as_taken_swaps_the_below_figures():
    entries = score_deal(SINGLE_DEALS[6][1], parse_rules({"misere_trick_credit": "as_taken"}))
    assert (entries.below("EW"), entries.below("NS")) == (8, 44)


# ================================================= options without an example
# Worked out by hand from the rule text quoted in each case.


def test_declarer_if_made_pays_nobody_below_on_a_failed_contract():
    # A4: declarer_if_made -- only the declaring side, and only when it made.
    rules = parse_rules({"trick_sides": "declarer_if_made"})
    failed = score_deal(SINGLE_DEALS[2][1], rules)  # E3, down two
    assert (failed.below("NS"), failed.below("EW")) == (0, 0)
    made = score_deal(SINGLE_DEALS[0][1], rules)  # E1
    assert (made.below("NS"), made.below("EW")) == (40, 0)


def test_contract_only_and_undoubled_dumps_leave_ace_dumps_single():
    # A12 / A13: E9's dumps 1200 + 300 stay single, the rest is doubled.
    for options in ({"double_scope": "contract_only"}, {"ace_dump_doubled": False}):
        entries = score_deal(SINGLE_DEALS[8][1], parse_rules(options))
        assert entries.total("EW") == 9000 + 1200 + 300 + 182


def test_ace_dump_sides_declarer_only_drops_the_defenders_dump():
    # A12: in E7 only EW (declarers) score their dump; NS keep their 8 below.
    entries = score_deal(SINGLE_DEALS[6][1], parse_rules({"ace_dump_sides": "declarer_only"}))
    assert (entries.total("NS"), entries.total("EW")) == (8, 1544)


def test_ace_dump_sides_does_not_touch_all_pass_deals():
    # An all-pass deal has no declarer, so both sides keep scoring dumps.
    entries = score_deal(SINGLE_DEALS[9][1], parse_rules({"ace_dump_sides": "declarer_only"}))
    assert (entries.total("NS"), entries.total("EW")) == (1200, 1100)


def test_scale_ten_multiplies_trick_points_only():
    # A2: 10L per trick; honours stay units x L x 10; other values unchanged.
    entries = score_deal(SINGLE_DEALS[0][1], parse_rules({"scale": 10}))
    assert items(entries) == sorted(
        [
            ("NS", "above", "made", 1000),
            ("NS", "above", "honours", 200),
            ("NS", "below", "trick_points", 400),
            ("EW", "below", "trick_points", 120),
        ]
    )


def test_odd_tricks_only_counts_tricks_beyond_six():
    # A3: E1 -- NS 10 tricks -> 4 odd tricks x 4; EW 3 tricks -> none.
    rules = parse_rules({"odd_tricks_only": True})
    entries = score_deal(SINGLE_DEALS[0][1], rules)
    assert (entries.below("NS"), entries.below("EW")) == (16, 0)
    # E7 (mirror): EW lost 11 -> 5 x 4; NS lost 2 -> none.
    misere = score_deal(SINGLE_DEALS[6][1], rules)
    assert (misere.below("EW"), misere.below("NS")) == (20, 0)


def test_overtrick_4_pays_level_four_overtricks():
    # A21: E5 is one over at level 4, doubled: 200 x 1 x 2.
    entries = score_deal(SINGLE_DEALS[4][1], parse_rules({"overtrick_4": 200}))
    assert ("EW", "above", "overtricks", 400) in items(entries)
    assert entries.total("EW") == 2608


def test_team_aces_all_contracts_scores_three_aces_at_a_suit():
    # A8: 3 aces x L x 10 at 4H, on top of the honours.
    deal = D("4H", "N", 10, honours=("NS", 6), grand_aces=("NS", 3))
    with pytest.raises(RuleError) as error:
        score_deal(deal)
    assert error.value.field == "grand_aces"
    entries = score_deal(deal, parse_rules({"team_aces_all_contracts": True}))
    assert ("NS", "above", "grand_aces", 120) in items(entries)


def test_holdings_in_misere_scores_aces_and_runs_undoubled_by_suit():
    # A11: aces-in-hand and sequences still score; no trumps, not a grand.
    deal = D("4M", "S", 3, aces_in_hand=[("N", 3)], sequences=[("N", "H", 3)])
    with pytest.raises(RuleError):
        score_deal(deal)
    entries = score_deal(deal, parse_rules({"holdings_in_misere": True}))
    assert ("NS", "above", "aces_in_hand", 200) in items(entries)
    assert ("NS", "above", "sequence", 100) in items(entries)
    passed = VintDeal(None, tricks=TrickSplit(4, 9), aces_in_hand=(AcesInHand("N", 3),))
    assert score_deal(passed, parse_rules({"holdings_in_misere": True})).total("NS") == 700


# ============================================================ §6.2-§6.4 rubbers


# §6.2 Rubber 1: Anna (N) + Carl (S) v Boris (E) + Dina (W).
RUBBER_1 = [
    D("4H", "N", 10, honours=("NS", 5)),
    D("5D", "W", 11, honours=("EW", 6)),
    D("6C", "S", 12, honours=("NS", 8), sequences=[("S", "H", 3)]),
    D("4S", "E", 9, honours=("EW", 6)),
    D("4G", "N", 11, grand_aces=("NS", 3)),
    D("4M", "E", 3, ace_dumps=[("W", 6)]),
    PASS(5, 8, ace_dumps=[("S", 10)]),
    D("6H", "N", 12, honours=("NS", 8), sequences=[("N", "H", 4)]),
    D("5G", "W", 11, grand_aces=("EW", 3)),
]
# What the table shows after each deal. The columns are Anna (NS) and Boris (EW).
# fmt: off
RUBBER_1_SHEET = [
    # phase    NS above below  EW above below  games   part      NS col  EW col
    ("main",   1200,    40,    0,       12,    (0, 0), (40, 12), 1240,   12),
    ("main",   0,       10,    2300,    55,    (0, 1), (0, 0),   1250,   2367),
    ("main",   3580,    72,    0,       6,     (1, 1), (0, 0),   4902,   2373),
    ("main",   400,     16,    240,     36,    (1, 1), (16, 36), 5318,   2649),
    ("main",   1520,    44,    0,       8,     (2, 1), (0, 0),   6882,   2657),
    ("extra",  0,       12,    1600,    40,    (2, 1), (12, 40), 6894,   4297),
    ("extra",  1300,    0,     0,       0,     (2, 1), (12, 40), 8194,   4297),
    ("extra",  4480,    72,    0,       6,     (3, 1), (0, 0),   12746,  4303),
    ("extra",  0,       10,    2150,    55,    (3, 1), (10, 55), 12756,  6508),
]
# fmt: on

# §6.3 Rubber 2: Anna (N) + Boris (S) v Carl (E) + Dina (W).
RUBBER_2 = [
    D("5S", "E", 11, honours=("EW", 6)),
    D("4D", "S", 9, doubling=1, honours=("NS", 5)),
    D("6H", "N", 12, honours=("NS", 6)),
    D("4M", "W", 2, ace_dumps=[("E", 7)]),
    D("5G", "S", 11, grand_aces=("NS", 3)),
    D("7C", "E", 13, honours=("EW", 8), sequences=[("E", "C", 5)]),
    D("6S", "N", 12, honours=("NS", 8)),
    PASS(6, 7, ace_dumps=[("W", 12)]),
    D("5H", "W", 11, doubling=1, honours=("EW", 6)),
]
# Columns Anna (NS) and Carl (EW).
# fmt: off
RUBBER_2_SHEET = [
    # phase    NS above below  EW above below  games   part      NS col  EW col
    ("main",   0,       10,    2300,    55,    (0, 0), (10, 55), 10,     2355),
    ("main",   200,     72,    800,     32,    (0, 1), (0, 0),   282,    3187),
    ("main",   3360,    72,    0,       6,     (1, 1), (0, 0),   3714,   3193),
    ("main",   0,       8,     1700,    44,    (1, 1), (8, 44),  3722,   4937),
    ("main",   2550,    55,    0,       10,    (2, 1), (0, 0),   6327,   4947),
    ("extra",  0,       0,     5660,    91,    (2, 2), (0, 0),   6327,   10698),
    ("extra",  4080,    72,    0,       6,     (3, 2), (0, 0),   10479,  10704),
    ("extra",  100,     0,     1200,    0,     (3, 2), (0, 0),   10579,  11904),
    ("extra",  0,       20,    4900,    110,   (3, 3), (0, 0),   10599,  16914),
]
# fmt: on

# §6.4 Rubber 3: Anna (N) + Dina (S) v Boris (E) + Carl (W).
RUBBER_3 = [
    D("4H", "W", 10, doubling=2, honours=("EW", 5)),
    D("5M", "N", 4, ace_dumps=[("E", 8)]),
    D("6D", "E", 11, honours=("EW", 7)),
    D("7G", "S", 11, doubling=1, grand_aces=("NS", 3), aces_in_hand=[("S", 3)]),
    D("4S", "N", 10, honours=("NS", 5)),
    D("6G", "W", 12, grand_aces=("EW", 3), sequences=[("W", "S", 3)]),
    D("4C", "E", 10, honours=("EW", 5)),
]
# Columns Anna (NS) and Boris (EW).
# fmt: off
RUBBER_3_SHEET = [
    # phase    NS above below  EW above below  games   part      NS col  EW col
    ("main",   0,       48,    4200,    160,   (0, 1), (0, 0),   48,     4360),
    ("main",   0,       45,    1800,    20,    (0, 1), (45, 20), 93,     6180),
    ("main",   1000,    12,    820,     66,    (0, 2), (0, 0),   1105,   7066),
    ("extra",  410,     154,   4800,    28,    (1, 2), (0, 0),   1669,   11894),
    ("extra",  1200,    40,    0,       12,    (1, 2), (40, 12), 2909,   11906),
    ("extra",  0,       6,     3980,    72,    (1, 3), (0, 0),   2915,   15958),
    ("extra",  0,       12,    1200,    40,    (1, 3), (12, 40), 2927,   17198),
]
# fmt: on

RUBBERS = {"rubber 1": RUBBER_1, "rubber 2": RUBBER_2, "rubber 3": RUBBER_3}
SHEETS = {"rubber 1": RUBBER_1_SHEET, "rubber 2": RUBBER_2_SHEET, "rubber 3": RUBBER_3_SHEET}

# The bonuses the tables print in bold: (deal number, side, kind, points).
BONUSES = {
    "rubber 1": [(5, "NS", "rubber", 400), (8, "NS", "extra_game", 600)],
    "rubber 2": [
        (5, "NS", "rubber", 400),
        (7, "NS", "extra_game", 600),
        (9, "EW", "extra_game", 600),
    ],
    "rubber 3": [(3, "EW", "rubber", 400), (6, "EW", "extra_game", 600)],
}

# "Rubber totals" lines of §6.2-§6.4: (NS above, NS below, EW above, EW below).
RUBBER_TOTALS = {
    "rubber 1": (12480, 276, 6290, 218),
    "rubber 2": (10290, 309, 16560, 354),
    "rubber 3": (2610, 317, 16800, 398),
}
WINNERS = {"rubber 1": "NS", "rubber 2": "NS", "rubber 3": "EW"}


@pytest.mark.parametrize("name", RUBBERS)
def test_rubber_deal_by_deal(name):
    state = NEW_RUBBER
    ns_column = ew_column = 0
    for number, (deal, row) in enumerate(zip(RUBBERS[name], SHEETS[name], strict=True), 1):
        state, outcome = rubber_apply(state, deal, VintRules())
        ns_column += outcome.total("NS")
        ew_column += outcome.total("EW")
        seen = (
            outcome.phase,
            outcome.above_ns,
            outcome.below_ns,
            outcome.above_ew,
            outcome.below_ew,
            (outcome.games_ns, outcome.games_ew),
            (state.part_ns, state.part_ew),
            ns_column,
            ew_column,
        )
        assert seen == row, f"{name}, deal {number}"
    assert state.finished


@pytest.mark.parametrize("name", RUBBERS)
def test_rubber_bonuses_land_on_the_right_deal(name):
    result = score_rubber(RUBBERS[name])
    found = [
        (number, b.side, b.kind, b.points)
        for number, outcome in enumerate(result.outcomes, 1)
        for b in outcome.bonuses
    ]
    assert found == BONUSES[name]


@pytest.mark.parametrize("name", RUBBERS)
def test_rubber_totals(name):
    result = score_rubber(RUBBERS[name])
    ns_above, ns_below, ew_above, ew_below = RUBBER_TOTALS[name]
    assert (result.above_ns, result.below_ns, result.above_ew, result.below_ew) == (
        ns_above,
        ns_below,
        ew_above,
        ew_below,
    )
    assert (result.total_ns, result.total_ew) == (ns_above + ns_below, ew_above + ew_below)
    assert result.winner == WINNERS[name]
    assert result.finished


def test_extra_deals_are_numbered_and_lines_are_drawn():
    result = score_rubber(RUBBER_1)
    assert [o.extra_deal for o in result.outcomes] == [0, 0, 0, 0, 0, 1, 2, 3, 4]
    # "line" in the table of §6.2: deals 2, 3, 5 and 8.
    assert [n for n, o in enumerate(result.outcomes, 1) if o.line_drawn] == [2, 3, 5, 8]
    assert result.outcomes[1].games_won == ("EW",)


def test_rubber_2_deal_2_is_a_simultaneous_game_won_by_the_higher_total():
    # §6.3 note: NS 10 -> 82 and EW 55 -> 87; the higher total (EW) takes it.
    state, _ = rubber_apply(NEW_RUBBER, RUBBER_2[0])
    _, outcome = rubber_apply(state, RUBBER_2[1])
    assert outcome.games_won == ("EW",)
    assert (outcome.games_ns, outcome.games_ew) == (0, 1)


@pytest.mark.parametrize(
    ("mode", "games"),
    [("higher", (0, 1)), ("declarer_first", (1, 0)), ("both", (1, 1))],
)
def test_simultaneous_game_options_on_rubber_2_deal_2(mode, games):
    # A17: the declarer of deal 2 is S (NS).
    rules = parse_rules({"simultaneous_game": mode})
    state, _ = rubber_apply(NEW_RUBBER, RUBBER_2[0], rules)
    state, outcome = rubber_apply(state, RUBBER_2[1], rules)
    assert (outcome.games_ns, outcome.games_ew) == games
    assert (state.part_ns, state.part_ew) == (0, 0)


def test_e6_gives_ns_the_game_when_both_pass_60():
    # E6: "Default: NS (200 > 60) get the game."
    _, outcome = rubber_apply(NEW_RUBBER, SINGLE_DEALS[5][1])
    assert outcome.games_won == ("NS",)


def test_equal_totals_over_60_go_to_the_declaring_side():
    # A17: "If the totals are equal, the declaring side gets it."
    # NS 5 tricks at 4S by E (NS 20, EW 32), then 6H by E doubled with NS 7
    # tricks (NS +84, EW +72): 104 each.
    first = D("4S", "E", 8, honours=("EW", 5))
    second = D("6H", "E", 6, doubling=1, honours=("EW", 5))
    state, _ = rubber_apply(NEW_RUBBER, first)
    assert (state.part_ns, state.part_ew) == (20, 32)
    _, outcome = rubber_apply(state, second)
    assert outcome.games_won == ("EW",)


def test_game_uses_undoubled_tricks():
    # A14: E6 from a fresh rubber: NS 200 counts 50, EW 60 counts 15.
    rules = parse_rules({"game_uses_undoubled_tricks": True})
    state, outcome = rubber_apply(NEW_RUBBER, SINGLE_DEALS[5][1], rules)
    assert outcome.games_won == ()
    assert (state.part_ns, state.part_ew) == (50, 15)
    assert (outcome.below_ns, outcome.below_ew) == (200, 60)  # the sheet still shows 200


def test_scale_ten_raises_the_game_to_600():
    rules = parse_rules({"scale": 10})
    state, outcome = rubber_apply(NEW_RUBBER, SINGLE_DEALS[0][1], rules)  # NS 400, EW 120
    assert outcome.games_won == ()
    _, outcome = rubber_apply(state, SINGLE_DEALS[0][1], rules)  # NS 800
    assert outcome.games_won == ("NS",)


# ------------------------------------------------------- §6.5 extra_game_count


@pytest.mark.parametrize(
    ("name", "bonuses", "ns_total", "ew_total"),
    [
        ("rubber 1", [(8, "NS", 800)], 12956, 6508),
        ("rubber 2", [(6, "EW", 800), (7, "NS", 1000), (9, "EW", 1200)], 10999, 18314),
        ("rubber 3", [(4, "NS", 600), (6, "EW", 800)], 3527, 17398),
    ],
)
def test_extra_game_count_overall(name, bonuses, ns_total, ew_total):
    rules = parse_rules({"extra_game_count": "overall"})
    result = score_rubber(RUBBERS[name], rules)
    found = [
        (number, b.side, b.points)
        for number, outcome in enumerate(result.outcomes, 1)
        for b in outcome.bonuses
        if b.kind == "extra_game"
    ]
    assert found == bonuses
    assert (result.total_ns, result.total_ew) == (ns_total, ew_total)


# ----------------------------------------------------------- end of the rubber


def test_a_fifth_extra_deal_is_refused():
    state = NEW_RUBBER
    for deal in RUBBER_1:
        state, _ = rubber_apply(state, deal)
    assert state.finished
    with pytest.raises(RuleError, match="the rubber is over"):
        rubber_apply(state, RUBBER_1[0])
    with pytest.raises(RuleError, match="the rubber is over"):
        score_rubber([*RUBBER_1, RUBBER_1[0]])


def test_all_pass_counts_as_an_extra_deal_by_default_and_not_under_redeal():
    # §4.7 item 7; A6 redeal: "no score ... does not count toward the 4 extra deals".
    redealt = all_pass_deal(None, None)
    rules = parse_rules({"all_pass": "redeal"})
    deals = [*RUBBER_1[:6], redealt, RUBBER_1[7], RUBBER_1[8], redealt]
    result = score_rubber(deals, rules)
    assert [(o.phase, o.extra_deal) for o in result.outcomes[5:]] == [
        ("extra", 1),
        ("extra", 0),
        ("extra", 2),
        ("extra", 3),
        ("extra", 0),
    ]
    assert result.outcomes[6].all_entries == ()
    assert not result.finished
    state, _ = rubber_apply(result.state, RUBBER_1[0], rules)
    assert state.finished
    # By default deal 7 of §6.2, an all-pass deal, was the second extra deal.
    assert score_rubber(RUBBER_1[:7]).outcomes[6].extra_deal == 2


def test_unfinished_rubber():
    # A27: by default the entries stand, no bonus; the house rule pays 200
    # per game of lead to a rubber nobody has won.
    deals = RUBBER_2[:3]  # 1-1 after three deals
    assert rubber_close(score_rubber(deals).state) == ()
    rules = parse_rules({"unfinished_rubber_bonus": "200_per_game_lead"})
    one_up = score_rubber([RUBBER_2[0], RUBBER_2[1]], rules, closed=True)
    assert [(e.side, e.kind, e.points) for e in one_up.closing] == [
        ("EW", "unfinished_rubber", 200)
    ]
    assert one_up.total_ew == 2355 + 832 + 200
    level = score_rubber(deals, rules, closed=True)
    assert level.closing == ()
    won = score_rubber(RUBBER_1[:6], rules, closed=True)
    assert won.closing == ()


def test_totals_above_only_and_round_to_100():
    deals = RUBBER_1
    above = score_rubber(deals, parse_rules({"totals_above_only": True}))
    assert (above.total_ns, above.total_ew) == (12480, 6290)
    rounded = score_rubber(deals, parse_rules({"round_to_100": True}))
    assert (rounded.total_ns, rounded.total_ew) == (12800, 6500)


# ====================================================================== session

PLAYERS = ["Anna", "Boris", "Carl", "Dina"]


def test_session_partnerships_match_the_document():
    # §6.2-§6.4 seatings, N E S W.
    assert session_partnerships(PLAYERS) == [
        Seating("Anna", "Boris", "Carl", "Dina"),
        Seating("Anna", "Carl", "Boris", "Dina"),
        Seating("Anna", "Boris", "Dina", "Carl"),
    ]


def test_each_player_partners_each_other_player_once():
    pairs = [
        frozenset(seating.partners(side))
        for seating in session_partnerships(["p", "q", "r", "s"])
        for side in ("NS", "EW")
    ]
    assert len(pairs) == len(set(pairs)) == 6


def test_session_partnerships_need_four_different_players():
    with pytest.raises(RuleError):
        session_partnerships(["a", "b", "c"])
    with pytest.raises(RuleError):
        session_partnerships(["a", "b", "c", "a"])


def test_dealer_rotation_matches_the_dlr_columns():
    assert [dealer_of("N", n) for n in range(1, 10)] == list("NESWNESWN")  # §6.2
    assert [dealer_of("E", n) for n in range(1, 10)] == list("ESWNESWNE")  # §6.3


def _session_columns(options=None):
    rules = parse_rules(options or {})
    seatings = session_partnerships(PLAYERS)
    return [
        rubber_player_totals(seating, score_rubber(rows, rules))
        for seating, rows in zip(seatings, RUBBERS.values(), strict=True)
    ]


def test_player_columns_per_rubber():
    assert _session_columns() == [
        {"Anna": 12756, "Boris": 6508, "Carl": 12756, "Dina": 6508},
        {"Anna": 10599, "Carl": 16914, "Boris": 10599, "Dina": 16914},
        {"Anna": 2927, "Boris": 17198, "Dina": 2927, "Carl": 17198},
    ]


def test_session_standings():
    # §6.4 "Session standings (defaults)".
    result = session_result(_session_columns())
    assert dict(result.totals) == {"Carl": 46868, "Boris": 34305, "Dina": 26349, "Anna": 26282}
    assert dict(result.net) == {"Carl": 13417, "Boris": 854, "Dina": -7102, "Anna": -7169}
    assert dict(result.differential) == {
        "Carl": 26834,
        "Boris": 1708,
        "Dina": -14204,
        "Anna": -14338,
    }
    assert sorted(PLAYERS, key=lambda p: -result.totals[p]) == ["Carl", "Boris", "Dina", "Anna"]


def test_session_under_overall():
    # §6.5 last row.
    result = session_result(_session_columns({"extra_game_count": "overall"}))
    assert dict(result.totals) == {"Carl": 48668, "Boris": 34905, "Dina": 28349, "Anna": 27482}


def test_net_rounds_half_away_from_zero():
    # Format doc: net = total - mean, the difference rounded half away from
    # zero (+7.5 -> 8, -7.5 -> -8). Totals 15, 0, 15, 0: mean 7.5.
    half = session_result([{"a": 15, "b": 0, "c": 15, "d": 0}])
    assert dict(half.net) == {"a": 8, "b": -8, "c": 8, "d": -8}
    assert dict(half.differential) == {"a": 15, "b": -15, "c": 15, "d": -15}
    # Quarter means cannot come from real rubbers (partners' columns are
    # equal), but the rule still applies: mean 0.75 -> 1.25 -> 1, 0.25 -> 0.
    quarter = session_result([{"a": 2, "b": 1, "c": 0, "d": 0}])
    assert dict(quarter.net) == {"a": 1, "b": 0, "c": -1, "d": -1}


def test_session_result_needs_the_same_players():
    with pytest.raises(RuleError):
        session_result([{"a": 1, "b": 1, "c": 1, "d": 1}, {"a": 1, "b": 1, "c": 1, "e": 1}])
    with pytest.raises(RuleError):
        session_result([])


# ======================================================================== rules

FORMAT_OPTIONS = {
    "misere_trick_credit": ("mirror", "as_taken", "none"),
    "trick_sides": ("both", "declarer_only", "declarer_if_made"),
    "double_scope": ("play", "all", "contract_only"),
    "extra_game_count": ("per_side", "overall"),
    "simultaneous_game": ("higher", "declarer_first", "both"),
    "grand_doubles_ace_premium": (False, True),
}


def test_the_option_table_and_the_rules_agree():
    assert rules_to_options(VintRules()) == {name: spec.default for name, spec in OPTIONS.items()}


def test_defaults_are_the_documents():
    rules = parse_rules({})
    assert rules == VintRules()
    assert {name: getattr(rules, name) for name in FORMAT_OPTIONS} == {
        name: values[0] for name, values in FORMAT_OPTIONS.items()
    }


@pytest.mark.parametrize(
    ("name", "value"),
    [(name, value) for name, values in FORMAT_OPTIONS.items() for value in values],
)
def test_format_options_are_accepted(name, value):
    assert getattr(parse_rules({name: value}), name) == value


@pytest.mark.parametrize(
    ("options", "field", "fragment"),
    [
        ({"misere_trick_credit": "as-taken"}, "misere_trick_credit", '"as-taken" is not one of'),
        ({"MISERE_TRICK_CREDIT": "mirror"}, "MISERE_TRICK_CREDIT", "unknown option"),
        ({"grand_doubles_ace_premium": 1}, "grand_doubles_ace_premium", "1 is not one of"),
        ({"scale": True}, "scale", "true is not one of"),
        ({"scale": 100}, "scale", "100 is not one of"),
        ({"overtrick_4": -200}, "overtrick_4", "not a non-negative integer"),
        ({"overtrick_4": "200"}, "overtrick_4", "not a non-negative integer"),
        ({"level_min": 1}, "level_min", "not supported"),
        ({"unfinished_rubber_bonus": "200-per-game-lead"}, "unfinished_rubber_bonus", "not one of"),
    ],
)
def test_bad_options_are_refused_naming_the_option(options, field, fragment):
    with pytest.raises(RuleError) as error:
        parse_rules(options)
    assert error.value.field == field
    assert error.value.message.startswith(f"{field}: ")
    assert fragment in error.value.message


def test_rules_built_directly_are_checked_too():
    with pytest.raises(RuleError) as error:
        VintRules(double_scope="everything")  # type: ignore[arg-type]
    assert error.value.field == "double_scope"


def test_rules_to_options_round_trips():
    rules = parse_rules({"extra_game_count": "overall", "scale": 10, "holdings_in_misere": True})
    options = rules_to_options(rules)
    assert options["extra_game_count"] == "overall"
    assert set(FORMAT_OPTIONS) <= set(options)
    assert parse_rules(options) == rules


# ======================================================== contracts and checks


@pytest.mark.parametrize(
    ("text", "expected"),
    [("4H", Contract(4, "H")), ("7G", Contract(7, "G")), ("5M", Contract(5, "M")), ("pass", None)],
)
def test_parse_contract(text, expected):
    assert parse_contract(text) == expected


@pytest.mark.parametrize("text", ["3H", "8S", "4X", "4", "4h", "44H", "", "PASS", "4NT"])
def test_parse_contract_refuses(text):
    with pytest.raises(RuleError) as error:
        parse_contract(text)
    assert error.value.field == "contract"


OK_4H = {"honours": ("NS", 5)}
NS3 = {"grand_aces": ("NS", 3)}
NS4 = {"grand_aces": ("NS", 4)}
REDEAL = {"all_pass": "redeal"}
T4_9 = TrickSplit(4, 9)

# (case, deal, options, field, fragment of the message): one failed check each.
# fmt: off
BAD_DEALS = [
    # tricks, contract, declarer, doubling
    ("tricks over 13", D("4H", "N", 14, **OK_4H), {},
     "declarer_tricks", "14 is outside 0..13"),
    ("tricks below 0", D("4H", "N", -1, **OK_4H), {},
     "declarer_tricks", "-1 is outside 0..13"),
    ("tricks not a number", D("4H", "N", True, **OK_4H), {},
     "declarer_tricks", "true is not an integer"),
    ("no tricks", VintDeal(Contract(4, "G"), "N", 0, None), {},
     "declarer_tricks", "required"),
    ("level 3", VintDeal(Contract(3, "H"), "N", 0, 10), {},
     "contract", "3H is not a contract"),
    ("no declarer", VintDeal(Contract(4, "G"), None, 0, 10), {},
     "declarer", "required"),
    ("declarer not a seat", D("4H", "X", 10, **OK_4H), {},
     "declarer", '"X" is not a seat'),
    ("doubling 3", D("4H", "N", 10, doubling=3, **OK_4H), {},
     "doubling", "3 is not 0"),
    ("doubling true", D("4H", "N", 10, doubling=True, **OK_4H), {},
     "doubling", "true is not 0"),
    ("all-pass tricks on a contract", VintDeal(Contract(4, "G"), "N", 0, 10, tricks=T4_9), {},
     "tricks", "only on an all-pass deal"),
    # honours and grand aces
    ("honours missing at a suit", D("4H", "N", 10), {},
     "honours", "required on 4H"),
    ("honours 4", D("4H", "N", 10, honours=("NS", 4)), {},
     "honours.count", "4 is outside 5..9"),
    ("honours 10", D("4H", "N", 10, honours=("NS", 10)), {},
     "honours.count", "10 is outside 5..9"),
    ("honours side", D("4H", "N", 10, honours=("NE", 5)), {},
     "honours.side", '"NE" is not a side'),
    ("honours at grand", D("4G", "N", 10, honours=("NS", 5)), {},
     "honours", "only on suit contracts; 4G is a grand"),
    ("honours at misère", D("4M", "N", 3, honours=("NS", 5)), {},
     "honours", "4M is a misère"),
    ("grand aces at a suit", D("4H", "N", 10, **NS3, **OK_4H), {},
     "grand_aces", "only on grand contracts"),
    ("grand aces 2", D("4G", "N", 10, grand_aces=("NS", 2)), {},
     "grand_aces.count", "2 is outside 3..4"),
    # aces in one hand, sequences
    ("two players with 3 aces", D("4G", "N", 10, **NS3, aces_in_hand=[("N", 3), ("E", 3)]), {},
     "aces_in_hand", "only one player can hold 3 or 4 aces"),
    ("5 aces in hand", D("4G", "N", 10, **NS4, aces_in_hand=[("N", 5)]), {},
     "aces_in_hand[1].count", "5 is outside 3..4"),
    ("aces in hand at misère", D("4M", "N", 3, aces_in_hand=[("N", 3)]), {},
     "aces_in_hand", "no holding premiums here"),
    ("run of 2", D("4H", "N", 10, sequences=[("N", "S", 2)], **OK_4H), {},
     "sequences[1].length", "2 is outside 3..13"),
    ("run in grand", D("4G", "N", 10, sequences=[("N", "G", 3)]), {},
     "sequences[1].suit", '"G" is not a suit'),
    ("two runs from one ace", D("4G", "N", 10, sequences=[("N", "S", 3), ("S", "S", 4)]), {},
     "sequences[2].suit", "a second run headed by the S ace"),
    ("runs longer than a hand", D("4G", "N", 10, **NS3, sequences=[("N", "S", 7), ("N", "H", 7)]),
     {}, "sequences", "add up to 14 cards"),
    ("run at misère", D("4M", "N", 3, sequences=[("N", "S", 3)]), {},
     "sequences", "no holding premiums here"),
    # aces implied by aces_in_hand and runs v. honours and grand aces
    ("3 aces in hand at a 2-2 grand", D("4G", "N", 10, aces_in_hand=[("S", 3)]), {},
     "grand_aces", "NS holds at least 3 aces"),
    ("3 aces in hand on the side with one", D("4G", "N", 10, **NS3, aces_in_hand=[("E", 3)]), {},
     "grand_aces", "EW holds at least 3 aces"),
    ("runs from 3 aces but no aces in hand",
     D("4G", "N", 10, **NS3, sequences=[("N", "S", 3), ("N", "H", 3), ("N", "D", 3)]), {},
     "aces_in_hand", "N holds 3 aces in one hand"),
    ("more runs than aces in hand",
     D("4G", "N", 10, **NS4, aces_in_hand=[("N", 3)],
       sequences=[("N", "S", 3), ("N", "H", 3), ("N", "D", 3), ("N", "C", 3)]), {},
     "sequences", "runs headed by 4 aces, but aces_in_hand gives N 3"),
    ("five aces needed",
     D("4G", "N", 10, **NS4, aces_in_hand=[("N", 4)], sequences=[("S", "S", 3)]), {},
     "aces_in_hand", "need 5 different aces"),
    ("a run of the side without honours",
     D("4H", "N", 10, honours=("EW", 9), sequences=[("N", "S", 3)]), {},
     "honours", "NS holds at least 1 honour units"),
    ("a trump run too long for the minority",
     D("4S", "E", 10, honours=("EW", 5), sequences=[("N", "S", 4)]), {},
     "honours", "NS holds at least 5 honour units"),
    ("4 aces in hand, few honours", D("4H", "N", 10, honours=("EW", 5), aces_in_hand=[("N", 4)]),
     {}, "honours", "NS holds at least 5 honour units"),
    # ace dumps
    ("dump at a suit contract", D("4H", "N", 10, ace_dumps=[("N", 5)], **OK_4H), {},
     "ace_dumps", "only in misère and all-pass deals"),
    ("dump at trick 0", D("4M", "N", 3, ace_dumps=[("E", 0)]), {},
     "ace_dumps[1].trick", "0 is outside 1..13"),
    ("dump at trick 14", D("4M", "N", 3, ace_dumps=[("E", 14)]), {},
     "ace_dumps[1].trick", "14 is outside 1..13"),
    ("dump seat", D("4M", "N", 3, ace_dumps=[("Q", 4)]), {},
     "ace_dumps[1].seat", '"Q" is not a seat'),
    ("five dumps", D("4M", "N", 3, ace_dumps=[("E", 2), ("E", 3), ("E", 4), ("W", 5), ("W", 6)]),
     {}, "ace_dumps", "only 4 aces"),
    ("one player, two aces, one trick", D("4M", "N", 3, ace_dumps=[("E", 5), ("E", 5)]), {},
     "ace_dumps[2]", "plays one card to a trick"),
    ("both sides dump on one trick", D("4M", "N", 3, ace_dumps=[("E", 5), ("S", 5)]), {},
     "ace_dumps[2]", "dumps from both sides"),
    ("more dump tricks than the other side took", D("7M", "N", 0, ace_dumps=[("E", 2), ("W", 5)]),
     {}, "ace_dumps", "EW lost aces on 2 different tricks, but NS took only 0"),
    ("the misère eldest dumps on trick 1", D("4M", "N", 3, ace_dumps=[("W", 1)]), {},
     "ace_dumps[1]", "W is the eldest and leads trick 1"),
    # all-pass deals
    ("all-pass tricks not 13", PASS(4, 8), {},
     "tricks", "NS 4 + EW 8 = 12, not 13"),
    ("all-pass tricks over 13", PASS(14, -1), {},
     "tricks.NS", "14 is outside 0..13"),
    ("all-pass without tricks", VintDeal(None), {},
     "tricks", "required on an all-pass deal"),
    ("all-pass with a declarer", VintDeal(None, "N", 0, None, tricks=T4_9), {},
     "declarer", "not on an all-pass deal"),
    ("all-pass doubled", VintDeal(None, None, 1, None, tricks=T4_9), {},
     "doubling", "cannot be doubled"),
    ("all-pass with declarer tricks", VintDeal(None, None, 0, 4, tricks=T4_9), {},
     "declarer_tricks", "not on an all-pass deal"),
    ("all-pass with honours", VintDeal(None, tricks=T4_9, honours=Holding("NS", 5)), {},
     "honours", "only on suit contracts"),
    ("all-pass dumps beyond the other side's tricks", PASS(12, 1, ace_dumps=[("N", 3), ("S", 5)]),
     {}, "ace_dumps", "NS lost aces on 2 different tricks, but EW took only 1"),
    ("redealt all-pass with tricks", PASS(4, 9), REDEAL,
     "tricks", "not played"),
    ("redealt all-pass with dumps", VintDeal(None, ace_dumps=(AceDump("N", 3),)), REDEAL,
     "ace_dumps", "not played"),
]
# fmt: on


@pytest.mark.parametrize(
    ("deal", "options", "field", "fragment"),
    [case[1:] for case in BAD_DEALS],
    ids=[case[0] for case in BAD_DEALS],
)
def test_entry_checks(deal, options, field, fragment):
    rules = parse_rules(options)
    with pytest.raises(RuleError) as error:
        score_deal(deal, rules)
    assert error.value.field == field
    assert error.value.message.startswith(f"{field}: ")
    assert fragment in error.value.message
    with pytest.raises(RuleError):
        check_deal(deal, rules)


def test_every_problem_of_a_deal_is_listed():
    deal = D("4G", "X", 14, doubling=5, honours=("NS", 5), ace_dumps=[("N", 3)])
    assert [p.field for p in deal_problems(deal)] == [
        "declarer",
        "doubling",
        "declarer_tricks",
        "honours",
        "ace_dumps",
    ]


@pytest.mark.parametrize(
    "deal",
    [
        # Legal edge cases that the checks must let through.
        D("4M", "N", 3, ace_dumps=[("E", 2), ("W", 2)]),  # partners dump on one trick
        D("4M", "N", 3, ace_dumps=[("N", 1)]),  # the declarer is not the eldest
        D("4H", "N", 10, honours=("EW", 5), sequences=[("N", "H", 3)]),  # minority trump A-K-Q
        D("4G", "N", 10, grand_aces=("NS", 4), aces_in_hand=[("N", 4)]),
        D("7S", "N", 13, honours=("NS", 9), sequences=[("N", "S", 13)]),
        PASS(0, 13, ace_dumps=[("N", 1), ("S", 1)]),
    ],
)
def test_legal_edge_cases_pass(deal):
    assert deal_problems(deal) == []
    assert min(e.points for e in score_deal(deal).entries) > 0


def test_the_partnership_sequence_option_relaxes_the_one_hand_limit():
    # A9: a run may be split between partners, so a side can hold 26 cards of runs.
    deal = D("4G", "N", 10, grand_aces=("NS", 3), sequences=[("N", "S", 13), ("N", "H", 13)])
    assert [p.field for p in deal_problems(deal)] == ["sequences"]
    rules = parse_rules({"sequences_partnership": True})
    assert deal_problems(deal, rules) == []
    # made 1000, grand aces 3 x 4 x 10, two 13-card runs 100 x 11 doubled at grand, 10 x 4.
    assert score_deal(deal, rules).total("NS") == 1000 + 120 + 2 * 2200 + 40
