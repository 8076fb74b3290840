"""Standings stay fast at 100 tables and far beyond (product.md; Tabbycat #1759)."""

from __future__ import annotations

import random
import time

import pytest

from tournaments.ranking import KOP_TIE_BREAKS, kop_standings


def random_tournament(players: int, rounds: int, seed: int) -> list[list[dict[int, int]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        tables = []
        for i in range(0, players, 4):
            small = [rng.randint(-300, 300) for _ in range(3)]
            small.append(-sum(small))
            tables.append(dict(zip(order[i : i + 4], small, strict=True)))
        out.append(tables)
    return out


@pytest.mark.parametrize("players", [400, 4000])
def test_full_standings_well_under_a_second(players):
    rounds = random_tournament(players, 5, seed=players)
    best = min(
        _timed(lambda: kop_standings(rounds, tie_breaks=(*KOP_TIE_BREAKS, "head_to_head")))
        for _ in range(3)
    )
    print(f"standings {players} players: {best:.3f} s")
    assert best < 1.0


def _timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started
