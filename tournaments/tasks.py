"""Celery tasks: thin, idempotent, given ids; the work is in services.

The tasks that services enqueue with ``delay_on_commit`` name ``DjangoTask`` as their base.
``config.celery`` already makes it every task's class; saying so here lets the type checker
see ``delay_on_commit`` too.
"""

from __future__ import annotations

import socket

from celery import shared_task
from celery.contrib.django.task import DjangoTask
from celery.signals import worker_ready
from django.utils import timezone

from tournaments import outbox, ratings, services
from tournaments.models import WorkerHeartbeat


@shared_task
def heartbeat_record(token: str) -> None:
    """Record that a worker ran a task. Running it twice with one token changes nothing."""
    WorkerHeartbeat.objects.get_or_create(
        token=token, defaults={"beat_at": timezone.now(), "hostname": socket.gethostname()}
    )


@shared_task
def worker_heartbeat() -> None:
    """Scheduled by celery beat (``CELERY_BEAT_SCHEDULE``): one row per worker host, its
    time moved forward; ``/health`` calls the worker stale when it stops moving. A worker
    that runs this can reach the broker, so it also sends what the outbox kept."""
    hostname = socket.gethostname()
    WorkerHeartbeat.objects.update_or_create(
        token=f"beat:{hostname}"[:64], defaults={"beat_at": timezone.now(), "hostname": hostname}
    )
    outbox.outbox_drain()


@shared_task(base=DjangoTask)
def standings_recompute(tournament_id: int, version: int) -> None:
    """Recompute a tournament's standings; idempotent (a stale or repeated run does nothing)."""
    services.standings_recompute(tournament_id=tournament_id, version=version)


@shared_task(base=DjangoTask)
def ratings_update(tournament_id: int) -> None:
    """Rate what a tournament's accepted or corrected results changed. Idempotent: a table
    already rated with the same deals is not rated again, so a repeated or stale run does
    nothing."""
    ratings.ratings_update_for_tournament(tournament_id=tournament_id)


@shared_task(base=DjangoTask)
def ratings_update_game(game: str) -> None:
    """Rate what a club session's acceptance, exclusion or correction changed (every
    source of ``game`` is checked); idempotent like ``ratings_update``."""
    ratings.ratings_update(game=game)


@worker_ready.connect
def _beat_on_start(**kwargs: object) -> None:
    """A worker that starts records a heartbeat and sends what waited in the outbox at once,
    not one heartbeat interval later."""
    worker_heartbeat()
