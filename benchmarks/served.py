"""Benchmarks against the production-shaped server: gunicorn as ``make serve`` starts it,
on loopback, over a PostgreSQL database and a Redis database made fresh for the run.

Shared by ``make loadtest`` (``loadtest/run.py``) and ``bench_public_page.py``.
"""

from __future__ import annotations

import csv
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def dsn(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


def reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "", parts.port or 0), timeout=2):
            return True
    except OSError:
        return False


def fresh_database(db_url: str, redis_url: str, *, marker: str) -> None:
    """Drop and make again ``db_url``'s database (its name must contain ``marker``: it is
    thrown away) and flush ``redis_url``'s database."""
    import psycopg
    import redis

    name = urlsplit(db_url).path.lstrip("/")
    if marker not in name:
        sys.exit(f"the database name must contain {marker!r} (it is dropped): {name!r}")
    admin = dsn(db_url).rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(redis_url).flushdb()


def drop_database(db_url: str) -> None:
    import psycopg

    name = urlsplit(db_url).path.lstrip("/")
    with psycopg.connect(dsn(db_url).rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def server_env(db_url: str, redis_url: str) -> dict[str, str]:
    """The environment ``make serve`` runs in (production settings, plain HTTP as in hall
    mode), on loopback addresses only."""
    for url in (db_url, redis_url):
        if urlsplit(url).hostname not in LOOPBACK:
            sys.exit(f"a served benchmark runs on loopback addresses only: {url}")
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "DJANGO_DEBUG": "false",
        "DJANGO_HALL_HTTP": "true",
        "_TABLESCORE_HALL_WARNED": "1",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }


def prepare(env: dict[str, str]) -> None:
    """Migrate and collect the static files, as ``make serve`` does before it starts."""
    py = str(BIN / "python")
    subprocess.check_call([py, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env)
    subprocess.check_call(
        [py, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env
    )


def start(stack: ExitStack, args: list[str], env: dict[str, str], log: Path) -> None:
    """Start ``args`` in its own process group; ``stack`` stops it (and its children)."""
    out = stack.enter_context(open(log, "w"))  # noqa: SIM115
    proc = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )

    def stop() -> None:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    stack.callback(stop)


def gunicorn(host: str) -> list[str]:
    """The app server as ``make serve`` starts it, bound to ``host`` ("127.0.0.1:8100")."""
    return [str(BIN / "gunicorn"), "config.wsgi", "--bind", host, "--workers", "3", "--preload"]


def celery_worker(name: str, *, beat: bool) -> list[str]:
    """A Celery worker as ``make serve`` starts one (``beat``: the one that also beats)."""
    worker = [str(BIN / "celery"), "-A", "config", "worker", "--concurrency=2"]
    return [*worker, "--loglevel=warning", "-n", f"{name}@%h", *(["--beat"] if beat else [])]


def locust(
    locustfile: Path, users: int, rate: int, seconds: int, prefix: str, env: dict[str, str]
) -> dict[str, dict[str, str]]:
    """Locust headless (``users`` spawned ``rate`` a second, for ``seconds``); its stats
    by request name (``prefix``_stats.csv)."""
    subprocess.check_call(
        [
            str(BIN / "locust"),
            "-f",
            str(locustfile),
            "--headless",
            "-u",
            str(users),
            "-r",
            str(rate),
            "-t",
            f"{seconds}s",
            "--csv",
            prefix,
            "--only-summary",
            "--loglevel",
            "WARNING",
            "--exit-code-on-error",
            "0",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    with open(f"{prefix}_stats.csv") as f:
        return {row["Name"]: row for row in csv.DictReader(f)}


def wait_up(url: str, timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    sys.exit(f"{url} did not answer within {timeout:.0f} s")
