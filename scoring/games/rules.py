"""A session's rules, parsed once per rule profile version, for every game.

A version's options never change once stored, so its parsed rules are kept per version id
and a save reads no version at all after the first. Only a version stored anew under an id
kept here (a rolled-back transaction's id, reused) is parsed again: ``forget`` drops it
(``ScoringConfig.ready`` calls it whenever a version is saved).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scoring.models import TableSession

_CACHES: list[dict[int, Any]] = []


class VersionRules[R]:
    """``parse(game, options)`` of a session's profile version, once per version id."""

    def __init__(self, parse: Callable[[str, Mapping[str, Any]], R]) -> None:
        self.parse = parse
        self.kept: dict[int, R] = {}
        _CACHES.append(self.kept)

    def __call__(self, session: TableSession) -> R:
        rules = self.kept.get(session.profile_version_id)
        if rules is None:
            options = session.profile_version.options
            rules = self.kept[session.profile_version_id] = self.parse(session.game, options)
        return rules


def forget(version_id: int) -> None:
    """Parse version ``version_id``'s rules again the next time they are asked for."""
    for kept in _CACHES:
        kept.pop(version_id, None)
