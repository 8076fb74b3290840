"""The Vint table: seats, sides and the deal's rotation (``rules/vint.md`` §1, §3).

Vocabulary
----------
seat
    N, E, S, W, clockwise. Partners sit opposite each other.
side
    A partnership: **NS** (N and S) or **EW** (E and W). Every score belongs
    to a side and is written in both partners' columns (§4.10).
trick
    Four cards, one from each player; 13 tricks per deal.
dealer
    Deals the rubber's first deal by cut or draw; the deal then passes one
    seat to the left (clockwise) after each deal [D].
eldest
    The player who leads to the first trick: the declarer's left at a suit or
    grand contract, his right at misère (§3), the dealer's left in an
    all-pass deal (§4.7).

The ``*_BY_NAME`` maps check a name and narrow its type in one lookup: a
value that is not a key is not a seat (side, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

from scoring.engines.errors import RuleError, show_value

Seat = Literal["N", "E", "S", "W"]
Side = Literal["NS", "EW"]

SEATS: Final[tuple[Seat, ...]] = ("N", "E", "S", "W")
SIDES: Final[tuple[Side, ...]] = ("NS", "EW")
TRICKS: Final = 13

SIDE_OF: Final[Mapping[str, Side]] = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
OTHER_SIDE: Final[Mapping[str, Side]] = {"NS": "EW", "EW": "NS"}
SEATS_OF: Final[Mapping[Side, tuple[Seat, Seat]]] = {"NS": ("N", "S"), "EW": ("E", "W")}
#: The seat to the left (clockwise) and to the right of each seat.
NEXT_SEAT: Final[Mapping[str, Seat]] = {"N": "E", "E": "S", "S": "W", "W": "N"}
PREV_SEAT: Final[Mapping[str, Seat]] = {"N": "W", "E": "N", "S": "E", "W": "S"}
SEAT_BY_NAME: Final[Mapping[str, Seat]] = {s: s for s in SEATS}
SIDE_BY_NAME: Final[Mapping[str, Side]] = {s: s for s in SIDES}

#: Every problem code this module can emit (see ``errors.py``).
CODES: Final = frozenset({"vint.seat_invalid", "vint.deal_number_invalid"})


def next_seat(seat: Seat) -> Seat:
    """The seat to the left (clockwise): the next dealer, the eldest at a contract."""
    return NEXT_SEAT[seat]


def dealer_of(first_dealer: Seat, deal_number: int) -> Seat:
    """Dealer of the rubber's deal ``deal_number`` (1-based); the deal passes clockwise."""
    if first_dealer not in SEAT_BY_NAME:
        raise RuleError(
            f"{show_value(first_dealer)} is not a seat",
            field="first_dealer",
            code="vint.seat_invalid",
            params={"value": show_value(first_dealer)},
        )
    if deal_number < 1:
        raise RuleError(
            f"deal number {deal_number} is not 1 or more",
            field="deal",
            code="vint.deal_number_invalid",
            params={"value": deal_number},
        )
    return SEATS[(SEATS.index(first_dealer) + deal_number - 1) % 4]
