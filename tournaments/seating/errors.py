"""Exceptions of the seating package.

Two families, as in the scoring engines (kept here, not imported, because the
seating package depends on nothing outside the standard library):

* ``SeatingError`` (a ``ValueError``): the user's mistake -- too few players, a
  negative seed, a malformed seating table. The message is meant for the
  director; ``SeatingImportError`` carries one line per problem in ``problems``.
* ``SeatingBug`` (an ``AssertionError``): an internal invariant failed, such as
  a generated round that is not a partition of the active players. It is a
  defect, never shown as a form error.
"""

from __future__ import annotations


class SeatingError(ValueError):
    """Input a director can fix: bad player counts, seeds, rounds or seating data."""


class SeatingImportError(SeatingError):
    """An imported seating table with one or more problems, one line each in ``problems``."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(
            f"the seating table has {len(problems)} problem(s): " + "; ".join(problems)
        )
        self.problems = list(problems)


class SeatingBug(AssertionError):
    """Something that cannot happen did: a defect in the seating code."""
