"""What the operations keep in the database: worker heartbeats and the task outbox.

Both tables were created by ``tournaments`` and keep their names (moved without a copy:
the migrations of both apps change only Django's state).
"""

from __future__ import annotations

from django.db import models


class WorkerHeartbeat(models.Model):
    """Proof that a worker runs tasks: written by ``ops.tasks.heartbeat_record`` (once a
    token) and ``ops.tasks.worker_heartbeat`` (one row a worker host, moved forward).

    ``/health`` shows the newest one, so a director can tell whether standings will be
    recomputed (a stalled worker is otherwise invisible).
    """

    beat_at = models.DateTimeField()
    hostname = models.CharField(max_length=200)
    token = models.CharField(max_length=64, unique=True)

    class Meta:
        db_table = "tournaments_workerheartbeat"
        ordering = ["-beat_at"]
        get_latest_by = "beat_at"

    def __str__(self) -> str:
        return f"{self.hostname} at {self.beat_at:%Y-%m-%d %H:%M:%S}"


class TaskOutbox(models.Model):
    """A task that could not be queued (the broker was down) and waits here for it.

    ``ops.outbox`` sends these once the broker answers again: at the next successful
    enqueue in the same process, and from the worker's periodic heartbeat. The tasks are
    idempotent, so a row sent twice changes nothing. ``tournament_id`` is the tournament
    the task is for, if any (a plain id: ``ops`` imports no app), so its standings page
    can say that an update waits.
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    tournament_id = models.BigIntegerField(null=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_taskoutbox"
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"
