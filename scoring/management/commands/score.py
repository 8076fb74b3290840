"""``python manage.py score SHEET.json`` (or ``-`` for standard input).

Prints the computed result as JSON and exits 0; each deal there carries its
``warnings`` (R5, R6, ``soloist_doubling``, card points that cannot occur).
With ``--check`` only validates, and prints the warnings on standard error,
one line each ("deal 3: ..."): they never make the exit status non-zero. On
bad input prints one line per problem on standard error and exits 2, whatever
the bytes were (``scoring.engines.scoresheet.load_sheet`` reads them, as the
import page does). Needs no database, broker or network.
"""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO

from django.core.management.base import BaseCommand, CommandParser

from scoring.engines.errors import SheetError
from scoring.engines.scoresheet import load_sheet
from scoring.engines.sheets import score_sheet


class Command(BaseCommand):
    help = "Score a Kop, Baśka or Vint scoresheet (JSON) and print the result."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    # call_command("score", "-", stdin=BytesIO(...)) reads these bytes instead of sys.stdin.
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("sheet", help="path to the JSON scoresheet, or - for standard input")
        parser.add_argument("--check", action="store_true", help="validate only, print nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["sheet"]
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
            result = score_sheet(load_sheet(raw))
        except SheetError as exc:
            self._fail(exc.problems)
        if not options["check"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
        else:
            for line in _warning_lines(result):
                self.stderr.write(line)

    def _fail(self, problems: list[str]) -> None:
        for line in problems:
            self.stderr.write(one_line(line))
        sys.exit(2)


def one_line(text: str) -> str:
    """``text`` on one printable line: line breaks and other control characters escaped."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def _warning_lines(result: dict[str, Any]) -> list[str]:
    """ "deal n: ..." (Kop) or "rubber r, deal n: ..." (Vint) for every warning."""
    deals = result.get("deals", [])
    lines = [f"deal {n}: {w}" for n, deal in enumerate(deals, 1) for w in deal["warnings"]]
    for r, rubber in enumerate(result.get("rubbers", []), 1):
        for n, deal in enumerate(rubber["deals"], 1):
            lines += [f"rubber {r}, deal {n}: {w}" for w in deal["warnings"]]
    return lines
