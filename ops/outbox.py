"""Tasks that survive a broker outage.

``enqueue_on_commit(name, *args)`` sends the Celery task called ``name`` once the
transaction commits, never loses it and never fails the request: when the broker (Redis)
cannot be reached, the task is stored in ``TaskOutbox`` and sent later -- at the next
successful enqueue from this process, and by the worker's periodic heartbeat
(``ops.tasks.worker_heartbeat``), which runs only when the broker delivers again. The
tasks are idempotent (they take ids and a version), so standings end up right however
late or often a row is sent.

Tasks are named, not imported: a task calls a service, and the service that enqueues it
would otherwise import its own caller (an import cycle). Without a broker
(``CELERY_TASK_ALWAYS_EAGER``) the named task runs in-process, so its module must have
been imported: each app's ``AppConfig.ready`` imports its ``tasks``.

After a failure the broker is not tried again for ``RETRY_AFTER`` seconds, so deal entry
during an outage does not wait on connection attempts.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

from ops.models import TaskOutbox

log = logging.getLogger(__name__)

RETRY_AFTER = 10.0
_state = {"down_until": 0.0, "stored_here": False}


class PendingTask:
    """The on-commit callback: the task called ``task`` with ``args``, sent (or stored)
    when called."""

    def __init__(self, task: str, args: tuple[Any, ...], tournament_id: int | None) -> None:
        self.task, self.args, self.tournament_id = task, args, tournament_id

    def __call__(self) -> None:
        enqueue(self.task, *self.args, tournament_id=self.tournament_id)


def enqueue_on_commit(task: str, *args: Any, tournament_id: int | None = None) -> None:
    """Send the task called ``task`` with ``args`` after the transaction commits (or
    store it, see ``enqueue``). ``tournament_id``: the tournament it is for, if any."""
    transaction.on_commit(PendingTask(task, args, tournament_id))


def enqueue(task: str, *args: Any, tournament_id: int | None = None) -> bool:
    """Send the task called ``task`` now, or store it for later; True if it reached the
    broker."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        current_app.tasks[task].delay(*args)  # in-process: the task's own errors must surface
        return True
    if time.monotonic() < _state["down_until"] or not _send(task, list(args)):
        TaskOutbox.objects.create(task=task, args=list(args), tournament_id=tournament_id)
        _state["stored_here"] = True
        return False
    if _state["stored_here"]:
        outbox_drain()
    return True


def _send(name: str, args: list[Any]) -> bool:
    try:
        current_app.send_task(name, args=args)
    except (BrokerError, RedisError, OSError) as exc:
        _state["down_until"] = time.monotonic() + RETRY_AFTER
        log.warning("broker unreachable, task %s kept in the outbox: %s", name, exc)
        return False
    return True


def outbox_drain(*, limit: int = 500) -> int:
    """Send stored tasks (each distinct one once); returns how many rows were cleared."""
    sent = 0
    with transaction.atomic():
        rows = list(TaskOutbox.objects.select_for_update(skip_locked=True)[:limit])
        done: set[tuple[str, str]] = set()
        for row in rows:
            key = (row.task, repr(row.args))
            if key not in done:
                if not _send(row.task, row.args):
                    break
                done.add(key)
            row.delete()
            sent += 1
    if sent == len(rows):
        _state["stored_here"] = TaskOutbox.objects.exists()
    return sent


def outbox_pending(*, tournament_id: int) -> bool:
    """Is a task for this tournament waiting for the broker? (The standings page says so.)"""
    return TaskOutbox.objects.filter(tournament_id=tournament_id).exists()


def outbox_tournaments(*, task: str) -> set[int]:
    """The tournaments for which the task called ``task`` waits in the outbox."""
    rows = TaskOutbox.objects.filter(task=task).values_list("tournament_id", flat=True)
    return {pk for pk in rows if pk is not None}
