from __future__ import annotations

import pytest

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
