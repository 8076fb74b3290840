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

import json
import os
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from served import (  # noqa: E402
    BIN,
    ROOT,
    celery_worker,
    dsn,
    fresh_database,
    gunicorn,
    locust,
    prepare,
    server_env,
    start,
    wait_up,
)

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


def standings_lag(accepted: list[list[float]], tournament: int) -> str:
    """Seconds from the last acceptance (its ``accepted_at``) to the first stored snapshot
    of a results version at least the one read just after it."""
    if not accepted:
        return "no acceptance went through"
    import psycopg

    version = max(v for _when, v in accepted)  # read just after the last one committed
    end = time.time() + 120
    with psycopg.connect(dsn(DB_URL), autocommit=True) as conn:
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
    fresh_database(DB_URL, REDIS, marker="loadtest")
    env = server_env(DB_URL, REDIS)
    prepare(env)
    py = str(BIN / "python")
    plan = subprocess.check_output(
        [py, str(HERE / "plan.py"), str(TABLES), str(ACCEPTERS)], cwd=ROOT, env=env
    )
    plan_file, accepted_file = tmp / "plan.json", tmp / f"accepted{servers}.json"
    plan_file.write_bytes(plan)
    hosts = [f"http://127.0.0.1:{PORT + i}" for i in range(servers)]
    with ExitStack() as stack:
        for i, host in enumerate(hosts):
            start(stack, celery_worker(f"load{i}", beat=i == 0), env, tmp / f"worker{i}.log")
            start(stack, gunicorn(host.removeprefix("http://")), env, tmp / f"gunicorn{i}.log")
        for host in hosts:
            wait_up(f"{host}/health")
        prefix = str(tmp / f"locust{servers}")
        load_env = {
            **os.environ,
            "LOADTEST_PLAN": str(plan_file),
            "LOADTEST_HOSTS": " ".join(hosts),
            "LOADTEST_ACCEPTED": str(accepted_file),
            "LOADTEST_DSN": dsn(DB_URL),
            "LOADTEST_ACCEPT_AFTER": os.environ.get("LOADTEST_ACCEPT_AFTER", str(SECONDS // 2)),
            "LOADTEST_ACCEPTERS": str(ACCEPTERS),
            "LOADTEST_READERS": str(READERS),
        }
        users = TABLES + ACCEPTERS + READERS
        rows = locust(HERE / "locustfile.py", users, 100, SECONDS, prefix, load_env)
        accepted = json.loads(accepted_file.read_text()) if accepted_file.exists() else []
        lag = standings_lag(accepted, json.loads(plan)["tournament"])
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
