"""Shared plumbing for benchmarks that need Django and a database.

``on_each_database(script, what)`` runs ``script LABEL`` once on SQLite and once on
PostgreSQL (when reachable), each in its own interpreter because Django reads
DATABASE_URL at start-up. Inside, ``throwaway_database()`` sets Django up on the
test settings and creates a test database that is dropped afterwards; ``another_database``
adds one more beside it, and ``using`` points the default alias at it for a block.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tablescore")
# The default database's name before ``throwaway_database`` made it a test database's.
ORIGINAL_NAME: list[str] = []


def pg_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=2):
            return True
    except OSError:
        return False


def on_each_database(script: str, what: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    subprocess.check_call([sys.executable, script, "SQLite"], env=env, cwd=ROOT)
    if pg_reachable():
        subprocess.check_call(
            [sys.executable, script, "PostgreSQL"], env={**env, "DATABASE_URL": PG_URL}, cwd=ROOT
        )
    else:
        print(f"{what} on PostgreSQL: not measured (PostgreSQL unreachable)")


@contextmanager
def throwaway_database() -> Iterator[None]:
    """Django on config.test_settings with a fresh test database (and the test client's host)."""
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.test_settings"
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    # Not setup_test_environment(): its instrumented template rendering would be measured too.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    old_name = connection.settings_dict["NAME"]
    ORIGINAL_NAME[:] = [old_name]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


@contextmanager
def another_database(alias: str) -> Iterator[str]:
    """Inside ``throwaway_database``: one more fresh test database, as the alias ``alias``
    (the default's settings, its own name), dropped afterwards."""
    import copy

    from django.db import connections

    connections.settings[alias] = copy.deepcopy(connections.settings["default"])
    old_name = f"{ORIGINAL_NAME[0]}_{alias}"
    connections.settings[alias]["NAME"] = old_name
    # Made while the default alias is this one: data migrations read through the default.
    with using(alias):
        connections[alias].creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield alias
    finally:
        connections[alias].creation.destroy_test_db(old_name, verbosity=0)


@contextmanager
def using(alias: str) -> Iterator[None]:
    """Everything that asks for the default database (the ORM, ``django.db.connection``,
    ``transaction.atomic``) gets ``alias``'s for a block."""
    from django.db import connections

    default = connections["default"]
    connections["default"] = connections[alias]
    try:
        yield
    finally:
        connections["default"] = default


def figure(name: str, ms: float, floor_ms: float, target: str, *, floor: str = "") -> None:
    """One line of ``make bench``: a figure beside its floor measured in the same run.

    ``target`` is what the ratio (or, where it says "ms", the figure itself) should stay
    within; the machine is shared, so the ratio is what compares across runs."""
    what = f" ({floor})" if floor else ""
    print(
        f"{name}: {ms:.1f} ms, floor {floor_ms:.1f} ms{what}, ratio {ms / floor_ms:.2f} "
        f"(target {target})",
        flush=True,
    )
