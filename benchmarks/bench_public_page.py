"""The public standings page under load, against a static file on the same server.

Gunicorn and a Celery worker as ``make serve`` starts them (3 app workers, production
settings, PostgreSQL and Redis on loopback, fresh databases that are thrown away
afterwards) serve a finished 400-player tournament (16,000 deals, standings computed).
``BENCH_READERS`` (default 50) Locust readers ask, back to back for
``BENCH_READ_SECONDS`` (default 5) each, first for the stylesheet every page loads (the
floor: what this machine's server and client do with a static file), then for the
standings page, as phones not signed in do; ``BENCH_READ_ROUNDS`` (default 3) such turns,
the median turn's ratio reported. Target: the page's rate at least 0.5x the static
file's, its p95 at most 100 ms.

Needs PostgreSQL and Redis on 127.0.0.1 (``BENCH_PUBLIC_DATABASE_URL``, whose name must
contain "bench_public": it is dropped; ``BENCH_PUBLIC_REDIS_URL``, flushed). Prints only.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from contextlib import ExitStack
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from served import (  # noqa: E402
    BIN,
    ROOT,
    celery_worker,
    drop_database,
    fresh_database,
    gunicorn,
    locust,
    prepare,
    reachable,
    server_env,
    start,
    wait_up,
)

DB_URL = os.environ.get(
    "BENCH_PUBLIC_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tablescore_bench_public"
)
REDIS = os.environ.get("BENCH_PUBLIC_REDIS_URL", "redis://127.0.0.1:6379/8")
PORT = int(os.environ.get("BENCH_PUBLIC_PORT", "8190"))
READERS = int(os.environ.get("BENCH_READERS", "50"))
SECONDS = int(os.environ.get("BENCH_READ_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_READ_ROUNDS", "3"))
PLAYERS = 400


def seed() -> None:
    """(In the served environment) the tournament, its standings computed; prints its slug."""
    import django

    django.setup()
    from bench_tournament import build

    from tournaments.services import standings_recompute

    tournament = build(PLAYERS)
    standings_recompute(tournament_id=tournament.pk, version=tournament.results_version)
    print(tournament.slug)


def read(base: str, path: str, prefix: str) -> dict[str, float]:
    """``READERS`` Locust readers on ``path`` for ``SECONDS``: requests/s, p50, p95 (ms),
    failures."""
    env = {**os.environ, "BENCH_HOST": base, "BENCH_PATH": path}
    row = locust(HERE / "public_readers.py", READERS, READERS, SECONDS, prefix, env)["read"]
    return {
        "rate": float(row["Requests/s"]),
        "p50": float(row["50%"]),
        "p95": float(row["95%"]),
        "failed": float(row["Failure Count"]),
    }


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "seed":
        seed()
        return 0
    label = f"public standings page under load, {PLAYERS} players, {READERS} readers"
    if not (reachable(DB_URL) and reachable(REDIS)):
        print(f"{label}: not measured (needs PostgreSQL and Redis on 127.0.0.1)")
        return 0
    fresh_database(DB_URL, REDIS, marker="bench_public")
    env = server_env(DB_URL, REDIS)
    base = f"http://127.0.0.1:{PORT}"
    try:
        prepare(env)
        slug = subprocess.check_output(
            [str(BIN / "python"), str(HERE / "bench_public_page.py"), "seed"],
            cwd=ROOT,
            env={**env, "PYTHONPATH": str(ROOT)},
            text=True,
        ).split()[-1]
        page = f"/tournaments/{slug}/standings/"
        with tempfile.TemporaryDirectory(prefix="bench-public-") as tmp, ExitStack() as stack:
            start(stack, celery_worker("bench", beat=True), env, Path(tmp) / "worker.log")
            start(stack, gunicorn(base.removeprefix("http://")), env, Path(tmp) / "gunicorn.log")
            wait_up(f"{base}/health")
            with urllib.request.urlopen(base + page, timeout=30) as response:
                html = response.read().decode()
            stylesheet = re.search(r'href="(/static/css/app\.[^"]+\.css)"', html)
            if stylesheet is None or "Player 00001" not in html:
                print(f"{label}: not measured (the page lacks its standings or stylesheet)")
                return 1
            # Floor and page in turns, the ratio taken within each turn and the median
            # kept: this machine's speed drifts over a run by more than the ratio's margin.
            turns = []
            for turn in range(ROUNDS):
                floor = read(base, stylesheet.group(1), f"{tmp}/static{turn}")
                got = read(base, page, f"{tmp}/page{turn}")
                turns.append((got["rate"] / floor["rate"], floor, got))
    finally:
        drop_database(DB_URL)
    ratio, floor, got = sorted(turns, key=lambda turn: turn[0])[len(turns) // 2]
    ok = ratio >= 0.5 and got["p95"] <= 100 and not got["failed"]
    print(
        f"{label}, gunicorn as make serve starts it (PostgreSQL, Redis): "
        f"{got['rate']:.0f} req/s (p50 {got['p50']:.0f} ms, p95 {got['p95']:.0f} ms, "
        f"{got['failed']:.0f} failed), floor {floor['rate']:.0f} req/s (the page's stylesheet, "
        f"p95 {floor['p95']:.0f} ms), ratio {ratio:.2f} "
        f"(median of {len(turns)} turns: {', '.join(f'{r:.2f}' for r, _f, _g in turns)}) "
        f"(target >= 0.5 and p95 <= 100 ms) [{'ok' if ok else 'over'}]",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
