"""``manage.py backup [FILE]`` (``tablescore backup``): one backup file of the database,
made while the site runs (``ops.backup``); without FILE, a new file in ``BACKUP_DIR``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from ops.backup import BackupError, backup_create


class Command(BaseCommand):
    help = "Write a backup of the whole database (with its manifest) to FILE or the backups folder."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", type=Path, help="where to write the backup (.zip)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            path = backup_create(path=options["file"])
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            _("Backup written: %(file)s (%(size)s).")
            % {"file": path, "size": filesizeformat(path.stat().st_size)}
        )
