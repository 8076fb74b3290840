"""Scoring engine for Vint, Estonian form (after Parlett).

The specification is ``shared/rules/vint.md``; section numbers below refer to
it, option names (A1..A30) to its §7 table, written in snake_case as in
``shared/formats/scoresheet-json.md``.

Vocabulary
----------
seat
    N, E, S, W, clockwise. Partners sit opposite each other.
side
    A partnership: **NS** (N and S) or **EW** (E and W). Every score belongs
    to a side and is written in both partners' columns (§4.10).
deal
    One hand of the game, from the shuffle to the last trick. The scorer
    records only the facts of §5 (a ``VintDeal``): the final contract, the
    declarer, doubling, tricks and the holdings and ace dumps that score.
trick
    Four cards, one from each player; 13 tricks per deal.
declarer
    The last bidder of the final contract. His side is the declaring side
    (D), the other side the defenders (O).
contract
    A level L of 4..7 (the declaring side undertakes L + 6 tricks) and a
    denomination: S C D H (spades < clubs < diamonds < hearts: trump suits),
    G (grand, no trumps) or M (misère: the declaring side undertakes to take
    at most 7 - L tricks, at no trumps). Each trick is worth L points.
doubling
    0 none, 1 doubled, 2 redoubled: the multiplier m is 1, 2 or 4 (§4.8).
above / below the line
    Below: trick points only, the points that count toward game. Above:
    everything else (contract results, holdings, ace dumps, bonuses).
game
    A side whose below-the-line total since the last **line** reaches 60. No
    points in itself. Then a line is drawn and both sides' running
    below-the-line totals (part-scores) restart at 0.
rubber
    Ends four deals after a side won its second game. That side scores 400
    (the rubber bonus); the four **extra deals** that follow are played
    whoever wins them, and a side completing its 3rd, 4th, ... game in them
    scores 200 x the game's number.
honour units
    At a suit contract: the five trump honours (A K Q J 10) plus the four
    aces, the trump ace counted twice: 9 units, so one side always holds 5
    or more and scores units x L x 10.
grand aces
    At grand: a side holding 3 or 4 aces scores aces x L x 10.
aces in hand, sequences
    One player holding 3 / 4 aces scores 200 / 400; a run headed by the ace
    of n >= 3 cards in one hand scores 100 x (n - 2), doubled in trumps and
    in every suit at grand.
ace dump
    In misère and all-pass deals (no trumps) an ace is lost only when its
    owner, void in the suit led, discards it on a trick the other side wins.
    The owner's side then scores 100 x the trick's number (1..13).
misère
    A contract to lose tricks (see contract). No holding premiums.
all-pass
    Nobody bid: the deal is played at no trumps without a declarer; the side
    taking fewer tricks scores 100 x the difference, nothing goes below.
session
    Three rubbers; partners change every rubber so that each player partners
    each other player once (§1). Results are per player. Under
    ``session_structure="rotated"`` (A31, the default) a fourth rubber or a
    partnership seen in an earlier rubber is an error; ``"free"`` allows any
    number of rubbers and any seating.
partnership
    Two players sitting opposite each other for a rubber (one side).

Index conventions: in messages, list positions are 1-based
(``sequences[2].length`` is the second run), like deal numbers on a sheet.

The hot path (``score_deal`` and ``rubber_apply``) is written for speed
(see ``benchmarks/bench_vint_engine.py``): the common deal is validated in a
few tests, entries are interned value objects, and the per-deal objects fill
their fields directly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from dataclasses import field as dataclass_field
from difflib import get_close_matches
from typing import Final, Literal, cast

from scoring.engines.errors import EngineBug, Params, Problem, RuleError

Seat = Literal["N", "E", "S", "W"]
Side = Literal["NS", "EW"]
Suit = Literal["S", "C", "D", "H"]
Denomination = Literal["S", "C", "D", "H", "G", "M"]
Where = Literal["above", "below"]
Phase = Literal["main", "extra"]
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

SEATS: Final[tuple[Seat, ...]] = ("N", "E", "S", "W")
SIDES: Final[tuple[Side, ...]] = ("NS", "EW")
SUITS: Final[tuple[Suit, ...]] = ("S", "C", "D", "H")
DENOMINATIONS: Final[tuple[Denomination, ...]] = ("M", "S", "C", "D", "H", "G")
LEVELS: Final = range(4, 8)
TRICKS: Final = 13
EXTRA_DEALS: Final = 4
GAME_POINTS: Final = 60
RUBBER_BONUS: Final = 400
EXTRA_GAME_UNIT: Final = 200

SIDE_OF: Final[Mapping[str, Side]] = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
OTHER_SIDE: Final[Mapping[str, Side]] = {"NS": "EW", "EW": "NS"}
SEATS_OF: Final[Mapping[Side, tuple[Seat, Seat]]] = {"NS": ("N", "S"), "EW": ("E", "W")}
_NEXT_SEAT: Final[Mapping[str, Seat]] = {"N": "E", "E": "S", "S": "W", "W": "N"}
_PREV_SEAT: Final[Mapping[str, Seat]] = {"N": "W", "E": "N", "S": "E", "W": "S"}
_SEAT_BY_NAME: Final[Mapping[str, Seat]] = {s: s for s in SEATS}
_SIDE_BY_NAME: Final[Mapping[str, Side]] = {s: s for s in SIDES}
_SUIT_BY_NAME: Final[Mapping[str, Suit]] = {s: s for s in SUITS}
_DENOM_BY_NAME: Final[Mapping[str, Denomination]] = {d: d for d in DENOMINATIONS}
_MULTIPLIER: Final[Mapping[int, int]] = {0: 1, 1: 2, 2: 4}

# §4.4. The "special bonus" is paid once when a slam-level bid is beaten.
MADE: Final[Mapping[int, int]] = {4: 1000, 5: 2000, 6: 3000, 7: 4500}
OVERTRICK: Final[Mapping[int, int]] = {4: 0, 5: 200, 6: 200, 7: 0}
UNDERTRICK: Final[Mapping[int, int]] = {4: 400, 5: 500, 6: 600, 7: 700}
SPECIAL: Final[Mapping[int, int]] = {4: 0, 5: 0, 6: 400, 7: 1000}

#: Every problem code this module can emit; see ``errors.py``. The Django
#: layer has a sentence for each.
CODES: Final = frozenset(
    {
        # Options (the ``rules.option_*`` codes are shared with Kop).
        "rules.option_choice",
        "rules.option_flag",
        "rules.option_integer",
        "rules.option_misspelt",
        "rules.option_unknown",
        "vint.option_level_min_unsupported",
        # Contracts and the entry checks of §5.
        "vint.ace_dump_eldest_leads",
        "vint.ace_dump_repeated",
        "vint.ace_dumps_both_sides",
        "vint.ace_dumps_exceed_tricks",
        "vint.ace_dumps_not_here",
        "vint.ace_dumps_too_many",
        "vint.aces_in_hand_implied",
        "vint.aces_in_hand_several",
        "vint.aces_too_many",
        "vint.all_pass_redealt",
        "vint.contract_denomination_invalid",
        "vint.contract_invalid",
        "vint.contract_is_pass",
        "vint.declarer_missing",
        "vint.declarer_on_all_pass",
        "vint.declarer_tricks_missing",
        "vint.declarer_tricks_on_all_pass",
        "vint.doubling_invalid",
        "vint.doubling_on_all_pass",
        "vint.dump_trick_out_of_range",
        "vint.grand_aces_contradicted",
        "vint.grand_aces_contradicted_split",
        "vint.grand_aces_count_out_of_range",
        "vint.grand_aces_not_here",
        "vint.hand_count_out_of_range",
        "vint.holdings_not_here",
        "vint.honours_contradicted",
        "vint.honours_count_out_of_range",
        "vint.honours_missing",
        "vint.honours_not_here",
        "vint.not_an_integer",
        "vint.seat_invalid",
        "vint.sequence_length_out_of_range",
        "vint.sequence_suit_repeated",
        "vint.sequences_exceed_aces_in_hand",
        "vint.sequences_too_long_hand",
        "vint.sequences_too_long_side",
        "vint.side_invalid",
        "vint.side_tricks_out_of_range",
        "vint.suit_invalid",
        "vint.tricks_missing",
        "vint.tricks_on_contract",
        "vint.tricks_out_of_range",
        "vint.tricks_sum",
        # Rubbers and sessions.
        "vint.deal_number_invalid",
        "vint.player_not_in_rubber",
        "vint.players_not_four",
        "vint.rubber_not_four",
        "vint.rubber_over",
        "vint.rubber_players_differ",
        "vint.rubbers_none",
        "vint.session_too_many_rubbers",
        "vint.partnership_repeated",
    }
)


# ============================================================================ rules


@dataclass(frozen=True)
class _Option:
    default: object
    values: tuple[object, ...] | None  # None: any non-negative integer
    source: str  # the row of rules/vint.md §7


# Every §7 option that has a snake_case name. A few change nothing the engine
# computes (they concern seating or the auction), but a sheet may carry them,
# so they are accepted and kept to survive an export and re-import.
OPTIONS: Final[Mapping[str, _Option]] = {
    "misere_trick_credit": _Option("mirror", ("mirror", "as_taken", "none"), "A5"),
    "trick_sides": _Option("both", ("both", "declarer_only", "declarer_if_made"), "A4"),
    "double_scope": _Option("play", ("play", "all", "contract_only"), "A13"),
    "extra_game_count": _Option("per_side", ("per_side", "overall"), "A18"),
    "simultaneous_game": _Option("higher", ("higher", "declarer_first", "both"), "A17"),
    "grand_doubles_ace_premium": _Option(False, (False, True), "A10"),
    "level_min": _Option(4, (4,), "A1"),
    "scale": _Option(1, (1, 10), "A2"),
    "odd_tricks_only": _Option(False, (False, True), "A3"),
    "all_pass": _Option("play", ("play", "redeal"), "A6"),
    "holdings_at": _Option(
        "first_lead", ("first_lead", "before_defender_exchange"), "A7 (no score effect)"
    ),
    "team_aces_all_contracts": _Option(False, (False, True), "A8"),
    "sequences_partnership": _Option(False, (False, True), "A9"),
    "holdings_in_misere": _Option(False, (False, True), "A11"),
    "ace_dump_sides": _Option("both", ("both", "declarer_only"), "A12"),
    "ace_dump_doubled": _Option(True, (True, False), "A12"),
    "game_uses_undoubled_tricks": _Option(False, (False, True), "A14"),
    "declarer_fixed_after_first_auction": _Option(False, (False, True), "A15 (no score effect)"),
    "second_auction_same_denomination": _Option(False, (False, True), "A16 (no score effect)"),
    "totals_above_only": _Option(False, (False, True), "A19"),
    "result_method": _Option("net", ("net", "rubber_differential"), "A20"),
    "overtrick_4": _Option(0, None, "A21"),
    "exchange_rule_on_first_auction_level": _Option(False, (False, True), "A25 (no score effect)"),
    "unfinished_rubber_bonus": _Option("none", ("none", "200_per_game_lead"), "A27"),
    "round_to_100": _Option(False, (False, True), "A30"),
    "session_structure": _Option("rotated", ("rotated", "free"), "A31"),
}


def _option_problem(name: str, value: object) -> RuleError | None:
    """Why ``value`` is not a valid value of option ``name`` (not raised), or None."""
    spec = OPTIONS.get(name)
    if spec is None:
        hint = get_close_matches(name, OPTIONS, n=1)
        return RuleError(
            f"{name}: unknown option (known: {', '.join(sorted(OPTIONS))})",
            field=name,
            code="rules.option_misspelt" if hint else "rules.option_unknown",
            params={"option": name, "game": "vint"} | ({"suggestion": hint[0]} if hint else {}),
        )
    shown = {"option": name, "value": _show(value)}
    if spec.values is None:
        if type(value) is not int or value < 0:
            return RuleError(
                f"{name}: {_show(value)} is not a non-negative integer",
                field=name,
                code="rules.option_integer",
                params=shown,
            )
        return None
    # JSON true is not 1 and 4 is not "4": compare the types as well.
    if any(type(value) is type(v) and value == v for v in spec.values):
        return None
    if name == "level_min" and value == 1 and type(value) is int:
        return RuleError(
            "level_min: 1 is not supported: rules/vint.md §7 A1 leaves the made, "
            "overtrick and special values of levels 1-3 to be supplied",
            field=name,
            code="vint.option_level_min_unsupported",
            params=shown,
        )
    allowed = ", ".join(_show(v) for v in spec.values)
    message = f"{name}: {_show(value)} is not one of {allowed}"
    if all(type(v) is bool for v in spec.values):
        return RuleError(message, field=name, code="rules.option_flag", params=shown)
    return RuleError(
        message,
        field=name,
        code="rules.option_choice",
        params={**shown, "allowed": [v if isinstance(v, str) else _show(v) for v in spec.values]},
    )


def _show(value: object) -> str:
    # Quote values as the JSON the scorer typed: true, null, "4H".
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


@dataclass(frozen=True, slots=True)
class VintRules:
    """Every §7 option of ``rules/vint.md``; the defaults are the document's.

    Options marked "no score effect" (A7, A15, A16, A25) concern the auction or
    seating only; they are kept so that a sheet carrying them round-trips.
    """

    misere_trick_credit: Literal["mirror", "as_taken", "none"] = "mirror"
    trick_sides: Literal["both", "declarer_only", "declarer_if_made"] = "both"
    double_scope: Literal["play", "all", "contract_only"] = "play"
    extra_game_count: Literal["per_side", "overall"] = "per_side"
    simultaneous_game: Literal["higher", "declarer_first", "both"] = "higher"
    grand_doubles_ace_premium: bool = False
    level_min: int = 4
    scale: int = 1
    odd_tricks_only: bool = False
    all_pass: Literal["play", "redeal"] = "play"
    holdings_at: Literal["first_lead", "before_defender_exchange"] = "first_lead"
    team_aces_all_contracts: bool = False
    sequences_partnership: bool = False
    holdings_in_misere: bool = False
    ace_dump_sides: Literal["both", "declarer_only"] = "both"
    ace_dump_doubled: bool = True
    game_uses_undoubled_tricks: bool = False
    declarer_fixed_after_first_auction: bool = False
    second_auction_same_denomination: bool = False
    totals_above_only: bool = False
    result_method: Literal["net", "rubber_differential"] = "net"
    overtrick_4: int = 0
    exchange_rule_on_first_auction_level: bool = False
    unfinished_rubber_bonus: Literal["none", "200_per_game_lead"] = "none"
    round_to_100: bool = False
    session_structure: Literal["rotated", "free"] = "rotated"

    def __post_init__(self) -> None:
        for f in fields(self):
            problem = _option_problem(f.name, getattr(self, f.name))
            if problem is not None:
                raise problem


DEFAULT_RULES: Final = VintRules()


def collect_rules(options: Mapping[str, object]) -> tuple[VintRules, list[RuleError]]:
    """Check every option; return the rules built from the valid ones and a
    ``RuleError`` (not raised) for each bad one (empty when all are valid)."""
    problems: list[RuleError] = []
    good: dict[str, object] = {}
    for name, value in options.items():
        problem = _option_problem(str(name), value)
        if problem is None:
            good[name] = value
        else:
            problems.append(problem)
    return VintRules(**good), problems  # type: ignore[arg-type]


def rules_problems(options: Mapping[str, object]) -> tuple[VintRules, list[tuple[str, str]]]:
    """``collect_rules`` with the problems as ``(option name, message)`` pairs."""
    rules, problems = collect_rules(options)
    return rules, [(p.field or "", p.message) for p in problems]


def parse_rules(options: Mapping[str, object]) -> VintRules:
    """``VintRules`` from a mapping of snake_case option names to values.

    Omitted options take the default; an unknown name or value raises
    ``RuleError`` naming the option (the first one found).
    """
    rules, problems = collect_rules(options)
    if problems:
        raise problems[0]
    return rules


def rules_to_options(rules: VintRules) -> dict[str, object]:
    """Every option of ``rules`` by its format name; ``parse_rules`` inverts it."""
    return {f.name: getattr(rules, f.name) for f in fields(rules)}


# ============================================================================ deals


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract: level 4..7 and denomination (S C D H G M)."""

    level: int
    denomination: Denomination

    def __str__(self) -> str:
        return f"{self.level}{self.denomination}"

    @property
    def is_suit(self) -> bool:
        return self.denomination in _SUIT_BY_NAME

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
            f"contract: {_show(text)} is not a level 4..7 followed by S, C, D, H, G or M, "
            'or "pass"',
            field="contract",
            code="vint.contract_invalid",
            params={"value": _show(text)},
        )
    denomination = _DENOM_BY_NAME.get(text[1])
    if denomination is None:
        raise RuleError(
            f"contract: {_show(text)}: the denomination must be S, C, D, H, G (grand) "
            "or M (misère)",
            field="contract",
            code="vint.contract_denomination_invalid",
            params={"value": _show(text)},
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


# ======================================================================= validation


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


def _in_range(
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
                f"{_show(value)} is not an integer",
                "vint.not_an_integer",
                {"value": _show(value), **extra},
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


def _kind(contract: Contract | None) -> str:
    """The kind of deal, as a param: "suit", "grand", "misere" or "pass"."""
    if contract is None:
        return "pass"
    return {"G": "grand", "M": "misere"}.get(contract.denomination, "suit")


def deal_problems(
    deal: VintDeal, rules: VintRules = DEFAULT_RULES, *, unknown: frozenset[str] = frozenset()
) -> list[DealProblem]:
    """Every entry check of §5 that ``deal``'s fields allow, in field order.

    ``unknown`` names fields whose input was unreadable (a sheet parser marks
    them): checks relating them to other fields are skipped, so that one typo
    does not produce a cascade of follow-on problems.
    """
    out: list[DealProblem] = []
    contract = deal.contract
    if contract is None:
        _check_all_pass(deal, rules, unknown, out)
        return out
    if (
        type(contract.level) is not int
        or contract.level not in LEVELS
        or contract.denomination not in _DENOM_BY_NAME
    ):
        text = f"{contract.level}{contract.denomination}"
        out.append(
            DealProblem(
                "contract",
                f"{text} is not a contract",
                "vint.contract_invalid",
                {"value": _show(text)},
            )
        )
        return out
    # The common case (a suit or grand contract, nothing unusual) in few tests.
    denom = contract.denomination
    if (
        deal.declarer in _SEAT_BY_NAME
        and deal.doubling in _MULTIPLIER
        and type(deal.doubling) is int
        and type(deal.declarer_tricks) is int
        and 0 <= deal.declarer_tricks <= TRICKS
        and deal.tricks is None
        and not deal.ace_dumps
        and not deal.aces_in_hand
        and not deal.sequences
    ):
        honours = deal.honours
        team = deal.grand_aces
        if denom in _SUIT_BY_NAME:
            if (
                team is None
                and honours is not None
                and honours.side in _SIDE_BY_NAME
                and type(honours.count) is int
                and 5 <= honours.count <= 9
            ):
                return out
        elif honours is None and (
            team is None
            or (
                denom == "G"
                and team.side in _SIDE_BY_NAME
                and type(team.count) is int
                and 3 <= team.count <= 4
            )
        ):
            return out
    _check_contract(deal, contract, rules, unknown, out)
    return out


def _check_contract(
    deal: VintDeal,
    contract: Contract,
    rules: VintRules,
    unknown: frozenset[str],
    out: list[DealProblem],
) -> None:
    name = str(contract)
    denom = contract.denomination
    kind = {"G": "a grand", "M": "a misère"}.get(denom, "a suit contract")
    # What a "not on this kind of deal" problem needs to say so.
    here: Params = {"contract": name, "kind": _kind(contract)}
    if deal.declarer is None:
        out.append(DealProblem("declarer", "required on a contract", "vint.declarer_missing"))
    elif deal.declarer not in _SEAT_BY_NAME:
        out.append(
            DealProblem(
                "declarer",
                f"{_show(deal.declarer)} is not a seat (N, E, S, W)",
                "vint.seat_invalid",
                {"value": _show(deal.declarer)},
            )
        )
    if type(deal.doubling) is not int or deal.doubling not in _MULTIPLIER:
        out.append(
            DealProblem(
                "doubling",
                f"{_show(deal.doubling)} is not 0 (none), 1 (doubled) or 2 (redoubled)",
                "vint.doubling_invalid",
                {"value": _show(deal.doubling)},
            )
        )
    tricks_ok = False
    if deal.declarer_tricks is None:
        out.append(
            DealProblem("declarer_tricks", "required on a contract", "vint.declarer_tricks_missing")
        )
    elif _in_range(
        out, "declarer_tricks", deal.declarer_tricks, 0, TRICKS, "vint.tricks_out_of_range"
    ):
        tricks_ok = "declarer_tricks" not in unknown
    if deal.tricks is not None:
        out.append(
            DealProblem(
                "tricks",
                "only on an all-pass deal (a contract uses declarer_tricks)",
                "vint.tricks_on_contract",
                dict(here),
            )
        )

    honours_ok = False
    if denom in _SUIT_BY_NAME:
        if deal.honours is None:
            if "honours" not in unknown:
                out.append(
                    DealProblem(
                        "honours",
                        f"required on {name}: the side holding 5 or more of the 9 honour "
                        "units, and how many (5..9)",
                        "vint.honours_missing",
                        {"contract": name},
                    )
                )
        else:
            honours_ok = _check_holding(
                deal.honours, "honours", 5, 9, "vint.honours_count_out_of_range", out
            )
    elif deal.honours is not None:
        out.append(
            DealProblem(
                "honours",
                f"only on suit contracts; {name} is {kind}",
                "vint.honours_not_here",
                dict(here),
            )
        )

    grand_ok = False
    if denom == "G" or (rules.team_aces_all_contracts and denom in _SUIT_BY_NAME):
        if deal.grand_aces is not None:
            grand_ok = _check_holding(
                deal.grand_aces, "grand_aces", 3, 4, "vint.grand_aces_count_out_of_range", out
            )
        else:
            grand_ok = True
    elif deal.grand_aces is not None:
        out.append(
            DealProblem(
                "grand_aces",
                f"only on grand contracts; {name} is {kind}",
                "vint.grand_aces_not_here",
                dict(here),
            )
        )

    holdings_allowed = denom != "M" or rules.holdings_in_misere
    hand_ok, seq_ok = _check_hand_and_runs(
        deal, holdings_allowed, f"{name} is {kind}", here, rules, out
    )

    if denom == "M":
        declarer_ok = deal.declarer in _SEAT_BY_NAME and "declarer" not in unknown
        _check_dumps(
            deal,
            # Dumps of a side land in the other side's tricks.
            tricks_of=(
                None
                if not (tricks_ok and declarer_ok)
                else _misere_tricks(cast(Seat, deal.declarer), cast(int, deal.declarer_tricks))
            ),
            eldest=_PREV_SEAT[cast(str, deal.declarer)] if declarer_ok else None,
            unknown=unknown,
            out=out,
        )
    elif deal.ace_dumps:
        out.append(
            DealProblem(
                "ace_dumps",
                f"only in misère and all-pass deals; {name} is {kind}",
                "vint.ace_dumps_not_here",
                dict(here),
            )
        )

    if hand_ok and seq_ok and holdings_allowed:
        _check_aces(
            deal,
            denom,
            rules,
            honours=deal.honours if honours_ok and "honours" not in unknown else None,
            grand=(denom == "G" and grand_ok and "grand_aces" not in unknown),
            unknown=unknown,
            out=out,
        )


def _misere_tricks(declarer: Seat, declarer_tricks: int) -> dict[Side, int]:
    side = SIDE_OF[declarer]
    return {side: declarer_tricks, OTHER_SIDE[side]: TRICKS - declarer_tricks}


def _check_holding(
    holding: Holding, name: str, low: int, high: int, count_code: str, out: list[DealProblem]
) -> bool:
    ok = True
    if holding.side not in _SIDE_BY_NAME:
        out.append(
            DealProblem(
                f"{name}.side",
                f"{_show(holding.side)} is not a side (NS, EW)",
                "vint.side_invalid",
                {"value": _show(holding.side)},
                name,
            )
        )
        ok = False
    if not _in_range(out, f"{name}.count", holding.count, low, high, count_code, root=name):
        ok = False
    return ok


def _check_hand_and_runs(
    deal: VintDeal,
    allowed: bool,
    why_not: str,
    here: Params,
    rules: VintRules,
    out: list[DealProblem],
) -> tuple[bool, bool]:
    hand_ok = True
    if deal.aces_in_hand:
        if not allowed:
            out.append(
                DealProblem(
                    "aces_in_hand",
                    f"no holding premiums here; {why_not}",
                    "vint.holdings_not_here",
                    dict(here),
                )
            )
            hand_ok = False
        elif len(deal.aces_in_hand) > 1:
            out.append(
                DealProblem(
                    "aces_in_hand",
                    f"{len(deal.aces_in_hand)} players given; only one player can hold 3 or 4 aces",
                    "vint.aces_in_hand_several",
                    {"count": len(deal.aces_in_hand)},
                )
            )
            hand_ok = False
        for i, hand in enumerate(deal.aces_in_hand, 1):
            if hand.seat not in _SEAT_BY_NAME:
                out.append(
                    DealProblem(
                        f"aces_in_hand[{i}].seat",
                        f"{_show(hand.seat)} is not a seat",
                        "vint.seat_invalid",
                        {"value": _show(hand.seat), "index": i},
                        "aces_in_hand",
                    )
                )
                hand_ok = False
            if not _in_range(
                out,
                f"aces_in_hand[{i}].count",
                hand.count,
                3,
                4,
                "vint.hand_count_out_of_range",
                root="aces_in_hand",
                index=i,
            ):
                hand_ok = False
    seq_ok = True
    if deal.sequences:
        if not allowed:
            out.append(
                DealProblem(
                    "sequences",
                    f"no holding premiums here; {why_not}",
                    "vint.holdings_not_here",
                    dict(here),
                )
            )
            seq_ok = False
        seen: dict[str, int] = {}
        cards: dict[str, int] = {}
        for i, run in enumerate(deal.sequences, 1):
            if run.seat not in _SEAT_BY_NAME:
                out.append(
                    DealProblem(
                        f"sequences[{i}].seat",
                        f"{_show(run.seat)} is not a seat",
                        "vint.seat_invalid",
                        {"value": _show(run.seat), "index": i},
                        "sequences",
                    )
                )
                seq_ok = False
            if run.suit not in _SUIT_BY_NAME:
                out.append(
                    DealProblem(
                        f"sequences[{i}].suit",
                        f"{_show(run.suit)} is not a suit (S, C, D, H)",
                        "vint.suit_invalid",
                        {"value": _show(run.suit), "index": i},
                        "sequences",
                    )
                )
                seq_ok = False
            elif run.suit in seen:
                out.append(
                    DealProblem(
                        f"sequences[{i}].suit",
                        f"a second run headed by the {run.suit} ace "
                        f"(see sequences[{seen[run.suit]}]); there is one ace per suit",
                        "vint.sequence_suit_repeated",
                        {"suit": run.suit, "index": i, "first": seen[run.suit]},
                        "sequences",
                    )
                )
                seq_ok = False
            else:
                seen[run.suit] = i
            if not _in_range(
                out,
                f"sequences[{i}].length",
                run.length,
                3,
                TRICKS,
                "vint.sequence_length_out_of_range",
                root="sequences",
                index=i,
            ):
                seq_ok = False
            elif run.seat in _SEAT_BY_NAME:
                holder: str = SIDE_OF[run.seat] if rules.sequences_partnership else run.seat
                cards[holder] = cards.get(holder, 0) + run.length
        limit = 2 * TRICKS if rules.sequences_partnership else TRICKS
        for holder, n in cards.items():
            if n > limit:
                if rules.sequences_partnership:
                    whose = f"side {holder}"
                    code, params = "vint.sequences_too_long_side", {"side": holder}
                else:
                    whose = f"{holder}'s hand"
                    code, params = "vint.sequences_too_long_hand", {"seat": holder}
                out.append(
                    DealProblem(
                        "sequences",
                        f"the runs in {whose} add up to {n} cards; it holds {limit}",
                        code,
                        {**params, "cards": n, "limit": limit},
                    )
                )
                seq_ok = False
    return hand_ok, seq_ok


def _check_aces(
    deal: VintDeal,
    denom: str | None,
    rules: VintRules,
    *,
    honours: Holding | None,
    grand: bool,
    unknown: frozenset[str],
    out: list[DealProblem],
) -> None:
    """Aces implied by aces_in_hand and the runs against honours / grand_aces (§5)."""
    if "aces_in_hand" in unknown or "sequences" in unknown:
        return
    if not deal.aces_in_hand and not deal.sequences:
        return  # nothing implies any ace or honour
    hand = deal.aces_in_hand[0] if deal.aces_in_hand else None
    least: dict[Side, int] = {"NS": 0, "EW": 0}
    if rules.sequences_partnership:
        suits_of_side: dict[Side, set[str]] = {"NS": set(), "EW": set()}
        for run in deal.sequences:
            suits_of_side[SIDE_OF[run.seat]].add(run.suit)
        for side in SIDES:
            in_hand = hand.count if hand is not None and SIDE_OF[hand.seat] == side else 0
            least[side] = max(in_hand, len(suits_of_side[side]))
    else:
        suits_of_seat: dict[str, set[str]] = {}
        for run in deal.sequences:
            suits_of_seat.setdefault(run.seat, set()).add(run.suit)
        for seat in SEATS:
            suits = suits_of_seat.get(seat, set())
            if hand is not None and hand.seat == seat:
                if len(suits) > hand.count:
                    out.append(
                        DealProblem(
                            "sequences",
                            f"{seat} has runs headed by {len(suits)} aces, but aces_in_hand "
                            f"gives {seat} {hand.count}",
                            "vint.sequences_exceed_aces_in_hand",
                            {"seat": seat, "runs": len(suits), "aces": hand.count},
                        )
                    )
                    return
                least[SIDE_OF[seat]] += hand.count
            else:
                if len(suits) >= 3:
                    out.append(
                        DealProblem(
                            "aces_in_hand",
                            f"{seat} has runs headed by {len(suits)} aces, so {seat} holds "
                            f"{len(suits)} aces in one hand: enter them in aces_in_hand",
                            "vint.aces_in_hand_implied",
                            {"seat": seat, "runs": len(suits)},
                        )
                    )
                    return
                least[SIDE_OF[seat]] += len(suits)
    needed = least["NS"] + least["EW"]
    if needed > 4:
        out.append(
            DealProblem(
                "aces_in_hand" if hand is not None else "sequences",
                f"aces_in_hand and sequences need {needed} different aces; there are 4",
                "vint.aces_too_many",
                {"needed": needed},
            )
        )
        return
    if grand:
        holding = deal.grand_aces
        for side in SIDES:
            if holding is None:
                has = 2
            else:
                has = holding.count if holding.side == side else 4 - holding.count
            if least[side] > has:
                said = "omitted (a 2-2 split)" if holding is None else f"gives {side} {has}"
                out.append(
                    DealProblem(
                        "grand_aces",
                        f"{side} holds at least {least[side]} aces (aces_in_hand, sequences); "
                        f"grand_aces {said}",
                        "vint.grand_aces_contradicted_split"
                        if holding is None
                        else "vint.grand_aces_contradicted",
                        {"side": side, "least": least[side], "has": has},
                    )
                )
                return
    elif honours is not None and denom in _SUIT_BY_NAME:
        trump_honours: dict[Side, int] = {"NS": 0, "EW": 0}
        for run in deal.sequences:
            if run.suit == denom:
                trump_honours[SIDE_OF[run.seat]] = min(run.length, 5)
        if hand is not None and hand.count == 4:
            side = SIDE_OF[hand.seat]
            trump_honours[side] = max(trump_honours[side], 1)
        for side in SIDES:
            units = least[side] + trump_honours[side]
            has = honours.count if honours.side == side else 9 - honours.count
            if units > has:
                out.append(
                    DealProblem(
                        "honours",
                        f"{side} holds at least {units} honour units (aces_in_hand, sequences); "
                        f"honours gives {side} {has}",
                        "vint.honours_contradicted",
                        {"side": side, "least": units, "has": has},
                    )
                )
                return


def _check_dumps(
    deal: VintDeal,
    *,
    tricks_of: Mapping[Side, int] | None,
    eldest: Seat | None,
    unknown: frozenset[str],
    out: list[DealProblem],
) -> None:
    dumps = deal.ace_dumps
    if not dumps:
        return
    ok = True
    for i, dump in enumerate(dumps, 1):
        if dump.seat not in _SEAT_BY_NAME:
            out.append(
                DealProblem(
                    f"ace_dumps[{i}].seat",
                    f"{_show(dump.seat)} is not a seat",
                    "vint.seat_invalid",
                    {"value": _show(dump.seat), "index": i},
                    "ace_dumps",
                )
            )
            ok = False
        if not _in_range(
            out,
            f"ace_dumps[{i}].trick",
            dump.trick,
            1,
            TRICKS,
            "vint.dump_trick_out_of_range",
            root="ace_dumps",
            index=i,
        ):
            ok = False
    if len(dumps) > 4:
        out.append(
            DealProblem(
                "ace_dumps",
                f"{len(dumps)} dumps; there are only 4 aces",
                "vint.ace_dumps_too_many",
                {"count": len(dumps)},
            )
        )
        ok = False
    if not ok or "ace_dumps" in unknown:
        return
    seen: dict[tuple[str, int], int] = {}
    side_on_trick: dict[int, Side] = {}
    tricks_lost_on: dict[Side, set[int]] = {"NS": set(), "EW": set()}
    for i, dump in enumerate(dumps, 1):
        key = (dump.seat, dump.trick)
        if key in seen:
            out.append(
                DealProblem(
                    f"ace_dumps[{i}]",
                    f"{dump.seat} already lost an ace on trick {dump.trick} "
                    f"(ace_dumps[{seen[key]}]); a player plays one card to a trick",
                    "vint.ace_dump_repeated",
                    {"seat": dump.seat, "trick": dump.trick, "index": i, "first": seen[key]},
                    "ace_dumps",
                )
            )
            continue
        seen[key] = i
        side = SIDE_OF[dump.seat]
        before = side_on_trick.setdefault(dump.trick, side)
        if before != side:
            out.append(
                DealProblem(
                    f"ace_dumps[{i}]",
                    f"trick {dump.trick} has dumps from both sides; one side wins a trick",
                    "vint.ace_dumps_both_sides",
                    {"trick": dump.trick, "index": i},
                    "ace_dumps",
                )
            )
        if dump.seat == eldest and dump.trick == 1:
            out.append(
                DealProblem(
                    f"ace_dumps[{i}]",
                    f"{dump.seat} is the eldest and leads trick 1; a led ace wins its trick",
                    "vint.ace_dump_eldest_leads",
                    {"seat": dump.seat, "index": i},
                    "ace_dumps",
                )
            )
        tricks_lost_on[side].add(dump.trick)
    if tricks_of is None:
        return
    for side in SIDES:
        other = OTHER_SIDE[side]
        if len(tricks_lost_on[side]) > tricks_of[other]:
            out.append(
                DealProblem(
                    "ace_dumps",
                    f"{side} lost aces on {len(tricks_lost_on[side])} different tricks, but "
                    f"{other} took only {tricks_of[other]}",
                    "vint.ace_dumps_exceed_tricks",
                    {
                        "side": side,
                        "lost": len(tricks_lost_on[side]),
                        "other": other,
                        "taken": tricks_of[other],
                    },
                )
            )


def _check_all_pass(
    deal: VintDeal, rules: VintRules, unknown: frozenset[str], out: list[DealProblem]
) -> None:
    here: Params = {"contract": "pass", "kind": "pass"}
    if deal.declarer is not None:
        out.append(DealProblem("declarer", "not on an all-pass deal", "vint.declarer_on_all_pass"))
    if deal.doubling != 0:
        out.append(
            DealProblem(
                "doubling", "an all-pass deal cannot be doubled", "vint.doubling_on_all_pass"
            )
        )
    if deal.declarer_tricks is not None:
        out.append(
            DealProblem(
                "declarer_tricks",
                "not on an all-pass deal (give tricks for NS and EW)",
                "vint.declarer_tricks_on_all_pass",
            )
        )
    if deal.honours is not None:
        out.append(
            DealProblem(
                "honours",
                "only on suit contracts; this is an all-pass deal",
                "vint.honours_not_here",
                dict(here),
            )
        )
    if deal.grand_aces is not None:
        out.append(
            DealProblem(
                "grand_aces",
                "only on grand contracts; this is an all-pass deal",
                "vint.grand_aces_not_here",
                dict(here),
            )
        )
    split = deal.tricks
    tricks_of: dict[Side, int] | None = None
    if rules.all_pass == "redeal":
        if split is not None:
            out.append(
                DealProblem(
                    "tricks",
                    "under all_pass=redeal an all-pass deal is not played",
                    "vint.all_pass_redealt",
                )
            )
        if deal.ace_dumps:
            out.append(
                DealProblem(
                    "ace_dumps",
                    "under all_pass=redeal an all-pass deal is not played",
                    "vint.all_pass_redealt",
                )
            )
    elif split is None:
        if "tricks" not in unknown:
            out.append(
                DealProblem(
                    "tricks",
                    "required on an all-pass deal (NS and EW tricks)",
                    "vint.tricks_missing",
                )
            )
    else:
        ok = True
        for side, value in (("NS", split.ns), ("EW", split.ew)):
            if not _in_range(
                out,
                f"tricks.{side}",
                value,
                0,
                TRICKS,
                "vint.side_tricks_out_of_range",
                root="tricks",
                side=side,
            ):
                ok = False
        if ok:
            if split.ns + split.ew != TRICKS:
                out.append(
                    DealProblem(
                        "tricks",
                        f"NS {split.ns} + EW {split.ew} = {split.ns + split.ew}, not 13",
                        "vint.tricks_sum",
                        {"ns": split.ns, "ew": split.ew, "sum": split.ns + split.ew},
                    )
                )
            elif "tricks" not in unknown:
                tricks_of = {"NS": split.ns, "EW": split.ew}
    allowed = rules.holdings_in_misere
    hand_ok, seq_ok = _check_hand_and_runs(
        deal, allowed, "this is an all-pass deal", here, rules, out
    )
    if rules.all_pass == "play":
        _check_dumps(deal, tricks_of=tricks_of, eldest=None, unknown=unknown, out=out)
    if allowed and hand_ok and seq_ok:
        _check_aces(deal, None, rules, honours=None, grand=False, unknown=unknown, out=out)


def check_deal(deal: VintDeal, rules: VintRules = DEFAULT_RULES) -> None:
    """Raise ``RuleError`` (with ``field``) for the first failed entry check."""
    problems = deal_problems(deal, rules)
    if problems:
        raise problems[0].error()


# ========================================================================== scoring


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


def _entry(
    side: Side,
    where: Where,
    kind: EntryKind,
    points: int,
    count: int = 0,
    seat: Seat | None = None,
    suit: Suit | None = None,
) -> Entry:
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


# The three objects built on every deal (DealEntries, RubberState,
# DealOutcome) are frozen dataclasses with a hand-written __init__ that fills
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
    entries.append(_entry(low, "above", "all_pass_penalty", 100 * diff, diff))
    above[low] += 100 * diff
    for dump in deal.ace_dumps:
        side = SIDE_OF[dump.seat]
        points = 100 * dump.trick
        entries.append(_entry(side, "above", "ace_dump", points, dump.trick, dump.seat))
        above[side] += points
    if rules.holdings_in_misere:
        for hand in deal.aces_in_hand:
            side = SIDE_OF[hand.seat]
            points = 200 if hand.count == 3 else 400
            entries.append(_entry(side, "above", "aces_in_hand", points, hand.count, hand.seat))
            above[side] += points
        for run in deal.sequences:
            side = SIDE_OF[run.seat]
            points = 100 * (run.length - 2)
            entries.append(
                _entry(side, "above", "sequence", points, run.length, run.seat, run.suit)
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
    m = _MULTIPLIER[deal.doubling]
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
        entries.append(_entry(d, "above", "made", points))
        above_d += points
        if margin:
            per = rules.overtrick_4 if level == 4 else OVERTRICK[level]
            if per:
                points = per * margin * m
                entries.append(_entry(d, "above", "overtricks", points, margin))
                above_d += points
    else:
        under = -margin
        points = UNDERTRICK[level] * under * m
        entries.append(_entry(o, "above", "undertricks", points, under))
        above_o += points
        special = SPECIAL[level]
        if special:
            points = special * m
            entries.append(_entry(o, "above", "special", points))
            above_o += points

    # Holdings: judged on the cards, not the play, so not doubled by default.
    hm = m if rules.double_scope == "all" else 1
    if not misere or rules.holdings_in_misere:
        honours = deal.honours
        if honours is not None and denom != "G" and not misere:
            points = honours.count * level * 10 * hm
            entries.append(_entry(honours.side, "above", "honours", points, honours.count))
            if honours.side == d:
                above_d += points
            else:
                above_o += points
        team = deal.grand_aces
        if team is not None:
            points = team.count * level * 10 * hm
            entries.append(_entry(team.side, "above", "grand_aces", points, team.count))
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
            entries.append(_entry(side, "above", "aces_in_hand", points, hand.count, hand.seat))
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
                _entry(side, "above", "sequence", points, run.length, run.seat, run.suit)
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
            entries.append(_entry(side, "above", "ace_dump", points, dump.trick, dump.seat))
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
        entries.append(_entry(d, "below", "trick_points", below_d, cd))
    if below_o:
        entries.append(_entry(o, "below", "trick_points", below_o, co))

    if d == "NS":
        return DealEntries(tuple(entries), above_d, above_o, below_d, below_o)
    return DealEntries(tuple(entries), above_o, above_d, below_o, below_d)


# =========================================================================== rubber


@dataclass(frozen=True, init=False)
class RubberState:
    """Where a rubber stands between deals.

    ``part_*`` are the below-the-line totals since the last line (the
    part-scores). ``winner`` is None until a side has two games; from then on
    ``extra_played`` counts the extra deals played (the rubber is over at 4).
    """

    games_ns: int
    games_ew: int
    part_ns: int
    part_ew: int
    winner: Side | None
    extra_played: int
    deals_played: int

    def __init__(
        self,
        games_ns: int = 0,
        games_ew: int = 0,
        part_ns: int = 0,
        part_ew: int = 0,
        winner: Side | None = None,
        extra_played: int = 0,
        deals_played: int = 0,
    ) -> None:
        attrs = self.__dict__
        attrs["games_ns"] = games_ns
        attrs["games_ew"] = games_ew
        attrs["part_ns"] = part_ns
        attrs["part_ew"] = part_ew
        attrs["winner"] = winner
        attrs["extra_played"] = extra_played
        attrs["deals_played"] = deals_played

    @property
    def finished(self) -> bool:
        return self.winner is not None and self.extra_played >= EXTRA_DEALS

    @property
    def phase(self) -> Phase:
        """The phase the next deal is played in."""
        return "main" if self.winner is None else "extra"

    def games(self, side: Side) -> int:
        return self.games_ns if side == "NS" else self.games_ew

    def part(self, side: Side) -> int:
        return self.part_ns if side == "NS" else self.part_ew


NEW_RUBBER: Final = RubberState()


@dataclass(frozen=True, init=False)
class DealOutcome:
    """One deal as the rubber sees it.

    ``entries`` is what the cards scored; ``bonuses`` what the rubber adds on
    this deal (the rubber bonus or an extra-deal game bonus). ``state`` is the
    rubber after the deal; ``phase`` the phase the deal was played in
    ("main" up to and including the deal that wins the rubber);
    ``extra_deal`` is 1..4 for extra deals, else 0 (also 0 for a redealt
    all-pass deal, which does not count). ``games_won`` lists the sides that
    made a game on this deal (a line was drawn), first-numbered first.
    """

    entries: DealEntries
    bonuses: tuple[Entry, ...]
    state: RubberState
    phase: Phase
    extra_deal: int
    games_won: tuple[Side, ...]

    def __init__(
        self,
        entries: DealEntries,
        bonuses: tuple[Entry, ...],
        state: RubberState,
        phase: Phase,
        extra_deal: int,
        games_won: tuple[Side, ...],
    ) -> None:
        attrs = self.__dict__
        attrs["entries"] = entries
        attrs["bonuses"] = bonuses
        attrs["state"] = state
        attrs["phase"] = phase
        attrs["extra_deal"] = extra_deal
        attrs["games_won"] = games_won

    @property
    def above_ns(self) -> int:
        return self.entries.above_ns + sum(b.points for b in self.bonuses if b.side == "NS")

    @property
    def above_ew(self) -> int:
        return self.entries.above_ew + sum(b.points for b in self.bonuses if b.side == "EW")

    @property
    def below_ns(self) -> int:
        return self.entries.below_ns

    @property
    def below_ew(self) -> int:
        return self.entries.below_ew

    def above(self, side: Side) -> int:
        return self.above_ns if side == "NS" else self.above_ew

    def below(self, side: Side) -> int:
        return self.entries.below(side)

    def total(self, side: Side) -> int:
        return self.above(side) + self.below(side)

    @property
    def all_entries(self) -> tuple[Entry, ...]:
        return self.entries.entries + self.bonuses

    @property
    def games_ns(self) -> int:
        return self.state.games_ns

    @property
    def games_ew(self) -> int:
        return self.state.games_ew

    def games(self, side: Side) -> int:
        return self.state.games(side)

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def rubber_winner(self) -> Side | None:
        return self.state.winner

    @property
    def line_drawn(self) -> bool:
        return bool(self.games_won)


def rubber_apply(
    state: RubberState, deal: VintDeal, rules: VintRules = DEFAULT_RULES
) -> tuple[RubberState, DealOutcome]:
    """Play ``deal`` into the rubber: games, lines, rubber and extra-game bonuses (§4.9).

    Raises ``RuleError`` for a deal that fails an entry check, or when the
    rubber is already over (after its fourth extra deal).
    """
    winner = state.winner
    if winner is not None and state.extra_played >= EXTRA_DEALS:
        raise RuleError(
            f"the rubber is over: it ended with deal {state.deals_played}, the fourth "
            "extra deal after the rubber was won",
            code="vint.rubber_over",
            params={"deal": state.deals_played},
        )
    entries = score_deal(deal, rules)
    contract = deal.contract
    if contract is None and rules.all_pass == "redeal":
        # Not played, so it scores nothing and does not use up an extra deal.
        new = RubberState(
            state.games_ns,
            state.games_ew,
            state.part_ns,
            state.part_ew,
            winner,
            state.extra_played,
            state.deals_played + 1,
        )
        return new, DealOutcome(entries, (), new, state.phase, 0, ())

    gain_ns = entries.below_ns
    gain_ew = entries.below_ew
    if rules.game_uses_undoubled_tricks and deal.doubling:
        m = _MULTIPLIER[deal.doubling]
        gain_ns //= m
        gain_ew //= m
    part_ns = state.part_ns + gain_ns
    part_ew = state.part_ew + gain_ew
    threshold = GAME_POINTS * rules.scale
    won: tuple[Side, ...]
    if part_ns >= threshold:
        won = _simultaneous(part_ns, part_ew, deal, rules) if part_ew >= threshold else ("NS",)
    elif part_ew >= threshold:
        won = ("EW",)
    else:
        won = ()

    games_ns = state.games_ns
    games_ew = state.games_ew
    bonuses: tuple[Entry, ...] = ()
    if won:
        part_ns = part_ew = 0
        before = games_ns + games_ew
        for side in won:
            if side == "NS":
                games_ns += 1
            else:
                games_ew += 1
        if winner is None:
            if games_ns >= 2 or games_ew >= 2:
                # Under simultaneous_game=both a deal can bring both sides to
                # two games; the side first in ``won`` took its game first.
                winner = (
                    won[0]
                    if (games_ns >= 2 and games_ew >= 2)
                    else ("NS" if games_ns >= 2 else "EW")
                )
                bonuses = (_entry(winner, "above", "rubber", RUBBER_BONUS),)
        else:
            earned: list[Entry] = []
            for number, side in enumerate(won, before + 1):
                if rules.extra_game_count == "per_side":
                    k = games_ns if side == "NS" else games_ew
                else:
                    k = number
                if k >= 3:
                    earned.append(_entry(side, "above", "extra_game", EXTRA_GAME_UNIT * k, k))
            bonuses = tuple(earned)

    if state.winner is None:
        phase: Phase = "main"
        extra_played = 0
    else:
        phase = "extra"
        extra_played = state.extra_played + 1
    new = RubberState(
        games_ns, games_ew, part_ns, part_ew, winner, extra_played, state.deals_played + 1
    )
    return new, DealOutcome(entries, bonuses, new, phase, extra_played, won)


def _simultaneous(part_ns: int, part_ew: int, deal: VintDeal, rules: VintRules) -> tuple[Side, ...]:
    # Only a contract writes below the line, so there is a declarer here.
    declaring = SIDE_OF[cast(str, deal.declarer)]
    mode = rules.simultaneous_game
    if mode == "declarer_first":
        return (declaring,)
    if part_ns != part_ew:
        first: Side = "NS" if part_ns > part_ew else "EW"
    else:
        first = declaring
    if mode == "both":
        return (first, OTHER_SIDE[first])
    return (first,)


def rubber_close(state: RubberState, rules: VintRules = DEFAULT_RULES) -> tuple[Entry, ...]:
    """Entries for a rubber stopped by a time limit before a side won it (A27).

    By default the entries stand and nothing is added. Under
    ``unfinished_rubber_bonus=200_per_game_lead`` the side ahead in games
    scores 200 per game of its lead. A rubber already won keeps its rubber
    bonus and gets nothing more.
    """
    if rules.unfinished_rubber_bonus == "none" or state.winner is not None:
        return ()
    lead = state.games_ns - state.games_ew
    if lead == 0:
        return ()
    side: Side = "NS" if lead > 0 else "EW"
    return (_entry(side, "above", "unfinished_rubber", 200 * abs(lead), abs(lead)),)


@dataclass(frozen=True, slots=True)
class RubberResult:
    """A rubber scored deal by deal, with its side totals.

    ``closing`` holds the unfinished-rubber entries (A27), if any; ``sums``
    what the deals wrote (``above_*`` add ``closing`` to it).
    ``total_*`` apply ``totals_above_only`` and ``round_to_100``; without
    them a side's total is the sum of all its entries.
    """

    outcomes: tuple[DealOutcome, ...]
    state: RubberState
    sums: RubberSums
    closing: tuple[Entry, ...]
    above_ns: int
    above_ew: int
    below_ns: int
    below_ew: int
    total_ns: int
    total_ew: int

    @property
    def winner(self) -> Side | None:
        return self.state.winner

    @property
    def finished(self) -> bool:
        return self.state.finished

    def above(self, side: Side) -> int:
        return self.above_ns if side == "NS" else self.above_ew

    def below(self, side: Side) -> int:
        return self.below_ns if side == "NS" else self.below_ew

    def total(self, side: Side) -> int:
        return self.total_ns if side == "NS" else self.total_ew


def score_rubber(
    deals: Iterable[VintDeal], rules: VintRules = DEFAULT_RULES, *, closed: bool = False
) -> RubberResult:
    """Play ``deals`` as one rubber from the start.

    ``closed=True`` means play stopped here (a time limit): ``rubber_close``
    entries are added for a rubber nobody has won yet.
    """
    state = NEW_RUBBER
    outcomes: list[DealOutcome] = []
    sums = RubberSums()
    for deal in deals:
        state, outcome = rubber_apply(state, deal, rules)
        outcomes.append(outcome)
        sums = sums.plus(outcome)
    return rubber_result(state, sums, rules, closed=closed, outcomes=tuple(outcomes))


@dataclass(frozen=True, slots=True)
class RubberSums:
    """A rubber's side sums above and below the line over its deals so far: with its
    ``RubberState`` all that its totals need (``rubber_result``), so that a rubber can
    be kept going deal by deal without playing its deals again."""

    above_ns: int = 0
    above_ew: int = 0
    below_ns: int = 0
    below_ew: int = 0

    def plus(self, outcome: DealOutcome) -> RubberSums:
        return RubberSums(
            self.above_ns + outcome.above_ns,
            self.above_ew + outcome.above_ew,
            self.below_ns + outcome.below_ns,
            self.below_ew + outcome.below_ew,
        )


def rubber_result(
    state: RubberState,
    sums: RubberSums,
    rules: VintRules = DEFAULT_RULES,
    *,
    closed: bool = False,
    outcomes: tuple[DealOutcome, ...] = (),
) -> RubberResult:
    """A rubber's totals where it stands (``state``) after deals that wrote ``sums``:
    the unfinished-rubber entries when ``closed`` (A27), then ``totals_above_only``
    and ``round_to_100``. ``outcomes`` are the deals, when the caller played them."""
    above_ns, above_ew = sums.above_ns, sums.above_ew
    closing = rubber_close(state, rules) if closed else ()
    for entry in closing:
        if entry.side == "NS":
            above_ns += entry.points
        else:
            above_ew += entry.points
    below_ns, below_ew = sums.below_ns, sums.below_ew
    total_ns = above_ns if rules.totals_above_only else above_ns + below_ns
    total_ew = above_ew if rules.totals_above_only else above_ew + below_ew
    if rules.round_to_100:
        total_ns = _round_half_away(total_ns, 100) * 100
        total_ew = _round_half_away(total_ew, 100) * 100
    return RubberResult(
        outcomes, state, sums, closing, above_ns, above_ew, below_ns, below_ew, total_ns, total_ew
    )


def _round_half_away(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to an integer, halves away from zero."""
    if denominator <= 0:
        raise EngineBug("denominator must be positive")
    q, r = divmod(abs(numerator), denominator)
    if 2 * r >= denominator:
        q += 1
    return q if numerator >= 0 else -q


# ========================================================================== session


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where for one rubber."""

    north: str
    east: str
    south: str
    west: str

    def player(self, seat: Seat) -> str:
        return {"N": self.north, "E": self.east, "S": self.south, "W": self.west}[seat]

    def as_dict(self) -> dict[Seat, str]:
        return {"N": self.north, "E": self.east, "S": self.south, "W": self.west}

    @property
    def players(self) -> tuple[str, str, str, str]:
        return (self.north, self.east, self.south, self.west)

    def seat_of(self, player: str) -> Seat:
        for seat, name in self.as_dict().items():
            if name == player:
                return seat
        raise RuleError(
            f"{player!r} does not play in this rubber",
            field="players",
            code="vint.player_not_in_rubber",
            params={"player": player},
        )

    def side_of(self, player: str) -> Side:
        return SIDE_OF[self.seat_of(player)]

    def partners(self, side: Side) -> tuple[str, str]:
        a, b = SEATS_OF[side]
        return self.player(a), self.player(b)


def session_partnerships(players: Sequence[str]) -> list[Seating]:
    """The three seatings of a session (§1, §6.2-§6.4) for players A, B, C, D.

    Rubber 1: A+C v B+D, rubber 2: A+B v C+D, rubber 3: A+D v B+C, so each
    player partners each other player exactly once. A keeps North.
    """
    if len(players) != 4 or len(set(players)) != 4:
        raise RuleError(
            "players: a session needs four different players",
            field="players",
            code="vint.players_not_four",
        )
    a, b, c, d = players
    return [Seating(a, b, c, d), Seating(a, c, b, d), Seating(a, b, d, c)]


#: Rubbers in a session under ``session_structure="rotated"`` (§1, A31).
SESSION_RUBBERS: Final = 3


def session_problems(
    seatings: Sequence[Seating], rules: VintRules = DEFAULT_RULES
) -> list[RuleError]:
    """Why a session seated so breaks ``session_structure`` (A31); empty if it does not.

    ``seatings`` are the rubbers' seatings in order. Under "rotated" a session
    has at most three rubbers and no two players partner each other twice;
    a problem names the rubber and the partnership it repeats.
    """
    if rules.session_structure == "free":
        return []
    problems: list[RuleError] = []
    if len(seatings) > SESSION_RUBBERS:
        problems.append(
            RuleError(
                f"rubbers: a session has at most {SESSION_RUBBERS} rubbers "
                f"(session_structure rotated), this one has {len(seatings)}",
                field="rubbers",
                code="vint.session_too_many_rubbers",
                params={"count": len(seatings), "most": SESSION_RUBBERS},
            )
        )
    first: dict[frozenset[str], int] = {}
    # A fourth rubber must repeat a partnership (there are only three ways to
    # pair four players): the count above says so once, not rubber by rubber.
    for number, seating in enumerate(seatings[:SESSION_RUBBERS], 1):
        for side in SIDES:
            pair = seating.partners(side)
            earlier = first.setdefault(frozenset(pair), number)
            if earlier != number:
                problems.append(
                    RuleError(
                        f"rubber {number}: {pair[0]} and {pair[1]} were partners in rubber "
                        f"{earlier} already (session_structure rotated: each partnership "
                        "once a session)",
                        field="rubbers",
                        code="vint.partnership_repeated",
                        params={
                            "rubber": number,
                            "partner": pair[0],
                            "other_partner": pair[1],
                            "first": earlier,
                        },
                    )
                )
    return problems


def next_seat(seat: Seat) -> Seat:
    """The seat to the left (clockwise): the next dealer, the eldest at a contract."""
    return _NEXT_SEAT[seat]


def dealer_of(first_dealer: Seat, deal_number: int) -> Seat:
    """Dealer of the rubber's deal ``deal_number`` (1-based); the deal passes clockwise."""
    if first_dealer not in _SEAT_BY_NAME:
        raise RuleError(
            f"{_show(first_dealer)} is not a seat",
            field="first_dealer",
            code="vint.seat_invalid",
            params={"value": _show(first_dealer)},
        )
    if deal_number < 1:
        raise RuleError(
            f"deal number {deal_number} is not 1 or more",
            field="deal",
            code="vint.deal_number_invalid",
            params={"value": deal_number},
        )
    return SEATS[(SEATS.index(first_dealer) + deal_number - 1) % 4]


def rubber_player_totals(seating: Seating, result: RubberResult) -> dict[str, int]:
    """Each player's column for the rubber (partners' columns are equal), N E S W order."""
    return {name: result.total(SIDE_OF[seat]) for seat, name in seating.as_dict().items()}


@dataclass(frozen=True, slots=True)
class SessionResult:
    """Per-player session results (§4.11).

    ``totals``: the sum of each player's columns. ``net``: total minus the
    mean of the four totals, rounded half away from zero when the mean ends
    in .5. ``differential``: the Bridge-style sum over rubbers of own side
    minus other side, which is exactly 2 x (total - mean).
    """

    totals: Mapping[str, int]
    net: Mapping[str, int]
    differential: Mapping[str, int]


def session_result(rubbers: Sequence[Mapping[str, int]]) -> SessionResult:
    """Totals and nets from each rubber's player columns (``rubber_player_totals``).

    Every rubber must have the same four players; the result keeps the first
    rubber's order.
    """
    if not rubbers:
        raise RuleError(
            "rubbers: a session needs at least one rubber",
            field="rubbers",
            code="vint.rubbers_none",
        )
    players = list(rubbers[0])
    if len(players) != 4:
        raise RuleError(
            "rubbers: a rubber has four players", field="rubbers", code="vint.rubber_not_four"
        )
    totals = dict.fromkeys(players, 0)
    for number, columns in enumerate(rubbers, 1):
        if set(columns) != set(players):
            raise RuleError(
                f"rubber {number}: players {sorted(columns)} differ from {sorted(players)}",
                field="rubbers",
                code="vint.rubber_players_differ",
                params={
                    "rubber": number,
                    "players": sorted(columns),
                    "expected": sorted(players),
                },
            )
        for name, points in columns.items():
            totals[name] += points
    four_times_mean = sum(totals.values())
    net = {p: _round_half_away(4 * t - four_times_mean, 4) for p, t in totals.items()}
    differential = {p: _round_half_away(4 * t - four_times_mean, 2) for p, t in totals.items()}
    return SessionResult(totals, net, differential)
