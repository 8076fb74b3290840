"""``manage.py upgrade`` (``tablescore upgrade``): what a volunteer runs after installing a
new release. It backs the database up (``ops.backup``, a file in ``BACKUP_DIR``), applies
the release's migrations, and checks the result: Django's system checks, no table holding
fewer rows than before, and every tournament's standings computed and its stored
standings read. Anything wrong is said plainly, with the backup that puts it back."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ops.backup import (
    BackupError,
    app_version,
    backup_create,
    database_state,
    database_used,
    migrations_behind,
)
from tournaments.models import StandingsSnapshot, Tournament
from tournaments.selectors.standings import snapshot_data
from tournaments.standings import standings_compute


class Command(BaseCommand):
    help = "Back up the database, apply this release's migrations and check the result."
    # The checks need the new tables: they run after migrating.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--no-backup", action="store_true", help="do not back up first (not advised)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        pending = migrations_behind()
        backup: Path | None = None
        if database_used() and not options["no_backup"]:
            try:
                backup = backup_create(kind="upgrade")
            except BackupError as exc:
                raise CommandError(
                    _("No backup could be made, so nothing was changed: %(error)s") % {"error": exc}
                ) from None
            self.stdout.write(_("Backup written: %(file)s.") % {"file": backup})
        _migrations, before = database_state()
        try:
            if pending:
                call_command("migrate", interactive=False, verbosity=0)
            call_command("check", stdout=io.StringIO())
            self._check(before)
        except Exception as exc:
            raise CommandError(self._failed(exc, backup)) from exc
        self.stdout.write(
            ngettext(
                "tablescore %(version)s: %(count)s change applied to the database, checks passed.",
                "tablescore %(version)s: %(count)s changes applied to the database, checks passed.",
                len(pending),
            )
            % {"version": app_version(), "count": len(pending)}
        )

    def _check(self, before: dict[str, int]) -> None:
        """Rows not lost; every tournament's standings computed and the stored ones read."""
        _migrations, after = database_state()
        lost = [
            f"{table} {count} → {after[table]}"
            for table, count in sorted(before.items())
            if table in after and after[table] < count
        ]
        if lost:
            raise CommandError(_("tables lost rows: %(tables)s") % {"tables": ", ".join(lost)})
        for tournament in Tournament.objects.select_related("profile_version"):
            standings_compute(tournament=tournament)
            newest = StandingsSnapshot.objects.filter(tournament=tournament).first()
            if newest is not None:
                snapshot_data(snapshot=newest)

    def _failed(self, exc: Exception, backup: Path | None) -> str:
        message = _("The upgrade failed: %(error)s.") % {"error": exc}
        if backup is not None:
            message += " " + _(
                "The database as it was before is in %(file)s: `tablescore restore %(file)s --force` puts it back."  # noqa: E501
            ) % {"file": backup}
        return message
