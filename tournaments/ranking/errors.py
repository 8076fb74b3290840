"""Exceptions of the standings code (ratings keep their own).

* ``RankingError`` (a ``ValueError``): input the director can fix -- an unknown
  tie-break, a big-points table that is not four non-increasing numbers, a
  table whose small points do not sum to zero. ``problems`` has one line per
  problem found; the message joins them. ``coded`` holds the same problems as
  data (``RankingProblem``: a code and its parameters, for a page to say in
  the reader's language); a plain string is a problem with no code.
* ``RankingBug`` (an ``AssertionError``): an internal invariant failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

#: A parameter value: plain enough to render in any language and to store as JSON.
RankingParam = int | str | list[int] | list[str]


@dataclass(frozen=True, slots=True)
class RankingProblem:
    """One problem as data: a stable dotted ``code``, the ``params`` its sentence
    needs, the ``field`` it concerns (an option name such as ``bye_score``, or
    ``round 2, table 1: seats``) and the English ``message``."""

    code: str
    message: str
    params: dict[str, RankingParam] = field(default_factory=dict, hash=False)
    field: str | None = None


class RankingError(ValueError):
    """Standings input with one or more problems, one line each in ``problems``."""

    def __init__(self, problems: Sequence[str | RankingProblem]) -> None:
        self.coded = [
            p if isinstance(p, RankingProblem) else RankingProblem("", message=p) for p in problems
        ]
        self.problems = [p.message for p in self.coded]
        super().__init__("; ".join(self.problems))


class RankingBug(AssertionError):
    """Something that cannot happen did: a defect in the standings code."""
