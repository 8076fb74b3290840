"""Whether a table's results may be shown to everyone.

Scoring does not know why they may not: a tournament that hides its standings until
its last round hides its tables' sheets too, or anyone could add them up from the
sheets (session ids are sequential). Apps that hide results register a checker in
their ``AppConfig.ready()`` (tournaments does); scoring asks ``results_hidden`` and
never imports them.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.models import TableSession

Checker = Callable[[TableSession], bool]
_checkers: list[Checker] = []


def hiding_register(checker: Checker) -> None:
    """Add ``checker(session) -> True when the session's results are hidden`` (once)."""
    if checker not in _checkers:
        _checkers.append(checker)


def results_hidden(session: TableSession) -> bool:
    return any(checker(session) for checker in _checkers)
