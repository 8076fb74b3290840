"""The worker's own tasks: its heartbeat, which also sends what the outbox kept.

Celery names them by this module (``ops.tasks.worker_heartbeat``, what
``CELERY_BEAT_SCHEDULE`` runs, and ``ops.tasks.heartbeat_record``).
"""

from __future__ import annotations

import socket

from celery import shared_task
from celery.signals import worker_ready
from django.utils import timezone

from ops.heartbeat import heartbeat_send
from ops.models import WorkerHeartbeat
from ops.outbox import outbox_drain


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
    that runs this can reach the broker, so it also sends what the outbox kept, and redoes
    what a crash interrupted (``ops.signals.heartbeat``: a standings recompute whose worker
    died is queued again)."""
    hostname = socket.gethostname()
    WorkerHeartbeat.objects.update_or_create(
        token=f"beat:{hostname}"[:64], defaults={"beat_at": timezone.now(), "hostname": hostname}
    )
    heartbeat_send()  # before the drain: what waits in the outbox is not queued twice
    outbox_drain()


@shared_task
def backup_scheduled() -> None:
    """Scheduled by celery beat (``CELERY_BEAT_SCHEDULE``): the automatic backup, when the
    newest is a day old, and the old ones pruned (``ops.backup.backup_if_due``)."""
    from ops.backup import backup_if_due

    backup_if_due()


@worker_ready.connect
def _beat_on_start(**kwargs: object) -> None:
    """A worker that starts records a heartbeat, sends what waited in the outbox and queues
    again what a dead worker left unfinished at once, not one heartbeat interval later."""
    worker_heartbeat()
