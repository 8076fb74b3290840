"""Standings: table results in, ordered ranks out, with configurable tie-breaks.

Pure Python: nothing here imports Django or anything outside the standard
library (the seating package's bye score aside, itself pure). Club ratings
live apart, in ``tournaments.ranking.ratings``, and are not imported here.

Vocabulary
----------
round
    One session of play; in Kop every active player sits at one table for it.
table / foursome
    The four players who play together in a round.
small points
    A Kop player's net deal payments at his table over one round (kop.md A14);
    each table sums to 0.
big points
    Points for the place at the table in a round, from a big-points table
    (Kościan 5/3/1/0, Wolsztyn 4/3/2/1); tied players share the average of the
    places they cover (A13), so every table hands out ``sum(big_points)``.
bye / sit-out
    A round a player sat out because the field was not a multiple of four:
    ``tournaments.seating.bye_big_points(big_points)`` (the table average,
    9/4 under 5/3/1/0) and 0 small points.
repeat meeting
    Two players sharing a table in more than one round (a seating measure; see
    ``tournaments.seating``).
tie-break
    A criterion that orders players level on big points (Kop) or net (Vint),
    applied in the organiser's order; players level on all of them share the
    rank, shown "=3".
net (Vint)
    A player's session total minus his table's average total.

Entry points: ``big_points_for_table``, ``kop_standings`` (``kop``),
``vint_standings`` (``vint``), ``group_standings`` for pairs and teams
(``groups``). A whole event with walkouts, short tables, byes by option,
adjustments, classes and teams whose best N count is ``competition``
(``score_kop_event``, ``score_vint_event``); a season of events is ``league``.
"""

from __future__ import annotations

from .errors import RankingBug, RankingError
from .groups import GROUP_TIE_BREAK_NAMES, GroupRow, group_standings
from .kop import (
    KOP_TIE_BREAKS,
    KOSCIAN,
    TIE_BREAK_NAMES,
    WOLSZTYN,
    RoundEntry,
    SmallPoints,
    StandingRow,
    big_points_for_table,
    kop_standings,
)
from .vint import VINT_TIE_BREAK_NAMES, VINT_TIE_BREAKS, VintRow, VintSession, vint_standings

__all__ = [
    "GROUP_TIE_BREAK_NAMES",
    "KOP_TIE_BREAKS",
    "KOSCIAN",
    "TIE_BREAK_NAMES",
    "VINT_TIE_BREAKS",
    "VINT_TIE_BREAK_NAMES",
    "WOLSZTYN",
    "GroupRow",
    "RankingBug",
    "RankingError",
    "RoundEntry",
    "SmallPoints",
    "StandingRow",
    "VintRow",
    "VintSession",
    "big_points_for_table",
    "group_standings",
    "kop_standings",
    "vint_standings",
]
