"""Plausible random deals, for demo data, load tests and benchmarks.

Deterministic for a given ``random.Random``: the same seed gives the same
deals. Card points are drawn only from totals that can occur (kop.md
Appendix A), so simulated sheets pass the entry checks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring.engines import kop

# How often each contract is played at a club table (a guess that looks like real sheets).
_KOP_MIX: dict[str, int] = {"normal": 70, "wesele": 6, "cicha": 8, "zolo": 12, "zolo_du": 4}
_BASKA_MIX: dict[str, int] = {
    "normal": 62,
    "wesele": 6,
    "cicha": 7,
    "zolo": 10,
    "zolo_du": 3,
    "grand": 8,
    "grand_du": 2,
    "baska": 2,
}
_POINTS: tuple[int, ...] = tuple(p for p in range(0, 105) if kop.is_attainable(p))
_WINNING: tuple[int, ...] = tuple(p for p in _POINTS if p >= 53)
_LOSING: tuple[int, ...] = tuple(p for p in _POINTS if p < 53)


def random_kop_deal(rng: random.Random, game: str = "kop") -> kop.KopDeal:
    mix = _BASKA_MIX if game == "baska" else _KOP_MIX
    names: Sequence[str] = list(mix)
    contract = rng.choices(names, weights=list(mix.values()))[0]
    info = kop.CONTRACTS[contract]
    seats = rng.sample((1, 2, 3, 4), info.declarers)
    if info.is_du:
        points = 104 if rng.random() < 0.7 else rng.choice((96, 92, 88, 84))
    else:
        points = rng.choice(_WINNING if rng.random() < 0.62 else _LOSING)
    k = rng.choices((0, 1, 2, 3), weights=(70, 20, 8, 2))[0]
    return kop.KopDeal(
        contract=contract, declarers=tuple(sorted(seats)), doublings=k, declarer_points=points
    )


def random_kop_deals(rng: random.Random, n: int, game: str = "kop") -> list[kop.KopDeal]:
    return [random_kop_deal(rng, game) for _ in range(n)]
