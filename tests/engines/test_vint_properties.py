"""Properties of the Vint engine that must hold for every legal deal and rubber.

The strategies build plausible deals under any combination of §7 options and
keep those that pass every entry check; ``test_vint_sheet.py`` reuses them.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engines.errors import RuleError
from scoring.engines.vint import (
    NEW_RUBBER,
    OPTIONS,
    SEATS,
    SIDE_OF,
    SUITS,
    AceDump,
    AcesInHand,
    Holding,
    SuitSequence,
    TrickSplit,
    VintDeal,
    VintRules,
    contract_deal,
    deal_problems,
    rubber_apply,
    rubber_player_totals,
    score_deal,
    score_rubber,
    session_partnerships,
    session_result,
)

SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)
OTHER = {"NS": "EW", "EW": "NS"}
SEATS_OF = {"NS": ("N", "S"), "EW": ("E", "W")}


@st.composite
def rules(draw: st.DrawFn) -> VintRules:
    """Any combination of the §7 options."""
    options: dict[str, object] = {}
    for name, spec in OPTIONS.items():
        values = spec.values if spec.values is not None else (0, 200)
        options[name] = draw(st.sampled_from(values))
    return VintRules(**options)  # type: ignore[arg-type]


def _dumps(draw: st.DrawFn) -> tuple[AceDump, ...]:
    tricks = draw(st.lists(st.integers(1, 13), max_size=4, unique=True))
    return tuple(AceDump(draw(st.sampled_from(SEATS)), t) for t in tricks)


def _holdings(draw: st.DrawFn, side: str, most: int) -> tuple[tuple, tuple]:
    """aces_in_hand and sequences for one holder of ``side`` holding ``most`` aces."""
    holder = draw(st.sampled_from(SEATS_OF[side]))
    hand: tuple[AcesInHand, ...] = ()
    if most >= 3 and draw(st.booleans()):
        hand = (AcesInHand(holder, draw(st.integers(3, most))),)
    suits = draw(st.lists(st.sampled_from(SUITS), max_size=2, unique=True))
    runs = tuple(SuitSequence(holder, s, draw(st.integers(3, 6))) for s in suits)
    return hand, runs


@st.composite
def deals(draw: st.DrawFn, rules: VintRules) -> VintDeal:
    """A legal deal under ``rules``."""
    # A few tries inside one example: rejecting the whole example for one
    # inconsistent holding would waste most of a long rubber.
    for _ in range(8):
        deal = _candidate(draw, rules)
        if not deal_problems(deal, rules):
            return deal
    assume(False)
    raise AssertionError("unreachable")


def _candidate(draw: st.DrawFn, rules: VintRules) -> VintDeal:
    kind = draw(st.sampled_from(("suit", "suit", "grand", "misere", "pass")))
    if kind == "pass":
        if rules.all_pass == "redeal":
            return VintDeal(None)
        ns = draw(st.integers(0, 13))
        hand, runs = ((), ())
        if rules.holdings_in_misere and draw(st.booleans()):
            hand, runs = _holdings(draw, draw(st.sampled_from(("NS", "EW"))), 4)
        deal = VintDeal(
            None,
            tricks=TrickSplit(ns, 13 - ns),
            ace_dumps=_dumps(draw),
            aces_in_hand=hand,
            sequences=runs,
        )
    else:
        level = draw(st.integers(4, 7))
        declarer = draw(st.sampled_from(SEATS))
        doubling = draw(st.integers(0, 2))
        tricks = draw(st.integers(0, 13))
        side = draw(st.sampled_from(("NS", "EW")))
        if kind == "misere":
            hand, runs = ((), ())
            if rules.holdings_in_misere and draw(st.booleans()):
                hand, runs = _holdings(draw, side, 4)
            deal = VintDeal(
                contract_deal(f"{level}M", declarer, tricks).contract,
                declarer,
                doubling,
                tricks,
                aces_in_hand=hand,
                sequences=runs,
                ace_dumps=_dumps(draw),
            )
        elif kind == "grand":
            aces = draw(st.sampled_from((None, 3, 4)))
            hand, runs = _holdings(draw, side, aces or 2)
            deal = VintDeal(
                contract_deal(f"{level}G", declarer, tricks).contract,
                declarer,
                doubling,
                tricks,
                grand_aces=None if aces is None else Holding(side, aces),
                aces_in_hand=hand,
                sequences=runs,
            )
        else:
            trump = draw(st.sampled_from(SUITS))
            hand, runs = _holdings(draw, side, 4)
            deal = VintDeal(
                contract_deal(f"{level}{trump}", declarer, tricks).contract,
                declarer,
                doubling,
                tricks,
                honours=Holding(side, draw(st.integers(5, 9))),
                aces_in_hand=hand,
                sequences=runs,
            )
    return deal


@st.composite
def rules_and_deal(draw: st.DrawFn) -> tuple[VintRules, VintDeal]:
    chosen = draw(rules())
    return chosen, draw(deals(chosen))


def play_until_over(deal_list: list[VintDeal], chosen: VintRules) -> list[VintDeal]:
    """The deals of ``deal_list`` up to the end of the rubber (the rest dropped)."""
    state = NEW_RUBBER
    kept: list[VintDeal] = []
    for deal in deal_list:
        if state.finished:
            break
        state, _ = rubber_apply(state, deal, chosen)
        kept.append(deal)
    return kept


@st.composite
def rubbers(draw: st.DrawFn, chosen: VintRules, max_deals: int = 16) -> list[VintDeal]:
    """A rubber's deals (possibly unfinished) under ``chosen``."""
    return play_until_over(draw(st.lists(deals(chosen), max_size=max_deals)), chosen)


# ================================================================== properties


@SETTINGS
@given(rules_and_deal())
def test_no_entry_is_negative_and_sums_match(case):
    chosen, deal = case
    entries = score_deal(deal, chosen)
    assert all(e.points > 0 for e in entries.entries)
    for side in ("NS", "EW"):
        for where in ("above", "below"):
            written = sum(e.points for e in entries.items(side, where))
            assert written == (entries.above(side) if where == "above" else entries.below(side))


@SETTINGS
@given(rules_and_deal())
def test_only_trick_points_go_below_the_line(case):
    chosen, deal = case
    for entry in score_deal(deal, chosen).entries:
        assert (entry.where == "below") == (entry.kind == "trick_points")


@SETTINGS
@given(st.data())
def test_rubber_totals_equal_the_sum_of_their_entries(data):
    # Holds whenever the totals are not reshaped by totals_above_only or
    # round_to_100, which are about the final figures, not the entries.
    chosen = replace(data.draw(rules()), totals_above_only=False, round_to_100=False)
    deal_list = data.draw(rubbers(chosen))
    closed = data.draw(st.booleans())
    result = score_rubber(deal_list, chosen, closed=closed)
    for side in ("NS", "EW"):
        written = sum(
            e.points for o in result.outcomes for e in o.all_entries if e.side == side
        ) + sum(e.points for e in result.closing if e.side == side)
        assert result.total(side) == written
        assert result.total(side) == sum(o.total(side) for o in result.outcomes) + sum(
            e.points for e in result.closing if e.side == side
        )


@SETTINGS
@given(st.data())
def test_rubber_shape(data):
    chosen = data.draw(rules())
    result = score_rubber(data.draw(rubbers(chosen)), chosen)
    phases = [o.phase for o in result.outcomes]
    assert phases == sorted(phases, key=("main", "extra").index)  # main deals, then extra
    counted = [o.extra_deal for o in result.outcomes if o.extra_deal]
    assert counted == list(range(1, len(counted) + 1))
    assert result.finished == (len(counted) == 4)
    games = [(0, 0)] + [(o.games_ns, o.games_ew) for o in result.outcomes]
    assert all(a <= c and b <= d for (a, b), (c, d) in zip(games, games[1:], strict=False))
    if result.winner is None:
        assert max(games[-1]) < 2 and "extra" not in phases
    else:
        assert result.state.games(result.winner) >= 2
        rubber_bonuses = [e for o in result.outcomes for e in o.bonuses if e.kind == "rubber"]
        assert [(e.side, e.points) for e in rubber_bonuses] == [(result.winner, 400)]
    for outcome in result.outcomes:
        if outcome.line_drawn:
            assert (outcome.state.part_ns, outcome.state.part_ew) == (0, 0)
        else:
            assert max(outcome.state.part_ns, outcome.state.part_ew) < 60 * chosen.scale


@settings(SETTINGS, max_examples=60)
@given(st.data())
def test_a_fifth_extra_deal_is_refused(data):
    chosen = data.draw(rules())
    state = NEW_RUBBER
    # Play random deals until the rubber is over; skip the rare example that
    # does not get there.
    for _ in range(80):
        state, _ = rubber_apply(state, data.draw(deals(chosen)), chosen)
        if state.finished:
            break
    assume(state.finished)
    with pytest.raises(RuleError, match="the rubber is over"):
        rubber_apply(state, data.draw(deals(chosen)), chosen)


@SETTINGS
@given(st.data(), st.lists(st.text(min_size=1, max_size=5), min_size=4, max_size=4, unique=True))
def test_session_nets(data, players):
    """What holds of the nets, exactly.

    Partners' columns are equal, so the sum S of the four session totals is
    even and the mean S/4 is whole or ends in .5. If it is whole, the nets sum
    to 0. If it ends in .5, every difference total - mean ends in .5 and is
    rounded away from zero by half a point, so the nets sum to
    (number of positive nets - number of negative nets) / 2, which is -1, 0 or
    +1 (the differences sum to 0, so both signs occur). The differentials are
    exact: 2 x (total - mean), summing to 0. Ranking by net is ranking by total.
    """
    chosen = data.draw(rules())
    columns = [
        rubber_player_totals(seating, score_rubber(data.draw(rubbers(chosen, 10)), chosen))
        for seating in session_partnerships(players)
    ]
    result = session_result(columns)
    totals = result.totals
    s = sum(totals.values())
    assert s % 2 == 0
    nets = list(result.net.values())
    if s % 4 == 0:
        assert sum(nets) == 0
        assert all(4 * totals[p] - s == 4 * result.net[p] for p in players)
    else:
        positive = sum(1 for n in nets if n > 0)
        negative = sum(1 for n in nets if n < 0)
        assert positive + negative == 4
        assert 2 * sum(nets) == positive - negative
        assert abs(sum(nets)) <= 1
    assert sum(result.differential.values()) == 0
    assert all(2 * result.differential[p] == 4 * totals[p] - s for p in players)
    for a in players:
        for b in players:
            if totals[a] > totals[b]:
                assert result.net[a] >= result.net[b]


_TURN = {"N": "E", "E": "S", "S": "W", "W": "N"}


def _turn(deal: VintDeal) -> VintDeal:
    """The same deal with everybody moved one seat clockwise: NS and EW swap."""
    return VintDeal(
        deal.contract,
        None if deal.declarer is None else _TURN[deal.declarer],
        deal.doubling,
        deal.declarer_tricks,
        None if deal.honours is None else Holding(OTHER[deal.honours.side], deal.honours.count),
        (
            None
            if deal.grand_aces is None
            else Holding(OTHER[deal.grand_aces.side], deal.grand_aces.count)
        ),
        tuple(AcesInHand(_TURN[h.seat], h.count) for h in deal.aces_in_hand),
        tuple(SuitSequence(_TURN[r.seat], r.suit, r.length) for r in deal.sequences),
        tuple(AceDump(_TURN[d.seat], d.trick) for d in deal.ace_dumps),
        None if deal.tricks is None else TrickSplit(deal.tricks.ew, deal.tricks.ns),
    )


@SETTINGS
@given(rules_and_deal())
def test_the_score_does_not_depend_on_where_the_table_sits(case):
    chosen, deal = case
    turned = _turn(deal)
    assert deal_problems(turned, chosen) == []

    def shape(entries, swap):
        return sorted(
            (OTHER[e.side] if swap else e.side, e.where, e.kind, e.points, e.count, e.suit)
            for e in entries.entries
        )

    assert shape(score_deal(turned, chosen), True) == shape(score_deal(deal, chosen), False)


def test_seat_sides():
    assert {seat: SIDE_OF[seat] for seat in SEATS} == {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
