"""Seating quality and speed: repeats and time for 16, 20, 24, 33, 100 (and 21) players x 5 rounds.

Run ``python benchmarks/bench_seating.py`` from anywhere. It prints one line per
field size and never fails: the wall-clock guard is 2 s per schedule, and the
target is to finish far below it on one slow core, so the guard never decides
a schedule (which would make it depend on the machine).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import (  # noqa: E402
    ALGORITHM_VERSION,
    DEFAULT_BUDGET,
    DEFAULT_TIME_LIMIT,
    generate_schedule,
    seat_spread,
)

FIELDS = (16, 20, 24, 33, 100, 21)  # 21: a field that spends the whole budget
ROUNDS = 5
SEED = 0


def main() -> None:
    print(f"seating {ALGORITHM_VERSION}, budget {DEFAULT_BUDGET:,} move evaluations, seed {SEED}")
    for players in FIELDS:
        started = time.perf_counter()
        schedule = generate_schedule(players, ROUNDS, SEED)
        elapsed = time.perf_counter() - started
        guard = " GUARD HIT" if schedule.hit_time_limit else ""
        print(
            f"seating {players} players x {ROUNDS} rounds: {schedule.repeats} repeated pairs, "
            f"most meetings of one pair {schedule.max_meetings}, "
            f"seat spread {seat_spread(schedule)}, "
            f"{elapsed:.3f} s (guard {DEFAULT_TIME_LIMIT:g} s){guard}"
        )


if __name__ == "__main__":
    main()
