"""Shapes that leave the scoring app as JSON, typed so a renamed key fails the type check.

The scoresheet exchange format itself (what ``sheet_json`` exports and an import reads)
is typed beside the engines that read and write it, in ``scoring.engines.shapes``;
here are the Django layer's own records: what ``DealHistory.old`` / ``new`` keep of a
deal (``Game.snapshot``), and the running state a session keeps (``TableSession.tally``).
"""

from __future__ import annotations

from typing import Any, TypedDict

from scoring.engines.shapes import KopDealJson, VintDealJson


class KopDealSnapshot(KopDealJson):
    """A Kop or Baśka deal in the history: its sheet facts, then its result."""

    value: int
    payments: list[int]  # seats 1..4


class VintDealSnapshot(TypedDict):
    """A Vint deal in the history: where it stands, its sheet facts and what it wrote
    (``above`` / ``below`` per side; None before it was scored)."""

    rubber: int
    number: int
    facts: VintDealJson
    above: dict[str, int] | None
    below: dict[str, int] | None
    voided: bool


class KopTally(TypedDict):
    """``TableSession.tally`` of a Kop or Baśka session: the four seat totals over the
    counted deals, how many count, and the highest deal number stored (voided ones too)."""

    totals: list[int]
    counted: int
    last: int


class VintTally(TypedDict):
    """``TableSession.tally`` of a Vint session: the rubber being played (None: the session
    is over), its next deal number, whether its row exists yet, its first dealer, the
    engine's ``RubberState`` after its counted deals (games, part-scores, winner, extra
    deals played, deals played), the side sums its deals wrote (``RubberSums``: above NS,
    above EW, below NS, below EW), its seats (N E S W -> table seat 1..4), and ``done``:
    the seat totals (table seat "1".."4" -> column total) of each started rubber before
    it, in order. With them a save scores its deal and the pad its totals without reading
    any deal (migration 0010 filled in the tallies stored before)."""

    rubber: int | None
    next: int
    started: bool
    first_dealer: str
    state: list[Any]
    sums: list[int]
    seats: dict[str, int]
    done: list[dict[str, int]]
