"""Celery tasks: thin, idempotent, given ids; the work is in services.

Services enqueue these by name (``ops.outbox.enqueue_on_commit``), since a task calls
its service: each task's ``name`` is the constant that the enqueuing service uses.
``TournamentsConfig.ready`` imports this module, so that tasks run in-process (no
broker) are registered.
"""

from __future__ import annotations

from celery import shared_task

from tournaments import ratings, services
from tournaments.services import leagues


@shared_task(name=services.STANDINGS_RECOMPUTE)
def standings_recompute(tournament_id: int, version: int) -> None:
    """Recompute a tournament's standings; idempotent (a stale or repeated run does nothing)."""
    services.standings_recompute(tournament_id=tournament_id, version=version)


@shared_task(name=services.RATINGS_UPDATE)
def ratings_update(tournament_id: int) -> None:
    """Rate what a tournament's accepted or corrected results changed. Idempotent: a table
    already rated with the same deals is not rated again, so a repeated or stale run does
    nothing."""
    ratings.ratings_update_for_tournament(tournament_id=tournament_id)


@shared_task(name=services.RATINGS_UPDATE_GAME)
def ratings_update_game(game: str) -> None:
    """Rate what a club session's acceptance, exclusion or correction changed (every
    source of ``game`` is checked); idempotent like ``ratings_update``."""
    ratings.ratings_update(game=game)


@shared_task(name=ratings.RATINGS_UPDATE_ROWS)
def ratings_update_rows(rows: list[int]) -> None:
    """Rate again what a merge or split of register rows changed (from the first game one
    of ``rows`` played); idempotent like ``ratings_update``."""
    ratings.ratings_update_for_rows(rows=rows)


@shared_task(name=leagues.LEAGUES_RECOMPUTE)
def leagues_recompute(tournament_id: int) -> None:
    """Recompute the tables of every league counting the tournament, from its event on;
    idempotent (the tables are computed from the stored standings, whatever ran before)."""
    leagues.leagues_recompute_for(tournament_id=tournament_id)
