"""Independent checks of a schedule, written without the seating package's own counters."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from tournaments.seating import Schedule


def pair_counts(rounds: Iterable[Iterable[Sequence[int]]]) -> Counter[tuple[int, int]]:
    counts: Counter[tuple[int, int]] = Counter()
    for tables in rounds:
        for table in tables:
            for a, b in combinations(sorted(table), 2):
                counts[a, b] += 1
    return counts


def repeated_pairs(rounds: Iterable[Iterable[Sequence[int]]]) -> int:
    return sum(1 for c in pair_counts(rounds).values() if c > 1)


def assert_round_partitions(schedule: Schedule, number: int, active: Iterable[int]) -> None:
    """Round ``number`` seats each active player once, in tables of four, the rest sit out."""
    tables = schedule.rounds[number - 1]
    byes = schedule.byes[number - 1]
    wanted = sorted(active)
    seated = [p for table in tables for p in table]
    assert all(len(table) == 4 for table in tables)
    assert sorted(seated + list(byes)) == wanted, f"round {number} is not a partition"
    assert len(byes) == len(wanted) % 4


def assert_fair_byes(schedule: Schedule) -> None:
    """After every round, sit-out counts differ by at most one (nobody twice before all once)."""
    counts = dict.fromkeys(schedule.players, 0)
    for byes in schedule.byes:
        for p in byes:
            counts[p] += 1
        assert max(counts.values()) - min(counts.values()) <= 1, counts


def assert_level_seats(schedule: Schedule) -> None:
    """Every player's seat counts (seats 1..4) differ by at most one."""
    seats: dict[int, list[int]] = {p: [0, 0, 0, 0] for p in schedule.players}
    for tables in schedule.rounds:
        for table in tables:
            for s, p in enumerate(table):
                seats[p][s] += 1
    for p, row in seats.items():
        assert max(row) - min(row) <= 1, (p, row)


def assert_valid(schedule: Schedule, players: int) -> None:
    assert schedule.players == tuple(range(1, players + 1))
    for number in range(1, len(schedule.rounds) + 1):
        assert_round_partitions(schedule, number, range(1, players + 1))
    assert_fair_byes(schedule)
    assert_level_seats(schedule)
    assert schedule.repeats == repeated_pairs(schedule.rounds)
