"""What every heartbeat does, with a worker or without one.

With a broker, celery beat runs ``ops.tasks.worker_heartbeat`` every ``HEARTBEAT_SECONDS``
and a worker runs it once as it starts. Without one (``CELERY_TASK_ALWAYS_EAGER``: tasks run
in-process, nothing runs on a schedule) the server beats itself: after a response has been
sent (``request_finished``), at most once a ``HEARTBEAT_SECONDS`` across all its processes
(one row of ``WorkerHeartbeat`` decides which process beats). ``heartbeat_run`` is also
what a server calls as it starts.

A beat sends ``ops.signals.heartbeat`` (receivers redo interrupted work: a standings
recompute whose process died is queued again) and makes the automatic backup when one is
due (``ops.backup.backup_if_due``).
"""

from __future__ import annotations

import logging
import socket
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from ops.models import WorkerHeartbeat
from ops.signals import heartbeat

log = logging.getLogger(__name__)

IN_PROCESS_TOKEN = "beat:in-process"
_next_beat = {"at": 0.0}


def heartbeat_send() -> None:
    """Send ``ops.signals.heartbeat``; a receiver's error is logged, never raised (the
    other receivers, and the heartbeat itself, go on)."""
    for receiver, result in heartbeat.send_robust(sender=None):
        if isinstance(result, Exception):
            log.error("heartbeat receiver %r failed", receiver, exc_info=result)


def heartbeat_run() -> None:
    """One in-process beat: redo interrupted work, then the automatic backup if due."""
    from ops.backup import backup_if_due

    heartbeat_send()
    try:
        backup_if_due()
    except Exception:  # a full disk must not break the server; the log says why
        log.exception("automatic backup failed")


def _claim() -> bool:
    """Is it this process's turn to beat? True for one process a ``HEARTBEAT_SECONDS``."""
    now = timezone.now()
    earlier = now - timedelta(seconds=settings.HEARTBEAT_SECONDS)
    moved = WorkerHeartbeat.objects.filter(token=IN_PROCESS_TOKEN, beat_at__lte=earlier).update(
        beat_at=now, hostname=socket.gethostname()
    )
    if moved:
        return True
    _, created = WorkerHeartbeat.objects.get_or_create(
        token=IN_PROCESS_TOKEN, defaults={"beat_at": now, "hostname": socket.gethostname()}
    )
    return created


def beat_after_response(**kwargs: Any) -> None:
    """``request_finished`` receiver (connected in ``OpsConfig.ready``): without a worker,
    beat when one is due. It never fails the request (it has been answered already)."""
    if not (settings.CELERY_TASK_ALWAYS_EAGER and settings.HEARTBEAT_IN_PROCESS):
        return
    now = time.monotonic()
    if now < _next_beat["at"]:
        return
    _next_beat["at"] = now + settings.HEARTBEAT_SECONDS
    try:
        if _claim():
            heartbeat_run()
    except Exception:  # the database gone: the next request tries again
        log.exception("in-process heartbeat failed")
