"""``python manage.py event score EVENT.json`` (or ``-`` for standard input).

Scores a whole event file (``shared/formats/event-json.md``) and prints the
standings as JSON (exit 0). ``--check`` validates only: no output, exit 0. On bad
input prints one line per problem on standard error, nothing on standard output,
and exits 2, whatever the bytes were. Pure: the reading and scoring are
``tournaments.events.event_json``; needs no database, broker or network.
"""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engines.errors import SheetError
from scoring.management.commands.score import one_line
from tournaments.events.event_json import load_event, read_event, score_event


class Command(BaseCommand):
    help = "Work with whole events as JSON files: 'event score FILE' prints the standings."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    # call_command("event", "score", "-", stdin=BytesIO(...)) reads these bytes.
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        commands = parser.add_subparsers(dest="subcommand", required=True)
        score = commands.add_parser(
            "score", help="score an event file and print its standings as JSON"
        )
        score.add_argument("event", help="path to the event JSON file, or - for standard input")
        score.add_argument("--check", action="store_true", help="validate only, print nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["subcommand"] != "score":  # argparse allows only the subcommands above
            raise CommandError(f"unknown subcommand {options['subcommand']!r}")
        path = options["event"]
        try:
            if path == "-":
                stdin: BinaryIO = options.get("stdin") or sys.stdin.buffer
                raw = stdin.read()
            else:
                with open(path, "rb") as fh:
                    raw = fh.read()
        except OSError as exc:
            self._fail([f"{path}: cannot read the file ({exc.strerror})"])
        try:
            data = load_event(raw)
            if options["check"]:
                read_event(data)
                return
            result = score_event(data)
        except SheetError as exc:
            self._fail(exc.problems)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))

    def _fail(self, problems: list[str]) -> NoReturn:
        for line in problems:
            self.stderr.write(one_line(line))
        sys.exit(2)
