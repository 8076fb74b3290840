"""``/health``: the database, the broker and the last worker heartbeat, 503 when a service
is down (and naming Redis when it is)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ops.models import WorkerHeartbeat
from tests.config.test_degraded import NOWHERE

pytestmark = pytest.mark.django_db


def test_health_reports_database_and_in_process_broker(client):
    response = client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == {"ok": True, "detail": "sqlite"}
    assert body["broker"] == {"ok": True, "detail": "in-process"}


def test_health_is_503_when_the_broker_is_down(client, settings):
    # Port 9 (discard) has no Redis on it: the broker is unreachable.
    settings.REDIS_URL = "redis://127.0.0.1:9/0"
    response = client.get("/health")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["broker"]["ok"] is False
    assert body["database"]["ok"] is True


def test_health_shows_the_last_worker_heartbeat(client):
    from ops.tasks import heartbeat_record

    assert client.get("/health").json()["worker"]["last_heartbeat"] is None
    heartbeat_record.delay("t-1")
    heartbeat_record.delay("t-1")  # idempotent: same token, one row
    from ops.models import WorkerHeartbeat

    assert WorkerHeartbeat.objects.count() == 1
    assert client.get("/health").json()["worker"]["last_heartbeat"] is not None


def test_health_names_redis_when_it_is_down(client, settings):
    settings.REDIS_URL = NOWHERE
    response = client.get("/health")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert any("Redis unreachable" in p for p in body["problems"])


def test_health_reports_a_stale_worker_heartbeat_as_degraded(client, settings, monkeypatch):
    from ops import views

    settings.REDIS_URL = "redis://127.0.0.1:6379/11"
    monkeypatch.setattr(views, "_broker_ok", lambda: (True, "redis"))
    response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["status"] == "degraded"
    assert response.json()["worker"]["detail"] == "no heartbeat recorded"

    WorkerHeartbeat.objects.create(
        token="beat:old",
        hostname="old",
        beat_at=timezone.now() - timedelta(seconds=settings.HEARTBEAT_STALE_SECONDS + 5),
    )
    body = client.get("/health").json()
    assert body["status"] == "degraded" and "stale" in body["worker"]["detail"]

    from ops.tasks import worker_heartbeat

    worker_heartbeat()
    fresh = client.get("/health")
    assert fresh.status_code == 200 and fresh.json()["worker"]["ok"] is True
