"""Exceptions of the standings code (ratings keep their own).

* ``RankingError`` (a ``ValueError``): input the director can fix -- an unknown
  tie-break, a big-points table that is not four non-increasing numbers, a
  table whose small points do not sum to zero. ``problems`` has one line per
  problem found; the message joins them.
* ``RankingBug`` (an ``AssertionError``): an internal invariant failed.
"""

from __future__ import annotations


class RankingError(ValueError):
    """Standings input with one or more problems, one line each in ``problems``."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


class RankingBug(AssertionError):
    """Something that cannot happen did: a defect in the standings code."""
