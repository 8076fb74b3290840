"""The scoresheet JSON exchange format (``shared/formats/scoresheet-json.md``) as types.

What the sheet writers return -- ``kop_sheet.kop_sheet_from_deals``,
``vint_sheet.vint_sheet_from_session`` and ``vint_sheet.deal_to_json`` here, the game
modules' exports and stored Vint facts in ``scoring.games`` -- so a renamed or misspelt
key fails the type check instead of producing a sheet that does not re-import. The
readers (``read_kop_sheet``, ``read_vint_sheet``) still take ``object``: what comes in
is untrusted until they have checked it. Pure typing: no Django here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NotRequired, Required, TypedDict

if TYPE_CHECKING:  # only names for the type checker: a Kop sheet need not load the Vint engine
    from scoring.engines.vint import Seat, Side, Suit

# ----------------------------------------------------------------------------- Kop, Baśka


class KopDoublingJson(TypedDict, total=False):
    """How a Kop deal was doubled: exactly one of the two keys."""

    doublings: int  # the effective count k
    doubling_seats: list[int]  # the seats that doubled, in order
    warnings: list[str]  # an export's confirmed warnings (read, never needed)


class KopDealJson(KopDoublingJson):
    """A Kop or Baśka deal, its keys written in this order: contract, declarers,
    the doubling, declarer points, and ``"voided": true`` for a deal struck out (which
    keeps its place and may lack facts beyond its contract)."""

    contract: Required[str]
    declarers: NotRequired[list[int]]
    declarer_points: NotRequired[int]
    voided: NotRequired[bool]  # a KopDealSnapshot always says it
    warnings: NotRequired[list[str]]  # confirmed when the deal was entered


class KopSheetJson(TypedDict):
    game: str  # "kop" or "baska"
    rules: dict[str, object]
    players: list[str]  # seats 1..4
    deals: list[KopDealJson]


# ----------------------------------------------------------------------------------- Vint


class VintHoldingJson(TypedDict):
    """``honours`` and ``grand_aces``: the side and how many it holds."""

    side: Side
    count: int


class VintAcesInHandJson(TypedDict):
    seat: Seat
    count: int


class VintSequenceJson(TypedDict):
    seat: Seat
    suit: Suit
    length: int


class VintAceDumpJson(TypedDict):
    seat: Seat
    trick: int


class VintTricksJson(TypedDict):
    """An all-pass deal's tricks per side (they sum to 13)."""

    NS: int
    EW: int


class VintDealJson(TypedDict):
    """A Vint deal; keys with nothing to say are left out. An all-pass deal is
    ``"contract": "pass"`` with ``tricks``; a contract deal has ``declarer``,
    ``doubling`` and ``declarer_tricks``."""

    contract: str  # "4H", "7G", "5M", or "pass"
    declarer: NotRequired[Seat | None]
    doubling: NotRequired[int]
    declarer_tricks: NotRequired[int | None]
    tricks: NotRequired[VintTricksJson]
    honours: NotRequired[VintHoldingJson]
    grand_aces: NotRequired[VintHoldingJson]
    aces_in_hand: NotRequired[list[VintAcesInHandJson]]
    sequences: NotRequired[list[VintSequenceJson]]
    ace_dumps: NotRequired[list[VintAceDumpJson]]
    voided: NotRequired[bool]  # struck out: keeps its place, may lack facts


class VintRubberJson(TypedDict):
    seats: dict[Seat, str]
    first_dealer: Seat
    deals: list[VintDealJson]


class VintSheetJson(TypedDict):
    game: Literal["vint"]
    rules: dict[str, object]
    rubbers: list[VintRubberJson]
