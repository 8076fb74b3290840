"""Without Redis (tasks in-process), a server that died between a result's commit and its
standings recompute leaves the standings behind; the server started again redoes the
recompute after its first response, and makes the day's backup (``ops.heartbeat``): a real
gunicorn process on a SQLite file."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _poll(predicate, timeout: float = 60.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"condition not met within {timeout} s")


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def test_a_server_started_again_redoes_the_recompute_a_crash_left_undone(tmp_path):
    db = tmp_path / "db.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "REDIS_URL": "",
        "TABLESCORE_HOME": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",  # whatever an earlier test left in the environment
        "HEARTBEAT_IN_PROCESS": "true",
    }
    for command in (["migrate", "-v0"], ["demo_data"]):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    with sqlite3.connect(db) as conn:  # a result committed; its recompute died with the server
        conn.execute("UPDATE tournaments_tournament SET results_version = results_version + 1")

    def current() -> bool:
        with sqlite3.connect(db) as conn:
            behind = conn.execute(
                "SELECT count(*) FROM tournaments_tournament t WHERE t.results_version > "
                "(SELECT coalesce(max(s.results_version), -1) FROM tournaments_standingssnapshot s"
                " WHERE s.tournament_id = t.id)"
            ).fetchone()[0]
        return behind == 0

    assert not current()
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _poll(lambda: _answers(f"http://127.0.0.1:{port}/health"))
        _poll(current)
        _poll(lambda: list((tmp_path / "backups").glob("tablescore-auto-*.zip")))
    finally:
        server.terminate()
        server.wait(timeout=30)
