"""The integration tier: PostgreSQL, Redis, and a real Celery worker process.

``make test`` runs it with DATABASE_URL and REDIS_URL pointing at the local
services. The worker is started here, against the *test* database that
pytest-django created, and stopped at the end of the session. If a service is
missing the tier fails with a message naming it: it never skips.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
HINT = "run the tier through `make test` (it sets DATABASE_URL and REDIS_URL)"


@pytest.fixture(scope="session", autouse=True)
def _require_real_services():
    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        pytest.fail(f"integration tier needs PostgreSQL, got {engine}: {HINT}", pytrace=False)
    if not settings.REDIS_URL:
        pytest.fail(f"integration tier needs Redis (REDIS_URL is unset): {HINT}", pytrace=False)
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        pytest.fail(f"Redis at {settings.REDIS_URL} is unreachable ({exc})", pytrace=False)


def served_database_url(django_db_blocker) -> str:
    """The URL of the test database pytest-django made, for a process the tests start."""
    from django.db import connection

    with django_db_blocker.unblock():
        db = connection.settings_dict
    user, host, port = db["USER"] or "postgres", db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker, tmp_path_factory):
    """A real ``celery worker`` process on the test database; yields its Popen."""
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()  # no stale tasks from earlier runs
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    proc = worker_start(hostname="it@%h", log=log, url=served_database_url(django_db_blocker))
    _RUNNING.append(proc)
    yield proc
    _RUNNING.clear()
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


def worker_start(*, hostname: str, log: Path, url: str) -> subprocess.Popen[bytes]:
    """Start a ``celery worker`` process on the database at ``url`` (the test database:
    ``served_database_url``; solo pool, its output in ``log``) and return it once it
    answers a ping."""
    from config.celery import app

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": url,
        "REDIS_URL": settings.REDIS_URL,
    }
    with open(log, "a") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                f"--hostname={hostname}",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    name = hostname.replace("%h", socket.gethostname())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"celery worker exited at start:\n{log.read_text()}", pytrace=False)
        if app.control.ping(destination=[name], timeout=0.5):
            return proc
    proc.terminate()
    pytest.fail(f"celery worker did not answer within 60 s:\n{log.read_text()}")


def wait_for(predicate, *, timeout: float = 30.0, interval: float = 0.1):
    """Poll ``predicate`` until it returns something truthy (or fail after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"condition not met within {timeout} s")


_RUNNING: list[object] = []  # the worker process, once a test has started it


def session_worker_running() -> bool:
    """Has a test started the session's shared worker (``celery_worker_process``)?"""
    return bool(_RUNNING)


@pytest.fixture(autouse=True)
def _drain_the_worker_after_each_test():
    """A test that queued tasks while the session's worker runs (it may not ask for the
    worker itself) waits for them before its data is flushed: a task still writing then
    deadlocks the flush."""
    yield
    if _RUNNING:
        _wait_idle()


def _wait_idle() -> None:
    import redis

    from config.celery import app

    broker = redis.Redis.from_url(settings.REDIS_URL)

    def idle() -> bool:
        if broker.llen("celery"):
            return False
        active = app.control.inspect(timeout=1).active() or {}
        return not any(active.values())

    wait_for(idle, timeout=120, interval=0.5)


@pytest.fixture
def worker(celery_worker_process):
    """The real worker, drained after the test (see ``_drain_the_worker_after_each_test``)."""
    yield celery_worker_process
    _wait_idle()
