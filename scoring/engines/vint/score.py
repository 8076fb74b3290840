"""Scoring one Vint deal above and below the line (``rules/vint.md`` §4.2-§4.8, §4.12).

Vocabulary
----------
above / below the line
    Below: trick points only, the points that count toward game. Above:
    everything else (contract results, holdings, ace dumps, bonuses).
entry
    One line a deal writes for one side (an ``Entry``): where, what kind,
    the points and the quantity behind them. Zero-point items are not
    written. A deal's entries and their sums per side are a ``DealEntries``.
trick points
    L per trick (x m), for every trick and by default for both sides (§4.3);
    in misère by default each side is paid for the tricks it lost
    (``misere_trick_credit=mirror``, A5).
contract result
    Made: MADE[L] to the declarers, plus OVERTRICK[L] per trick over (§4.4).
    Failed: UNDERTRICK[L] per trick under to the defenders, plus the
    SPECIAL bonus for beating a slam-level bid. All x m. Misère counts from
    its limit of 7 - L tricks.
honours, grand aces
    The side holding 5..9 honour units at a suit contract scores
    units x L x 10; the side holding 3 or 4 aces at grand aces x L x 10.
aces in hand, sequences
    One player holding 3 / 4 aces scores 200 / 400; a run headed by the ace
    of n >= 3 cards in one hand scores 100 x (n - 2), doubled in trumps and
    in every suit at grand. Holdings are judged on the cards, not the play,
    so by default doubling does not multiply them (``double_scope``, A13).
ace dump
    In misère and all-pass deals the owner's side scores 100 x the trick's
    number for each ace lost (x m in misère by default).
all-pass penalty
    In an all-pass deal the side taking fewer tricks scores 100 x the
    difference; nothing goes below the line.

The hot path (``score_deal``, then ``rubber.rubber_apply``) is written for
speed (see ``benchmarks/bench_vint_engine.py``): entries are interned value
objects, and the per-deal objects fill their fields directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal, cast

from scoring.engines.vint.checks import deal_problems
from scoring.engines.vint.facts import MULTIPLIER, Contract, Suit, TrickSplit, VintDeal
from scoring.engines.vint.options import DEFAULT_RULES, VintRules
from scoring.engines.vint.table import OTHER_SIDE, SIDE_OF, TRICKS, Seat, Side

Where = Literal["above", "below"]
EntryKind = Literal[
    "trick_points",
    "made",
    "overtricks",
    "undertricks",
    "special",
    "honours",
    "grand_aces",
    "aces_in_hand",
    "sequence",
    "ace_dump",
    "all_pass_penalty",
    "rubber",
    "extra_game",
    "unfinished_rubber",
]

# §4.4. The "special bonus" is paid once when a slam-level bid is beaten.
MADE: Final[Mapping[int, int]] = {4: 1000, 5: 2000, 6: 3000, 7: 4500}
OVERTRICK: Final[Mapping[int, int]] = {4: 0, 5: 200, 6: 200, 7: 0}
UNDERTRICK: Final[Mapping[int, int]] = {4: 400, 5: 500, 6: 600, 7: 700}
SPECIAL: Final[Mapping[int, int]] = {4: 0, 5: 0, 6: 400, 7: 1000}


@dataclass(frozen=True, slots=True)
class Entry:
    """One line a deal writes on the sheet for one side.

    ``count`` is the quantity behind the points, by ``kind``: tricks credited
    (trick_points), tricks over or under (overtricks, undertricks), honour
    units, aces (grand_aces, aces_in_hand), run length (sequence), trick
    number (ace_dump), trick difference (all_pass_penalty), game number
    (extra_game), games ahead (unfinished_rubber); 0 otherwise.
    """

    side: Side
    where: Where
    kind: EntryKind
    points: int
    count: int = 0
    seat: Seat | None = None
    suit: Suit | None = None


_ENTRY_CACHE: dict[tuple[object, ...], Entry] = {}
_ENTRY_CACHE_MAX: Final = 100_000


def make_entry(
    side: Side,
    where: Where,
    kind: EntryKind,
    points: int,
    count: int = 0,
    seat: Seat | None = None,
    suit: Suit | None = None,
) -> Entry:
    """The ``Entry`` with these values (the rubber writes its bonuses with it too)."""
    # Entries are values, and a frozen dataclass costs over a microsecond to
    # build, so equal entries share one instance. The set of distinct entries
    # is small (a few thousand under any rules); the cap only guards memory.
    key = (side, where, kind, points, count, seat, suit)
    found = _ENTRY_CACHE.get(key)
    if found is None:
        if len(_ENTRY_CACHE) >= _ENTRY_CACHE_MAX:
            _ENTRY_CACHE.clear()
        found = _ENTRY_CACHE[key] = Entry(side, where, kind, points, count, seat, suit)
    return found


# The three objects built on every deal (DealEntries here, RubberState and
# DealOutcome in ``rubber``) are frozen dataclasses with a hand-written __init__ that fills
# __dict__ directly: the generated frozen __init__ goes through
# object.__setattr__ per field and is nearly three times slower, which alone
# would cost a third of the 100,000 deals/s budget. Equality, hashing, repr
# and immutability are still the dataclass's own.


@dataclass(frozen=True, init=False)
class DealEntries:
    """What one deal writes: itemized entries and their sums per side."""

    entries: tuple[Entry, ...]
    above_ns: int
    above_ew: int
    below_ns: int
    below_ew: int

    def __init__(
        self, entries: tuple[Entry, ...], above_ns: int, above_ew: int, below_ns: int, below_ew: int
    ) -> None:
        attrs = self.__dict__
        attrs["entries"] = entries
        attrs["above_ns"] = above_ns
        attrs["above_ew"] = above_ew
        attrs["below_ns"] = below_ns
        attrs["below_ew"] = below_ew

    def above(self, side: Side) -> int:
        return self.above_ns if side == "NS" else self.above_ew

    def below(self, side: Side) -> int:
        return self.below_ns if side == "NS" else self.below_ew

    def total(self, side: Side) -> int:
        return self.above(side) + self.below(side)

    def items(self, side: Side, where: Where | None = None) -> tuple[Entry, ...]:
        return tuple(
            e for e in self.entries if e.side == side and (where is None or e.where == where)
        )


def score_deal(deal: VintDeal, rules: VintRules = DEFAULT_RULES) -> DealEntries:
    """The entries of one deal (§4.2-§4.8, reference algorithm §4.12).

    Raises ``RuleError`` (``field`` set) when an entry check of §5 fails.
    Zero-point items are not written.
    """
    problems = deal_problems(deal, rules)
    if problems:
        raise problems[0].error()
    if deal.contract is None:
        return _score_all_pass(deal, rules)
    return _score_contract(deal, deal.contract, rules)


def _score_all_pass(deal: VintDeal, rules: VintRules) -> DealEntries:
    if rules.all_pass == "redeal":
        return DealEntries((), 0, 0, 0, 0)
    split = cast(TrickSplit, deal.tricks)
    entries: list[Entry] = []
    above = {"NS": 0, "EW": 0}
    # 13 is odd, so there is always a side with fewer tricks.
    low: Side = "NS" if split.ns < split.ew else "EW"
    diff = abs(split.ns - split.ew)
    entries.append(make_entry(low, "above", "all_pass_penalty", 100 * diff, diff))
    above[low] += 100 * diff
    for dump in deal.ace_dumps:
        side = SIDE_OF[dump.seat]
        points = 100 * dump.trick
        entries.append(make_entry(side, "above", "ace_dump", points, dump.trick, dump.seat))
        above[side] += points
    if rules.holdings_in_misere:
        for hand in deal.aces_in_hand:
            side = SIDE_OF[hand.seat]
            points = 200 if hand.count == 3 else 400
            entries.append(make_entry(side, "above", "aces_in_hand", points, hand.count, hand.seat))
            above[side] += points
        for run in deal.sequences:
            side = SIDE_OF[run.seat]
            points = 100 * (run.length - 2)
            entries.append(
                make_entry(side, "above", "sequence", points, run.length, run.seat, run.suit)
            )
            above[side] += points
    return DealEntries(tuple(entries), above["NS"], above["EW"], 0, 0)


def _score_contract(deal: VintDeal, contract: Contract, rules: VintRules) -> DealEntries:
    level = contract.level
    denom = contract.denomination
    # Checked by deal_problems; typing.cast would cost a call per deal here.
    declarer: Seat = deal.declarer  # type: ignore[assignment]
    d: Side = SIDE_OF[declarer]
    o: Side = OTHER_SIDE[d]
    m = MULTIPLIER[deal.doubling]
    td: int = deal.declarer_tricks  # type: ignore[assignment]
    to = TRICKS - td
    misere = denom == "M"
    entries: list[Entry] = []
    above_d = above_o = 0

    # Contract result (§4.4); misère counts from its limit of 7 - L tricks.
    margin = (7 - level) - td if misere else td - (6 + level)
    made = margin >= 0
    if made:
        points = MADE[level] * m
        entries.append(make_entry(d, "above", "made", points))
        above_d += points
        if margin:
            per = rules.overtrick_4 if level == 4 else OVERTRICK[level]
            if per:
                points = per * margin * m
                entries.append(make_entry(d, "above", "overtricks", points, margin))
                above_d += points
    else:
        under = -margin
        points = UNDERTRICK[level] * under * m
        entries.append(make_entry(o, "above", "undertricks", points, under))
        above_o += points
        special = SPECIAL[level]
        if special:
            points = special * m
            entries.append(make_entry(o, "above", "special", points))
            above_o += points

    # Holdings: judged on the cards, not the play, so not doubled by default.
    hm = m if rules.double_scope == "all" else 1
    if not misere or rules.holdings_in_misere:
        honours = deal.honours
        if honours is not None and denom != "G" and not misere:
            points = honours.count * level * 10 * hm
            entries.append(make_entry(honours.side, "above", "honours", points, honours.count))
            if honours.side == d:
                above_d += points
            else:
                above_o += points
        team = deal.grand_aces
        if team is not None:
            points = team.count * level * 10 * hm
            entries.append(make_entry(team.side, "above", "grand_aces", points, team.count))
            if team.side == d:
                above_d += points
            else:
                above_o += points
        grand = denom == "G"
        for hand in deal.aces_in_hand:
            points = (200 if hand.count == 3 else 400) * hm
            if grand and rules.grand_doubles_ace_premium:
                points *= 2
            side = SIDE_OF[hand.seat]
            entries.append(make_entry(side, "above", "aces_in_hand", points, hand.count, hand.seat))
            if side == d:
                above_d += points
            else:
                above_o += points
        for run in deal.sequences:
            points = 100 * (run.length - 2) * hm
            if grand or run.suit == denom:
                points *= 2
            side = SIDE_OF[run.seat]
            entries.append(
                make_entry(side, "above", "sequence", points, run.length, run.seat, run.suit)
            )
            if side == d:
                above_d += points
            else:
                above_o += points

    if misere:
        dm = m if rules.ace_dump_doubled and rules.double_scope != "contract_only" else 1
        for dump in deal.ace_dumps:
            side = SIDE_OF[dump.seat]
            if rules.ace_dump_sides == "declarer_only" and side != d:
                continue
            points = 100 * dump.trick * dm
            entries.append(make_entry(side, "above", "ace_dump", points, dump.trick, dump.seat))
            if side == d:
                above_d += points
            else:
                above_o += points

    # Trick points (§4.3): every trick, both sides by default.
    if misere:
        credit = rules.misere_trick_credit
        if credit == "mirror":
            # Each side is paid for the tricks it managed to lose.
            cd, co = to, td
        elif credit == "as_taken":
            cd, co = td, to
        else:
            cd = co = 0
    else:
        cd, co = td, to
    if rules.odd_tricks_only:
        cd = cd - 6 if cd > 6 else 0
        co = co - 6 if co > 6 else 0
    sides = rules.trick_sides
    if sides != "both":
        co = 0
        if sides == "declarer_if_made" and not made:
            cd = 0
    unit = level * rules.scale * m
    below_d = unit * cd
    below_o = unit * co
    if below_d:
        entries.append(make_entry(d, "below", "trick_points", below_d, cd))
    if below_o:
        entries.append(make_entry(o, "below", "trick_points", below_o, co))

    if d == "NS":
        return DealEntries(tuple(entries), above_d, above_o, below_d, below_o)
    return DealEntries(tuple(entries), above_o, above_d, below_o, below_d)
