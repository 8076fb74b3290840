"""The club options of rules/kop.md §7.1: ``bez_wyjscia_max`` per side, ``contract_factor``,
``contracts`` and ``soloist_doubling``, alone and with the §7 options.

Every expected value is worked by hand in the comment beside it (V = C x 2^k x M x L,
§5.2; a soloist's net is 3V, §5.3), not computed by the code under test. The properties
at the end compare the engine with an independent reading of §6.2 written here.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engines.errors import RuleError
from scoring.engines.kop import (
    KopDeal,
    contracts_for,
    default_rules,
    parse_rules,
    rules_to_options,
    score_deal,
)

SIDES_26_25 = {"declarers": 26, "defenders": 25}
NO_GRAND = ["normal", "wesele", "cicha", "zolo", "zolo_du", "baska"]


def deal(contract: str, declarers: tuple[int, ...], points: int, k: int | None = 0, seats=None):
    return KopDeal(
        contract=contract,
        declarers=declarers,
        doublings=None if seats is not None else k,
        doubling_seats=seats,
        declarer_points=points,
    )


# (game, options, deal, value V, payments seat 1..4)
CASES: list[tuple[str, str, dict[str, Any], KopDeal, int, list[int]]] = [
    # ---- bez_wyjscia_max per side: the threshold of the side that lost.
    # Old 1&3 lose with 26: declarers' threshold 26 -> M 2, V = 1x2 = 2 (default would be 1).
    (
        "bez-decl-26",
        "kop",
        {"bez_wyjscia_max": SIDES_26_25},
        deal("normal", (1, 3), 26),
        2,
        [-2, 2, -2, 2],
    ),
    # Old win 78:26: the Young lost with 26 > 25 -> M 1, V 1.
    (
        "bez-def-26",
        "kop",
        {"bez_wyjscia_max": SIDES_26_25},
        deal("normal", (1, 3), 78),
        1,
        [1, -1, 1, -1],
    ),
    # Old win 79:25: the Young lost with 25 <= 25 -> M 2, V 2.
    (
        "bez-def-25",
        "kop",
        {"bez_wyjscia_max": SIDES_26_25},
        deal("normal", (1, 3), 79),
        2,
        [2, -2, 2, -2],
    ),
    # Baśka: Old lose 26:78 -> M 2, L 2, V = 1x2x2 = 4.
    (
        "bez-baska",
        "baska",
        {"bez_wyjscia_max": SIDES_26_25},
        deal("normal", (1, 3), 26),
        4,
        [-4, 4, -4, 4],
    ),
    # Cicha by seat 1 loses with 26: C 4 x M 2 = 8; the soloist pays 3 x 8.
    (
        "bez-cicha",
        "kop",
        {"bez_wyjscia_max": SIDES_26_25},
        deal("cicha", (1,), 26),
        8,
        [-24, 8, 8, 8],
    ),
    # The other way round: zolo by 3 wins 78:26, defenders' threshold 26 -> V = 5x2 = 10.
    (
        "bez-reversed",
        "kop",
        {"bez_wyjscia_max": {"declarers": 25, "defenders": 26}},
        deal("zolo", (3,), 78),
        10,
        [-10, -10, 30, -10],
    ),
    # One side omitted keeps 25: declarers lose with 25 -> M 2 -> V 2.
    (
        "bez-one-side",
        "kop",
        {"bez_wyjscia_max": {"defenders": 30}},
        deal("normal", (2, 4), 25),
        2,
        [2, -2, 2, -2],
    ),
    # Zolo du by 3 loses with 20: no margin on du -> V 10 ...
    (
        "bez-du",
        "kop",
        {"bez_wyjscia_max": SIDES_26_25},
        deal("zolo_du", (3,), 20),
        10,
        [10, 10, -30, 10],
    ),
    # ... with margin_on_du: 20 <= 26 -> M 2 -> V 20.
    (
        "bez-du-margin",
        "kop",
        {"bez_wyjscia_max": SIDES_26_25, "margin_on_du": True},
        deal("zolo_du", (3,), 20),
        20,
        [20, 20, -60, 20],
    ),
    # Bez bitki still wins over bez wyjścia: Old take 104 -> M 3, V 3.
    (
        "bez-bitki",
        "kop",
        {"bez_wyjscia_max": SIDES_26_25},
        deal("normal", (1, 3), 104),
        3,
        [3, -3, 3, -3],
    ),
    # ---- contract_factor replaces C for the contracts named.
    # Cicha paid like a normal game: cicha by 1 wins 61:43 -> V = 1.
    (
        "factor-cicha",
        "kop",
        {"contract_factor": {"cicha": 1}},
        deal("cicha", (1,), 61),
        1,
        [3, -1, -1, -1],
    ),
    # Cicha 1, lost with 25 (bez wyjścia) -> V = 1x2 = 2.
    (
        "factor-cicha-bez",
        "kop",
        {"contract_factor": {"cicha": 1}},
        deal("cicha", (1,), 25),
        2,
        [-6, 2, 2, 2],
    ),
    # The others keep theirs: normal 60:44 -> V 1.
    (
        "factor-other",
        "kop",
        {"contract_factor": {"cicha": 1}},
        deal("normal", (1, 3), 60),
        1,
        [1, -1, 1, -1],
    ),
    # Zolo 6, kontra + rej (k 2), lost with 28: V = 6x4 = 24.
    (
        "factor-zolo-k2",
        "kop",
        {"contract_factor": {"zolo": 6}},
        deal("zolo", (3,), 28, k=2),
        24,
        [24, 24, -72, 24],
    ),
    # Baśka grand 4, k 2, lost with 20: 4 x 4 x M 2 x L 2 = 64.
    (
        "factor-grand",
        "baska",
        {"contract_factor": {"grand": 4}},
        deal("grand", (2,), 20, k=2),
        64,
        [64, -192, 64, 64],
    ),
    # Baśka auto-win with baśka 12 and kontra: 12 x 2 = 24 from each.
    (
        "factor-auto-win",
        "baska",
        {"contract_factor": {"baska": 12}, "baska_bid": "auto_win"},
        deal("baska", (1,), 0, k=1),
        24,
        [72, -24, -24, -24],
    ),
    # With the Kościan cap of 5 on normal: factor 2, k 5 (zub), 104 -> 2 x 32 x 3 = 192.
    (
        "factor-koscian-cap",
        "kop",
        {"contract_factor": {"normal": 2}, "doubling_cap": 5},
        deal("normal", (1, 3), 104, k=5),
        192,
        [192, -192, 192, -192],
    ),
    # ---- contracts: an allowed contract scores as always.
    # Baśka without grand: zolo by 3 wins 70:34 -> V 5.
    (
        "contracts-zolo",
        "baska",
        {"contracts": NO_GRAND},
        deal("zolo", (3,), 70),
        5,
        [-5, -5, 15, -5],
    ),
    # ---- soloist_doubling: never changes k, only warns.
    # Never: zolo by 3; 4 kontra, 3 rej -> k 2, wins 70 -> V 20 (and a warning, below).
    (
        "never-k",
        "kop",
        {"soloist_doubling": "never"},
        deal("zolo", (3,), 70, seats=(4, 3)),
        20,
        [-20, -20, 60, -20],
    ),
    # Never with every_call: 4, 3, 3 -> k 3 -> V 40.
    (
        "never-every-call",
        "kop",
        {"soloist_doubling": "never", "doubling_count": "every_call"},
        deal("zolo", (3,), 70, seats=(4, 3, 3)),
        40,
        [-40, -40, 120, -40],
    ),
]


@pytest.mark.parametrize(
    ("name", "game", "options", "the_deal", "value", "payments"),
    CASES,
    ids=[c[0] for c in CASES],
)
def test_worked_cases(name, game, options, the_deal, value, payments):
    result = score_deal(the_deal, parse_rules(game, options))
    assert result.value == value
    assert list(result.payments) == payments


# (options, doubling seats, declarers, contract, expected warning codes)
WARNINGS = [
    # R5 (not_first, the default): the soloist 3 doubled first.
    ({}, (3, 4), (3,), "zolo", ["kop.soloist_doubled_first"]),
    ({}, (4, 3), (3,), "zolo", []),
    ({"soloist_doubling": "not_first"}, (3,), (3,), "cicha", ["kop.soloist_doubled_first"]),
    # Never: any doubling by the soloist, first or not, once.
    ({"soloist_doubling": "never"}, (4, 3), (3,), "zolo", ["kop.soloist_doubled"]),
    ({"soloist_doubling": "never"}, (3, 4, 3), (3,), "zolo", ["kop.soloist_doubled"]),
    ({"soloist_doubling": "never"}, (4, 2), (3,), "zolo", []),
    # Any: nothing, also in the §7 spelling.
    ({"soloist_doubling": "any"}, (3, 4), (3,), "zolo", []),
    ({"soloist_may_double_first": True}, (3, 4), (3,), "zolo", []),
    # Never is about soloists: the wesele bidder (1) is R6's, as before.
    ({"soloist_doubling": "never"}, (2, 1), (1, 3), "wesele", ["kop.wesele_bidder_doubled"]),
    ({"soloist_doubling": "never", "wesele_bidder_may_double": True}, (2, 1), (1, 3), "wesele", []),
]


@pytest.mark.parametrize(("options", "seats", "declarers", "contract", "codes"), WARNINGS)
def test_soloist_doubling_warnings(options, seats, declarers, contract, codes):
    result = score_deal(deal(contract, declarers, 60, seats=seats), parse_rules("kop", options))
    assert [p.code for p in result.warning_problems] == codes
    assert len(result.warnings) == len(codes)


def test_a_typed_count_cannot_break_the_soloist_rule():
    # With k typed in, who doubled is unknown: no warning.
    rules = parse_rules("kop", {"soloist_doubling": "never"})
    assert score_deal(deal("zolo", (3,), 70, k=2), rules).warnings == ()


def test_the_two_spellings_of_the_soloist_rule():
    assert parse_rules("kop", {"soloist_may_double_first": True}) == parse_rules(
        "kop", {"soloist_doubling": "any"}
    )
    assert parse_rules("kop", {"soloist_doubling": "any"}).soloist_may_double_first is True
    # false means "not first", which never satisfies too.
    never = parse_rules("kop", {"soloist_may_double_first": False, "soloist_doubling": "never"})
    assert never.soloist_doubling == "never"
    for flag, value in ((True, "never"), (True, "not_first"), (False, "any")):
        with pytest.raises(RuleError) as err:
            parse_rules("kop", {"soloist_may_double_first": flag, "soloist_doubling": value})
        assert err.value.code == "kop.option_soloist_doubling_conflict"


def test_a_contract_the_rules_leave_out_is_bad_input():
    rules = parse_rules("baska", {"contracts": NO_GRAND})
    assert [c.name for c in contracts_for("baska", rules)] == [
        "normal",
        "cicha",
        "wesele",
        "zolo",
        "zolo_du",
        "baska",
    ]
    for contract in ("grand", "grand_du"):
        with pytest.raises(RuleError) as err:
            score_deal(deal(contract, (2,), 70), rules)
        assert err.value.code == "kop.contract_not_allowed"
        assert err.value.field == "contract"


@pytest.mark.parametrize(
    ("game", "options", "code"),
    [
        ("kop", {"contracts": ["zolo", "cicha"]}, "kop.option_contracts_normal"),
        ("kop", {"contracts": ["normal", "grand"]}, "kop.option_contract_name"),
        ("kop", {"contracts": ["normal", "zolo", "zolo"]}, "kop.option_contracts_repeated"),
        ("kop", {"contracts": []}, "kop.option_contracts"),
        ("kop", {"contracts": "normal"}, "kop.option_contracts"),
        ("kop", {"contract_factor": {"cicha": 0}}, "kop.option_contract_factor"),
        ("kop", {"contract_factor": {"cicha": 101}}, "kop.option_contract_factor"),
        ("kop", {"contract_factor": {"cicha": True}}, "kop.option_contract_factor"),
        ("kop", {"contract_factor": 2}, "kop.option_contract_factor"),
        ("kop", {"contract_factor": {"grand": 2}}, "kop.option_contract_name"),
        ("kop", {"bez_wyjscia_max": {"losers": 26}}, "kop.option_bez_wyjscia_side"),
        ("kop", {"bez_wyjscia_max": {"declarers": 53}}, "kop.option_bez_wyjscia_max"),
        ("kop", {"bez_wyjscia_max": {"declarers": "26"}}, "kop.option_bez_wyjscia_max"),
        ("kop", {"soloist_doubling": "sometimes"}, "rules.option_choice"),
    ],
)
def test_bad_option_values_are_refused(game, options, code):
    with pytest.raises(RuleError) as err:
        parse_rules(game, options)
    assert err.value.code == code


@pytest.mark.parametrize(
    ("options", "spelt_as"),
    [
        ({"bez_wyjscia_max": {"declarers": 26, "defenders": 26}}, {"bez_wyjscia_max": 26}),
        ({"bez_wyjscia_max": {"declarers": 25}}, {}),
        ({"contracts": ["zolo_du", "normal", "cicha", "wesele", "zolo"]}, {}),
        ({"contract_factor": {"cicha": 4, "zolo": 5}}, {}),
        ({"soloist_doubling": "not_first"}, {}),
    ],
)
def test_default_meanings_compare_equal_to_the_defaults(options, spelt_as):
    assert parse_rules("kop", options) == parse_rules("kop", spelt_as)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("kop", {"bez_wyjscia_max": SIDES_26_25, "contract_factor": {"cicha": 1}}),
        ("baska", {"contracts": NO_GRAND, "soloist_doubling": "never"}),
        ("baska", {"contract_factor": {"grand": 4, "baska": 12}, "doubling_cap": 3}),
    ],
)
def test_options_round_trip(game, options):
    rules = parse_rules(game, options)
    assert parse_rules(game, rules_to_options(rules)) == rules
    assert parse_rules(game, rules_to_options(rules, only_changed=True)) == rules


# ---------------------------------------------------------------- properties (hypothesis)

FACTORS = {
    "normal": 1, "wesele": 1, "cicha": 4, "zolo": 5, "zolo_du": 10,
    "grand": 5, "grand_du": 10, "baska": 10,
}  # fmt: skip


def reference(game: str, options: dict[str, Any], d: KopDeal) -> list[int]:
    """§6.2 as the document writes it, with the §7.1 options, for a typed count k."""
    factor = {**FACTORS, **options.get("contract_factor", {})}[d.contract]
    bez = options.get("bez_wyjscia_max", 25)
    bez_decl, bez_def = (
        (bez, bez) if isinstance(bez, int) else (bez.get("declarers", 25), bez.get("defenders", 25))
    )
    p = d.declarer_points
    du = d.contract in ("zolo_du", "grand_du")
    if d.contract == "baska" and options.get("baska_bid") == "auto_win":
        win, margin, loss = True, 1, 1
    else:
        win = p == 104 if du else p >= 53
        loser = 104 - p if win else p
        margin = 1
        if not du or options.get("margin_on_du", False):
            if loser == 0:
                margin = 3
            elif loser <= (bez_def if win else bez_decl):
                margin = 2
        loss = 2 if game == "baska" and not win else 1
    assert d.doublings is not None
    value = factor * 2**d.doublings * margin * loss
    sign = 1 if win else -1
    if len(d.declarers) == 2:
        return [sign * value if s in d.declarers else -sign * value for s in (1, 2, 3, 4)]
    return [3 * sign * value if s in d.declarers else -sign * value for s in (1, 2, 3, 4)]


@st.composite
def club_options(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    game = draw(st.sampled_from(["kop", "baska"]))
    names = [c.name for c in contracts_for(game)]
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["bez_wyjscia_max"] = draw(
            st.one_of(
                st.integers(0, 52),
                st.fixed_dictionaries(
                    {"declarers": st.integers(0, 52)}, optional={"defenders": st.integers(0, 52)}
                ),
            )
        )
    if draw(st.booleans()):
        options["contract_factor"] = draw(
            st.dictionaries(st.sampled_from(names), st.integers(1, 100), max_size=4)
        )
    if draw(st.booleans()):
        extra = draw(st.lists(st.sampled_from(names[1:]), unique=True))
        options["contracts"] = ["normal", *extra]
    if draw(st.booleans()):
        options["soloist_doubling"] = draw(st.sampled_from(["not_first", "never", "any"]))
    if draw(st.booleans()):
        options["margin_on_du"] = draw(st.booleans())
    if game == "baska" and draw(st.booleans()):
        options["baska_bid"] = "auto_win"
    return game, options


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, dict[str, Any], KopDeal]:
    game, options = draw(club_options())
    rules = parse_rules(game, options)
    contract = draw(st.sampled_from(contracts_for(game, rules)))
    declarers = tuple(draw(st.permutations((1, 2, 3, 4)))[: contract.declarers])
    k = draw(st.integers(0, 4))
    return game, options, deal(contract.name, declarers, draw(st.integers(0, 104)), k=k)


@settings(deadline=None, max_examples=300)
@given(cases())
def test_payments_sum_to_zero_and_follow_the_document(case):
    game, options, d = case
    result = score_deal(d, parse_rules(game, options))
    assert sum(result.payments) == 0
    assert list(result.payments) == reference(game, options, d)


DEFAULT_SPELT_OUT = {
    "kop": {
        "bez_wyjscia_max": {"declarers": 25, "defenders": 25},
        "contract_factor": {"normal": 1, "wesele": 1, "cicha": 4, "zolo": 5, "zolo_du": 10},
        "contracts": ["normal", "wesele", "cicha", "zolo", "zolo_du"],
        "soloist_doubling": "not_first",
    },
    "baska": {
        "bez_wyjscia_max": 25,
        "contract_factor": dict(FACTORS),
        "contracts": list(FACTORS),
        "soloist_doubling": "not_first",
    },
}


@settings(deadline=None, max_examples=300)
@given(
    st.sampled_from(["kop", "baska"]).flatmap(
        lambda game: st.tuples(
            st.just(game),
            st.sampled_from(contracts_for(game)),
            st.permutations((1, 2, 3, 4)),
            st.integers(0, 104),
            st.lists(st.sampled_from((1, 2, 3, 4)), max_size=4),
        )
    )
)
def test_with_the_defaults_results_equal_todays(case):
    # Today's results: the §6.2 reference with no options; the new options spelt out
    # at their defaults change nothing, warnings included.
    game, contract, seats, points, doubled = case
    declarers = tuple(seats[: contract.declarers])
    counted = deal(contract.name, declarers, points, seats=tuple(doubled))
    today = score_deal(counted, default_rules(game))
    spelt = score_deal(counted, parse_rules(game, DEFAULT_SPELT_OUT[game]))
    assert spelt == today
    typed = deal(contract.name, declarers, points, k=min(today.k, 4))
    if today.k <= 4:
        assert list(score_deal(typed, default_rules(game)).payments) == reference(game, {}, typed)
