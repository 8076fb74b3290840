"""Standings written as given, not played deal by deal: for the simulated association
(``manage.py simulate_association``), the league benchmark and the league tests, which
need many events' standings and none of their deals.

``standings_write`` stores a Kop standings document of the given rows the way the
standings task stores one (``StandingsSnapshot`` and its rows through
``standings_rows_store``), so everything that reads standings -- pages, series,
leagues -- reads it as it reads a played tournament's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import transaction

from tournaments.adapters import json_ready
from tournaments.models import Registration, StandingsSnapshot, Tournament
from tournaments.services.snapshots import standings_rows_store


@dataclass(frozen=True)
class GivenRow:
    """A player's row in an event, by start number: place (1-based; shared places
    repeat), big and small points, round wins."""

    number: int
    place: int
    big_points: Fraction | int
    small_points: Fraction | int
    firsts: int = 0


@transaction.atomic
def standings_write(*, tournament: Tournament, rows: Sequence[GivenRow]) -> StandingsSnapshot:
    """Store ``rows`` as the tournament's newest standings (a new results version)."""
    names = dict(
        Registration.objects.filter(tournament=tournament).values_list("number", "player__name")
    )
    places = [r.place for r in rows]
    individual: list[dict[str, Any]] = [
        {
            "rank": f"={r.place}" if places.count(r.place) > 1 else str(r.place),
            "place": r.place,
            "number": r.number,
            "name": names.get(r.number, ""),
            "big_points": json_ready(Fraction(r.big_points)),
            "small_points": json_ready(Fraction(r.small_points)),
            "firsts": r.firsts,
            "seconds": 0,
            "thirds": 0,
            "fourths": 0,
            "rounds": 0,
            "byes": 0,
            "walkouts": 0,
            "adjustment_big": 0,
            "adjustment_small": 0,
            "by_round": [],
        }
        for r in sorted(rows, key=lambda r: (r.place, r.number))
    ]
    Tournament.objects.filter(pk=tournament.pk).update(
        results_version=tournament.results_version + 1
    )
    tournament.results_version += 1
    data = {
        "game": tournament.game,
        "big_points": [5, 3, 1, 0],
        "tie_breaks": [],
        "competition": {},
        "individual": individual,
    }
    snapshot = StandingsSnapshot.objects.create(
        tournament=tournament, results_version=tournament.results_version, data=data
    )
    standings_rows_store(snapshot=snapshot, data=data)
    return snapshot
