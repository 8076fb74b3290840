"""Standings speed: full Kop standings for 400 and 4,000 players (5 rounds).

Run ``python benchmarks/bench_standings.py`` from anywhere. It builds random
tournaments (every table's small points sum to zero, small ranges so shared
places occur), times the individual standings with Kościan's tie-breaks plus
the pairs classification, best of 3, and prints one line per size. It never
fails: the target (1 s for 100 tables, Tabbycat #1759 is the warning) is a
goal, not a gate.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.ranking import group_standings, kop_standings  # noqa: E402

SIZES = (400, 4000)
ROUNDS = 5
TARGET = 1.0


def random_tournament(players: int, seed: int) -> list[list[dict[int, int]]]:
    rng = random.Random(seed)
    rounds = []
    for _ in range(ROUNDS):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        tables = []
        for i in range(0, players, 4):
            small = [rng.randint(-40, 40) for _ in range(3)]
            small.append(-sum(small))
            tables.append(dict(zip(order[i : i + 4], small, strict=True)))
        rounds.append(tables)
    return rounds


def main() -> None:
    for players in SIZES:
        rounds = random_tournament(players, seed=players)
        pairs = {f"pair {k}": (2 * k - 1, 2 * k) for k in range(1, players // 2 + 1)}
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            rows = kop_standings(rounds)
            group_standings(rows, pairs)
            best = min(best, time.perf_counter() - started)
        print(f"standings {players} players: {best:.3f} s (target <= {TARGET:g} s)")


if __name__ == "__main__":
    main()
