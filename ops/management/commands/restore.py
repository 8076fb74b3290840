"""``manage.py restore FILE [--force]`` (``tablescore restore``): the database from a
backup, into an empty database (``--force`` replaces a database that holds data). A
damaged file, a newer release's backup or another kind of database is refused and nothing
is written (``ops.backup.backup_restore``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from ops.backup import BackupError, backup_restore, migrations_behind


class Command(BaseCommand):
    help = "Restore the database from a backup file made by `backup`."
    # A new data folder has no database yet, which the system checks would need.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the backup file (.zip)")
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace the data of a database that is not empty",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            manifest = backup_restore(path=options["file"], force=options["force"])
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            _("Restored the backup of %(date)s (tablescore %(version)s).")
            % {"date": manifest.get("created_at", "?"), "version": manifest["version"]}
        )
        if migrations_behind():
            self.stdout.write(
                _(
                    "It was made by an older release: run `tablescore upgrade` to bring it up to date."  # noqa: E501
                )
            )
