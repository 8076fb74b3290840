"""A task enqueued with REDIS_URL set is run by a real worker; its effect lands in PostgreSQL."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from ops.models import WorkerHeartbeat
from ops.tasks import heartbeat_record
from tests.integration.conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_task_runs_in_the_worker_process_and_writes_to_postgresql(celery_worker_process):
    assert connection.vendor == "postgresql"
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    heartbeat_record.delay("integration-1")
    beat = wait_for(lambda: WorkerHeartbeat.objects.filter(token="integration-1").first())
    assert beat.hostname
    # Idempotent: the same token again leaves one row.
    heartbeat_record.delay("integration-1")
    heartbeat_record.delay("integration-2")
    wait_for(lambda: WorkerHeartbeat.objects.filter(token="integration-2").exists())
    assert WorkerHeartbeat.objects.filter(token="integration-1").count() == 1


def test_health_reports_postgresql_and_redis(client, worker):
    from ops.tasks import worker_heartbeat

    worker_heartbeat.delay()  # what celery beat schedules (CELERY_BEAT_SCHEDULE)
    wait_for(lambda: WorkerHeartbeat.objects.filter(token__startswith="beat:").exists())
    response = client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == {"ok": True, "detail": "postgresql"}
    assert body["broker"] == {"ok": True, "detail": "redis"}
