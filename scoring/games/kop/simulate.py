"""Plausible random Kop and Baśka deals as facts, for demo data, simulated tournaments,
load tests and benchmarks (the engine's ``simulate`` makes them; the same seed gives the
same deals)."""

from __future__ import annotations

import random

from scoring.engines.shapes import KopDealJson
from scoring.engines.simulate import random_kop_deals
from scoring.games.kop.deals import facts_from_deal


def random_deals(rng: random.Random, n: int, game: str = "kop") -> list[KopDealJson]:
    """``n`` random deals of ``game`` ("kop" or "baska"), as the write path takes them."""
    return [facts_from_deal(deal) for deal in random_kop_deals(rng, n, game)]
