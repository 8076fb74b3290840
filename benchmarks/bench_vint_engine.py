"""Throughput of the Vint engine: deals scored and played into rubbers.

Run ``python benchmarks/bench_vint_engine.py`` from anywhere. It prints one
line and never fails: the target (100,000 deals/s on one core, including the
rubber state: games, lines, bonuses, extra deals) is a goal for the engine,
not a gate for the build. Under pytest (``bench_*.py`` is collected)
``test_rubber_apply_speed`` feeds the same stream to pytest-benchmark.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engines.vint import (  # noqa: E402
    DEFAULT_RULES,
    NEW_RUBBER,
    OTHER_SIDE,
    SEATS,
    SIDE_OF,
    SUITS,
    VintDeal,
    VintRules,
    all_pass_deal,
    contract_deal,
    deal_problems,
    rubber_apply,
)

TARGET = 100_000
DEALS = 200_000
_NS = ("N", "S")
_EW = ("E", "W")


def _seat_of(rng: random.Random, side: str) -> str:
    return rng.choice(_NS if side == "NS" else _EW)


def _dumps(rng: random.Random, avoid: str | None) -> list[tuple[str, int]]:
    # Mostly none, sometimes one or two aces lost on distinct tricks.
    count = rng.choices((0, 1, 2), (60, 30, 10))[0]
    tricks = rng.sample(range(2, 14), count)
    return [(rng.choice([s for s in SEATS if s != avoid]), t) for t in tricks]


def make_deal(rng: random.Random) -> VintDeal:
    """One plausible deal (not necessarily legal: ``make_deals`` filters)."""
    kind = rng.choices(("suit", "grand", "misere", "pass"), (68, 14, 12, 6))[0]
    if kind == "pass":
        ns = rng.randint(2, 11)
        return all_pass_deal(ns, 13 - ns, ace_dumps=_dumps(rng, None))
    level = rng.choices((4, 5, 6, 7), (50, 30, 15, 5))[0]
    declarer = rng.choice(SEATS)
    doubling = rng.choices((0, 1, 2), (75, 20, 5))[0]
    if kind == "misere":
        tricks = max(0, min(13, 7 - level + rng.randint(-1, 2)))
        return contract_deal(
            f"{level}M", declarer, tricks, doubling=doubling, ace_dumps=_dumps(rng, None)
        )
    tricks = max(0, min(13, 6 + level + rng.randint(-2, 1)))
    # The declaring side usually, not always, holds the majority.
    side = SIDE_OF[declarer] if rng.random() < 0.7 else OTHER_SIDE[SIDE_OF[declarer]]
    hand = [(_seat_of(rng, side), 3)] if rng.random() < 0.1 else []
    holder = hand[0][0] if hand else _seat_of(rng, side)
    if kind == "grand":
        team = (side, rng.choice((3, 4))) if rng.random() < 0.6 else None
        if team is None:
            hand = []
        runs = [(holder, rng.choice(SUITS), rng.randint(3, 5))] if rng.random() < 0.15 else []
        return contract_deal(
            f"{level}G",
            declarer,
            tricks,
            doubling=doubling,
            grand_aces=team,
            aces_in_hand=hand,
            sequences=runs,
        )
    trump = rng.choice(SUITS)
    plain = [s for s in SUITS if s != trump]
    runs = [(holder, rng.choice(plain), rng.randint(3, 5))] if rng.random() < 0.15 else []
    return contract_deal(
        f"{level}{trump}",
        declarer,
        tricks,
        doubling=doubling,
        honours=(side, rng.choices((5, 6, 7, 8, 9), (35, 30, 20, 10, 5))[0]),
        aces_in_hand=hand,
        sequences=runs,
    )


def make_deals(n: int = DEALS, seed: int = 1, rules: VintRules = DEFAULT_RULES) -> list[VintDeal]:
    """``n`` legal deals drawn from ``random.Random(seed)``."""
    rng = random.Random(seed)
    deals: list[VintDeal] = []
    while len(deals) < n:
        deal = make_deal(rng)
        if not deal_problems(deal, rules):
            deals.append(deal)
    return deals


def play(deals: list[VintDeal], rules: VintRules) -> int:
    """Play ``deals`` into consecutive rubbers; returns the number of rubbers."""
    state = NEW_RUBBER
    rubbers = 1
    for deal in deals:
        if state.finished:
            state = NEW_RUBBER
            rubbers += 1
        state, _ = rubber_apply(state, deal, rules)
    return rubbers


def deals_per_second(deals: list[VintDeal], rules: VintRules, repeats: int = 3) -> float:
    """Best of ``repeats`` timings of ``play`` over ``deals``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        play(deals, rules)
        best = min(best, time.perf_counter() - start)
    return len(deals) / best


def test_rubber_apply_speed(benchmark) -> None:  # type: ignore[no-untyped-def]
    deals = make_deals(20_000)
    rubbers = benchmark(play, deals, DEFAULT_RULES)
    assert rubbers > 1


def main() -> None:
    rate = deals_per_second(make_deals(), DEFAULT_RULES)
    print(f"vint engine: {rate:,.0f} deals/s incl. rubber state (target >= {TARGET:,})")


if __name__ == "__main__":
    main()
