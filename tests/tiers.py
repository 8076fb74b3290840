"""Run the whole suite in named tiers and print what ran (``make test``).

Tiers, in order:

* ``lint``        ruff (lint + format check), mypy with django-stubs over the project
                  (strict on the pure packages), and the import-linter contracts of
                  pyproject.toml (``lint-imports``)
* ``unit``        the pure engines, seating and ranking, without Django loaded
* ``django``      the Django apps on SQLite, tasks executed in-process
* ``integration`` PostgreSQL + Redis + a real Celery worker process the tests start
* ``browser``     pages driven in headless Chromium through Playwright

A tier whose service is unreachable FAILS with a message that names the
service and the command that starts it; nothing is skipped silently.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PG_URL = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tablescore")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")

START_HINTS = {
    "PostgreSQL": "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "Redis": (
        'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" '
        "--appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log"
    ),
}


@dataclass
class Outcome:
    tier: str
    ok: bool
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    note: str = ""


def banner(text: str) -> None:
    print(f"\n{'=' * 20} tier: {text} {'=' * 20}", flush=True)


def reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname, parsed.port or default_port), timeout=2):
            return True
    except OSError:
        return False


def run(cmd: list[str], env: dict[str, str] | None = None) -> int:
    print("$ " + " ".join(cmd), flush=True)
    return subprocess.call(cmd, cwd=ROOT, env={**os.environ, **(env or {})})


def pytest_tier(name: str, paths: list[str], env: dict[str, str], extra: list[str]) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.xml"
        code = run(
            [str(BIN / "pytest"), *paths, "-q", f"--junitxml={report}", *extra],
            env=env,
        )
        passed = failed = skipped = 0
        if report.exists():
            for suite in ET.parse(report).getroot().iter("testsuite"):
                total = int(suite.get("tests", 0))
                fails = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
                skips = int(suite.get("skipped", 0))
                failed += fails
                skipped += skips
                passed += total - fails - skips
    ok = code == 0 and passed > 0
    note = "" if passed or code else "no test ran"
    return Outcome(name, ok, passed, failed, skipped, note)


def lint_tier() -> Outcome:
    banner("lint (ruff, mypy with django-stubs, import-linter contracts)")
    codes = [
        run([str(BIN / "ruff"), "check", "."]),
        run([str(BIN / "ruff"), "format", "--check", "."]),
        run([str(BIN / "mypy")]),
        run([str(BIN / "lint-imports")]),
    ]
    return Outcome("lint", all(c == 0 for c in codes), note="ruff + mypy + import-linter")


def unit_tier() -> Outcome:
    banner("unit (pure engines, seating, ranking; Django not loaded)")
    return pytest_tier(
        "unit", ["tests/engines", "tests/seating", "tests/ranking"], {}, ["-p", "no:django"]
    )


def django_tier() -> Outcome:
    banner("django (SQLite, tasks in-process)")
    env = {"DATABASE_URL": "", "REDIS_URL": ""}
    return pytest_tier(
        "django",
        ["tests/config", "tests/ops", "tests/clubs", "tests/scoring", "tests/tournaments"],
        env,
        [],
    )


def integration_tier() -> Outcome:
    banner("integration (PostgreSQL, Redis, real Celery worker)")
    missing = []
    if not reachable(PG_URL, 5432):
        missing.append(("PostgreSQL", PG_URL))
    if not reachable(REDIS_URL, 6379):
        missing.append(("Redis", REDIS_URL))
    if missing:
        for service, url in missing:
            print(
                f"FAIL: {service} is unreachable at {url}. Start it with:\n    "
                f"{START_HINTS[service]}",
                flush=True,
            )
        return Outcome(
            "integration", False, note="service unreachable: " + ", ".join(s for s, _ in missing)
        )
    env = {"DATABASE_URL": PG_URL, "REDIS_URL": REDIS_URL}
    served = pytest_tier("integration", ["tests/integration"], env, [])
    # Django-tier files again on PostgreSQL, with tasks in-process (these tests run the
    # tasks themselves): every statement count as PostgreSQL gets them (one WITH for a
    # save's writes, the standings' statements kept prepared, a rebuild's COPY), the app's
    # hand-written SQL, and the ratings' raw reads and writes (an ordered aggregate,
    # UNNEST, upserts).
    on_postgres = [
        "tests/config/test_statements.py",
        "tests/tournaments/test_sql.py",
        "tests/tournaments/test_ratings.py",
    ]
    in_process = pytest_tier(
        "integration", on_postgres, {"DATABASE_URL": PG_URL, "REDIS_URL": ""}, []
    )
    return Outcome(
        "integration",
        served.ok and in_process.ok,
        served.passed + in_process.passed,
        served.failed + in_process.failed,
        served.skipped + in_process.skipped,
        "; ".join(n for n in (served.note, in_process.note) if n),
    )


def ensure_chromium() -> str | None:
    if Path(CHROMIUM).exists():
        return None
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("Chromium is missing: installing Debian's chromium (apt-get) ...", flush=True)
        env = {"DEBIAN_FRONTEND": "noninteractive"}
        if (
            run(["apt-get", "update", "-q"], env) == 0
            and run(["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium"], env)
            == 0
            and Path(CHROMIUM).exists()
        ):
            return None
        return "apt-get could not install chromium"
    return (
        f"Chromium is not at {CHROMIUM}. Install Debian's package as root: "
        "apt-get install chromium (or set CHROMIUM_PATH)"
    )


def browser_tier() -> Outcome:
    banner("browser (headless Chromium via Playwright)")
    problem = ensure_chromium()
    if problem:
        print(f"FAIL: {problem}", flush=True)
        return Outcome("browser", False, note=problem)
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "DATABASE_URL": "",
            "REDIS_URL": "",
            "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
            "CHROMIUM_PATH": CHROMIUM,
            # A file, not memory: two phones' requests at once wait for each other's
            # locks (config/test_settings.py).
            "TEST_SQLITE_NAME": str(Path(tmp) / "browser.sqlite3"),
        }
        return pytest_tier("browser", ["tests/browser"], env, [])


TIERS = {
    "lint": lint_tier,
    "unit": unit_tier,
    "django": django_tier,
    "integration": integration_tier,
    "browser": browser_tier,
}


def main(argv: list[str]) -> int:
    chosen = argv or list(TIERS)
    unknown = [t for t in chosen if t not in TIERS]
    if unknown:
        print(f"unknown tier(s): {', '.join(unknown)}; choose from {', '.join(TIERS)}")
        return 2
    started = time.monotonic()
    outcomes = [TIERS[name]() for name in chosen]
    print(f"\n{'=' * 20} summary ({time.monotonic() - started:.0f} s) {'=' * 20}")
    for o in outcomes:
        counts = f"{o.passed} passed, {o.failed} failed, {o.skipped} skipped"
        if o.tier == "lint":
            counts = ""
        status = "ok" if o.ok else "FAILED"
        print(f"{o.tier:<12} {status:<7} {counts} {o.note}".rstrip())
    passed = sum(o.passed for o in outcomes)
    failed = sum(o.failed for o in outcomes) + sum(1 for o in outcomes if not o.ok and not o.failed)
    skipped = sum(o.skipped for o in outcomes)
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 0 if all(o.ok for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
