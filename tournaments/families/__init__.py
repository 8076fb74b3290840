"""Ranking families: one module per kind of ranking, and the one registry of them.

Vocabulary. A **family** is a way of ranking and rating that games share: Kop and Baśka are
ranked alike (small and big points per table: ``kop``), Vint its own way (session nets:
``vint``). A game names its family (``family`` of its results part,
``scoring.games.interface.Results``); a family module (``kop.py``, ``vint.py``) holds
everything tournaments do differently for it: the standings document it computes from the
accepted tables (and its ``TypedDict``\\ s), the django-tables2 table that shows its
individual standings, and the club ratings' reads of its deal rows (``RatingFamily``).
Nothing else in ``tournaments`` names a game's deal model or a family.

Everything else asks ``family_for(game)`` here, and the game registry through this package
(``results_of``, ``games``: see ``tournaments.families.base``). A new game ranked like Kop
or Vint needs nothing here; a new kind of ranking is one more module and one more entry in
``FAMILIES``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tournaments.families import kop, vint
from tournaments.families.base import (
    Competition,
    RatingFamily,
    SessionLine,
    family_name,
    games,
    results_of,
)
from tournaments.models import Tournament
from tournaments.tables import PlayerStandingsTable

__all__ = [
    "FAMILIES",
    "Competition",
    "Family",
    "RatingFamily",
    "SessionLine",
    "StandingsDocument",
    "family_for",
    "games",
    "results_of",
]

# What ``standings_compute`` returns and a ``StandingsSnapshot`` stores as JSON: one
# family's document (``tournaments.shapes`` has the parts they share).
type StandingsDocument = kop.KopStandings | vint.VintStandings


@dataclass(frozen=True)
class Family:
    """A family of games as tournaments rank and rate them."""

    name: str  # ``scoring.games.Game.family``
    standings: Callable[[Tournament], StandingsDocument]  # the snapshot's document
    table: type[PlayerStandingsTable]  # its individual standings table
    rules: Callable[[Tournament], list[str]]  # byes, walkouts, absences, in plain words
    ratings: RatingFamily
    competition: Competition  # what its events hold beyond their tables
    # Its standings keep every round of every player, with a place at the table and big
    # points (``KopRow.by_round``): the round's printed results show them.
    by_round: bool = False


# Every family, by name; the order is the player page's.
FAMILIES: dict[str, Family] = {
    "kop": Family(
        "kop",
        kop.standings,
        kop.KopStandingsTable,
        kop.rules_in_force,
        kop.KopRatings(),
        kop.COMPETITION,
        by_round=True,
    ),
    "vint": Family(
        "vint",
        vint.standings,
        vint.VintStandingsTable,
        vint.rules_in_force,
        vint.VintRatings(),
        vint.COMPETITION,
    ),
}


def family_for(game: str) -> Family:
    """The family ``game`` is ranked and rated in (``KeyError`` for an unknown game)."""
    return FAMILIES[family_name(game)]
