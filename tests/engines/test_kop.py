"""Kop and Baśka scoring, as the rules state it (``shared/rules/kop.md``).

Every expected number here is typed from the document, never computed by the
code under test.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from scoring.engines.errors import RuleError
from scoring.engines.kop import (
    ATTAINABLE_BY_TRICKS,
    CONTRACTS,
    KopDeal,
    KopResult,
    KopRules,
    check_deal,
    contracts_for,
    dealer_for_deal,
    default_rules,
    doubling_name,
    effective_doublings,
    is_attainable,
    parse_rules,
    score_deal,
    score_table,
)

KOSCIAN_CAPS = {"normal": 5, "wesele": 5, "cicha": 3, "zolo": 3, "zolo_du": 3}

RULES = {
    "kop": default_rules("kop"),
    "koscian": parse_rules(
        "kop",
        {
            "doubling_cap": KOSCIAN_CAPS,
            "doubling_names": ["kontra", "rej", "bok", "skok", "zub"],
            "wesele_bidder_may_double": True,
        },
    ),
    "baska": default_rules("baska"),
}


def deal(
    contract: str,
    declarers: tuple[int, ...],
    doubled: int | tuple[int, ...],
    points: int,
) -> KopDeal:
    """A deal; ``doubled`` is the typed count k or the doubling seats in order."""
    if isinstance(doubled, tuple):
        return KopDeal(
            contract=contract,
            declarers=declarers,
            doubling_seats=doubled,
            declarer_points=points,
        )
    return KopDeal(
        contract=contract, declarers=declarers, doublings=doubled, declarer_points=points
    )


@dataclass(frozen=True)
class Example:
    name: str
    rules: str
    contract: str
    declarers: tuple[int, ...]
    doubled: int | tuple[int, ...]
    points: int
    k: int
    margin: int
    L: int
    value: int
    payments: tuple[int, int, int, int]


# §6.3, E1-E30. Doubling seats are those the "Situation" column names.
EXAMPLES = [
    Example("E1", "kop", "normal", (1, 3), 0, 60, 0, 1, 1, 1, (+1, -1, +1, -1)),
    Example("E2", "kop", "normal", (1, 3), 0, 52, 0, 1, 1, 1, (-1, +1, -1, +1)),
    Example("E3", "kop", "normal", (2, 4), 0, 80, 0, 2, 1, 2, (-2, +2, -2, +2)),
    Example("E4", "kop", "normal", (1, 3), 0, 104, 0, 3, 1, 3, (+3, -3, +3, -3)),
    Example("E5", "kop", "normal", (1, 3), 0, 20, 0, 2, 1, 2, (-2, +2, -2, +2)),
    Example("E6", "kop", "normal", (1, 3), 0, 26, 0, 1, 1, 1, (-1, +1, -1, +1)),
    Example("E7", "kop", "normal", (1, 3), (2,), 70, 1, 1, 1, 2, (+2, -2, +2, -2)),
    Example("E8", "kop", "normal", (1, 3), (2, 1), 70, 2, 1, 1, 4, (+4, -4, +4, -4)),
    Example("E9", "kop", "normal", (2, 4), (1, 2, 1), 40, 3, 1, 1, 8, (+8, -8, +8, -8)),
    Example("E10", "kop", "normal", (2, 4), (1, 2, 3, 4), 79, 4, 2, 1, 32, (-32, +32, -32, +32)),
    Example("E11", "kop", "normal", (1, 3), (2, 4), 55, 1, 1, 1, 2, (+2, -2, +2, -2)),
    Example("E12", "kop", "cicha", (1,), 0, 61, 0, 1, 1, 4, (+12, -4, -4, -4)),
    Example("E13", "kop", "cicha", (1,), 0, 25, 0, 2, 1, 8, (-24, +8, +8, +8)),
    Example("E14", "kop", "wesele", (2, 4), 0, 58, 0, 1, 1, 1, (-1, +1, -1, +1)),
    Example("E15", "kop", "wesele", (2, 4), (1,), 40, 1, 1, 1, 2, (+2, -2, +2, -2)),
    Example("E16", "kop", "zolo", (3,), 0, 70, 0, 1, 1, 5, (-5, -5, +15, -5)),
    Example("E17", "kop", "zolo", (3,), (4, 3), 28, 2, 1, 1, 20, (+20, +20, -60, +20)),
    Example("E18", "kop", "zolo", (3,), 0, 104, 0, 3, 1, 15, (-15, -15, +45, -15)),
    Example("E19", "kop", "zolo_du", (3,), 0, 104, 0, 1, 1, 10, (-10, -10, +30, -10)),
    Example("E20", "kop", "zolo_du", (3,), 0, 96, 0, 1, 1, 10, (+10, +10, -30, +10)),
    Example("E21", "koscian", "zolo_du", (3,), (1, 3, 2), 104, 3, 1, 1, 80, (-80, -80, +240, -80)),
    Example(
        "E22", "koscian", "normal", (1, 3), (2, 1, 4, 3, 2), 104, 5, 3, 1, 96, (96, -96, 96, -96)
    ),
    Example("E23", "baska", "normal", (1, 3), 0, 60, 0, 1, 1, 1, (+1, -1, +1, -1)),
    Example("E24", "baska", "normal", (1, 3), 0, 52, 0, 1, 2, 2, (-2, +2, -2, +2)),
    Example("E25", "baska", "grand", (2,), 0, 70, 0, 1, 1, 5, (-5, +15, -5, -5)),
    Example("E26", "baska", "grand", (2,), (1, 2), 20, 2, 2, 2, 80, (+80, -240, +80, +80)),
    Example("E27", "baska", "grand_du", (2,), 0, 104, 0, 1, 1, 10, (-10, +30, -10, -10)),
    Example("E28", "baska", "zolo_du", (4,), (1,), 96, 1, 1, 2, 40, (+40, +40, +40, -120)),
    Example("E29", "baska", "baska", (1,), 0, 60, 0, 1, 1, 10, (+30, -10, -10, -10)),
    Example("E30", "baska", "cicha", (3,), 0, 40, 0, 1, 2, 8, (+8, +8, -24, +8)),
]


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda ex: ex.name)
def test_worked_example(ex: Example) -> None:
    result = score_deal(deal(ex.contract, ex.declarers, ex.doubled, ex.points), RULES[ex.rules])
    assert (result.k, result.margin, result.L) == (ex.k, ex.margin, ex.L)
    assert result.value == ex.value
    assert result.payments == ex.payments
    assert result.declarers_won == (ex.payments[ex.declarers[0] - 1] > 0)
    assert result.warnings == ()


@pytest.mark.parametrize(
    "ex", [ex for ex in EXAMPLES if isinstance(ex.doubled, tuple)], ids=lambda ex: ex.name
)
def test_worked_example_with_the_count_typed_in(ex: Example) -> None:
    # §2.5: the app also accepts k typed in directly; same score.
    result = score_deal(deal(ex.contract, ex.declarers, ex.k, ex.points), RULES[ex.rules])
    assert (result.value, result.payments) == (ex.value, ex.payments)


def test_score_table_adds_up_the_kop_examples() -> None:
    kop = [ex for ex in EXAMPLES if ex.rules == "kop"]
    table = score_table(
        [deal(ex.contract, ex.declarers, ex.doubled, ex.points) for ex in kop], RULES["kop"]
    )
    assert [r.payments for r in table.results] == [ex.payments for ex in kop]
    expected_totals = tuple(sum(ex.payments[s] for ex in kop) for s in range(4))
    assert table.totals == expected_totals
    assert table.running_totals[0] == kop[0].payments
    assert table.running_totals[-1] == expected_totals


# ---------------------------------------------------------------- "other cases spelled out"


def test_cicha_player_may_rej_after_a_kontra() -> None:
    # Kontra by seat 2, rej by seat 1 (the cicha player; not the first
    # doubling, so R5 allows it); 70 : 34. V = 4 x 4 = 16.
    result = score_deal(deal("cicha", (1,), (2, 1), 70), RULES["kop"])
    assert result.value == 16
    assert result.payments == (+48, -16, -16, -16)
    assert result.warnings == ()


def test_wesele_under_the_named_jack_variant() -> None:
    # Seat 2 names J♥, held by seat 3: the pair is 2 & 3; scored as E14.
    rules = parse_rules("kop", {"wesele_partner": "named_jack"})
    result = score_deal(deal("wesele", (2, 3), 0, 58), rules)
    assert result.value == 1
    assert result.payments == (-1, +1, +1, -1)


def test_private_game_with_six_alternating_doublings() -> None:
    rules = parse_rules(
        "kop",
        {
            "doubling_cap": "unlimited",
            "doubling_names": ["kontra", "rej", "bok", "słup", "dupa Lenina", "dupa Bieruta"],
        },
    )
    result = score_deal(deal("normal", (1, 3), (2, 1, 2, 1, 2, 1), 70), rules)
    assert result.k == 6
    assert result.value == 64
    assert doubling_name(5, rules) == "dupa Lenina"
    assert doubling_name(6, rules) == "dupa Bieruta"


# ------------------------------------------------------------------------- §5 boundaries


@pytest.mark.parametrize(
    ("points", "won", "margin"),
    [
        (0, False, 3),  # declarers took no trick: bez bitki against them
        (8, False, 2),
        (25, False, 2),  # 25 is still bez wyjścia
        (26, False, 1),  # 26 escapes
        (52, False, 1),  # 52 : 52 is the defenders' win
        (53, True, 1),
        (78, True, 1),  # opponents 26
        (79, True, 2),  # opponents 25
        (96, True, 2),  # opponents 8, one trick
        (104, True, 3),  # opponents took no trick
    ],
)
def test_normal_game_win_and_margin(points: int, won: bool, margin: int) -> None:
    result = score_deal(deal("normal", (1, 3), 0, points), RULES["kop"])
    assert (result.declarers_won, result.margin, result.value) == (won, margin, margin)


@pytest.mark.parametrize(("points", "won"), [(104, True), (96, False), (53, False), (0, False)])
def test_zolo_du_needs_all_four_tricks_and_has_no_margin(points: int, won: bool) -> None:
    result = score_deal(deal("zolo_du", (2,), 0, points), RULES["kop"])
    assert (result.declarers_won, result.margin, result.value) == (won, 1, 10)


@pytest.mark.parametrize(
    ("contract", "points", "value"),
    [("baska", 60, 10), ("baska", 104, 30), ("baska", 20, 40), ("grand_du", 96, 20)],
)
def test_baska_values(contract: str, points: int, value: int) -> None:
    # §5.4: baśka is 10 x 2^k x M (x L); grand du uses the zolo du column, L = 2 on a loss.
    assert score_deal(deal(contract, (1,), 0, points), RULES["baska"]).value == value


# ----------------------------------------------------------------------------- §7 options


def test_bez_wyjscia_max_26_makes_a_quarter_a_double() -> None:
    rules = parse_rules("kop", {"bez_wyjscia_max": 26})
    assert score_deal(deal("normal", (1, 3), 0, 26), rules).value == 2  # E6 becomes x2
    assert score_deal(deal("normal", (1, 3), 0, 27), rules).value == 1
    assert score_deal(deal("normal", (1, 3), 0, 26), RULES["kop"]).value == 1


@pytest.mark.parametrize(
    ("points", "default_value", "margin_value"),
    [(104, 10, 30), (96, 10, 10), (20, 10, 20), (0, 10, 30)],
)
def test_margin_on_du(points: int, default_value: int, margin_value: int) -> None:
    rules = parse_rules("kop", {"margin_on_du": True})
    assert score_deal(deal("zolo_du", (3,), 0, points), RULES["kop"]).value == default_value
    assert score_deal(deal("zolo_du", (3,), 0, points), rules).value == margin_value


def test_every_call_counts_a_same_side_repeat() -> None:
    # E11 under doubling_count = every_call: seat 4's "rej" now counts.
    rules = parse_rules("kop", {"doubling_count": "every_call"})
    result = score_deal(deal("normal", (1, 3), (2, 4), 55), rules)
    assert (result.k, result.value, result.payments) == (2, 4, (+4, -4, +4, -4))


@pytest.mark.parametrize(
    ("seats", "declarers", "alternating", "every_call"),
    [
        ((), (1, 3), 0, 0),
        ((2,), (1, 3), 1, 1),
        ((1,), (1, 3), 1, 1),  # R4: the first doubling may come from either side
        ((2, 4), (1, 3), 1, 2),  # same side: ignored (R3)
        ((2, 4, 1), (1, 3), 2, 3),
        ((2, 1, 3, 4), (1, 3), 3, 4),
        ((1, 2, 3, 4), (2, 4), 4, 4),
        ((3, 3, 3), (3,), 1, 3),
    ],
)
def test_effective_doublings(
    seats: tuple[int, ...], declarers: tuple[int, ...], alternating: int, every_call: int
) -> None:
    assert effective_doublings(seats, declarers) == alternating
    assert effective_doublings(seats, declarers, doubling_count="every_call") == every_call


def test_default_cap_is_four_for_every_contract() -> None:
    for c in contracts_for("baska"):
        single = c.declarers == 1
        declarers = (2,) if single else (1, 3)
        points = 104
        score_deal(deal(c.name, declarers, 4, points), RULES["baska"])
        with pytest.raises(RuleError) as err:
            score_deal(deal(c.name, declarers, 5, points), RULES["baska"])
        assert err.value.field == "doublings"


@pytest.mark.parametrize(
    ("contract", "declarers", "cap"),
    [("normal", (1, 3), 5), ("wesele", (1, 3), 5), ("cicha", (1,), 3), ("zolo", (1,), 3)],
)
def test_koscian_caps(contract: str, declarers: tuple[int, ...], cap: int) -> None:
    assert score_deal(deal(contract, declarers, cap, 60), RULES["koscian"]).k == cap
    with pytest.raises(RuleError, match=f"above the cap of {cap} for {contract}") as err:
        score_deal(deal(contract, declarers, cap + 1, 60), RULES["koscian"])
    assert err.value.field == "doublings"


def test_cap_applies_to_the_count_worked_out_from_seats() -> None:
    # Four alternating calls in a Kościan zolo: bok is the limit (3).
    with pytest.raises(RuleError, match="4 counted doublings, above the cap of 3") as err:
        score_deal(deal("zolo", (3,), (1, 3, 1, 3), 60), RULES["koscian"])
    assert err.value.field == "doubling_seats"
    # The same calls with repeats that do not count stay under it.
    assert score_deal(deal("zolo", (3,), (1, 2, 3, 1), 60), RULES["koscian"]).k == 3


def test_int_and_unlimited_caps() -> None:
    two = parse_rules("kop", {"doubling_cap": 2})
    assert score_deal(deal("zolo", (1,), 2, 60), two).value == 20
    with pytest.raises(RuleError):
        score_deal(deal("normal", (1, 3), 3, 60), two)
    unlimited = parse_rules("kop", {"doubling_cap": None})
    assert score_deal(deal("normal", (1, 3), 10, 60), unlimited).value == 1024


def test_baska_bid_auto_win() -> None:
    # A10 alternative: no play, V = 10 x 2^k, whatever points were written.
    rules = parse_rules("baska", {"baska_bid": "auto_win"})
    result = score_deal(deal("baska", (1,), 0, 40), rules)
    assert (result.declarers_won, result.value, result.payments) == (True, 10, (30, -10, -10, -10))
    assert score_deal(deal("baska", (1,), (2,), 0), rules).value == 20
    assert score_deal(deal("baska", (1,), 0, 104), rules).value == 10  # no bez bitki
    # Played (the default), 40 points lose: 10 x 1 x L 2.
    played = score_deal(deal("baska", (1,), 0, 40), RULES["baska"])
    assert (played.declarers_won, played.value) == (False, 20)


def test_baska_loss_double_off_and_on() -> None:
    off = parse_rules("baska", {"baska_loss_double": False})
    assert score_deal(deal("normal", (1, 3), 0, 52), off).value == 1  # E24 without L
    on = parse_rules("kop", {"baska_loss_double": True})
    assert score_deal(deal("normal", (1, 3), 0, 52), on).value == 2


def test_options_without_arithmetic_leave_the_numbers_alone() -> None:
    # §7: trump order and the auction options only drive checks and display.
    rules = parse_rules(
        "kop",
        {
            "trump_order": "T12",
            "auction_end": "all_pass",
            "higher_bid_cancels_doublings": False,
            "wesele_first_call_only": True,
            "du_as_suffix": True,
            "wesele_partner": "named_jack",
        },
    )
    for ex in EXAMPLES:
        if ex.rules == "kop":
            d = deal(ex.contract, ex.declarers, ex.doubled, ex.points)
            assert score_deal(d, rules).payments == ex.payments


# ------------------------------------------------------------------- R5 / R6 warnings


def test_soloist_doubling_first_is_a_warning_not_an_error() -> None:
    result = score_deal(deal("zolo", (3,), (3, 4), 60), RULES["kop"])
    assert result.k == 2 and result.value == 20
    assert len(result.warnings) == 1
    assert "R5" in result.warnings[0] and "seat 3" in result.warnings[0]
    assert result.warnings[0].startswith("doubling_seats: ")


@pytest.mark.parametrize("contract", ["cicha", "zolo", "zolo_du"])
def test_r5_covers_every_single_old_game(contract: str) -> None:
    assert score_deal(deal(contract, (1,), (1,), 104), RULES["kop"]).warnings
    assert not score_deal(deal(contract, (1,), (2, 1), 104), RULES["kop"]).warnings


@pytest.mark.parametrize("contract", ["grand", "grand_du", "baska"])
def test_r5_covers_baskas_solo_games(contract: str) -> None:
    assert score_deal(deal(contract, (4,), (4,), 104), RULES["baska"]).warnings


def test_soloist_may_double_first_option() -> None:
    rules = parse_rules("kop", {"soloist_may_double_first": True})
    assert score_deal(deal("zolo", (3,), (3, 4), 60), rules).warnings == ()


def test_r5_does_not_apply_to_a_normal_game() -> None:
    # R4: in a normal game the first doubling may come from either side.
    assert score_deal(deal("normal", (1, 3), (1,), 60), RULES["kop"]).warnings == ()


def test_wesele_bidder_doubling_is_a_warning() -> None:
    # The first declarer is the bidder (seat 2); his partner (4) may double.
    result = score_deal(deal("wesele", (2, 4), (1, 2), 60), RULES["kop"])
    assert result.value == 4
    assert len(result.warnings) == 1 and "R6" in result.warnings[0]
    assert "seat 2" in result.warnings[0]
    assert score_deal(deal("wesele", (2, 4), (1, 4), 60), RULES["kop"]).warnings == ()


def test_wesele_bidder_may_double_option() -> None:
    rules = parse_rules("kop", {"wesele_bidder_may_double": True})
    assert score_deal(deal("wesele", (2, 4), (1, 2), 60), rules).warnings == ()
    assert score_deal(deal("wesele", (2, 4), (1, 2), 60), RULES["koscian"]).warnings == ()


def test_typed_count_cannot_breach_r5_or_r6() -> None:
    assert score_deal(deal("wesele", (2, 4), 2, 60), RULES["kop"]).warnings == ()


# ------------------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("rules", "bad", "field", "message"),
    [
        ("kop", deal("grand", (1,), 0, 60), "contract", '"grand" is not a Kop contract'),
        ("kop", deal("baska", (1,), 0, 60), "contract", "not a Kop contract"),
        ("baska", deal("solo", (1,), 0, 60), "contract", '"solo" is not a Baśka contract'),
        ("kop", deal("normal", (1,), 0, 60), "declarers", "normal needs two different seats"),
        ("kop", deal("wesele", (1, 2, 3), 0, 60), "declarers", "wesele needs two"),
        ("kop", deal("zolo", (1, 2), 0, 60), "declarers", "zolo needs exactly one seat"),
        ("kop", deal("cicha", (), 0, 60), "declarers", "cicha needs exactly one seat"),
        ("kop", deal("normal", (1, 1), 0, 60), "declarers", "repeat a seat"),
        ("kop", deal("normal", (1, 5), 0, 60), "declarers", "5 is not a seat"),
        ("kop", deal("zolo", (0,), 0, 60), "declarers", "0 is not a seat"),
        ("kop", deal("normal", (1, 3), -1, 60), "doublings", "-1 is below 0"),
        ("kop", deal("normal", (1, 3), 5, 60), "doublings", "above the cap of 4 for normal"),
        ("kop", deal("normal", (1, 3), (2, 5), 60), "doubling_seats", "5 is not a seat"),
        ("kop", deal("normal", (1, 3), (2, 1, 2, 1, 2), 60), "doubling_seats", "above the cap"),
        ("kop", deal("normal", (1, 3), 0, 105), "declarer_points", "105 is outside 0..104"),
        ("kop", deal("normal", (1, 3), 0, -1), "declarer_points", "-1 is outside 0..104"),
    ],
)
def test_bad_deals_raise_rule_error_naming_the_field(
    rules: str, bad: KopDeal, field: str, message: str
) -> None:
    with pytest.raises(RuleError, match=message) as err:
        score_deal(bad, RULES[rules])
    assert err.value.field == field


def test_both_or_neither_doubling_inputs() -> None:
    both = KopDeal(
        contract="normal", declarers=(1, 3), doublings=1, doubling_seats=(2,), declarer_points=60
    )
    with pytest.raises(RuleError, match="not both") as err:
        score_deal(both, RULES["kop"])
    assert err.value.field == "doubling_seats"
    neither = KopDeal(contract="normal", declarers=(1, 3), declarer_points=60)
    with pytest.raises(RuleError, match="give doublings") as err:
        score_deal(neither, RULES["kop"])
    assert err.value.field == "doublings"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"doublings": True}, "doublings"),
        ({"declarer_points": True}, "declarer_points"),
        ({"declarer_points": 60.0}, "declarer_points"),
        ({"declarers": (True, 3)}, "declarers"),
        ({"doublings": None, "doubling_seats": (True,)}, "doubling_seats"),
    ],
)
def test_bool_and_float_are_not_integers(changes: dict[str, object], field: str) -> None:
    base: dict[str, object] = {
        "contract": "normal",
        "declarers": (1, 3),
        "doublings": 0,
        "declarer_points": 60,
    }
    bad = KopDeal(**(base | changes))  # type: ignore[arg-type]
    with pytest.raises(RuleError) as err:
        score_deal(bad, RULES["kop"])
    assert err.value.field == field


def test_lists_are_accepted_like_tuples() -> None:
    d = KopDeal(
        contract="zolo",
        declarers=[3],  # type: ignore[arg-type]
        doubling_seats=[4, 3],  # type: ignore[arg-type]
        declarer_points=28,
    )
    assert score_deal(d, RULES["kop"]).payments == (+20, +20, -60, +20)


def test_check_deal_reports_every_problem() -> None:
    bad = KopDeal(contract="grand", declarers=(1, 1), doublings=-2, declarer_points=200)
    fields_named = [e.field for e in check_deal(bad, RULES["kop"])]
    assert fields_named == ["contract", "declarers", "doublings", "declarer_points"]
    assert check_deal(deal("normal", (1, 3), 0, 60), RULES["kop"]) == []


def test_score_table_names_the_bad_deal() -> None:
    deals = [deal("normal", (1, 3), 0, 60), deal("normal", (1, 3), 0, 105)]
    with pytest.raises(RuleError, match=r"^deal 2: 105 is outside 0\.\.104$") as err:
        score_table(deals, RULES["kop"])
    assert err.value.field == "declarer_points"


def test_empty_table() -> None:
    table = score_table([], RULES["kop"])
    assert table.results == () and table.running_totals == () and table.totals == (0, 0, 0, 0)


# ----------------------------------------------------------- Appendix A attainable totals


def _ranges(*spans: tuple[int, int]) -> set[int]:
    return {p for lo, hi in spans for p in range(lo, hi + 1)}


APPENDIX_A = {
    0: {0},
    1: _ranges((8, 12), (16, 20), (24, 28), (32, 36), (40, 44)),
    2: _ranges((20, 20), (27, 29), (34, 38), (41, 63), (66, 70), (75, 77), (84, 84)),
    3: _ranges((60, 64), (68, 72), (76, 80), (84, 88), (92, 96)),
    4: {104},
}


@pytest.mark.parametrize("tricks", range(5))
def test_attainable_totals_match_appendix_a(tricks: int) -> None:
    assert ATTAINABLE_BY_TRICKS[tricks] == APPENDIX_A[tricks]


@pytest.mark.parametrize("points", [14, 30, 90, 1, 7, 103, 65, 100])
def test_points_that_cannot_occur_warn(points: int) -> None:
    assert not is_attainable(points)
    result = score_deal(deal("normal", (1, 3), 0, points), RULES["kop"])
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith(f"declarer_points: {points} : {104 - points} cannot")


@pytest.mark.parametrize("points", [0, 8, 25, 26, 52, 53, 78, 79, 96, 104])
def test_points_that_can_occur_do_not_warn(points: int) -> None:
    assert is_attainable(points)
    assert score_deal(deal("normal", (1, 3), 0, points), RULES["kop"]).warnings == ()


def test_unattainable_and_r5_warnings_together() -> None:
    result = score_deal(deal("zolo", (1,), (1,), 30), RULES["kop"])
    assert len(result.warnings) == 2


# ------------------------------------------------------------- names, dealer, contracts


@pytest.mark.parametrize(
    ("rules", "names"),
    [
        ("kop", ["", "kontra", "rej", "bok", "słup"]),
        ("baska", ["", "kontra", "rekontra", "bok", "hirsz"]),
        ("koscian", ["", "kontra", "rej", "bok", "skok", "zub"]),
    ],
)
def test_doubling_names(rules: str, names: list[str]) -> None:
    assert [doubling_name(k, RULES[rules]) for k in range(len(names))] == names


def test_doubling_name_past_the_named_levels_shows_the_factor() -> None:
    assert doubling_name(6, RULES["kop"]) == "×64"


@pytest.mark.parametrize(
    ("deal_no", "dealer"), [(1, 1), (2, 2), (3, 3), (4, 4), (5, 1), (8, 4), (32, 4), (33, 1)]
)
def test_dealer_rotation(deal_no: int, dealer: int) -> None:
    assert dealer_for_deal(deal_no) == dealer


@pytest.mark.parametrize("bad", [0, -1, True])
def test_dealer_for_a_bad_deal_number(bad: int) -> None:
    with pytest.raises(RuleError):
        dealer_for_deal(bad)


def test_contracts_per_game() -> None:
    kop = ["normal", "cicha", "wesele", "zolo", "zolo_du"]
    assert [c.name for c in contracts_for("kop")] == kop
    assert [c.name for c in contracts_for("baska")] == [*kop, "grand", "grand_du", "baska"]
    with pytest.raises(RuleError):
        contracts_for("vint")


@pytest.mark.parametrize(
    ("name", "factor", "declarers", "is_du"),
    [
        ("normal", 1, 2, False),
        ("wesele", 1, 2, False),
        ("cicha", 4, 1, False),
        ("zolo", 5, 1, False),
        ("zolo_du", 10, 1, True),
        ("grand", 5, 1, False),
        ("grand_du", 10, 1, True),
        ("baska", 10, 1, False),
    ],
)
def test_contract_metadata(name: str, factor: int, declarers: int, is_du: bool) -> None:
    c = CONTRACTS[name]
    assert (c.factor, c.declarers, c.is_du) == (factor, declarers, is_du)
    assert c.label_pl and c.label_en


def test_fast_path_results_equal_plainly_built_ones() -> None:
    result = score_deal(deal("zolo", (3,), (4, 3), 28), RULES["kop"])
    assert result == KopResult(20, False, 2, 1, 1, (20, 20, -60, 20), ())
    assert set(vars(result)) == {f.name for f in fields(KopResult)}
    assert hash(result) == hash(KopResult(20, False, 2, 1, 1, (20, 20, -60, 20), ()))
    with pytest.raises(AttributeError):
        result.value = 3  # type: ignore[misc]


def test_rules_are_hashable_and_comparable() -> None:
    assert hash(default_rules("kop")) == hash(KopRules())
    assert default_rules("kop") == KopRules()
    assert default_rules("baska") != KopRules(game="baska")  # Kop field defaults


ENGINE_MODULES = ["scoring.engines.kop", "scoring.engines.kop_sheet", "scoring.engines.rules"]


def test_engines_import_only_the_standard_library() -> None:
    code = (
        "import sys\n"
        f"for m in {ENGINE_MODULES!r}: __import__(m)\n"
        "outside = sorted({n.split('.')[0] for n in sys.modules}"
        " - set(sys.stdlib_module_names) - {'scoring', '__main__'})\n"
        "print(','.join(outside))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    ).stdout.strip()
    assert out == ""


def test_shared_results_stay_correct_and_the_memo_is_bounded() -> None:
    rules = parse_rules("kop", {"doubling_cap": "unlimited"})
    first = score_deal(deal("zolo", (3,), (4, 3), 28), rules)
    again = score_deal(deal("zolo", (3,), (4, 3), 28), rules)
    assert again == first == KopResult(20, False, 2, 1, 1, (20, 20, -60, 20), ())
    # With the soloist doubling first the same count and points carry a warning.
    warned = score_deal(deal("zolo", (3,), (3, 4), 28), rules)
    assert warned.payments == first.payments and warned.warnings
    for k in range(30):
        for points in range(105):
            score_deal(deal("normal", (1, 3), k, points), rules)
    assert len(rules.tables.by_contract["normal"].known) <= 2048
    assert score_deal(deal("normal", (1, 3), 29, 60), rules).value == 2**29
