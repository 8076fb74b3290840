"""``make loadtest``: a full hall against the production-shaped server, on loopback only.

For one app server and then for two (``LOADTEST_SERVERS``, default "1 2"): a fresh
PostgreSQL database (``LOADTEST_DATABASE_URL``; its name must contain "loadtest", it is
dropped and made again) and Redis database (``LOADTEST_REDIS_URL``, flushed), migrated,
with a 98-table Kop tournament seated (``plan.py``); then gunicorn as ``make serve``
starts it (3 workers, ``--preload``, DJANGO_DEBUG=false, plain HTTP as in hall mode) on
127.0.0.1 from ``LOADTEST_PORT`` up, one Celery worker per app server (the first with
beat), and Locust headless for ``LOADTEST_SECONDS`` (default 60) with 98 table scorers,
50 acceptances (after ``LOADTEST_ACCEPT_AFTER`` seconds) and 500 public readers.

Prints saves/s, p50/p95 per endpoint, the headroom over a real 98-table tournament
(about 1.6 deals/s) and the time from the last acceptance to standings that include it.
Everything it started is stopped at the end, also on failure.
"""

from __future__ import annotations

import csv
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
HERE = Path(__file__).resolve().parent
REAL_TOURNAMENT = 1.6  # deals/s a real 98-table tournament enters (issue 12)
SECONDS = int(os.environ.get("LOADTEST_SECONDS", "60"))
DB_URL = os.environ.get(
    "LOADTEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tablescore_loadtest"
)
REDIS = os.environ.get("LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/5")
PORT = int(os.environ.get("LOADTEST_PORT", "8100"))
SERVERS = [int(n) for n in os.environ.get("LOADTEST_SERVERS", "1 2").split()]
TABLES, ACCEPTERS = 98, int(os.environ.get("LOADTEST_ACCEPTERS", "50"))
READERS = int(os.environ.get("LOADTEST_READERS", "500"))
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _dsn(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


def fresh_database() -> None:
    import psycopg
    import redis

    name = urlsplit(DB_URL).path.lstrip("/")
    if "loadtest" not in name:
        sys.exit(f"LOADTEST_DATABASE_URL: the database name must contain 'loadtest' ({name!r})")
    admin = _dsn(DB_URL).rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    redis.Redis.from_url(REDIS).flushdb()


def server_env() -> dict[str, str]:
    for url in (DB_URL, REDIS):
        if urlsplit(url).hostname not in LOOPBACK:
            sys.exit(f"the load test runs on loopback addresses only: {url}")
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": DB_URL,
        "REDIS_URL": REDIS,
        "DJANGO_DEBUG": "false",
        "DJANGO_HALL_HTTP": "true",
        "_TABLESCORE_HALL_WARNED": "1",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }


def start(stack: ExitStack, args: list[str], env: dict[str, str], log: Path) -> None:
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


def wait_up(url: str, timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    sys.exit(f"{url} did not answer within {timeout:.0f} s")


def stats(prefix: str) -> dict[str, dict[str, str]]:
    with open(f"{prefix}_stats.csv") as f:
        return {row["Name"]: row for row in csv.DictReader(f)}


def standings_lag(accepted: list[list[float]], tournament: int) -> str:
    """Seconds from the last acceptance (its ``accepted_at``) to the first stored snapshot
    of a results version at least the one read just after it."""
    if not accepted:
        return "no acceptance went through"
    import psycopg

    version = max(v for _when, v in accepted)  # read just after the last one committed
    end = time.time() + 120
    with psycopg.connect(_dsn(DB_URL), autocommit=True) as conn:
        last = conn.execute(
            "SELECT max(t.accepted_at) FROM tournaments_roundtable t "
            "JOIN tournaments_round r ON r.id = t.round_id WHERE r.tournament_id = %s",
            [tournament],
        ).fetchone()
        when = last[0].timestamp() if last and last[0] else max(w for w, _v in accepted)
        while time.time() < end:
            row = conn.execute(
                "SELECT min(computed_at) FROM tournaments_standingssnapshot "
                "WHERE tournament_id = %s AND results_version >= %s",
                [tournament, version],
            ).fetchone()
            if row and row[0] is not None:
                computed: datetime = row[0]
                return f"{computed.timestamp() - when:.1f} s"
            time.sleep(0.5)
    return "no snapshot within 120 s"


def run(servers: int, tmp: Path) -> dict[str, str]:
    fresh_database()
    env = server_env()
    py = str(BIN / "python")
    subprocess.check_call([py, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env)
    subprocess.check_call(
        [py, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env
    )
    plan = subprocess.check_output(
        [py, str(HERE / "plan.py"), str(TABLES), str(ACCEPTERS)], cwd=ROOT, env=env
    )
    plan_file, accepted_file = tmp / "plan.json", tmp / f"accepted{servers}.json"
    plan_file.write_bytes(plan)
    hosts = [f"http://127.0.0.1:{PORT + i}" for i in range(servers)]
    with ExitStack() as stack:
        for i, host in enumerate(hosts):
            worker = [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--concurrency=2",
                "--loglevel=warning",
                "-n",
                f"load{i}@%h",
            ]
            start(stack, worker + (["--beat"] if i == 0 else []), env, tmp / f"worker{i}.log")
            start(
                stack,
                [
                    str(BIN / "gunicorn"),
                    "config.wsgi",
                    "--bind",
                    host.removeprefix("http://"),
                    "--workers",
                    "3",
                    "--preload",
                ],
                env,
                tmp / f"gunicorn{i}.log",
            )
        for host in hosts:
            wait_up(f"{host}/health")
        prefix = str(tmp / f"locust{servers}")
        load_env = {
            **os.environ,
            "LOADTEST_PLAN": str(plan_file),
            "LOADTEST_HOSTS": " ".join(hosts),
            "LOADTEST_ACCEPTED": str(accepted_file),
            "LOADTEST_DSN": _dsn(DB_URL),
            "LOADTEST_ACCEPT_AFTER": os.environ.get("LOADTEST_ACCEPT_AFTER", str(SECONDS // 2)),
            "LOADTEST_ACCEPTERS": str(ACCEPTERS),
            "LOADTEST_READERS": str(READERS),
        }
        users = TABLES + ACCEPTERS + READERS
        subprocess.check_call(
            [
                str(BIN / "locust"),
                "-f",
                str(HERE / "locustfile.py"),
                "--headless",
                "-u",
                str(users),
                "-r",
                "100",
                "-t",
                f"{SECONDS}s",
                "--csv",
                prefix,
                "--only-summary",
                "--loglevel",
                "WARNING",
                "--exit-code-on-error",
                "0",
            ],
            cwd=ROOT,
            env=load_env,
            stdout=subprocess.DEVNULL,
        )
        accepted = json.loads(accepted_file.read_text()) if accepted_file.exists() else []
        lag = standings_lag(accepted, json.loads(plan)["tournament"])
    rows = stats(prefix)
    saves = rows.get("deal save", {})
    rate = float(saves.get("Requests/s") or 0)
    lines = {
        "saves/s": f"{rate:.1f}",
        "headroom": f"{rate / REAL_TOURNAMENT:.0f}x",
        "acceptances": str(len(accepted)),
        "last acceptance to standings": lag,
    }
    for name in ("deal save", "acceptance", "standings", "standings poll"):
        row = rows.get(name)
        if row:
            lines[name] = (
                f"p50 {row['50%']} ms, p95 {row['95%']} ms, {row['Request Count']} requests, "
                f"{row['Failure Count']} failed"
            )
    return lines


def main() -> int:
    results = {}
    with tempfile.TemporaryDirectory(prefix="loadtest-") as tmp:
        for servers in SERVERS:
            print(f"--- {servers} app server(s), {SECONDS} s ...", flush=True)
            results[servers] = run(servers, Path(tmp))
            for key, value in results[servers].items():
                print(f"{key}: {value}", flush=True)
    if len(results) == 2:
        one, two = (float(results[n]["saves/s"]) for n in sorted(results))
        print(f"two app servers v one: {two / one:.2f}x the saves/s" if one else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
