"""Backups on PostgreSQL (issue 28, item 3): ``pg_dump`` of one snapshot with its manifest;
restored into an empty database in one transaction; a database that holds data refused
without ``--force``, replaced with it; a damaged dump refused before anything is written."""

from __future__ import annotations

import hashlib
import json
import zipfile

import pytest
from django.core.management import CommandError, call_command

from ops import backup as backups
from ops.backup import backup_create, database_state
from tests.factories import ClubFactory, TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_postgresql_backup_restores_into_an_empty_database(tmp_path):
    TournamentFactory(name="Dump Cup", club=ClubFactory(name="Klub Zrzut"), field=8)
    path = backup_create(path=tmp_path / "pg.zip")
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read(backups.MANIFEST))
    before = database_state()
    assert manifest["database"] == "postgresql"
    assert manifest["rows"] == before[1] and manifest["migrations"] == before[0]
    call_command("flush", interactive=False)

    call_command("restore", str(path))

    assert database_state() == before
    assert Tournament.objects.get().name == "Dump Cup"


def test_a_postgresql_database_with_data_is_replaced_only_when_forced(tmp_path):
    cup = TournamentFactory(name="Dump Cup", club=ClubFactory(name="Klub Zrzut"), field=8)
    path = backup_create(path=tmp_path / "pg.zip")
    Tournament.objects.filter(pk=cup.pk).update(name="Changed since")
    TournamentFactory(name="Newer Cup", club=cup.club)
    state = database_state()
    with pytest.raises(CommandError, match="--force"):
        call_command("restore", str(path))
    assert database_state() == state

    call_command("restore", str(path), "--force")
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Dump Cup"]


def test_a_damaged_postgresql_dump_is_refused_and_nothing_is_written(tmp_path):
    TournamentFactory(name="Dump Cup", club=ClubFactory(name="Klub Zrzut"), field=8)
    path = backup_create(path=tmp_path / "pg.zip")
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read(backups.MANIFEST))
        dump = archive.read(manifest["payload"])
    # A dump cut short, its manifest's checksum made to match: pg_restore refuses it.
    short = dump[: len(dump) // 2]
    manifest["sha256"] = hashlib.sha256(short).hexdigest()
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr(backups.MANIFEST, json.dumps(manifest))
        archive.writestr(manifest["payload"], short)
    state = database_state()
    with pytest.raises(CommandError, match="failed"):
        call_command("restore", str(bad), "--force")
    assert database_state() == state
