"""The standings snapshot document: what ``standings_compute`` returns and a
``StandingsSnapshot`` stores as JSON, and what the standings pages, the CSV export,
the ``standings`` command and the ratings read back.

Kop and Baśka rank players by big points and show each round (``KopStandings``);
Vint by net (``VintStandings``). Points that may be shared fractions are written by
``adapters.json_ready``: whole numbers stay ``int``, others become a ``float``
rounded to two places (``JsonPoints``). A renamed key here fails the type check of
both the writer and the readers.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

type JsonPoints = int | float


class KopRoundCell(TypedDict):
    """One round of one player (``KopRow.by_round``); ``table`` and ``place`` are
    None for a sit-out."""

    round: int
    table: int | None
    small_points: JsonPoints
    big_points: JsonPoints
    place: int | None


class KopRow(TypedDict):
    """A player in the Kop/Baśka individual standings."""

    rank: str  # "3", or "=3" when shared
    place: int
    number: int  # start number
    name: str
    big_points: JsonPoints
    small_points: JsonPoints
    firsts: int
    seconds: int
    thirds: int
    fourths: int
    rounds: int  # rounds played (sit-outs not counted)
    byes: int
    by_round: list[KopRoundCell]


class GroupRow(TypedDict):
    """A pair or team in the Kop/Baśka standings, ranked on its members' points."""

    rank: str
    group: str
    members: str  # the members' names, comma-separated
    big_points: JsonPoints
    small_points: JsonPoints


class VintRow(TypedDict):
    """A player in the Vint individual standings."""

    rank: str
    place: int
    number: int
    name: str
    net: JsonPoints
    rubbers_won: int
    total_points: JsonPoints
    rounds: int  # sessions played


class KopStandings(TypedDict):
    game: str  # "kop" or "baska"
    big_points: list[int]
    tie_breaks: list[str]
    individual: list[KopRow]
    pairs: NotRequired[list[GroupRow]]  # only when the director grouped players
    teams: NotRequired[list[GroupRow]]


class VintStandings(TypedDict):
    game: Literal["vint"]
    individual: list[VintRow]


type StandingsDocument = KopStandings | VintStandings
