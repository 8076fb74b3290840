"""What the file commands share (``score``, ``event``): a JSON file read from a path or
standard input, and bad input answered with one printable line per problem on standard
error and exit status 2, never a traceback."""

from __future__ import annotations

import sys
from typing import Any, BinaryIO, NoReturn

from django.core.management.base import BaseCommand


def one_line(text: str) -> str:
    """``text`` on one printable line: line breaks and other control characters escaped."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


class FileCommand(BaseCommand):
    """A command that reads one file (``-``: standard input) and needs no database
    check before it runs."""

    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    # call_command(..., "-", stdin=BytesIO(...)) reads these bytes instead of sys.stdin.
    stealth_options = ("stdin",)

    def read_input(self, path: str, options: dict[str, Any]) -> bytes:
        try:
            if path == "-":
                stdin: BinaryIO = options.get("stdin") or sys.stdin.buffer
                return stdin.read()
            with open(path, "rb") as fh:
                return fh.read()
        except OSError as exc:
            self.fail([f"{path}: cannot read the file ({exc.strerror})"])

    def fail(self, problems: list[str]) -> NoReturn:
        for line in problems:
            self.stderr.write(one_line(line))
        sys.exit(2)
