"""The heartbeat and the outbox moved from ``tournaments`` to ``ops`` with their tables:
a database migrated before the move keeps its rows."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from ops.models import TaskOutbox, WorkerHeartbeat

BEFORE_THE_MOVE = [("tournaments", "0014_ratings_redundant_indexes"), ("ops", None)]


@pytest.mark.django_db(transaction=True)
def test_moving_the_models_to_ops_keeps_their_tables_and_rows():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_THE_MOVE)
    old = executor.loader.project_state(BEFORE_THE_MOVE[0]).apps
    beat_at = timezone.now()
    old.get_model("tournaments", "WorkerHeartbeat").objects.create(
        token="beat:hall", hostname="hall", beat_at=beat_at
    )
    old.get_model("tournaments", "TaskOutbox").objects.create(
        task="tournaments.tasks.standings_recompute", args=[3, 9], tournament_id=3
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    beat = WorkerHeartbeat.objects.get()
    assert (beat.token, beat.hostname, beat.beat_at) == ("beat:hall", "hall", beat_at)
    assert list(TaskOutbox.objects.values_list("task", "args", "tournament_id")) == [
        ("tournaments.tasks.standings_recompute", [3, 9], 3)
    ]
    assert WorkerHeartbeat._meta.db_table == "tournaments_workerheartbeat"
    assert TaskOutbox._meta.db_table == "tournaments_taskoutbox"
