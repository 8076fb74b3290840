"""Backups and restores: one file holding the whole database and what it is.

A backup is a zip file with two members: ``manifest.json`` (the format, the app's version,
the database's kind, its migration state -- every applied migration --, the rows of each
table, and the payload's size and SHA-256) and the payload: a copy of the SQLite file made
with SQLite's online backup (``sqlite3.Connection.backup``: consistent while the app
writes), or PostgreSQL's own dump (``pg_dump --format=custom``, from the same database
snapshot as the manifest's counts).

A restore checks everything before it writes anything: the zip, the manifest, the payload's
checksum, that this release knows every migration the backup's database had (a backup from
a newer release is refused), that the database is of the same kind, and that it is empty
(or ``force``). SQLite's copy is checked (``PRAGMA integrity_check``) in a temporary file
and copied over the database in one step (SQLite's backup again: readers see the old
database or the new one); PostgreSQL's is applied in one transaction (``psql
--single-transaction``), so a failure leaves the database as it was.

Automatic backups (``backup_if_due``, run by celery beat or the in-process heartbeat) are
made a day apart into ``BACKUP_DIR``; the newest of each of the last ``BACKUP_KEEP_DAILY``
days and of each of the last ``BACKUP_KEEP_WEEKLY`` weeks are kept, the others deleted.
Backups made by hand or by ``upgrade`` are never deleted.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import tomllib
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import metadata
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone
from django.utils.translation import gettext as _

FORMAT = 1
MANIFEST = "manifest.json"
PAYLOADS = {"sqlite": "database.sqlite3", "postgresql": "database.pgdump"}
KINDS = ("manual", "auto", "upgrade")
NAME = re.compile(r"^tablescore-(manual|auto|upgrade)-(\d{8}-\d{6})(?:-\d+)?\.zip$")
STAMP = "%Y%m%d-%H%M%S"
# Tables that ``migrate`` fills by itself (the built-in rule profiles come with a
# migration): a database holding only these is empty.
MADE_BY_MIGRATE = {
    "django_migrations",
    "django_content_type",
    "auth_permission",
    "scoring_ruleprofile",
    "scoring_ruleprofileversion",
}
CHUNK = 1 << 20


class BackupError(Exception):
    """A backup or restore refused or failed: the message says why, for a volunteer."""


@dataclass(frozen=True)
class Backup:
    """A backup file in ``BACKUP_DIR``, as the backups page lists it."""

    name: str
    size: int
    created_at: datetime
    kind: str
    version: str


def app_version() -> str:
    """This release's version: the installed package's, else the checkout's pyproject."""
    try:
        return metadata.version("tablescore")
    except metadata.PackageNotFoundError:
        pyproject = Path(settings.BASE_DIR) / "pyproject.toml"
        try:
            return str(tomllib.loads(pyproject.read_text())["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


# --- making one ----------------------------------------------------------------------


def backup_create(*, path: Path | None = None, kind: str = "manual") -> Path:
    """Write a backup of the database to ``path`` (default: a new file in ``BACKUP_DIR``
    named by ``kind`` and the time) and return where. The file appears whole or not at
    all (written beside it, then renamed)."""
    if kind not in KINDS:
        raise ValueError(kind)
    if path is None:
        path = _new_name(kind)
    path = Path(path).expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    vendor = connection.vendor
    if vendor not in PAYLOADS:
        raise BackupError(_("Backups support SQLite and PostgreSQL only."))
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".backup-") as tmp:
        payload = Path(tmp) / PAYLOADS[vendor]
        if vendor == "sqlite":
            migrations, rows = _sqlite_copy(payload)
        else:
            migrations, rows = _postgresql_dump(payload)
        manifest = {
            "format": FORMAT,
            "app": "tablescore",
            "version": app_version(),
            "created_at": timezone.now().isoformat(),
            "kind": kind,
            "database": vendor,
            "migrations": migrations,
            "rows": rows,
            "payload": payload.name,
            "size": payload.stat().st_size,
            "sha256": _sha256(payload),
        }
        packed = Path(tmp) / "backup.zip"
        method = zipfile.ZIP_DEFLATED if vendor == "sqlite" else zipfile.ZIP_STORED
        with zipfile.ZipFile(packed, "w", compression=method) as archive:
            archive.writestr(MANIFEST, json.dumps(manifest, indent=2, sort_keys=True))
            archive.write(payload, payload.name)
        os.replace(packed, path)
    return path


def _new_name(kind: str) -> Path:
    folder = Path(settings.BACKUP_DIR)
    stem = f"tablescore-{kind}-{datetime.now(UTC).strftime(STAMP)}"
    path, n = folder / f"{stem}.zip", 1
    while path.exists():
        path, n = folder / f"{stem}-{n}.zip", n + 1
    return path


def _sqlite_copy(payload: Path) -> tuple[list[list[str]], dict[str, int]]:
    """SQLite's online backup of the database into ``payload``; then the copy's migrations
    and row counts (the copy is what the file holds)."""
    connection.ensure_connection()
    target = sqlite3.connect(payload)
    try:
        connection.connection.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")
        return _sqlite_state(target)
    finally:
        target.close()


def _sqlite_state(db: sqlite3.Connection) -> tuple[list[list[str]], dict[str, int]]:
    tables = [
        name
        for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    rows = {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in sorted(tables)}
    migrations: list[list[str]] = []
    if "django_migrations" in tables:
        migrations = [
            [app, name]
            for app, name in db.execute("SELECT app, name FROM django_migrations ORDER BY id")
        ]
    return migrations, rows


def database_state() -> tuple[list[list[str]], dict[str, int]]:
    """The database's applied migrations (``[app, name]`` in order) and rows per table."""
    tables = sorted(connection.introspection.table_names())
    with connection.cursor() as cursor:
        rows = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            rows[table] = cursor.fetchone()[0]
        migrations: list[list[str]] = []
        if "django_migrations" in tables:
            cursor.execute("SELECT app, name FROM django_migrations ORDER BY id")
            migrations = [[app, name] for app, name in cursor.fetchall()]
    return migrations, rows


def _pg_env() -> dict[str, str]:
    db = connection.settings_dict
    env = {**os.environ, "PGDATABASE": str(db["NAME"])}
    for value, var in (
        (db.get("USER"), "PGUSER"),
        (db.get("PASSWORD"), "PGPASSWORD"),
        (db.get("HOST"), "PGHOST"),
        (db.get("PORT"), "PGPORT"),
    ):
        if value:
            env[var] = str(value)
    return env


def _pg_tool(name: str) -> str:
    """The PostgreSQL client program ``name``, at least as new as the server (an older
    ``pg_dump`` refuses a newer server's database)."""
    found = shutil.which(name)
    if not found:
        raise BackupError(
            _("The PostgreSQL program %(name)s is not installed: install PostgreSQL's client.")
            % {"name": name}
        )
    out = subprocess.run([found, "--version"], capture_output=True, text=True, check=False)
    match = re.search(r"\(PostgreSQL\)\s+(\d+)", out.stdout)
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        server = int(cursor.fetchone()[0]) // 10000
    if match is None or int(match.group(1)) < server:
        raise BackupError(
            _(
                "%(name)s is older than the PostgreSQL server (version %(server)s): install the client of version %(server)s or newer."  # noqa: E501
            )
            % {"name": name, "server": server}
        )
    return found


def _postgresql_dump(payload: Path) -> tuple[list[list[str]], dict[str, int]]:
    """``pg_dump`` of the snapshot in which the migrations and rows were counted."""
    pg_dump = _pg_tool("pg_dump")
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute("SELECT pg_export_snapshot()")
            snapshot = cursor.fetchone()[0]
        state = database_state()
        done = subprocess.run(
            [
                pg_dump,
                "--format=custom",
                "--no-owner",
                "--no-privileges",
                f"--snapshot={snapshot}",
                f"--file={payload}",
            ],
            env=_pg_env(),
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode:
        raise BackupError(_("pg_dump failed: %(error)s") % {"error": done.stderr.strip()})
    return state


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


# --- reading one ---------------------------------------------------------------------


def _damaged(path: Path, why: str) -> BackupError:
    return BackupError(
        _("%(file)s is not a tablescore backup, or it is damaged (%(why)s). Nothing was restored.")
        % {"file": path.name, "why": why}
    )


def manifest_read(path: Path) -> dict[str, Any]:
    """The manifest of the backup at ``path`` (its payload not checked)."""
    try:
        with zipfile.ZipFile(path) as archive:
            manifest = json.loads(archive.read(MANIFEST))
    except FileNotFoundError as exc:
        raise BackupError(_("There is no file %(file)s.") % {"file": path}) from exc
    except (OSError, zipfile.BadZipFile, KeyError, ValueError, EOFError) as exc:
        raise _damaged(path, str(exc)) from exc
    expected = {"format", "version", "database", "migrations", "payload", "sha256"}
    if not isinstance(manifest, dict) or not expected <= set(manifest):
        raise _damaged(path, "manifest.json")
    if manifest["format"] != FORMAT or manifest["database"] not in PAYLOADS:
        raise migrations_newer(manifest, [])
    return manifest


def migrations_newer(manifest: dict[str, Any], unknown: list[str]) -> BackupError:
    return BackupError(
        _(
            "This backup was made by a newer release of tablescore (%(theirs)s) than this one (%(ours)s): its database has changes this release does not know (%(names)s). Install release %(theirs)s or newer, then restore."  # noqa: E501
        )
        % {
            "theirs": manifest.get("version", "?"),
            "ours": app_version(),
            "names": ", ".join(unknown[:5]) or _("a newer backup format"),
        }
    )


def migrations_unknown(migrations: list[list[str]]) -> list[str]:
    """The applied migrations that this release's code does not have (a newer release's)."""
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    return [f"{app}.{name}" for app, name in migrations if (app, name) not in known]


@contextmanager
def backup_open(path: Path) -> Iterator[tuple[dict[str, Any], Path]]:
    """The manifest and the payload of a backup, checked, in a temporary file that is
    gone afterwards; ``BackupError`` when the file is damaged or from a newer release."""
    path = Path(path)
    manifest = manifest_read(path)
    unknown = migrations_unknown(manifest["migrations"])
    if unknown:
        raise migrations_newer(manifest, unknown)
    with tempfile.TemporaryDirectory(prefix="tablescore-restore-") as tmp:
        payload = Path(tmp) / PAYLOADS[manifest["database"]]
        try:
            with (
                zipfile.ZipFile(path) as archive,
                archive.open(manifest["payload"]) as src,
                open(payload, "wb") as out,
            ):
                shutil.copyfileobj(src, out, CHUNK)
        except (OSError, zipfile.BadZipFile, KeyError, EOFError) as exc:
            raise _damaged(path, str(exc)) from exc
        if _sha256(payload) != manifest["sha256"]:
            raise _damaged(path, _("checksum mismatch"))
        yield manifest, payload


# --- restoring one -------------------------------------------------------------------


def database_used() -> dict[str, int]:
    """The tables holding rows that ``migrate`` did not put there (empty: none)."""
    _migrations, rows = database_state()
    return {t: n for t, n in rows.items() if n and t not in MADE_BY_MIGRATE}


def backup_restore(*, path: Path, force: bool = False) -> dict[str, Any]:
    """Restore the backup at ``path`` into this database; returns its manifest. Refused
    (``BackupError``, nothing written) when the file is damaged, from a newer release or
    of another kind of database, or when the database holds data and not ``force``."""
    with backup_open(Path(path)) as (manifest, payload):
        vendor = connection.vendor
        if vendor == "sqlite":  # a new data folder: its database file is made here
            Path(connection.settings_dict["NAME"]).parent.mkdir(parents=True, exist_ok=True)
        if manifest["database"] != vendor:
            raise BackupError(
                _(
                    "This backup holds a %(theirs)s database and this site uses %(ours)s: restore it where %(theirs)s is used."  # noqa: E501
                )
                % {"theirs": manifest["database"], "ours": vendor}
            )
        used = database_used()
        if used and not force:
            raise BackupError(
                _(
                    "The database is not empty (%(tables)s): restoring would replace its data. Make a backup of it first, then restore again with --force."  # noqa: E501
                )
                % {"tables": ", ".join(f"{t}: {n}" for t, n in sorted(used.items())[:5])}
            )
        if vendor == "sqlite":
            _sqlite_restore(path=Path(path), payload=payload)
        else:
            _postgresql_restore(payload=payload)
    connection.close()
    return manifest


def _sqlite_restore(*, path: Path, payload: Path) -> None:
    copy = sqlite3.connect(payload)
    try:
        if copy.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise _damaged(path, "integrity_check")
        connection.ensure_connection()
        # One write transaction through the site's own connection: other connections see
        # the old database or the new one, never half of it (in WAL mode too).
        copy.backup(connection.connection)
    finally:
        copy.close()


def _postgresql_restore(*, payload: Path) -> None:
    """The dump as SQL (``pg_restore`` reads it whole first: a damaged dump stops here),
    applied by ``psql`` in one transaction, after dropping the schema's tables (an empty
    database may have them, empty, made by ``migrate``)."""
    pg_restore, psql = _pg_tool("pg_restore"), _pg_tool("psql")
    script = payload.with_suffix(".sql")
    done = subprocess.run(
        [pg_restore, "--no-owner", "--no-privileges", f"--file={script}", str(payload)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise BackupError(_("pg_restore failed: %(error)s") % {"error": done.stderr.strip()})
    prelude = payload.with_suffix(".pre.sql")
    prelude.write_text("DROP SCHEMA IF EXISTS public CASCADE;\nCREATE SCHEMA public;\n")
    connection.close()
    done = subprocess.run(
        [psql, "--quiet", "--no-psqlrc", "--single-transaction", "-v", "ON_ERROR_STOP=1"]
        + ["-f", str(prelude), "-f", str(script)],
        env=_pg_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise BackupError(
            _("The restore failed and the database was left as it was: %(error)s")
            % {"error": done.stderr.strip()[-2000:]}
        )


# --- the folder of backups -----------------------------------------------------------


def backups_list() -> list[Backup]:
    """The backups in ``BACKUP_DIR``, newest first."""
    folder = Path(settings.BACKUP_DIR)
    found = []
    for path in folder.glob("tablescore-*.zip") if folder.is_dir() else []:
        match = NAME.match(path.name)
        if not match:
            continue
        try:
            version = str(manifest_read(path).get("version", "?"))
        except BackupError:
            version = "?"
        created = datetime.strptime(match.group(2), STAMP).replace(tzinfo=UTC)
        found.append(Backup(path.name, path.stat().st_size, created, match.group(1), version))
    return sorted(found, key=lambda b: (b.created_at, b.name), reverse=True)


def backup_path(name: str) -> Path | None:
    """The file of the listed backup called ``name`` (None: no such backup)."""
    if not NAME.match(name):
        return None
    path = Path(settings.BACKUP_DIR) / name
    return path if path.is_file() else None


def backups_prune() -> list[str]:
    """Delete the automatic backups no longer kept: kept are the newest of each of the
    last ``BACKUP_KEEP_DAILY`` days that have one, and of each of the last
    ``BACKUP_KEEP_WEEKLY`` weeks. Returns the names deleted."""
    automatic = [b for b in backups_list() if b.kind == "auto"]
    keep: set[str] = set()
    for period, count in (
        (lambda b: b.created_at.date(), settings.BACKUP_KEEP_DAILY),
        (lambda b: b.created_at.isocalendar()[:2], settings.BACKUP_KEEP_WEEKLY),
    ):
        seen: list[object] = []
        for backup in automatic:  # newest first: the first of a period is its newest
            key = period(backup)
            if key not in seen:
                seen.append(key)
                if len(seen) <= count:
                    keep.add(backup.name)
    deleted = []
    for backup in automatic:
        if backup.name not in keep:
            (Path(settings.BACKUP_DIR) / backup.name).unlink(missing_ok=True)
            deleted.append(backup.name)
    return deleted


def backup_if_due(*, now: datetime | None = None) -> Path | None:
    """The automatic backup, when the newest is a day old (or there is none), then the
    pruning; returns the new file, or None when none was due."""
    if not settings.BACKUP_AUTOMATIC:
        return None
    now = now or timezone.now()
    newest = next((b for b in backups_list() if b.kind == "auto"), None)
    if newest is not None and now - newest.created_at < timedelta(days=1):
        return None
    made = backup_create(kind="auto")
    backups_prune()
    return made


def migrations_behind() -> list[str]:
    """This release's migrations that the database has not applied yet."""
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{m.app_label}.{m.name}" for m, _backwards in plan]
