"""``python manage.py score SHEET.json`` (or ``-`` for standard input).

Prints the computed result as JSON and exits 0; each deal there carries its
``warnings`` (R5, R6, ``soloist_doubling``, card points that cannot occur).
With ``--check`` only validates, and prints the warnings on standard error,
one line each ("deal 3: ..."): they never make the exit status non-zero. On
bad input prints one line per problem on standard error and exits 2. Needs no
database, broker or network.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.engines.errors import SheetError
from scoring.engines.scoresheet import score_sheet


class Command(BaseCommand):
    help = "Score a Kop, Baśka or Vint scoresheet (JSON) and print the result."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("sheet", help="path to the JSON scoresheet, or - for standard input")
        parser.add_argument("--check", action="store_true", help="validate only, print nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["sheet"]
        try:
            if path == "-":
                raw = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as fh:
                    raw = fh.read()
        except OSError as exc:
            self._fail([f"{path}: cannot read the file ({exc.strerror})"])
        except UnicodeDecodeError:
            self._fail([f"{path}: not UTF-8 text"])
        try:
            data = json.loads(raw, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            self._fail(
                [f"{path}: not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"]
            )
        except ValueError as exc:
            self._fail([f"{path}: {exc}"])
        try:
            result = score_sheet(data)
        except SheetError as exc:
            self._fail(exc.problems)
        if not options["check"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
        else:
            for line in _warning_lines(result):
                self.stderr.write(line)

    def _fail(self, problems: list[str]) -> None:
        for line in problems:
            self.stderr.write(line)
        sys.exit(2)


def _warning_lines(result: dict[str, Any]) -> list[str]:
    """ "deal n: ..." (Kop) or "rubber r, deal n: ..." (Vint) for every warning."""
    deals = result.get("deals", [])
    lines = [f"deal {n}: {w}" for n, deal in enumerate(deals, 1) for w in deal["warnings"]]
    for r, rubber in enumerate(result.get("rubbers", []), 1):
        for n, deal in enumerate(rubber["deals"], 1):
            lines += [f"rubber {r}, deal {n}: {w}" for w in deal["warnings"]]
    return lines


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")
