"""Seating quality and speed, from 16 to 4,000 players x 5 rounds.

Run ``python benchmarks/bench_seating.py`` from anywhere. It prints one line per
field and never fails.

* Small fields (16, 20, 24, 33, 100 and 21, a field that spends the whole
  budget): repeats and time against the 2 s wall-clock guard, which they must
  finish far below so that the guard never decides a schedule (which would make
  it depend on the machine).
* Large fields (400, 1,000 and 4,000 players x 5 rounds; target for 4,000:
  <= 10 s) and one round for 4,000 players against 4 played rounds (target
  <= 2 s): best of 3, printed with its target and as a ratio to a floor
  measured in the same run, the time to build a trivial schedule of the same
  size (a seeded shuffle per round cut into fours, the remainder sitting out,
  checked and counted as a ``Schedule`` like a generated one).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import (  # noqa: E402
    ALGORITHM_VERSION,
    DEFAULT_BUDGET,
    DEFAULT_TIME_LIMIT,
    Schedule,
    Table,
    generate_round,
    generate_schedule,
    seat_spread,
)

FIELDS = (16, 20, 24, 33, 100, 21)  # 21: a field that spends the whole budget
LARGE = ((400, None), (1000, None), (4000, 10.0))  # (players, target seconds)
ROUND_PLAYERS, ROUND_HISTORY, ROUND_TARGET = 4000, 4, 2.0
ROUNDS = 5
SEED = 0
REPEAT = 3


def best_of(run: Callable[[], Schedule]) -> tuple[float, Schedule]:
    best, result = float("inf"), None
    for _ in range(REPEAT):
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    assert result is not None
    return best, result


def shuffled_round(players: list[int], rng: random.Random) -> tuple[list[Table], list[int]]:
    order = list(players)
    rng.shuffle(order)
    cut = len(order) - len(order) % 4
    tables = [(order[i], order[i + 1], order[i + 2], order[i + 3]) for i in range(0, cut, 4)]
    return tables, sorted(order[cut:])


def trivial_schedule(players: int, rounds: int, seed: int) -> Schedule:
    """The floor: a random seating per round, no care for repeats, byes or seats."""
    rng = random.Random(seed)
    everyone = list(range(1, players + 1))
    made = [shuffled_round(everyone, rng) for _ in range(rounds)]
    return Schedule(
        tuple(everyone),
        tuple(tuple(t) for t, _ in made),
        tuple(tuple(b) for _, b in made),
        seed,
        "floor",
    )


def trivial_round(history: Schedule, active: list[int], seed: int) -> Schedule:
    tables, byes = shuffled_round(active, random.Random(seed))
    return Schedule(
        tuple(sorted(set(history.players) | set(active))),
        (*history.rounds, tuple(tables)),
        (*history.byes, tuple(byes)),
        seed,
        "floor",
    )


def quality(schedule: Schedule) -> str:
    guard = ", GUARD HIT" if schedule.hit_time_limit else ""
    return (
        f"{schedule.repeats} repeated pairs, most meetings of one pair {schedule.max_meetings}, "
        f"seat spread {seat_spread(schedule)}{guard}"
    )


def main() -> None:
    print(f"seating {ALGORITHM_VERSION}, budget {DEFAULT_BUDGET:,} move evaluations, seed {SEED}")
    for players in FIELDS:
        started = time.perf_counter()
        schedule = generate_schedule(players, ROUNDS, SEED)
        elapsed = time.perf_counter() - started
        print(
            f"seating {players} players x {ROUNDS} rounds: {quality(schedule)}, "
            f"{elapsed:.3f} s (guard {DEFAULT_TIME_LIMIT:g} s)"
        )
    for players, target in LARGE:
        floor, _ = best_of(partial(trivial_schedule, players, ROUNDS, SEED))
        took, schedule = best_of(partial(generate_schedule, players, ROUNDS, SEED))
        goal = f"target <= {target:g} s" if target else "no target"
        print(
            f"seating {players:,} players x {ROUNDS} rounds: {took:.3f} s ({goal}), "
            f"{took / floor:.1f}x the floor (a shuffled schedule: {floor:.3f} s); "
            f"{quality(schedule)}",
            flush=True,
        )
    history = generate_schedule(ROUND_PLAYERS, ROUND_HISTORY, SEED)
    rng = random.Random(SEED)
    gone = set(rng.sample(range(1, ROUND_PLAYERS + 1), 100))
    active = [p for p in range(1, ROUND_PLAYERS + 1) if p not in gone]
    active += list(range(ROUND_PLAYERS + 1, ROUND_PLAYERS + 101))
    floor, _ = best_of(lambda: trivial_round(history, active, SEED))
    took, schedule = best_of(lambda: generate_round(history, active, SEED))
    print(
        f"seating one round of {len(active):,} players (100 withdrawn, 100 arrived) against "
        f"{ROUND_HISTORY} played rounds: {took:.3f} s (target <= {ROUND_TARGET:g} s), "
        f"{took / floor:.1f}x the floor (a shuffled round: {floor:.3f} s); {quality(schedule)}"
    )


if __name__ == "__main__":
    main()
