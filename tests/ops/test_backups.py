"""Backups (issue 28, item 3): ``backup`` writes one file with a manifest; ``restore``
puts it back into an empty database, refuses a database that holds data without
``--force``, a damaged file, and a newer release's backup, writing nothing then; the
automatic backups are made a day apart and pruned; the backups page is the site
administrators' only."""

from __future__ import annotations

import hashlib
import json
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import URLPattern, reverse

from ops import backup as backups
from ops import urls as ops_urls
from ops.backup import BackupError, backup_create, backup_restore, database_state
from tests.clubs.identities import WHO
from tests.factories import ClubFactory, TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def folder(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


@pytest.fixture
def cup():
    return TournamentFactory(name="Backup Cup", club=ClubFactory(name="Klub Kopa"), field=8)


def _rewrite(path: Path, out: Path, *, manifest=None, payload=None) -> Path:
    """A copy of the backup at ``path`` with its manifest or its payload replaced."""
    with zipfile.ZipFile(path) as archive:
        old = json.loads(archive.read(backups.MANIFEST))
        data = archive.read(old["payload"])
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(backups.MANIFEST, json.dumps(manifest or old))
        archive.writestr(old["payload"], payload if payload is not None else data)
    return out


def test_a_backup_holds_the_database_and_a_manifest_that_describes_it(cup, tmp_path):
    path = backup_create(path=tmp_path / "one.zip")
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        payload = archive.read(manifest["payload"])
    migrations, rows = database_state()
    assert manifest["app"] == "tablescore"
    assert manifest["version"] == backups.app_version() != "unknown"
    assert manifest["database"] == "sqlite"
    assert manifest["migrations"] == migrations
    assert ["tournaments", "0001_initial"] in manifest["migrations"]
    assert manifest["rows"] == rows
    assert manifest["rows"]["tournaments_tournament"] == 1
    assert manifest["rows"]["tournaments_registration"] == 8
    assert manifest["sha256"] == hashlib.sha256(payload).hexdigest()
    assert manifest["size"] == len(payload)


def test_restore_into_an_empty_database_brings_every_row_back(cup, tmp_path):
    path = backup_create(path=tmp_path / "one.zip")
    before = database_state()
    call_command("flush", interactive=False)
    assert not Tournament.objects.exists()

    call_command("restore", str(path))

    assert database_state() == before
    assert Tournament.objects.get().name == "Backup Cup"


def test_restore_refuses_a_database_that_holds_data_unless_forced(cup, tmp_path):
    path = backup_create(path=tmp_path / "one.zip")
    Tournament.objects.filter(pk=cup.pk).update(name="Changed since")
    state = database_state()
    with pytest.raises(CommandError, match="not empty.*--force"):
        call_command("restore", str(path))
    assert database_state() == state

    call_command("restore", str(path), "--force")
    assert Tournament.objects.get().name == "Backup Cup"


@pytest.mark.parametrize("damage", ["checksum", "truncated", "not a zip", "no manifest"])
def test_a_damaged_backup_is_refused_and_nothing_is_written(cup, tmp_path, damage):
    path = backup_create(path=tmp_path / "one.zip")
    bad = tmp_path / "bad.zip"
    if damage == "checksum":
        with zipfile.ZipFile(path) as archive:
            manifest = json.loads(archive.read(backups.MANIFEST))
            data = bytearray(archive.read(manifest["payload"]))
        data[len(data) // 2] ^= 0xFF
        _rewrite(path, bad, payload=bytes(data))
    elif damage == "truncated":
        bad.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    elif damage == "not a zip":
        bad.write_text("hello")
    else:
        with zipfile.ZipFile(bad, "w") as archive:
            archive.writestr("something.txt", "x")
    call_command("flush", interactive=False)
    state = database_state()
    with pytest.raises(CommandError, match="damaged.*Nothing was restored"):
        call_command("restore", str(bad))
    assert database_state() == state


def test_a_backup_from_a_newer_release_is_refused_with_a_clear_message(cup, tmp_path):
    path = backup_create(path=tmp_path / "one.zip")
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read(backups.MANIFEST))
    manifest["version"] = "9.0.0"
    manifest["migrations"].append(["tournaments", "9999_from_the_future"])
    newer = _rewrite(path, tmp_path / "newer.zip", manifest=manifest)
    call_command("flush", interactive=False)
    state = database_state()
    with pytest.raises(BackupError) as refused:
        backup_restore(path=newer)
    message = str(refused.value)
    assert "newer release of tablescore (9.0.0)" in message
    assert "tournaments.9999_from_the_future" in message
    assert "Install release 9.0.0 or newer" in message
    assert database_state() == state


def test_a_backup_of_another_kind_of_database_is_refused(cup, tmp_path):
    path = backup_create(path=tmp_path / "one.zip")
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read(backups.MANIFEST))
    manifest["database"] = "postgresql"
    other = _rewrite(path, tmp_path / "pg.zip", manifest=manifest)
    with pytest.raises(BackupError, match="postgresql database and this site uses sqlite"):
        backup_restore(path=other, force=True)


def test_backup_command_writes_into_the_backups_folder(cup, folder, capsys):
    call_command("backup")
    [made] = folder.iterdir()
    assert backups.NAME.match(made.name).group(1) == "manual"
    assert str(made) in capsys.readouterr().out


# --- automatic backups -------------------------------------------------------------------


def test_the_automatic_backup_is_made_once_a_day(cup, folder):
    first = backups.backup_if_due()
    assert first is not None and first.name.startswith("tablescore-auto-")
    assert backups.backup_if_due() is None  # the newest is not a day old
    later = datetime.now(UTC) + timedelta(days=1, minutes=1)
    second = backups.backup_if_due(now=later)
    assert second is not None and second != first


def test_automatic_backups_are_off_when_the_setting_says_so(cup, folder, settings):
    settings.BACKUP_AUTOMATIC = False
    assert backups.backup_if_due() is None
    assert not folder.exists()


def test_pruning_keeps_the_newest_of_each_of_the_last_days_and_weeks(cup, folder, settings):
    settings.BACKUP_KEEP_DAILY = 3
    settings.BACKUP_KEEP_WEEKLY = 2
    real = backup_create(path=folder / "real.zip").read_bytes()
    (folder / "real.zip").unlink()
    start = datetime(2026, 11, 28, 2, 0, tzinfo=UTC)  # a Saturday
    names = []
    for days in range(21):  # one a day for three weeks, two on the newest day
        for hour in (2, 14) if days == 0 else (2,):
            stamp = (start - timedelta(days=days)).replace(hour=hour).strftime(backups.STAMP)
            names.append(f"tablescore-auto-{stamp}.zip")
    names.append("tablescore-manual-20261001-010000.zip")  # by hand: never pruned
    for name in names:
        (folder / name).write_bytes(real)

    deleted = backups.backups_prune()

    kept = sorted(p.name for p in folder.iterdir())
    assert kept == [
        "tablescore-auto-20261122-020000.zip",  # the newest of the week before (Sunday)
        "tablescore-auto-20261126-020000.zip",
        "tablescore-auto-20261127-020000.zip",
        "tablescore-auto-20261128-140000.zip",  # the day's newest, and the week's
        "tablescore-manual-20261001-010000.zip",
    ]
    assert len(deleted) == len(names) - len(kept)


# --- the in-process heartbeat ----------------------------------------------------------


def test_without_a_worker_a_request_redoes_a_lost_recompute_and_backs_up(
    cup, folder, settings, client
):
    """The process that accepted a result died before its recompute: the next request
    after a restart (any page) finds the standings behind the results and recomputes."""
    from ops import heartbeat

    settings.HEARTBEAT_IN_PROCESS = True
    heartbeat._next_beat["at"] = 0.0
    Tournament.objects.filter(pk=cup.pk).update(results_version=3)
    assert not cup.snapshots.exists()

    assert client.get("/health").status_code == 200

    assert cup.snapshots.get().results_version == 3
    assert [p.name.startswith("tablescore-auto-") for p in folder.iterdir()] == [True]
    # At most one beat a HEARTBEAT_SECONDS: the next request leaves a new change be.
    Tournament.objects.filter(pk=cup.pk).update(results_version=4)
    client.get("/health")
    assert cup.snapshots.count() == 1
    heartbeat._next_beat["at"] = 0.0
    client.get("/health")  # another process: the shared row says it beat already
    assert cup.snapshots.count() == 1


def test_the_heartbeat_queues_again_every_tournament_whose_standings_are_behind(cup, broker):
    from tournaments.services import STANDINGS_RECOMPUTE, standings_catch_up

    broker.up = True
    current = TournamentFactory(name="Current Cup", club=cup.club)
    Tournament.objects.filter(pk=cup.pk).update(results_version=2)
    assert standings_catch_up() == [cup.pk]
    assert broker.sent == [(STANDINGS_RECOMPUTE, [cup.pk, 2])]
    assert current.pk not in standings_catch_up()


# --- the backups page ----------------------------------------------------------------


def test_every_ops_url_has_a_case():
    names = {p.name for p in ops_urls.urlpatterns if isinstance(p, URLPattern)}
    assert names == {"health", "backups", "backup_download"}  # health: public, tests above


@pytest.mark.parametrize("who", WHO)
def test_only_site_administrators_list_and_download_backups(people, folder, who):
    made = backup_create(path=folder / "tablescore-manual-20261128-010000.zip")
    client = people.client(who)
    listing = client.get(reverse("ops:backups"))
    download = client.get(reverse("ops:backup_download", args=[made.name]))
    if who == "site_admin":
        assert listing.status_code == 200
        assert made.name in listing.content.decode()
        assert download.status_code == 200
        assert b"".join(download.streaming_content) == made.read_bytes()
        assert made.name in download["Content-Disposition"]
    elif who == "anonymous":
        assert listing.status_code == download.status_code == 302
        assert listing["Location"].startswith(reverse("login"))
    else:
        assert listing.status_code == download.status_code == 403


@pytest.mark.parametrize("name", ["nothing.zip", "tablescore-manual-20261128-010001.zip", ".."])
def test_only_a_listed_backup_can_be_downloaded(people, folder, name):
    (folder.parent / "nothing.zip").write_text("secret")
    response = people.client("site_admin").get(reverse("ops:backup_download", args=[name]))
    assert response.status_code == 404


def test_the_page_says_when_there_is_no_backup(people, folder):
    response = people.client("site_admin").get(reverse("ops:backups"))
    assert "No backup yet." in response.content.decode()
    assert connection.vendor == "sqlite"


def test_a_dead_workers_task_is_given_back_and_the_backup_is_scheduled(settings, cup, folder):
    from config.celery import app
    from ops.tasks import backup_scheduled

    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
    assert app.conf.broker_transport_options["visibility_timeout"] == 600
    entry = settings.CELERY_BEAT_SCHEDULE["backup"]
    assert entry["task"] == backup_scheduled.name == "ops.tasks.backup_scheduled"
    backup_scheduled.delay()  # in-process here
    assert [p.name.startswith("tablescore-auto-") for p in folder.iterdir()] == [True]


def test_the_workers_heartbeat_redoes_a_lost_recompute(cup):
    from ops.tasks import worker_heartbeat

    Tournament.objects.filter(pk=cup.pk).update(results_version=2)
    worker_heartbeat()
    assert cup.snapshots.get().results_version == 2
