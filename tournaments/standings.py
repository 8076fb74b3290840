"""Tournament standings: ``standings_compute`` is what the Celery task stores as a snapshot.

It reads only accepted tables, so a table still playing never moves the standings. How a
tournament is ranked is its game's family's (``tournaments.families``: Kop and Baśka by
big and small points per table, Vint by session nets); the document's shared parts are in
``tournaments.shapes``.
"""

from __future__ import annotations

from tournaments.collector import without_cycle_collection
from tournaments.families import StandingsDocument, family_for
from tournaments.models import Tournament


def standings_compute(*, tournament: Tournament) -> StandingsDocument:
    """The full standings as plain JSON-ready data (what a snapshot stores)."""
    with without_cycle_collection():
        return family_for(tournament.game).standings(tournament)
