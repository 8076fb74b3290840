"""A Vint deal's facts, as a scorer records them (``rules/vint.md`` §2, §3, §5).

Vocabulary
----------
deal
    One hand of the game, from the shuffle to the last trick. The scorer
    records only the facts of §5 (a ``VintDeal``): the final contract, the
    declarer, doubling, tricks and the holdings and ace dumps that score.
contract
    A level L of 4..7 (the declaring side undertakes L + 6 tricks) and a
    denomination: S C D H (spades < clubs < diamonds < hearts: trump suits),
    G (grand, no trumps) or M (misère: the declaring side undertakes to take
    at most 7 - L tricks, at no trumps). Each trick is worth L points.
declarer
    The last bidder of the final contract. His side is the declaring side
    (D), the other side the defenders (O).
doubling
    0 none, 1 doubled, 2 redoubled: the multiplier m is 1, 2 or 4 (§4.8).
honour units
    At a suit contract: the five trump honours (A K Q J 10) plus the four
    aces, the trump ace counted twice: 9 units, so one side always holds 5
    or more. The scorer gives that side and its count (a ``Holding``).
grand aces
    At grand: the side holding 3 or 4 aces, and how many (a ``Holding``).
aces in hand, sequences
    One player holding 3 or 4 aces; a run of n >= 3 cards headed by the ace
    of a suit in one hand.
ace dump
    In misère and all-pass deals (no trumps) an ace is lost only when its
    owner, void in the suit led, discards it on a trick the other side wins.
    The scorer gives the owner's seat and the trick's number (1..13).
misère
    A contract to lose tricks (see contract). No holding premiums.
all-pass
    Nobody bid: the deal is played at no trumps without a declarer; the
    scorer gives both sides' tricks.
problem
    A failed entry check (a ``DealProblem``): the input it concerns as the
    format spells it (``field``, e.g. ``sequences[2].length``), the deal
    field it belongs to (``root``), and what is wrong as data (``code`` and
    ``params``, see ``errors.py``). In messages, list positions are 1-based
    (``sequences[2].length`` is the second run), like deal numbers on a sheet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Final, Literal, cast

from scoring.engines.errors import Params, Problem, RuleError, show_value
from scoring.engines.vint.table import Seat, Side

Suit = Literal["S", "C", "D", "H"]
Denomination = Literal["S", "C", "D", "H", "G", "M"]

SUITS: Final[tuple[Suit, ...]] = ("S", "C", "D", "H")
DENOMINATIONS: Final[tuple[Denomination, ...]] = ("M", "S", "C", "D", "H", "G")
LEVELS: Final = range(4, 8)
SUIT_BY_NAME: Final[Mapping[str, Suit]] = {s: s for s in SUITS}
DENOMINATION_BY_NAME: Final[Mapping[str, Denomination]] = {d: d for d in DENOMINATIONS}
#: The multiplier m of each doubling (§4.8).
MULTIPLIER: Final[Mapping[int, int]] = {0: 1, 1: 2, 2: 4}

#: Every problem code this module can emit (see ``errors.py``).
CODES: Final = frozenset(
    {
        "vint.contract_denomination_invalid",
        "vint.contract_invalid",
        "vint.contract_is_pass",
        "vint.not_an_integer",
    }
)


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract: level 4..7 and denomination (S C D H G M)."""

    level: int
    denomination: Denomination

    def __str__(self) -> str:
        return f"{self.level}{self.denomination}"

    @property
    def is_suit(self) -> bool:
        return self.denomination in SUIT_BY_NAME

    @property
    def is_grand(self) -> bool:
        return self.denomination == "G"

    @property
    def is_misere(self) -> bool:
        return self.denomination == "M"


def parse_contract(text: str) -> Contract | None:
    """``"4H"`` -> ``Contract(4, "H")``; ``"pass"`` -> ``None`` (an all-pass deal)."""
    if text == "pass":
        return None
    if not isinstance(text, str) or len(text) != 2 or text[0] not in "4567":
        raise RuleError(
            f"contract: {show_value(text)} is not a level 4..7 followed by S, C, D, H, G or M, "
            'or "pass"',
            field="contract",
            code="vint.contract_invalid",
            params={"value": show_value(text)},
        )
    denomination = DENOMINATION_BY_NAME.get(text[1])
    if denomination is None:
        raise RuleError(
            f"contract: {show_value(text)}: the denomination must be S, C, D, H, G (grand) "
            "or M (misère)",
            field="contract",
            code="vint.contract_denomination_invalid",
            params={"value": show_value(text)},
        )
    return Contract(int(text[0]), denomination)


@dataclass(frozen=True, slots=True)
class Holding:
    """The side holding the majority of honour units (5..9) or of aces at grand (3..4)."""

    side: Side
    count: int


@dataclass(frozen=True, slots=True)
class AcesInHand:
    """One player holding 3 or 4 aces."""

    seat: Seat
    count: int


@dataclass(frozen=True, slots=True)
class SuitSequence:
    """A run of ``length`` cards headed by the ace of ``suit`` in ``seat``'s hand.

    Under ``sequences_partnership`` the run may be split between partners;
    ``seat`` then names either of them.
    """

    seat: Seat
    suit: Suit
    length: int


@dataclass(frozen=True, slots=True)
class AceDump:
    """``seat``'s ace was won by the other side on trick number ``trick`` (1..13)."""

    seat: Seat
    trick: int


@dataclass(frozen=True, slots=True)
class TrickSplit:
    """Tricks of each side in an all-pass deal (they sum to 13)."""

    ns: int
    ew: int

    def of(self, side: Side) -> int:
        return self.ns if side == "NS" else self.ew


@dataclass(frozen=True, slots=True)
class VintDeal:
    """The facts of one deal as a scorer records them (§5).

    ``contract`` is None for an all-pass deal; then ``declarer`` and
    ``declarer_tricks`` are None, ``doubling`` is 0 and ``tricks`` holds both
    sides' tricks. Use ``contract_deal`` and ``all_pass_deal`` to build one
    from plain values.
    """

    contract: Contract | None
    declarer: Seat | None = None
    doubling: int = 0
    declarer_tricks: int | None = None
    honours: Holding | None = None
    grand_aces: Holding | None = None
    aces_in_hand: tuple[AcesInHand, ...] = ()
    sequences: tuple[SuitSequence, ...] = ()
    ace_dumps: tuple[AceDump, ...] = ()
    tricks: TrickSplit | None = None

    @property
    def is_all_pass(self) -> bool:
        return self.contract is None


def contract_deal(
    contract: str | Contract,
    declarer: str,
    declarer_tricks: int,
    *,
    doubling: int = 0,
    honours: tuple[str, int] | None = None,
    grand_aces: tuple[str, int] | None = None,
    aces_in_hand: Iterable[tuple[str, int]] = (),
    sequences: Iterable[tuple[str, str, int]] = (),
    ace_dumps: Iterable[tuple[str, int]] = (),
) -> VintDeal:
    """A contract deal from plain values, e.g.
    ``contract_deal("4H", "N", 10, honours=("NS", 5))``. Not validated here:
    ``score_deal`` and ``deal_problems`` check it."""
    parsed = parse_contract(contract) if isinstance(contract, str) else contract
    if parsed is None:
        raise RuleError(
            'contract: "pass" is an all-pass deal: use all_pass_deal',
            field="contract",
            code="vint.contract_is_pass",
        )
    return VintDeal(
        contract=parsed,
        declarer=cast(Seat, declarer),
        doubling=doubling,
        declarer_tricks=declarer_tricks,
        honours=None if honours is None else Holding(cast(Side, honours[0]), honours[1]),
        grand_aces=None
        if grand_aces is None
        else Holding(cast(Side, grand_aces[0]), grand_aces[1]),
        aces_in_hand=tuple(AcesInHand(cast(Seat, s), n) for s, n in aces_in_hand),
        sequences=tuple(SuitSequence(cast(Seat, s), cast(Suit, u), n) for s, u, n in sequences),
        ace_dumps=tuple(AceDump(cast(Seat, s), t) for s, t in ace_dumps),
    )


def all_pass_deal(
    ns_tricks: int | None,
    ew_tricks: int | None,
    *,
    ace_dumps: Iterable[tuple[str, int]] = (),
) -> VintDeal:
    """An all-pass deal; ``None, None`` for one that was redealt (``all_pass=redeal``)."""
    split = None if ns_tricks is None or ew_tricks is None else TrickSplit(ns_tricks, ew_tricks)
    return VintDeal(
        contract=None,
        tricks=split,
        ace_dumps=tuple(AceDump(cast(Seat, s), t) for s, t in ace_dumps),
    )


@dataclass(frozen=True, slots=True)
class DealProblem:
    """One failed entry check (§5): the input it concerns and why.

    ``field`` is the input as the format spells it (``sequences[2].length``);
    ``root`` the deal field it belongs to (``sequences``), set where the
    problem is found (``field`` itself when not given); ``code`` and
    ``params`` say what is wrong as data (see ``errors.py``).
    """

    field: str
    message: str
    code: str = ""
    params: Params = dataclass_field(default_factory=dict, hash=False)
    root: str = ""

    def __post_init__(self) -> None:
        if not self.root:
            object.__setattr__(self, "root", self.field)

    @property
    def line(self) -> str:
        return f"{self.field}: {self.message}"

    @property
    def problem(self) -> Problem:
        return Problem(self.code, dict(self.params), self.field, self.line, self.root)

    def error(self) -> RuleError:
        return RuleError(
            self.line, field=self.field, code=self.code, params=self.params, root=self.root
        )


def in_range(
    out: list[DealProblem],
    field: str,
    value: object,
    low: int,
    high: int,
    code: str,
    *,
    root: str = "",
    **extra: int | str,
) -> bool:
    """True if ``value`` is an integer in low..high, else note why and return False."""
    if type(value) is not int:
        out.append(
            DealProblem(
                field,
                f"{show_value(value)} is not an integer",
                "vint.not_an_integer",
                {"value": show_value(value), **extra},
                root,
            )
        )
        return False
    if not low <= value <= high:
        out.append(
            DealProblem(
                field,
                f"{value} is outside {low}..{high}",
                code,
                {"value": value, "low": low, "high": high, **extra},
                root,
            )
        )
        return False
    return True
