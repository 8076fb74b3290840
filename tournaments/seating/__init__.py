"""Seating for four-player card tournaments: who plays whom, where, in which round.

Pure Python: nothing here imports Django or anything outside the standard
library; the Django app maps its rows to these plain values and back.

Vocabulary
----------
player
    A registered participant, known by a stable whole number from 1.
round
    One session in which every active player sits at one table (Kop: 32
    deals). Rounds are numbered from 1.
table / foursome
    Four players who play together for a round. A ``Table`` is a tuple of the
    four player numbers in seat order.
seat
    A position 1..4 at a table; ``table[0]`` holds seat 1, who deals first in
    Kop (deal n is dealt by seat ((n - 1) mod 4) + 1). Seats are spread as
    evenly as possible: in a generated schedule each player's four seat counts
    differ by at most one (``seat_counts``).
active players
    Those present for a round. Late arrivals join and withdrawals leave
    between rounds (``generate_round``); rounds already played never change.
bye / sit-out
    With ``N`` active players, ``N mod 4`` of them sit out the round. They
    rotate: nobody sits out twice before everyone has sat out once. A Kop
    sit-out scores the *bye score*: ``bye_big_points(big_points)`` =
    ``sum(big_points) / 4`` big points (9/4 = 2.25 under 5/3/1/0) and 0 small
    points; the ranking package uses that function.
meeting / repeat meeting
    Two players *meet* in a round when they share a table. A pair that meets
    in more than one round is a *repeat*; ``Schedule.repeats`` is the number of
    such pairs (a pair meeting three times still counts once; see
    ``max_meetings`` and ``meetings_matrix`` for the detail).
schedule
    The rounds with their tables and sit-outs, plus what reproduces them:
    ``seed``, ``algorithm_version`` (``ALGORITHM_VERSION``) and ``budget``.

How schedules are made
----------------------
* 4q players, q a prime power of at least 4 (16, 20, 28, 32, 36, 44, 52, 64,
  ..., 100): up to q rounds (q + 1 when 4 divides q) from a resolvable design,
  every pair meeting at most once; for 16 players and 5 rounds this is the
  affine plane of ``kop.md`` section 8.2 (``designs``).
* Otherwise (or for more rounds): greedy tables improved by a seeded local
  search over swaps within a round, bounded by a deterministic budget of move
  evaluations (``search``). The same ``(players, rounds, seed, budget,
  ALGORITHM_VERSION)`` gives the same schedule on every machine; a wall-clock
  guard (2 s by default, counted from the start of the search) only stops a
  runaway search and is then reported in ``Schedule.hit_time_limit``.
* Up to ``MAX_PLAYERS`` = 4,000 players. Fields of more than 1,000
  (``search.LARGE_FIELD``) keep their meeting counts compactly and are
  improved by a conflict repair instead of restarted phases; 4,000 players x 5
  rounds take about half a second with no repeat meeting. Fields of 1,000 or
  fewer get exactly the schedules they always got under this version.
* Seats are assigned afterwards (``seats``); byes before (``byes``).
* A schedule seats positions 1..n; the app gives them to start numbers in an
  order drawn from the tournament's seed (``draw_order``) or in the
  director's own order, never in registration order.
* Clubs may import their own table instead (``parse_seating_csv``).
"""

from __future__ import annotations

from .byes import bye_big_points
from .csv_import import parse_seating_csv
from .designs import design_capacity
from .errors import SeatingBug, SeatingError, SeatingImportError
from .generate import (
    ALGORITHM_VERSION,
    DEFAULT_BUDGET,
    DEFAULT_TIME_LIMIT,
    MAX_PLAYERS,
    MAX_ROUNDS,
    draw_order,
    generate_round,
    generate_schedule,
)
from .schedule import (
    IMPORTED,
    ImportedSeating,
    Schedule,
    Table,
    bye_counts,
    meetings_matrix,
    pair_meetings,
    seat_counts,
    seat_spread,
)

__all__ = [
    "ALGORITHM_VERSION",
    "DEFAULT_BUDGET",
    "DEFAULT_TIME_LIMIT",
    "IMPORTED",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "ImportedSeating",
    "Schedule",
    "SeatingBug",
    "SeatingError",
    "SeatingImportError",
    "Table",
    "bye_big_points",
    "bye_counts",
    "design_capacity",
    "draw_order",
    "generate_round",
    "generate_schedule",
    "meetings_matrix",
    "pair_meetings",
    "parse_seating_csv",
    "seat_counts",
    "seat_spread",
]
