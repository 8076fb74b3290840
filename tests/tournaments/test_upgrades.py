"""Upgrades (issue 28, item 4): a database made by an old release, migrated by today's code
with ``manage.py upgrade``, reads the same -- every tournament's standings (computed, and
the stored snapshot), every table session's scoresheet (its ``export.json``) and every
rating -- as the old release read it.

Each fixture in ``tests/fixtures/upgrades/`` is the database an old release made with
``migrate`` and ``demo_data`` (``make.py``: a release just before a migration that changes
data), gzipped, and beside it what that release read, gzipped too (``record.py``, run by
the old code). Today's code may show more (new columns of the standings); what the old
release showed must be unchanged.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from ops.backup import manifest_read

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "upgrades"
DATABASES = sorted(p.name.removesuffix(".sqlite3.gz") for p in FIXTURES.glob("*.sqlite3.gz"))


def _recorded(name: str) -> dict[str, Any]:
    """What the old release read (``make.py``): its commit, migrations and reads."""
    with gzip.open(FIXTURES / f"{name}.json.gz", "rt", encoding="utf-8") as f:
        return dict(json.load(f))


def changed(old: Any, new: Any, path: str = "") -> Iterator[str]:
    """Where ``new`` differs from ``old`` in what ``old`` has (keys only ``new`` has are
    new things shown, not changes)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                yield f"{path}/{key}: gone"
            else:
                yield from changed(old[key], new[key], f"{path}/{key}")
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            yield from changed(a, b, f"{path}[{i}]")
    elif old != new:
        yield f"{path}: {old!r:.80} -> {new!r:.80}"


def test_the_fixtures_cover_every_data_migration():
    """Each migration that changes data (RunPython) is applied to at least one fixture's
    database with data in it: the fixture was made before it."""
    from django.db.migrations.loader import MigrationLoader
    from django.db.migrations.operations import RunPython

    loader = MigrationLoader(None, ignore_no_migrations=True)
    ours = ("clubs", "scoring", "tournaments", "ops")
    data = {
        key
        for key, migration in loader.disk_migrations.items()
        if key[0] in ours and any(isinstance(op, RunPython) for op in migration.operations)
    }
    had = [{tuple(m) for m in _recorded(name)["migrations"]} for name in DATABASES]
    uncovered = sorted(f"{a}.{n}" for a, n in data if all((a, n) in applied for applied in had))
    assert uncovered == []


@pytest.mark.parametrize("name", DATABASES)
def test_an_old_release_database_upgrades_and_reads_the_same(name, tmp_path):
    before = _recorded(name)
    db = tmp_path / "db.sqlite3"
    with gzip.open(FIXTURES / f"{name}.sqlite3.gz", "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db}",
        "REDIS_URL": "",
        "TABLESCORE_HOME": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",  # whatever an earlier test left in the environment
    }
    upgrade = subprocess.run(
        [sys.executable, "manage.py", "upgrade"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert upgrade.returncode == 0, upgrade.stderr[-3000:]
    assert "checks passed" in upgrade.stdout
    [backup] = (tmp_path / "backups").glob("tablescore-upgrade-*.zip")
    read = subprocess.run(
        [sys.executable, FIXTURES / "record.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    after = json.loads(read.stdout)
    assert after["standings"] and after["sheets"] and after["ratings"]
    assert list(changed(before["reads"], after)) == []
    # The backup taken first holds the old release's database, as it was.
    assert manifest_read(backup)["migrations"] == before["migrations"]


@pytest.mark.django_db(transaction=True)
def test_upgrade_of_a_current_database_backs_up_and_checks(settings, tmp_path, capsys):
    from tests.factories import TournamentFactory

    settings.BACKUP_DIR = tmp_path
    TournamentFactory(name="Upgrade Cup", field=8)
    call_command("upgrade")
    out = capsys.readouterr().out
    assert "0 changes applied to the database, checks passed" in out
    [backup] = tmp_path.glob("tablescore-upgrade-*.zip")
    assert str(backup) in out
