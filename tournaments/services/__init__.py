"""Writes of the tournaments app (``<entity>_<action>``, keyword-only arguments), by job:

- ``registration``: tournaments and their entries (``tournament_create``,
  ``registration_add``, ``registrations_paste``, check-in, withdrawal);
- ``rounds``: seating the next round and importing a club's seating table;
- ``acceptance``: accepting a table's or a round's results, and what every change at a
  tournament's table starts (``results_changed``, ``session_changed``: a new results
  version, its standings and ratings enqueued);
- ``mend``: a director's mends, each kept as a ``TournamentAction`` (the tournament
  edited, a round re-seated, two players swapped, a substitute for a no-show);
  withdrawal and reinstatement are in ``registration`` and kept the same way;
- ``snapshots``: computing and storing a results version's standings.

Callers import the writes, and the refusals they raise (``tournaments.errors``), from
here: ``from tournaments import services``.
"""

from __future__ import annotations

from tournaments.errors import EntriesRejected, SeatingRejected, TournamentError
from tournaments.services.acceptance import (
    CLUB_RATING_ACTIONS,
    RATINGS_UPDATE,
    RATINGS_UPDATE_GAME,
    STANDINGS_RECOMPUTE,
    results_changed,
    round_accept_all,
    round_table_accept,
    session_changed,
    standings_catch_up,
)
from tournaments.services.competition import (
    CompetitionRejected,
    adjustment_add,
    adjustment_remove,
    competition_set,
    registration_classes,
    table_normal,
    table_short,
    table_walkout,
)
from tournaments.services.mend import (
    action_record,
    round_reseat,
    seat_substitute,
    seats_swap,
    tournament_edit,
)
from tournaments.services.registration import (
    registration_add,
    registration_check_in,
    registration_reinstate,
    registration_withdraw,
    registrations_check_in_all,
    registrations_paste,
    tournament_create,
)
from tournaments.services.rounds import parse_start_order, round_generate, rounds_import
from tournaments.services.snapshots import (
    STANDINGS_KINDS,
    standings_recompute,
    standings_rows,
    standings_rows_store,
)

__all__ = [
    "CompetitionRejected",
    "adjustment_add",
    "adjustment_remove",
    "competition_set",
    "registration_classes",
    "table_normal",
    "table_short",
    "table_walkout",
    "CLUB_RATING_ACTIONS",
    "RATINGS_UPDATE",
    "RATINGS_UPDATE_GAME",
    "STANDINGS_KINDS",
    "STANDINGS_RECOMPUTE",
    "standings_catch_up",
    "EntriesRejected",
    "SeatingRejected",
    "TournamentError",
    "action_record",
    "parse_start_order",
    "registration_add",
    "registration_check_in",
    "registration_reinstate",
    "registration_withdraw",
    "registrations_check_in_all",
    "registrations_paste",
    "results_changed",
    "round_accept_all",
    "round_generate",
    "round_reseat",
    "round_table_accept",
    "rounds_import",
    "seat_substitute",
    "seats_swap",
    "session_changed",
    "standings_recompute",
    "standings_rows",
    "standings_rows_store",
    "tournament_create",
    "tournament_edit",
]
