"""The experiment that chose how Kop and Baśka tables are rated: ``deal`` or ``table``
(``tournaments.ranking.ratings.MODELS``), with ``deal_sum`` beside them.

A seeded synthetic club of players with hidden skills; each model is trained on the first
evenings, the ratings are frozen and the held-out evenings predicted (``evaluate``). The
figures and their reading are in ``docs/ratings.md``; run it (about 10 s) with::

    .venv/bin/python -m tests.ranking.rating_models

``deal_sum`` is an ablation measured here only: a solo as one against a side of three,
whose three means add up against the soloist's one (the production ``deal`` model makes a
solo four sides instead). ``none`` is everybody at the prior: the figures a rating must
beat. Pure Python, as the rating code it measures; ``test_rating_models.py`` checks that
it stays deterministic.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Final

from tournaments.ranking.ratings import (
    DEFAULT_PARAMS,
    KopDeal,
    KopTable,
    Match,
    Params,
    Rater,
    Rating,
    Source,
    kop_matches,
)

#: The models compared: the production ones and the ablation.
EXPERIMENT_MODELS: Final = ("deal", "deal_sum", "table")


def experiment_matches(table: KopTable, model: str) -> list[Match]:
    """``kop_matches``, and ``deal_sum``: every deal not voided as the declarers against
    one side of the others, whatever their number."""
    if model != "deal_sum":
        return kop_matches(table, model)
    return [
        Match((d.declarers, d.defenders), (0, 1) if d.declarers_won else (1, 0))
        for d in table.deals
        if not d.voided
    ]


@dataclass(frozen=True, slots=True)
class SimContract:
    name: str
    share: float  # how often it is played
    declarers: int
    factor: int
    base_win: float  # how often the declarers win between equal players


#: Synthetic Kop: contract shares and win rates of the declarers are rough club figures;
#: only their order of magnitude matters for the comparison.
SIM_CONTRACTS: Final = (
    SimContract("normal", 0.80, 2, 1, 0.62),
    SimContract("wesele", 0.05, 2, 1, 0.55),
    SimContract("cicha", 0.05, 1, 4, 0.70),
    SimContract("zolo", 0.08, 1, 5, 0.65),
    SimContract("zolo_du", 0.02, 1, 10, 0.45),
)


@dataclass(frozen=True, slots=True)
class SimConfig:
    """A synthetic club: ``players`` with hidden skills N(0, 1) meet for ``evenings``; each
    evening they sit at random tables of four for ``deals`` deals. The declarers of a deal win
    with probability Φ(Φ⁻¹(base) + ``skill_weight`` · (mean skill of declarers − of the rest))."""

    players: int = 40
    evenings: int = 50
    deals: int = 32
    skill_weight: float = 0.4
    train_share: float = 0.8


@dataclass(frozen=True, slots=True)
class SimDeal:
    contract: str
    deal: KopDeal


@dataclass(frozen=True, slots=True)
class SimTable:
    evening: int
    table: KopTable
    contracts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Club:
    skills: dict[int, float]
    tables: tuple[SimTable, ...]


def simulate_club(config: SimConfig, seed: int) -> Club:
    """A deterministic synthetic club history (``random.Random(seed)``)."""
    rng = random.Random(seed)
    normal = NormalDist()
    skills = {p: rng.gauss(0.0, 1.0) for p in range(1, config.players + 1)}
    weights = [c.share for c in SIM_CONTRACTS]
    offsets = {c.name: normal.inv_cdf(c.base_win) for c in SIM_CONTRACTS}
    tables = []
    ids = list(skills)
    for evening in range(config.evenings):
        rng.shuffle(ids)
        for t in range(len(ids) // 4):
            seats = ids[4 * t : 4 * t + 4]
            net = dict.fromkeys(seats, 0)
            deals = []
            contracts = []
            for _ in range(config.deals):
                c = rng.choices(SIM_CONTRACTS, weights)[0]
                declarers = tuple(rng.sample(seats, c.declarers))
                defenders = tuple(p for p in seats if p not in declarers)
                margin = sum(skills[p] for p in declarers) / len(declarers) - sum(
                    skills[p] for p in defenders
                ) / len(defenders)
                won = rng.random() < normal.cdf(offsets[c.name] + config.skill_weight * margin)
                # A doubling in a quarter of the deals; a soloist wins or pays V to each of three.
                value = c.factor * (2 if rng.random() < 0.25 else 1)
                sign = 1 if won else -1
                for p in declarers:
                    net[p] += sign * value * (3 if len(declarers) == 1 else 1)
                for p in defenders:
                    net[p] -= sign * value
                deals.append(KopDeal(declarers, defenders, won))
                contracts.append(c.name)
            tables.append(
                SimTable(evening, KopTable(tuple(deals), tuple(net.items())), tuple(contracts))
            )
    return Club(skills, tuple(tables))


@dataclass(frozen=True, slots=True)
class Scores:
    """Held-out figures of one model (lower log-loss, higher everything else is better)."""

    model: str
    deal_log_loss: float
    deal_auc: float
    place_log_loss: float
    place_accuracy: float
    skill_rho: float


def _log_loss(p: float, happened: bool) -> float:
    p = min(max(p, 1e-12), 1 - 1e-12)
    return -math.log(p if happened else 1 - p)


def _auc(scored: Sequence[tuple[float, bool]]) -> float:
    """Probability that a random positive scores above a random negative (ties count half)."""
    ordered = sorted(scored, key=lambda sv: sv[0])
    positives = sum(1 for _s, v in ordered if v)
    negatives = len(ordered) - positives
    if not positives or not negatives:
        return 0.5
    rank_sum = 0.0
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][0] == ordered[i][0]:
            j += 1
        mean_rank = (i + 1 + j) / 2
        rank_sum += mean_rank * sum(1 for _s, v in ordered[i:j] if v)
        i = j
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def _spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    def ranks(values: Sequence[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        out = [0.0] * len(values)
        for r, i in enumerate(order):
            out[i] = float(r)
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx and vy else 0.0


def evaluate(
    club: Club, model: str, *, train_share: float = 0.8, params: Params = DEFAULT_PARAMS
) -> Scores:
    """Train ``model`` on the first evenings, freeze the ratings, score the held-out evenings.

    Deals: P(declarers win) = Φ(b_c + z), b_c the probit of the contract's win rate in
    training, z openskill's own win margin of the declaring side (2 v 2: the two sums;
    a solo: the mean of the soloist's 1 v 1 margins against each defender). Places: for
    every two players at a held-out table whose small points differ, P(a above b) is
    openskill's 1 v 1 prediction Φ((μa − μb) / √(2β² + σa² + σb²)).
    """
    normal = NormalDist()
    evenings = 1 + max(t.evening for t in club.tables)
    cut = round(evenings * train_share)
    train = [t for t in club.tables if t.evening < cut]
    test = [t for t in club.tables if t.evening >= cut]
    rater = Rater(params)
    replay = rater.replay(
        Source(i, tuple(experiment_matches(t.table, model) if model != "none" else ()))
        for i, t in enumerate(train)
    )
    ratings = replay.ratings
    prior = rater.prior()

    def r(p: int) -> Rating:
        return ratings.get(p, prior)

    wins: dict[str, list[int]] = {}
    for t in train:
        for name, d in zip(t.contracts, t.table.deals, strict=True):
            w = wins.setdefault(name, [0, 0])
            w[0] += d.declarers_won
            w[1] += 1
    base = {name: normal.inv_cdf(min(max(won / n, 0.01), 0.99)) for name, (won, n) in wins.items()}
    two_beta2 = 2 * params.beta**2
    deal_loss = 0.0
    scored: list[tuple[float, bool]] = []
    place_loss = 0.0
    right = pairs = 0
    for t in test:
        for name, d in zip(t.contracts, t.table.deals, strict=True):
            if len(d.declarers) == 2:
                a = [r(p) for p in d.declarers]
                b = [r(p) for p in d.defenders]
                z = (sum(x.mu for x in a) - sum(x.mu for x in b)) / math.sqrt(
                    two_beta2 + sum(x.sigma**2 for x in a + b)
                )
            else:
                s = r(d.declarers[0])
                z = sum(
                    (s.mu - r(o).mu) / math.sqrt(two_beta2 + s.sigma**2 + r(o).sigma ** 2)
                    for o in d.defenders
                ) / len(d.defenders)
            p_win = normal.cdf(base.get(name, 0.0) + z)
            deal_loss += _log_loss(p_win, d.declarers_won)
            scored.append((z, d.declarers_won))
        points = t.table.small_points
        for i, (a_id, a_pts) in enumerate(points):
            for b_id, b_pts in points[i + 1 :]:
                if a_pts == b_pts:
                    continue
                ra, rb = r(a_id), r(b_id)
                p_above = normal.cdf(
                    (ra.mu - rb.mu) / math.sqrt(two_beta2 + ra.sigma**2 + rb.sigma**2)
                )
                place_loss += _log_loss(p_above, a_pts > b_pts)
                right += (p_above > 0.5) == (a_pts > b_pts)
                pairs += 1
    deals = len(scored)
    ids = sorted(club.skills)
    return Scores(
        model=model,
        deal_log_loss=deal_loss / deals,
        deal_auc=_auc(scored),
        place_log_loss=place_loss / pairs,
        place_accuracy=right / pairs,
        skill_rho=_spearman([r(p).mu for p in ids], [club.skills[p] for p in ids]),
    )


def compare_models(
    config: SimConfig = SimConfig(),
    seeds: Sequence[int] = tuple(range(1, 11)),
    models: Sequence[str] = (*EXPERIMENT_MODELS, "none"),
) -> dict[str, list[Scores]]:
    """Each model's held-out scores on one synthetic club per seed (``none``: no training,
    everyone at the prior: the figures a rating must beat)."""
    out: dict[str, list[Scores]] = {m: [] for m in models}
    for seed in seeds:
        club = simulate_club(config, seed)
        for m in models:
            out[m].append(evaluate(club, m, train_share=config.train_share))
    return out


_METRICS: Final = ("deal_log_loss", "deal_auc", "place_log_loss", "place_accuracy", "skill_rho")


def format_scores(runs: Mapping[str, Sequence[Scores]]) -> str:
    """A Markdown table: each metric's mean over the seeds ± its standard deviation."""
    lines = [
        "| model | deal log-loss | deal AUC | place log-loss | place accuracy | skill ρ |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for model, scores in runs.items():
        cells = []
        for metric in _METRICS:
            values = [float(getattr(s, metric)) for s in scores]
            mean = sum(values) / len(values)
            sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1))
            cells.append(f"{mean:.3f} ± {sd:.3f}")
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def format_paired(runs: Mapping[str, Sequence[Scores]], a: str, b: str) -> str:
    """``a`` minus ``b`` on the same clubs: mean ± standard error, and on how many clubs
    ``a`` was better (lower log-loss, higher otherwise)."""
    cells = []
    for metric in _METRICS:
        diffs = [
            float(getattr(x, metric)) - float(getattr(y, metric))
            for x, y in zip(runs[a], runs[b], strict=True)
        ]
        n = len(diffs)
        mean = sum(diffs) / n
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1) / n)
        better = sum(1 for d in diffs if (d < 0 if "log_loss" in metric else d > 0))
        cells.append(f"{mean:+.3f} ± {se:.3f} ({better}/{n})")
    return f"| {a} − {b} | " + " | ".join(cells) + " |"


def main() -> None:
    for evenings in (10, 50):
        config = SimConfig(evenings=evenings)
        print(
            f"\n{config.players} players, {evenings} evenings of {config.deals} deals, "
            f"skill weight {config.skill_weight}, first {config.train_share:.0%} of the "
            "evenings train, seeds 1-10:\n"
        )
        runs = compare_models(config)
        print(format_scores(runs))
        print(format_paired(runs, "deal", "table"))
        print(format_paired(runs, "deal", "deal_sum"))


if __name__ == "__main__":
    main()
