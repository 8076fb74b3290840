"""Exceptions shared by the pure engines.

Two families, kept apart on purpose:

* ``RuleError`` (and ``SheetError``): the user's mistake -- an impossible deal,
  an unknown option, a malformed sheet. Views show the message beside the
  field; the ``score`` command prints it and exits 2.
* ``EngineBug``: something that "cannot happen" (a deal that does not sum to
  zero). It is never caught for display; it is a defect.
"""

from __future__ import annotations


class RuleError(ValueError):
    """Input that breaks the rules. ``field`` names the offending input, if one does."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class SheetError(RuleError):
    """A scoresheet with one or more problems; ``problems`` holds one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


class EngineBug(AssertionError):
    """An internal invariant failed (not the user's fault)."""
