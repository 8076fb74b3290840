"""``python manage.py event score EVENT.json`` (or ``-`` for standard input), and
``python manage.py event import EVENT.json [--club NAME] [--dry-run]``.

Scores a whole event file (``shared/formats/event-json.md``) and prints the
standings as JSON (exit 0). ``--check`` validates only: no output, exit 0. On bad
input prints one line per problem on standard error, nothing on standard output,
and exits 2, whatever the bytes were. Pure: the reading and scoring are
``tournaments.events.event_json``; needs no database, broker or network.

``import`` creates a tournament from the file (``tournaments.services.events``): all or
nothing; players matched to the club's register (``--club``, else the first club) by
licence number, else by exact name. It prints who was matched and who was registered
as new, and the tournament's address. ``--dry-run`` does all of it and rolls it back.
Bad input: one line per problem on standard error, exit 2, nothing written.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser

from scoring.cli import FileCommand
from scoring.engines.errors import SheetError
from tournaments.events.event_json import load_event, read_event, score_event


class Command(FileCommand):
    help = "Work with whole events as JSON files: 'event score FILE' prints the standings."

    def add_arguments(self, parser: CommandParser) -> None:
        commands = parser.add_subparsers(dest="subcommand", required=True)
        score = commands.add_parser(
            "score", help="score an event file and print its standings as JSON"
        )
        score.add_argument("event", help="path to the event JSON file, or - for standard input")
        score.add_argument("--check", action="store_true", help="validate only, print nothing")
        imp = commands.add_parser("import", help="create a tournament from an event file")
        imp.add_argument("event", help="path to the event JSON file, or - for standard input")
        imp.add_argument("--club", default="", help="the club whose register players match")
        imp.add_argument("--dry-run", action="store_true", help="check and show, write nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["subcommand"] not in ("score", "import"):  # argparse allows no other
            raise CommandError(f"unknown subcommand {options['subcommand']!r}")
        raw = self.read_input(options["event"], options)
        if options["subcommand"] == "import":
            self._import(raw, options)
            return
        try:
            data = load_event(raw)
            if options["check"]:
                read_event(data)
                return
            result = score_event(data)
        except SheetError as exc:
            self.fail(exc.problems)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))

    def _import(self, raw: bytes, options: Any) -> None:
        from django.db import transaction

        from tournaments.services.events import club_for, event_import

        try:
            with transaction.atomic():
                try:
                    club = club_for(options["club"] or None)
                except ValueError:
                    self.fail([f"--club: no club is named {options['club']!r}"])
                tournament, matches = event_import(raw=raw, club=club, user=None)
                if options["dry_run"]:
                    transaction.set_rollback(True)
        except SheetError as exc:
            self.fail(exc.problems)
        for m in matches:
            if m.player is None:
                self.stdout.write(f"player {m.id}: {m.name}: new in the register")
            else:
                how = "licence" if m.how == "licence" else "name"
                self.stdout.write(
                    f"player {m.id}: {m.name}: matched by {how} to #{m.player.number}"
                )
        if options["dry_run"]:
            self.stdout.write("dry run: nothing written")
        else:
            self.stdout.write(f"imported: /tournaments/{tournament.slug}/")
