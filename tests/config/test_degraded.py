"""Degraded, not down: Redis unreachable must cost speed and freshness, never a page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from config.cache import FailSoftRedisCache
from ops.models import WorkerHeartbeat

pytestmark = pytest.mark.django_db

NOWHERE = "redis://127.0.0.1:6390/0"  # nothing listens there


def test_the_cache_fails_soft_when_redis_is_unreachable():
    cache = FailSoftRedisCache(NOWHERE, {"OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.5}})
    assert cache.get("k", "miss") == "miss"
    cache.set("k", 1)  # dropped, no error
    assert cache.get_many(["a", "b"]) == {}
    assert cache.delete("k") is False


def test_the_cache_leaves_redis_alone_for_a_while_after_a_failure(monkeypatch):
    """A request during an outage pays no connection attempt: after one failure the cache
    answers misses at once for ``RETRY_AFTER`` seconds, then asks Redis again."""
    from config import cache as cache_module

    cache = FailSoftRedisCache(NOWHERE, {})
    client = cache.client.get_client(write=False)
    commands = []
    original = client.execute_command
    monkeypatch.setattr(
        client, "execute_command", lambda *a, **k: commands.append(a[0]) or original(*a, **k)
    )
    assert cache.get("k", "miss") == "miss"
    assert cache.get("k", "miss") == "miss" and cache.has_key("k") is False
    assert commands == ["GET"]  # the second read and the key check waited
    monkeypatch.setattr(cache_module, "RETRY_AFTER", 0.0)
    cache.down_until = 0.0  # the quiet period is over
    assert cache.get("k", "miss") == "miss"
    assert commands == ["GET", "GET"]


def test_the_cache_makes_one_client_per_server_on_one_pool_per_process():
    """Django's Redis cache makes a client for every call; django-redis keeps one per
    server in each cache object (a shared standings page is one cache read, and making
    the client cost more), on a connection pool the process's cache objects share."""
    cache = FailSoftRedisCache(f"{NOWHERE},{NOWHERE.replace('/0', '/1')}", {})
    writer = cache.client.get_client(write=True)
    assert cache.client.get_client(write=True) is writer
    readers = {id(cache.client.get_client(write=False)) for _ in range(30)}
    assert len(readers) == 1  # the one replica: one client
    assert readers != {id(writer)}
    another_thread = FailSoftRedisCache(f"{NOWHERE},{NOWHERE.replace('/0', '/1')}", {})
    assert another_thread.client.get_client(write=True).connection_pool is writer.connection_pool
    assert cache.get("k", "miss") == "miss"  # and it still fails soft


def test_roles_work_with_the_cache_down(director, monkeypatch):
    from clubs import roles

    monkeypatch.setattr(roles, "cache", FailSoftRedisCache(NOWHERE, {}))
    assert roles.is_director(director)


def test_sessions_live_in_the_database_only(settings):
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"


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


def test_the_heartbeat_is_scheduled(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE["worker-heartbeat"]
    assert schedule["task"] == "ops.tasks.worker_heartbeat"
    assert schedule["schedule"] == settings.HEARTBEAT_SECONDS
