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
from typing import Any

from django.core.management.base import CommandParser

from scoring.cli import FileCommand
from scoring.engines.errors import SheetError
from scoring.engines.scoresheet import load_sheet
from scoring.engines.sheets import score_sheet


class Command(FileCommand):
    help = "Score a Kop, Baśka or Vint scoresheet (JSON) and print the result."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("sheet", help="path to the JSON scoresheet, or - for standard input")
        parser.add_argument("--check", action="store_true", help="validate only, print nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        raw = self.read_input(options["sheet"], options)
        try:
            result = score_sheet(load_sheet(raw))
        except SheetError as exc:
            self.fail(exc.problems)
        if not options["check"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
        else:
            for line in _warning_lines(result):
                self.stderr.write(line)


def _warning_lines(result: dict[str, Any]) -> list[str]:
    """ "deal n: ..." (Kop) or "rubber r, deal n: ..." (Vint) for every warning."""
    deals = result.get("deals", [])
    lines = [f"deal {n}: {w}" for n, deal in enumerate(deals, 1) for w in deal["warnings"]]
    for r, rubber in enumerate(result.get("rubbers", []), 1):
        for n, deal in enumerate(rubber["deals"], 1):
            lines += [f"rubber {r}, deal {n}: {w}" for w in deal["warnings"]]
    return lines
