"""Properties every Kop / Baśka deal has, whatever the numbers (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engines.kop import (
    KopDeal,
    KopRules,
    contracts_for,
    effective_doublings,
    parse_rules,
    score_deal,
    score_table,
)

SEATS = (1, 2, 3, 4)
# The machine is shared with other jobs; a slow example is not a failure here.
relaxed = settings(deadline=None)

RULE_SETS = [
    parse_rules("kop", {}),
    parse_rules("baska", {}),
    parse_rules("kop", {"doubling_cap": {"normal": 5, "wesele": 5, "cicha": 3, "zolo": 3}}),
    parse_rules("kop", {"doubling_count": "every_call", "margin_on_du": True}),
    parse_rules("baska", {"bez_wyjscia_max": 26, "baska_bid": "auto_win"}),
    parse_rules("kop", {"doubling_cap": "unlimited"}),
]


def cap(rules: KopRules, contract: str) -> int:
    c = rules.doubling_cap[contract]
    return 8 if c is None else c


@st.composite
def deals(
    draw: st.DrawFn, rules: KopRules | None = None, *, by_seat: bool | None = None
) -> tuple[KopRules, KopDeal]:
    """A deal under one of RULE_SETS (or ``rules``), its doublings counted or, with
    ``by_seat``, called by at least one seat."""
    rules = rules or draw(st.sampled_from(RULE_SETS))
    contract = draw(st.sampled_from(contracts_for(rules.game)))
    declarers = tuple(draw(st.permutations(SEATS))[: contract.declarers])
    points = draw(st.integers(0, 104))
    if draw(st.booleans()) if by_seat is None else not by_seat:
        k = draw(st.integers(0, cap(rules, contract.name)))
        return rules, KopDeal(
            contract=contract.name, declarers=declarers, doublings=k, declarer_points=points
        )
    seats = tuple(draw(st.lists(st.sampled_from(SEATS), min_size=bool(by_seat), max_size=6)))
    count = effective_doublings(seats, declarers, doubling_count=rules.doubling_count)
    assume(count <= cap(rules, contract.name))
    return rules, KopDeal(
        contract=contract.name, declarers=declarers, doubling_seats=seats, declarer_points=points
    )


@relaxed
@given(deals())
def test_every_deal_sums_to_zero(case: tuple[KopRules, KopDeal]) -> None:
    rules, deal = case
    assert sum(score_deal(deal, rules).payments) == 0


@relaxed
@given(deals())
def test_winners_gain_and_losers_pay_the_value(case: tuple[KopRules, KopDeal]) -> None:
    rules, deal = case
    result = score_deal(deal, rules)
    sign = 1 if result.declarers_won else -1
    share = 3 if len(deal.declarers) == 1 else 1
    for seat in SEATS:
        expected = sign * result.value * (share if seat in deal.declarers else -1)
        assert result.payments[seat - 1] == expected


@relaxed
@given(deals())
def test_value_is_the_product_of_its_factors(case: tuple[KopRules, KopDeal]) -> None:
    from scoring.engines.kop import CONTRACTS

    rules, deal = case
    r = score_deal(deal, rules)
    assert r.value == CONTRACTS[deal.contract].factor * 2**r.k * r.margin * r.L


@relaxed
@given(deals())
def test_each_counted_doubling_doubles_the_value(case: tuple[KopRules, KopDeal]) -> None:
    rules, deal = case
    before = score_deal(deal, rules)
    assume(before.k < cap(rules, deal.contract))
    after = score_deal(replace(deal, doublings=before.k + 1, doubling_seats=None), rules)
    assert after.value == 2 * before.value
    assert after.payments == tuple(2 * p for p in before.payments)


ALTERNATING = [r for r in RULE_SETS if r.doubling_count == "alternating_sides_only"]


@relaxed
@given(st.sampled_from(ALTERNATING).flatmap(lambda r: deals(r, by_seat=True)), st.booleans())
def test_a_doubling_from_the_other_side_counts_and_a_repeat_does_not(
    case: tuple[KopRules, KopDeal], same_side: bool
) -> None:
    rules, deal = case
    assume(deal.doubling_seats and rules.doubling_count == "alternating_sides_only")
    assert deal.doubling_seats is not None
    before = score_deal(deal, rules)
    assume(before.k < cap(rules, deal.contract))
    last_side = deal.doubling_seats[-1] in deal.declarers
    caller = next(s for s in SEATS if (s in deal.declarers) == (last_side == same_side))
    after = score_deal(replace(deal, doubling_seats=(*deal.doubling_seats, caller)), rules)
    assert after.k == before.k + (0 if same_side else 1)
    assert after.value == before.value * (1 if same_side else 2)


KOP = parse_rules("kop", {})


def _pair(contract: str, declarers: tuple[int, ...], points: int, k: int) -> tuple[int, ...]:
    deal = KopDeal(contract=contract, declarers=declarers, doublings=k, declarer_points=points)
    return score_deal(deal, KOP).payments


pair_deals = st.tuples(
    st.sampled_from(["normal", "wesele"]),
    st.permutations(SEATS),
    st.integers(0, 104).filter(lambda p: p != 52),
    st.integers(0, 4),
)


@relaxed
@given(pair_deals)
def test_exchanging_winners_and_losers_flips_every_sign(
    case: tuple[str, list[int], int, int],
) -> None:
    # In Kop (L = 1) a pair that wins with P and loses with 104 - P meets the
    # same margin both times, so each seat's payment just changes sign.
    contract, order, points, k = case
    declarers = tuple(order[:2])
    won = _pair(contract, declarers, points, k)
    lost = _pair(contract, declarers, 104 - points, k)
    assert won == tuple(-p for p in lost)


@relaxed
@given(pair_deals)
def test_naming_the_other_pair_scores_the_same_deal(
    case: tuple[str, list[int], int, int],
) -> None:
    contract, order, points, k = case
    mine, theirs = tuple(order[:2]), tuple(order[2:])
    assert _pair(contract, mine, points, k) == _pair(contract, theirs, 104 - points, k)


@relaxed
@given(st.sampled_from(["normal", "wesele"]), st.permutations(SEATS), st.integers(0, 4))
def test_at_52_all_whichever_pair_declares_loses(contract: str, order: list[int], k: int) -> None:
    mine, theirs = tuple(order[:2]), tuple(order[2:])
    assert _pair(contract, mine, 52, k) == tuple(-p for p in _pair(contract, theirs, 52, k))


@relaxed
@given(st.lists(deals(KOP), max_size=40))
def test_table_totals_are_the_running_sums(cases: list[tuple[KopRules, KopDeal]]) -> None:
    table = score_table([d for _, d in cases], KOP)
    totals = [0, 0, 0, 0]
    for result, running in zip(table.results, table.running_totals, strict=True):
        totals = [t + p for t, p in zip(totals, result.payments, strict=True)]
        assert running == tuple(totals)
    assert table.totals == tuple(totals)
    assert sum(table.totals) == 0
