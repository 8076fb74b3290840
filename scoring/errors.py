"""What the write path answers when a deal cannot be stored as asked (Django layer).

``DealRejected`` carries messages for people (translated), by form field;
``NeedsConfirmation`` the warnings the scorer must confirm; ``DealConflict`` what
another phone stored where this form expected to store its deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.games.interface import Slot


class DealRejected(Exception):
    """The deal breaks the rules: ``errors`` maps a field name to its messages."""

    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        super().__init__("; ".join(str(m) for msgs in errors.values() for m in msgs))
        self.errors = dict(errors)


class NeedsConfirmation(Exception):
    """The deal is possible but doubtful; the scorer must confirm ``warnings``."""

    def __init__(self, warnings: Sequence[str]) -> None:
        super().__init__("; ".join(warnings))
        self.warnings = list(warnings)


class SessionLocked(Exception):
    """Only a director may change deals of a locked session."""


class DealConflict(Exception):
    """The form was for ``expected``, but another phone stored a deal there first.

    ``stored`` is that deal's row (None when the table moved on otherwise, e.g. a rubber
    ended), ``offered`` the slot this deal would take now.
    """

    def __init__(self, *, expected: Slot, stored: Any, offered: Slot | None) -> None:
        super().__init__(f"deal {expected.label} is taken")
        self.expected, self.stored, self.offered = expected, stored, offered


class AcceptRefused(Exception):
    """This actor may not accept the table's result (the message says why, for people)."""
