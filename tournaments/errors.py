"""What a director's request to the tournament services can be refused with."""

from __future__ import annotations


class TournamentError(Exception):
    """A director's request that cannot be done now (said in plain words)."""


class SeatingRejected(Exception):
    """An imported seating table with problems; ``problems`` has one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class EntriesRejected(Exception):
    """A pasted list of players with problems; ``problems`` has one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems
