"""Throughput of the Kop engine: ``score_table`` over a reproducible mix of deals.

Run ``python benchmarks/bench_kop_engine.py`` from anywhere. It prints one
line and never fails: the target (300,000 deals/s on one core) is a goal for
the engine, not a gate for the build. Under pytest (``bench_*.py`` is
collected) ``test_score_table_speed`` feeds the same mix to pytest-benchmark.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engines.kop import (  # noqa: E402
    ATTAINABLE_BY_TRICKS,
    CONTRACTS,
    KopDeal,
    KopRules,
    default_rules,
    score_table,
)

TARGET = 300_000
DEALS = 200_000
# Roughly what a tournament table records: mostly normal games, then the
# solo contracts; about a third of the deals doubled.
CONTRACT_WEIGHTS = {"normal": 55, "wesele": 12, "cicha": 10, "zolo": 15, "zolo_du": 8}


def make_deals(n: int = DEALS, seed: int = 1) -> list[KopDeal]:
    """``n`` legal deals drawn from ``random.Random(seed)``."""
    rng = random.Random(seed)
    names = list(CONTRACT_WEIGHTS)
    weights = list(CONTRACT_WEIGHTS.values())
    points = sorted(set().union(*ATTAINABLE_BY_TRICKS))
    deals: list[KopDeal] = []
    for _ in range(n):
        contract = rng.choices(names, weights)[0]
        declarers = tuple(rng.sample((1, 2, 3, 4), CONTRACTS[contract].declarers))
        p = 104 if contract == "zolo_du" and rng.random() < 0.6 else rng.choice(points)
        if rng.random() < 0.5:
            k = rng.choices((0, 1, 2, 3), (65, 20, 10, 5))[0]
            deals.append(
                KopDeal(contract=contract, declarers=declarers, doublings=k, declarer_points=p)
            )
        else:
            # Callers from either side; same-side repeats do not count (R3),
            # so the count stays under the official cap of 4.
            seats = tuple(rng.choice((1, 2, 3, 4)) for _ in range(rng.choice((0, 0, 1, 2, 3))))
            deals.append(
                KopDeal(
                    contract=contract, declarers=declarers, doubling_seats=seats, declarer_points=p
                )
            )
    return deals


def deals_per_second(deals: list[KopDeal], rules: KopRules, repeats: int = 3) -> float:
    """Best of ``repeats`` timings of ``score_table`` over ``deals``.

    Each run gets a fresh copy of the rules, so it starts with empty
    per-rules tables and memo, as a new process would.
    """
    best = float("inf")
    for _ in range(repeats):
        fresh = replace(rules)
        start = time.perf_counter()
        score_table(deals, fresh)
        best = min(best, time.perf_counter() - start)
    return len(deals) / best


def test_score_table_speed(benchmark: Any) -> None:
    deals = make_deals(20_000)
    result = benchmark(score_table, deals, default_rules("kop"))
    assert len(result.results) == len(deals)


def main() -> None:
    rate = deals_per_second(make_deals(), default_rules("kop"))
    print(f"kop engine: {rate:,.0f} deals/s (target >= {TARGET:,})")


if __name__ == "__main__":
    main()
