"""The schedule: who sits where in every round, and what it achieved.

See the package docstring for the vocabulary. A ``Schedule`` checks itself
when built (every table four distinct known players, nobody twice in a round)
and derives its quality figures, so a schedule read back from the database or
imported from a club's table is measured the same way as a generated one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .errors import SeatingError

Table = tuple[int, int, int, int]
"""Player numbers in seat order: ``table[0]`` holds seat 1 (the first dealer in Kop)."""

IMPORTED = "imported"
"""``algorithm_version`` of a seating imported from a club's own table."""


@dataclass(frozen=True)
class Schedule:
    """Rounds of tables of four, sit-outs per round, and how the rounds were made.

    ``rounds[r]`` holds the tables of round ``r + 1`` and ``byes[r]`` the
    players who sit out in it (sorted). ``seed``, ``algorithm_version`` and
    ``budget`` reproduce the schedule (for ``generate_round``: its last
    round); ``hit_time_limit`` says the wall-clock guard cut the search short,
    in which case it may not reproduce. ``repeats`` counts the pairs of
    players who share a table in more than one round; ``max_meetings`` is the
    most rounds any pair shares (0 with no rounds, 1 when nobody meets twice).
    """

    players: tuple[int, ...]
    rounds: tuple[tuple[Table, ...], ...]
    byes: tuple[tuple[int, ...], ...]
    seed: int | None
    algorithm_version: str
    budget: int = 0
    hit_time_limit: bool = False
    repeats: int = field(init=False)
    max_meetings: int = field(init=False)

    def __post_init__(self) -> None:
        # Rebuilt as tuples so a schedule built from lists (database rows) is immutable too.
        object.__setattr__(self, "players", tuple(sorted(set(self.players))))
        object.__setattr__(self, "rounds", tuple(tuple(tuple(t) for t in r) for r in self.rounds))
        object.__setattr__(self, "byes", tuple(tuple(sorted(b)) for b in self.byes))
        problems = _problems(self)
        if problems:
            raise SeatingError("invalid schedule: " + "; ".join(problems))
        counts = pair_meetings(self)
        object.__setattr__(self, "repeats", sum(1 for c in counts.values() if c > 1))
        object.__setattr__(self, "max_meetings", max(counts.values(), default=0))

    def active(self, round_number: int) -> tuple[int, ...]:
        """Everybody seated or sitting out in round ``round_number`` (from 1), sorted."""
        index = round_number - 1
        seated = [p for table in self.rounds[index] for p in table]
        return tuple(sorted([*seated, *self.byes[index]]))


@dataclass(frozen=True)
class ImportedSeating(Schedule):
    """A club's own seating table, read by ``parse_seating_csv`` (no seed)."""

    seed: int | None = None
    algorithm_version: str = IMPORTED


def is_player_number(value: object) -> bool:
    """Player numbers are whole numbers from 1 (``True`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _problems(schedule: Schedule) -> list[str]:
    known = set(schedule.players)
    if not all(is_player_number(p) for p in known):
        return ["player numbers must be whole numbers from 1"]
    if len(schedule.byes) != len(schedule.rounds):
        return [f"{len(schedule.rounds)} rounds but {len(schedule.byes)} lists of sit-outs"]
    problems = []
    for number, (tables, byes) in enumerate(zip(schedule.rounds, schedule.byes, strict=True), 1):
        for table in tables:
            if len(table) != 4 or len(set(table)) != 4:
                problems.append(f"round {number}: table {list(table)} is not four players")
        everyone = [p for table in tables for p in table] + list(byes)
        for player, times in sorted(Counter(everyone).items()):
            if times > 1:
                problems.append(f"round {number}: player {player} appears {times} times")
            if player not in known:
                problems.append(f"round {number}: player {player} is not in the player list")
    return problems


def pair_meetings(schedule: Schedule) -> dict[tuple[int, int], int]:
    """How many rounds each pair ``(a, b)``, ``a < b``, shared a table (pairs that met only)."""
    counts: Counter[tuple[int, int]] = Counter()
    for tables in schedule.rounds:
        for table in tables:
            ordered = sorted(table)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    counts[a, b] += 1
    return dict(counts)


def meetings_matrix(schedule: Schedule) -> list[list[int]]:
    """Who met whom: ``m[i][j]`` is how many rounds ``players[i]`` and ``players[j]``
    shared a table, in the order of ``schedule.players`` (for a generated
    schedule of players 1..N, ``m[a - 1][b - 1]``). The diagonal is 0."""
    index = {p: i for i, p in enumerate(schedule.players)}
    matrix = [[0] * len(index) for _ in index]
    for (a, b), c in pair_meetings(schedule).items():
        matrix[index[a]][index[b]] = matrix[index[b]][index[a]] = c
    return matrix


def seat_counts(schedule: Schedule) -> dict[int, tuple[int, int, int, int]]:
    """For every player, how many rounds they held seats 1, 2, 3 and 4."""
    counts = {p: [0, 0, 0, 0] for p in schedule.players}
    for tables in schedule.rounds:
        for table in tables:
            for seat, player in enumerate(table):
                counts[player][seat] += 1
    return {p: (c[0], c[1], c[2], c[3]) for p, c in counts.items()}


def bye_counts(schedule: Schedule) -> dict[int, int]:
    """For every player, how many rounds they sat out."""
    counts = dict.fromkeys(schedule.players, 0)
    for byes in schedule.byes:
        for player in byes:
            counts[player] += 1
    return counts


def seat_spread(schedule: Schedule) -> int:
    """The largest difference, for one player, between their most and least held seat."""
    return max((max(c) - min(c) for c in seat_counts(schedule).values()), default=0)
