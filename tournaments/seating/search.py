"""Seeded local search that keeps repeat meetings to a minimum.

Players are handled here as indices ``0..n-1``; ``counts`` is a flat
``n * n`` sequence (``new_counts``: a list, or a bytearray for large fields)
where ``counts[a * n + b]`` is how often ``a`` and ``b`` have shared a table
so far (fixed history plus the rounds being searched).

**Cost.** The sum over pairs of ``c * (c - 1) // 2``, ``c`` being the pair's
meeting count: 0 for a pair that met at most once, 1 for a pair that met
twice, 3 for three times. While no pair meets three times it equals the number
of repeated pairs; a third meeting costs more than a second, so repeats are
spread over many pairs rather than piled on one.

**Moves.** Swap two players of different tables in one round. The first
player is preferably one who sits with someone already met (up to
``_CONFLICT_TRIES`` random draws look for one), the second is any player of
another table of that round.

**Acceptance.** *Late acceptance hill climbing* (Burke & Bykov): a move is
taken if it does not worsen the cost, or if the new cost is no worse than the
cost ``HISTORY`` moves ago. The budget is spent in phases of ``PHASE`` move
evaluations; each later phase restarts from a fresh greedy seating, and the
best schedule seen wins.

**Large fields.** From ``LARGE_FIELD`` players on, a restart would re-seat
thousands of tables and a random seat of a 4,000-player round almost never
holds a conflict, so the search is ``repair`` instead: sweeps over the seats
that are in conflict (a table-mate met before), each swapped with the best of
``REPAIR_TRIES`` random players of other tables of that round when that does
not worsen the cost. The counts live in a ``bytearray`` there (16 MB at 4,000
players); ``pair_cost`` counts values with ``count``, which runs in C, and
``round_lower_bound`` sorts only each player's past table-mates.

**Reproducibility.** Everything is integer arithmetic; the only randomness is
``random.Random(seed).random()`` -- the one method whose sequence Python
promises to keep across versions -- turned into integers as ``int(x * n)``,
exact in IEEE-754 arithmetic. So the same inputs give the same schedule on
every machine. A run stops after ``budget`` move evaluations or as soon as it
reaches a proven lower bound. The wall-clock deadline is only a guard: when it
fires the result depends on the machine's speed, and the caller is told so.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

HISTORY = 100
"""Late-acceptance window, in moves."""

PHASE = 20_000
"""Move evaluations per search phase; later phases restart from a fresh greedy seating."""

_CONFLICT_TRIES = 2
_CLOCK_EVERY = 4096

Rounds = list[list[list[int]]]
"""Rounds of tables of player indices, as the search handles them."""

Counts = MutableSequence[int]
"""The flat ``n * n`` meeting counts (see the module docstring)."""

LARGE_FIELD = 1001
"""Fields of this many players or more keep their counts in a ``bytearray``
(16 MB for 4,000 players instead of a 128 MB list that the garbage collector
walks; smaller fields keep a ``list``, which CPython indexes faster). When
that many players play a round (which ``tablescore-seating/1`` refused
before it learned to seat 4,000) the search is ``repair`` instead of restarted
phases, so the schedules of smaller fields are unchanged."""

REPAIR_TRIES = 4
"""Partners drawn for one conflicted seat in ``repair``; the best swap is taken."""


def new_counts(n: int, most_meetings: int) -> Counts:
    """Zeroed counts for ``n`` players where no pair can meet more than ``most_meetings`` times.

    The storage never changes a result, only memory and speed.
    """
    if n >= LARGE_FIELD and most_meetings < 256:
        return bytearray(n * n)
    return [0] * (n * n)


class Rng:
    """A seeded stream built on ``random.Random.random`` alone (see the module docstring)."""

    __slots__ = ("random",)

    def __init__(self, seed: int) -> None:
        self.random: Callable[[], float] = random.Random(seed).random

    def below(self, n: int) -> int:
        """An integer in ``0..n-1``: for a float ``x < 1``, ``x * n`` rounds below ``n``."""
        return int(self.random() * n)

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = int(self.random() * (i + 1))
            items[i], items[j] = items[j], items[i]


def add_tables(counts: Counts, n: int, tables: Sequence[Sequence[int]], step: int = 1) -> None:
    """Count (``step=1``) or uncount (``step=-1``) the meetings at ``tables``."""
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                counts[a * n + b] += step
                counts[b * n + a] += step


def pair_cost(counts: Sequence[int], n: int) -> int:
    """Sum over pairs of ``c * (c - 1) // 2``.

    Counted by value over the whole symmetric matrix (``count`` runs in C),
    then halved: every pair appears once from each end, the diagonal is 0.
    """
    total = 0
    left = len(counts) - counts.count(0) - counts.count(1)
    c = 2
    while left > 0:
        times = counts.count(c)
        total += times * c * (c - 1) // 2
        left -= times
        c += 1
    return total // 2


def round_lower_bound(
    counts: Sequence[int], n: int, players: Sequence[int], partners: Sequence[Collection[int]]
) -> int:
    """What one more round among ``players`` must add to the cost, at least.

    Meeting ``x`` adds ``counts[a, x]`` to the cost, so each player adds at
    least the sum of their three smallest counts with the others present;
    every pair is seen from both ends, hence the halving. ``partners[a]``
    holds everyone ``a`` has met (``counts[a, x] > 0``): the other players
    present count 0, so only the partners need sorting.
    """
    present = set(players)
    others = len(present) - 1
    total = 0
    for a in players:
        row = a * n
        met = sorted(counts[row + x] for x in partners[a] if x in present)
        zeros = min(3, others - len(met))
        total += sum(met[: 3 - zeros])
    return (total + 1) // 2


def spread_lower_bound(meetings: Sequence[int], others: Sequence[int]) -> int:
    """A lower bound on the cost of a schedule played from scratch, where player
    ``i`` has ``meetings[i]`` table-mates in all and ``others[i]`` possible ones.

    One player's share of the cost is least when the meetings are spread as
    evenly as possible over the possible table-mates.
    """
    total = 0
    for m, d in zip(meetings, others, strict=True):
        if d <= 0:
            continue
        q, rem = divmod(m, d)
        total += rem * (q + 1) * q // 2 + (d - rem) * q * (q - 1) // 2
    return (total + 1) // 2


def greedy_round(
    players: Sequence[int], counts: Sequence[int], n: int, rng: Rng
) -> list[list[int]]:
    """Tables built one at a time: each newcomer is the player who has met the
    table least (ties go to the earlier player in a seeded order)."""
    pool = list(players)
    rng.shuffle(pool)
    tables: list[list[int]] = []
    while pool:
        table = [pool.pop(0)]
        while len(table) < 4:
            best_i, best_score = 0, -1
            for i, x in enumerate(pool):
                row = x * n
                score = 0
                for y in table:
                    score += counts[row + y]
                if best_score < 0 or score < best_score:
                    best_i, best_score = i, score
                    if score == 0:
                        break
            table.append(pool.pop(best_i))
        tables.append(table)
    return tables


@dataclass(frozen=True)
class SearchResult:
    rounds: Rounds
    cost: int
    evaluations: int
    hit_time_limit: bool


def _copy(rounds: Rounds) -> Rounds:
    return [[list(t) for t in r] for r in rounds]


def improve(
    counts: Counts,
    n: int,
    rounds: Rounds,
    rng: Rng,
    *,
    budget: int,
    deadline: float,
    lower_bound: int,
) -> SearchResult:
    """One phase: swap players between tables of ``rounds`` (whose meetings are
    already in ``counts``) to lower the pair cost; return the best rounds seen.

    ``counts`` and ``rounds`` are left in the search's last state.
    """
    cost = pair_cost(counts, n)
    best_cost = cost
    best_rounds = _copy(rounds)
    movable = [r for r in rounds if len(r) > 1]
    if not movable or budget <= 0 or cost <= lower_bound:
        return SearchResult(best_rounds, best_cost, 0, False)
    history = [cost] * HISTORY
    rand = rng.random
    n_rounds = len(movable)
    evaluations = 0
    while evaluations < budget:
        evaluations += 1
        if evaluations % _CLOCK_EVERY == 0 and time.perf_counter() > deadline:
            return SearchResult(best_rounds, best_cost, evaluations, True)
        for _ in range(_CONFLICT_TRIES):
            tables = movable[int(rand() * n_rounds)]
            ta = int(rand() * len(tables))
            ia = int(rand() * 4)
            table_a = tables[ta]
            a = table_a[ia]
            ra = a * n
            if (
                counts[ra + table_a[ia - 1]] > 1
                or counts[ra + table_a[ia - 2]] > 1
                or counts[ra + table_a[ia - 3]] > 1
            ):
                break
        tb = int(rand() * (len(tables) - 1))
        if tb >= ta:
            tb += 1
        ib = int(rand() * 4)
        table_b = tables[tb]
        b = table_b[ib]
        rb = b * n
        # a leaves table_a for table_b and b the other way; for a pair met c
        # times, one meeting less saves c - 1 and one more costs c.
        delta = 0
        for x in table_a:
            if x != a:
                delta += counts[rb + x] - counts[ra + x] + 1
        for y in table_b:
            if y != b:
                delta += counts[ra + y] - counts[rb + y] + 1
        slot = evaluations % HISTORY
        if delta <= 0 or cost + delta <= history[slot]:
            for x in table_a:
                if x != a:
                    counts[ra + x] -= 1
                    counts[x * n + a] -= 1
                    counts[rb + x] += 1
                    counts[x * n + b] += 1
            for y in table_b:
                if y != b:
                    counts[rb + y] -= 1
                    counts[y * n + b] -= 1
                    counts[ra + y] += 1
                    counts[y * n + a] += 1
            table_a[ia] = b
            table_b[ib] = a
            cost += delta
            if cost < best_cost:
                best_cost = cost
                best_rounds = _copy(rounds)
                if cost <= lower_bound:
                    break
        if cost < history[slot]:
            history[slot] = cost
    return SearchResult(best_rounds, best_cost, evaluations, False)


def search(
    fixed_counts: Counts,
    n: int,
    initial: Rounds,
    rng: Rng,
    *,
    budget: int,
    deadline: float,
    lower_bound: int,
    large_field: bool = False,
) -> SearchResult:
    """Improve ``initial`` (rounds to seat, on top of the meetings in
    ``fixed_counts``) in phases of ``PHASE`` evaluations; every phase after
    the first starts from a fresh greedy seating of the same players. A
    ``large_field`` (``LARGE_FIELD`` players or more in the round) is repaired in
    place instead."""
    counts = fixed_counts[:]
    rounds = _copy(initial)
    for tables in rounds:
        add_tables(counts, n, tables)
    if large_field:
        return repair(
            counts, n, rounds, rng, budget=budget, deadline=deadline, lower_bound=lower_bound
        )
    best: SearchResult | None = None
    used = 0
    while True:
        phase = improve(
            counts,
            n,
            rounds,
            rng,
            budget=min(PHASE, budget - used),
            deadline=deadline,
            lower_bound=lower_bound,
        )
        used += phase.evaluations
        if best is None or phase.cost < best.cost:
            best = phase
        # Said to hit the time limit only when the clock, not the budget or
        # the bound, ended the search.
        if phase.hit_time_limit:
            return SearchResult(best.rounds, best.cost, used, True)
        if best.cost <= lower_bound or used >= budget or phase.evaluations == 0:
            return SearchResult(best.rounds, best.cost, used, False)
        if time.perf_counter() > deadline:
            return SearchResult(best.rounds, best.cost, used, True)
        counts = fixed_counts[:]
        fresh: Rounds = []
        for tables in rounds:
            fresh.append(greedy_round([p for t in tables for p in t], counts, n, rng))
            add_tables(counts, n, fresh[-1])
        rounds = fresh


def conflicted_seats(counts: Sequence[int], n: int, rounds: Rounds) -> list[tuple[int, int, int]]:
    """``(round, table, seat)`` of every player (in a round of two tables or
    more) who sits with someone met more than once."""
    found = []
    for r, tables in enumerate(rounds):
        if len(tables) < 2:
            continue
        for t, table in enumerate(tables):
            for i, a in enumerate(table):
                ra = a * n
                if (
                    counts[ra + table[i - 1]] > 1
                    or counts[ra + table[i - 2]] > 1
                    or counts[ra + table[i - 3]] > 1
                ):
                    found.append((r, t, i))
    return found


def repair(
    counts: Counts,
    n: int,
    rounds: Rounds,
    rng: Rng,
    *,
    budget: int,
    deadline: float,
    lower_bound: int,
) -> SearchResult:
    """Swap players who sit with someone met before, in sweeps, until the
    cost reaches ``lower_bound`` or ``budget`` move evaluations are spent.

    A sweep lists the conflicted seats (``conflicted_seats``) in a seeded
    order; for each seat still conflicted it draws ``REPAIR_TRIES`` players of
    other tables of that round and takes the best swap if it does not worsen
    the cost (the first drawn wins a tie). The cost never rises, so the last
    state is the best. ``counts`` holds the meetings of ``rounds``; both are
    changed in place and ``rounds`` is returned.
    """
    cost = pair_cost(counts, n)
    evaluations = 0
    rand = rng.random
    while cost > lower_bound and evaluations < budget:
        seats = conflicted_seats(counts, n, rounds)
        if not seats:
            break
        rng.shuffle(seats)
        for r, ta, ia in seats:
            tables = rounds[r]
            table_a = tables[ta]
            a = table_a[ia]
            ra = a * n
            if (
                counts[ra + table_a[ia - 1]] < 2
                and counts[ra + table_a[ia - 2]] < 2
                and counts[ra + table_a[ia - 3]] < 2
            ):
                continue  # an earlier swap of this sweep settled it
            best_delta, best_tb, best_ib = 0, -1, -1
            for _ in range(min(REPAIR_TRIES, budget - evaluations)):
                evaluations += 1
                if evaluations % _CLOCK_EVERY == 0 and time.perf_counter() > deadline:
                    return SearchResult(rounds, cost, evaluations, True)
                tb = int(rand() * (len(tables) - 1))
                if tb >= ta:
                    tb += 1
                ib = int(rand() * 4)
                b = tables[tb][ib]
                rb = b * n
                delta = 0  # as in ``improve``
                for x in table_a:
                    if x != a:
                        delta += counts[rb + x] - counts[ra + x] + 1
                for y in tables[tb]:
                    if y != b:
                        delta += counts[ra + y] - counts[rb + y] + 1
                if best_tb < 0 or delta < best_delta:
                    best_delta, best_tb, best_ib = delta, tb, ib
            if best_tb >= 0 and best_delta <= 0:
                table_b = tables[best_tb]
                b = table_b[best_ib]
                add_tables(counts, n, (table_a, table_b), -1)
                table_a[ia] = b
                table_b[best_ib] = a
                add_tables(counts, n, (table_a, table_b))
                cost += best_delta
            if cost <= lower_bound or evaluations >= budget:
                break
    return SearchResult(rounds, cost, evaluations, False)
