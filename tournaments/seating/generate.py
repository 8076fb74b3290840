"""Generating schedules and single rounds (see the package docstring)."""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Collection, Sequence

from .byes import fewest_byes, rotating_byes
from .designs import design_capacity, design_round
from .errors import SeatingBug, SeatingError
from .schedule import Schedule, Table, bye_counts, is_player_number
from .search import (
    LARGE_FIELD,
    Rng,
    Rounds,
    add_tables,
    greedy_round,
    new_counts,
    pair_cost,
    round_lower_bound,
    search,
    spread_lower_bound,
)
from .seats import equitable_seats, seat_round

ALGORITHM_VERSION = "tablescore-seating/1"
"""Changes whenever the same inputs could give a different schedule; stored with every round."""

DEFAULT_BUDGET = 120_000
"""Move evaluations. 100 players x 5 rounds stops far earlier (at zero repeats);
the hardest small fields spend it all in about 0.3 s on one 2020s core."""

DEFAULT_TIME_LIMIT = 2.0
"""Seconds of search; a guard only (see ``Schedule.hit_time_limit``). The
clock starts with the search, so the greedy seating of a large field before
it cannot make the guard decide a schedule."""

MAX_PLAYERS = 4000
"""The largest field seated (4,000 players x 5 rounds: about a second on one core)."""
MAX_ROUNDS = 100
MAX_SEED = 2**63 - 1


def generate_schedule(
    players: int,
    rounds: int,
    seed: int,
    *,
    budget: int = DEFAULT_BUDGET,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Schedule:
    """Seat players ``1..players`` for ``rounds`` rounds with as few repeat meetings as found.

    A known perfect design is used when it covers all the rounds; otherwise
    the rounds start from the design (if any) and greedy tables and are
    improved by the seeded search. The result depends only on
    ``(players, rounds, seed, budget, ALGORITHM_VERSION)`` unless
    ``hit_time_limit`` is set.
    """
    if is_player_number(players) and players > MAX_PLAYERS:
        raise SeatingError(
            f"seating is limited to {MAX_PLAYERS:,} players; {players:,} is too many"
        )
    _check_whole("players", players, 4, MAX_PLAYERS)
    _check_whole("rounds", rounds, 1, MAX_ROUNDS)
    _check_search(seed, budget, time_limit)
    rng = Rng(seed)
    n = players
    byes = rotating_byes(range(1, n + 1), rounds, rng)
    # The design's rounds in a seeded order; only those used are built.
    design = list(range(design_capacity(n)))
    rng.shuffle(design)
    counts = new_counts(n, rounds)
    initial: Rounds = []
    for r in range(rounds):
        if r < len(design):
            tables = [[p - 1 for p in table] for table in design_round(n, design[r])]
        else:
            sitting_out = set(byes[r])
            active = [p - 1 for p in range(1, n + 1) if p not in sitting_out]
            tables = greedy_round(active, counts, n, rng)
        add_tables(counts, n, tables)
        initial.append(tables)
    sat_out = Counter(p for round_byes in byes for p in round_byes)
    lower_bound = spread_lower_bound(
        [3 * (rounds - sat_out[p]) for p in range(1, n + 1)], [n - 1] * n
    )
    deadline = time.perf_counter() + time_limit
    found = search(
        new_counts(n, rounds),
        n,
        initial,
        rng,
        budget=budget,
        deadline=deadline,
        lower_bound=lower_bound,
        large_field=n >= LARGE_FIELD,
    )
    seated = equitable_seats(found.rounds, n, rng)
    schedule = Schedule(
        players=tuple(range(1, n + 1)),
        rounds=tuple(_numbered(tables, lambda i: i + 1) for tables in seated),
        byes=tuple(byes),
        seed=seed,
        algorithm_version=ALGORITHM_VERSION,
        budget=budget,
        hit_time_limit=found.hit_time_limit,
    )
    for r in range(1, rounds + 1):
        if schedule.active(r) != schedule.players:
            raise SeatingBug(f"round {r} does not seat every player exactly once")
    return schedule


def generate_round(
    played: Schedule | None,
    active: Collection[int],
    seed: int,
    *,
    budget: int = DEFAULT_BUDGET,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Schedule:
    """Seat the next round for the ``active`` players after the rounds ``played``.

    Played rounds are never changed: the result is ``played`` with one round
    appended (its ``seed``, ``algorithm_version`` and ``budget`` describe that
    round). The new round keeps repeats against the whole history as low as
    found. Players may arrive late (new numbers) or withdraw (left out of
    ``active``); ``len(active) mod 4`` of them sit out, those with fewest
    sit-outs so far.
    """
    history = played if played is not None else Schedule((), (), (), None, ALGORITHM_VERSION)
    _check_search(seed, budget, time_limit)
    chosen = list(active)
    bad = [p for p in chosen if not is_player_number(p)]
    if bad:
        raise SeatingError(f"player numbers must be whole numbers from 1, not {bad[:5]}")
    twice = sorted(p for p, times in Counter(chosen).items() if times > 1)
    if twice:
        raise SeatingError(f"players listed twice among the active players: {twice}")
    if len(chosen) > MAX_PLAYERS:
        raise SeatingError(
            f"seating is limited to {MAX_PLAYERS:,} players in a round; "
            f"{len(chosen):,} active players is too many"
        )
    if len(chosen) < 4:
        raise SeatingError(f"a round needs 4 to {MAX_PLAYERS} active players, not {len(chosen)}")
    rng = Rng(seed)
    everyone = sorted(set(history.players) | set(chosen))
    index = {p: i for i, p in enumerate(everyone)}
    n = len(everyone)
    counts = new_counts(n, len(history.rounds) + 1)
    seats = [[0, 0, 0, 0] for _ in range(n)]
    partners: list[set[int]] = [set() for _ in range(n)]
    for tables in history.rounds:
        indexed = [[index[p] for p in table] for table in tables]
        add_tables(counts, n, indexed)
        for table in indexed:
            for s, p in enumerate(table):
                seats[p][s] += 1
                partners[p].update(table)
    for p, met in enumerate(partners):
        met.discard(p)
    byes = fewest_byes(sorted(chosen), bye_counts(history), rng)
    sitting_out = set(byes)
    seated_now = [index[p] for p in sorted(chosen) if p not in sitting_out]
    initial = greedy_round(seated_now, counts, n, rng)
    lower_bound = pair_cost(counts, n) + round_lower_bound(counts, n, seated_now, partners)
    deadline = time.perf_counter() + time_limit
    found = search(
        counts,
        n,
        [initial],
        rng,
        budget=budget,
        deadline=deadline,
        lower_bound=lower_bound,
        large_field=len(chosen) >= LARGE_FIELD,
    )
    (new_tables,) = seat_round(found.rounds[0], seats, rng)
    schedule = Schedule(
        players=tuple(everyone),
        rounds=(*history.rounds, _numbered(new_tables, everyone.__getitem__)),
        byes=(*history.byes, byes),
        seed=seed,
        algorithm_version=ALGORITHM_VERSION,
        budget=budget,
        hit_time_limit=found.hit_time_limit,
    )
    if schedule.rounds[:-1] != history.rounds or schedule.byes[:-1] != history.byes:
        raise SeatingBug("a played round was changed")
    if schedule.active(len(schedule.rounds)) != tuple(sorted(chosen)):
        raise SeatingBug("the new round does not seat every active player exactly once")
    return schedule


def draw_order(players: Collection[int], seed: int) -> tuple[int, ...]:
    """The players in an order drawn from ``seed``: who takes schedule position 1, 2, ...

    A schedule seats positions 1..n; mapping them to start numbers in
    registration order would seat people who registered together at one table
    (a design's first table is 1-2-3-4). The draw depends only on the set of
    players and the seed (its own stream, apart from the schedule's), so the
    same tournament seed always gives the same order.
    """
    _check_whole("seed", seed, 0, MAX_SEED)
    order = sorted(players)
    bad = [p for p in order if not is_player_number(p)]
    if bad:
        raise SeatingError(f"player numbers must be whole numbers from 1, not {bad[:5]}")
    digest = hashlib.sha256(f"tablescore start order {seed}".encode()).digest()
    Rng(int.from_bytes(digest[:8], "big")).shuffle(order)
    return tuple(order)


def _numbered(tables: Sequence[Sequence[int]], number: Callable[[int], int]) -> tuple[Table, ...]:
    """Tables of indices as tables of player numbers, ordered by their lowest number."""
    numbered = [(number(t[0]), number(t[1]), number(t[2]), number(t[3])) for t in tables]
    return tuple(sorted(numbered, key=min))


def _check_whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SeatingError(f"{name} must be a whole number from {low} to {high}, not {value!r}")


def _check_search(seed: object, budget: object, time_limit: object) -> None:
    _check_whole("seed", seed, 0, MAX_SEED)
    _check_whole("budget", budget, 0, 10**9)
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or time_limit <= 0:
        raise SeatingError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
