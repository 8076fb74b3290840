"""The parts of the standings snapshot document that families share: what
``standings_compute`` returns and a ``StandingsSnapshot`` stores as JSON, and what the
standings pages, the CSV export, the ``standings`` command and the ratings read back.

Each family's own document is in its module (``tournaments.families.kop.KopStandings``,
ranked by big points with each round; ``tournaments.families.vint.VintStandings``, by
net); ``tournaments.families.StandingsDocument`` is either. Points that may be shared
fractions are written by ``adapters.json_ready``: whole numbers stay ``int``, others
become a ``float`` rounded to two places (``JsonPoints``). A renamed key fails the type
check of both the writer and the readers.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

type JsonPoints = int | float


class GroupRow(TypedDict):
    """A pair or team in the Kop/Baśka standings, ranked on its members' points."""

    rank: str
    group: str
    members: str  # the members' names, comma-separated
    big_points: JsonPoints
    small_points: JsonPoints
    counted: NotRequired[list[int]]  # teams: the start numbers whose points count


class ClassRowDoc(TypedDict):
    """A player in a class's standings; Vint writes the net as ``big_points`` and the
    total points as ``small_points`` (the two columns a class table shows)."""

    rank: str  # the rank in the class ("=2" when shared there)
    overall: str  # the overall rank label
    number: int
    name: str
    big_points: JsonPoints
    small_points: JsonPoints


class ClassStandingsDoc(TypedDict):
    """A class's standings: the overall order restricted to its members."""

    code: str
    label: str
    rows: list[ClassRowDoc]
