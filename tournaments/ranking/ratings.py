"""Club ratings for Kop, Baśka and Vint (openskill's Weng-Lin Plackett-Luce model).

Pure Python: no Django. ``tournaments/ratings.py`` maps rows to the plain data
below and stores what comes back.

Vocabulary
----------
rating
    What we believe about one player's skill: a normal distribution with mean
    μ (``mu``) and uncertainty σ (``sigma``). A new player starts at the prior
    (25, 25/3). The **displayed rating** is μ − 3σ: a value the player's skill
    very probably exceeds, so a newcomer with one lucky evening does not top
    the list.
match
    One rated result: two or more **sides** (tuples of player ids) and their
    **places** (0 is first; equal places are a tie). ``games`` is how many
    games the match counts for each of its players (a deal counts 1; a whole
    table counts its deals).
source
    The cause of a rating change: one accepted table session (a tournament
    table in one round). Its matches are rated in order; a player's change
    recorded for the source is the difference between their rating before its
    first match and after its last. A player with no match in a source is not
    touched by it: sitting out changes nothing (σ grows only for players who
    play, through openskill's τ).
model
    How a Kop or Baśka table becomes matches (``MODELS``):

    ``deal``
        Every deal that is not voided is a match, the declaring side against
        the rest. Two against two (normal game, wesele) are two sides of two.
        A solo (one against three) is four sides: the soloist and the three
        defenders, who share one place. Entering the defenders as one side of
        three would add up their three means against the soloist's one and
        call every won solo a huge upset (``deal_sum`` below, measured worse).
    ``table``
        The table is one match: four sides of one, placed by small points
        (the sum of each player's payments; equal sums share a place).

    Vint is rated per rubber, partnership against partnership, placed by the
    points each side scored in the rubber.

The choice between ``deal`` and ``table`` was made by ``compare_models``: a
seeded experiment on synthetic players with hidden skills, run with
``python -m tournaments.ranking.ratings``; the figures are in ``docs/ratings.md``.

Series (Grand Prix)
-------------------
``series_standings`` sums placings over several tournaments by a points
table, with a minimum number of tournaments and optionally the worst result
dropped.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from fractions import Fraction
from statistics import NormalDist
from typing import Final

from openskill.models import PlackettLuce

#: How a Kop/Baśka table is rated; the first is the default (see the module docstring).
MODELS: Final = ("deal", "table")
DEFAULT_MODEL: Final = "deal"
#: An ablation measured by ``compare_models`` only: a solo as one against a side of three.
EXPERIMENT_MODELS: Final = ("deal", "deal_sum", "table")
KOP_GAMES: Final = ("kop", "baska")
Z: Final = 3.0  # displayed rating = mu - Z * sigma


class RatingOptionError(ValueError):
    """An unknown model name or a bad option (a user's mistake)."""


class RatingInputError(ValueError):
    """Input that cannot come from a valid table (a bug in the caller, not a user error)."""


def parse_model(name: str) -> str:
    """Return ``name`` if it is a rating model, else raise naming the choices."""
    if name in MODELS:
        return name
    near = get_close_matches(str(name), MODELS, n=1)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    raise RatingOptionError(f"{name!r} is not a rating model ({', '.join(MODELS)}){hint}")


# ------------------------------------------------------------------------------ ratings


@dataclass(frozen=True, slots=True)
class Params:
    """openskill's Plackett-Luce parameters; the defaults are openskill's own."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0

    def __post_init__(self) -> None:
        for name in ("sigma", "beta"):
            if not getattr(self, name) > 0:
                raise RatingOptionError(f"{name} must be positive")
        if self.tau < 0:
            raise RatingOptionError("tau must not be negative")


DEFAULT_PARAMS: Final = Params()


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def display(self) -> float:
        """The displayed rating, μ − 3σ."""
        return self.mu - Z * self.sigma


@dataclass(frozen=True, slots=True)
class Match:
    """Sides of player ids and their places (0 first; equal places tie)."""

    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    games: int = 1

    def __post_init__(self) -> None:
        if len(self.sides) < 2 or len(self.places) != len(self.sides):
            raise RatingInputError("a match needs two or more sides, each with a place")
        ids = [p for side in self.sides for p in side]
        if not all(self.sides) or len(set(ids)) != len(ids):
            raise RatingInputError(f"sides must be non-empty and disjoint: {self.sides}")

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for side in self.sides for p in side)


@dataclass(frozen=True, slots=True)
class Source:
    """One cause of rating changes (a table session): its key and its matches in order."""

    key: int
    matches: tuple[Match, ...]


@dataclass(frozen=True, slots=True)
class Change:
    """One player's change over one source."""

    player: int
    before: Rating
    after: Rating
    games: int

    @property
    def delta(self) -> float:
        return self.after.display - self.before.display


@dataclass(frozen=True, slots=True)
class SourceChanges:
    key: int
    changes: tuple[Change, ...]


@dataclass(slots=True)
class Replay:
    """The result of rating sources in order: final ratings, games, and each source's changes."""

    ratings: dict[int, Rating] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    sources: list[SourceChanges] = field(default_factory=list)


class Rater:
    """openskill's Plackett-Luce with fixed parameters, over ratings kept by player id.

    ``PlackettLuce.rate`` deep-copies its input and draws a uuid4 for every
    player of every call: about 70 µs a deal, 70 s for the million deals of
    ``benchmarks/bench_ratings.py``. ``fast=True`` (the default) runs a
    transcription of its update for what we use (ranks; no weights, scores,
    balance or sigma limit), operation for operation, so the floats are the
    same; ``tests/ranking/test_ratings.py`` checks that against openskill on
    random matches. ``fast=False`` calls openskill itself.
    """

    def __init__(self, params: Params = DEFAULT_PARAMS, *, fast: bool = True) -> None:
        self.params = params
        self.fast = fast
        self._model = PlackettLuce(
            mu=params.mu, sigma=params.sigma, beta=params.beta, tau=params.tau
        )
        self._tau_squared = params.tau * params.tau
        self._beta_squared = params.beta**2
        self._kappa = self._model.kappa

    def prior(self) -> Rating:
        return Rating(self.params.mu, self.params.sigma)

    def rate(self, state: dict[int, tuple[float, float]], match: Match) -> None:
        """Update ``state`` (player id -> (μ, σ)) with one match."""
        if not self.fast:
            self._rate_openskill(state, match)
            return
        prior = (self.params.mu, self.params.sigma)
        tau_squared = self._tau_squared
        places = match.places
        order = sorted(range(len(places)), key=places.__getitem__)
        ranks = [places[i] for i in order]
        # Per team (in place order): players as (id, mu, sigma), summed mu and sigma^2.
        teams: list[list[tuple[int, float, float]]] = []
        team_mu: list[float] = []
        team_s2: list[float] = []
        for i in order:
            team = []
            for player in match.sides[i]:
                mu, sigma = state.get(player, prior)
                team.append((player, mu, math.sqrt(sigma * sigma + tau_squared)))
            if len(team) > 2:  # openskill sums a team in descending ordinal order
                team.sort(key=lambda r: r[1] - Z * r[2], reverse=True)
            mu_sum = 0.0
            s2_sum = 0.0
            for _p, mu, sigma in team:
                mu_sum += mu
                s2_sum += sigma**2
            teams.append(team)
            team_mu.append(mu_sum)
            team_s2.append(s2_sum)
        n = len(teams)
        collective = 0.0
        for s2 in team_s2:
            collective += s2 + self._beta_squared
        c = math.sqrt(collective)
        exps = [math.exp(m / c) for m in team_mu]
        sum_q = [0.0] * n
        for i in range(n):
            for q in range(n):
                if ranks[i] >= ranks[q]:
                    sum_q[q] += exps[i]
        a = [ranks.count(r) for r in ranks]
        kappa = self._kappa
        for i in range(n):
            omega = 0.0
            delta = 0.0
            rank_i = ranks[i]
            e = exps[i]
            for q in range(n):
                if ranks[q] <= rank_i:
                    x = e / sum_q[q]
                    delta += x * (1 - x) / a[q]
                    if q == i:
                        omega += (1 - x) / a[q]
                    else:
                        omega -= x / a[q]
            s2 = team_s2[i]
            omega *= s2 / c
            delta *= s2 / c**2
            delta *= math.sqrt(s2) / c
            for p, mu, sigma in teams[i]:
                share = sigma**2 / s2
                state[p] = (
                    mu + share * omega,
                    sigma * math.sqrt(max(1 - share * delta, kappa)),
                )

    def _rate_openskill(self, state: dict[int, tuple[float, float]], match: Match) -> None:
        model = self._model
        prior = (self.params.mu, self.params.sigma)
        teams = [[model.rating(*state.get(p, prior)) for p in side] for side in match.sides]
        out = model.rate(teams, ranks=[float(x) for x in match.places])
        for side, rated in zip(match.sides, out, strict=True):
            for p, r in zip(side, rated, strict=True):
                state[p] = (r.mu, r.sigma)

    def replay(
        self, sources: Iterable[Source], *, start: Mapping[int, Rating] | None = None
    ) -> Replay:
        """Rate ``sources`` in the order given, starting from ``start`` (others at the prior).

        The same sources from the same start give the same floats, so rating
        the later sources from the states stored after the earlier ones equals
        rating everything from scratch.
        """
        state: dict[int, tuple[float, float]] = {
            p: (r.mu, r.sigma) for p, r in (start or {}).items()
        }
        result = Replay()
        games = result.games
        prior = self.prior()
        rate = self.rate
        for source in sources:
            before: dict[int, Rating] = {}
            played: dict[int, int] = {}
            for match in source.matches:
                for side in match.sides:
                    for p in side:
                        if p in played:
                            played[p] += match.games
                        else:
                            r = state.get(p)
                            before[p] = prior if r is None else Rating(*r)
                            played[p] = match.games
                rate(state, match)
            changes = []
            for p in sorted(before):
                changes.append(Change(p, before[p], Rating(*state[p]), played[p]))
                games[p] = games.get(p, 0) + played[p]
            result.sources.append(SourceChanges(source.key, tuple(changes)))
        result.ratings = {p: Rating(*r) for p, r in state.items()}
        return result


# ------------------------------------------------------------------------- Kop, Baśka


@dataclass(frozen=True, slots=True)
class KopDeal:
    """The rated facts of one deal: who declared, who defended, who won."""

    declarers: tuple[int, ...]
    defenders: tuple[int, ...]
    declarers_won: bool
    voided: bool = False

    def __post_init__(self) -> None:
        if len(self.declarers) not in (1, 2) or len(self.declarers) + len(self.defenders) != 4:
            raise RatingInputError(
                f"a Kop deal is 2 v 2 or 1 v 3: {self.declarers} v {self.defenders}"
            )


@dataclass(frozen=True, slots=True)
class KopTable:
    """One table session: its deals in order and each player's small points (net payments)."""

    deals: tuple[KopDeal, ...]
    small_points: tuple[tuple[int, int], ...]  # (player id, small points), four of them


def placings(points: Mapping[int, float] | Sequence[tuple[int, float]]) -> dict[int, int]:
    """Places by points, most first; equal points share the better place (1, 2, 2, 4 -> 0,1,1,3)."""
    pairs = list(points.items()) if isinstance(points, Mapping) else list(points)
    return {p: sum(1 for _q, other in pairs if other > v) for p, v in pairs}


def kop_matches(table: KopTable, model: str = DEFAULT_MODEL) -> list[Match]:
    """The matches one Kop/Baśka table is rated as under ``model`` (see the module docstring)."""
    if model not in EXPERIMENT_MODELS:
        parse_model(model)
    deals = [d for d in table.deals if not d.voided]
    if not deals:
        return []
    if model == "table":
        place = placings(table.small_points)
        order = [p for p, _points in table.small_points]
        return [Match(tuple((p,) for p in order), tuple(place[p] for p in order), games=len(deals))]
    out = []
    for d in deals:
        won, lost = (0, 1) if d.declarers_won else (1, 0)
        if len(d.declarers) == 2 or model == "deal_sum":
            out.append(Match((d.declarers, d.defenders), (won, lost)))
        else:
            out.append(
                Match(((d.declarers[0],), *((p,) for p in d.defenders)), (won, lost, lost, lost))
            )
    return out


# ------------------------------------------------------------------------------- Vint


@dataclass(frozen=True, slots=True)
class VintRubber:
    """One rubber: the two partnerships and the points each scored in it."""

    ns: tuple[int, int]
    ew: tuple[int, int]
    ns_points: int
    ew_points: int


def vint_matches(rubbers: Iterable[VintRubber]) -> list[Match]:
    """Partnership against partnership per rubber; the side with more points wins."""
    out = []
    for r in rubbers:
        if r.ns_points == r.ew_points:
            places = (0, 0)
        else:
            places = (0, 1) if r.ns_points > r.ew_points else (1, 0)
        out.append(Match((r.ns, r.ew), places))
    return out


# ----------------------------------------------------------------------------- series


@dataclass(frozen=True, slots=True)
class SeriesRules:
    """A Grand Prix: points per place (1st, 2nd, ...), the minimum number of tournaments
    to be ranked, and whether each player's worst result (an absence counts 0) is dropped."""

    points: tuple[int, ...]
    min_tournaments: int = 1
    drop_worst: bool = False

    def __post_init__(self) -> None:
        if not self.points:
            raise RatingOptionError("the points table needs at least one value")
        if any(p < 0 for p in self.points):
            raise RatingOptionError("points must not be negative")
        if self.min_tournaments < 0:
            raise RatingOptionError("the minimum number of tournaments must not be negative")


@dataclass(frozen=True, slots=True)
class SeriesRow:
    player: int
    rank: int | None  # None: fewer tournaments than the minimum
    total: Fraction
    points: tuple[Fraction | None, ...]  # per tournament; None: did not play
    dropped: int | None  # index of the dropped result
    played: int


def place_points(rules: SeriesRules, place: int, shared_by: int) -> Fraction:
    """Points for ``place`` (1-based) shared by ``shared_by`` players: the mean of the places
    they cover, so two players tied for 2nd with 18 and 15 for 2nd and 3rd get 16.5 each."""
    table = rules.points
    covered = [table[i - 1] if i <= len(table) else 0 for i in range(place, place + shared_by)]
    return Fraction(sum(covered), shared_by)


def series_standings(placings: Sequence[Mapping[int, int]], rules: SeriesRules) -> list[SeriesRow]:
    """Sum each player's points over the tournaments (``placings``: player -> place, 1-based,
    ties share a place), drop the worst if asked, rank by total, then by best single results
    (countback); players below the minimum of tournaments come last without a rank."""
    shares = []
    for places in placings:
        counts: dict[int, int] = {}
        for place in places.values():
            counts[place] = counts.get(place, 0) + 1
        shares.append(counts)
    players = sorted({p for places in placings for p in places})
    rows: list[tuple[tuple[Fraction, tuple[Fraction, ...]], SeriesRow]] = []
    for player in players:
        points: list[Fraction | None] = []
        for places, counts in zip(placings, shares, strict=True):
            at = places.get(player)
            points.append(None if at is None else place_points(rules, at, counts[at]))
        values = [Fraction(0) if v is None else v for v in points]
        dropped: int | None = None
        if rules.drop_worst and len(values) >= 2:
            # The lowest value; between equals, an absence first, then the earliest.
            dropped = min(range(len(values)), key=lambda i: (values[i], points[i] is not None, i))
        counted = [v for i, v in enumerate(values) if i != dropped]
        played = sum(1 for v in points if v is not None)
        key = (sum(counted, Fraction(0)), tuple(sorted(counted, reverse=True)))
        rows.append((key, SeriesRow(player, None, key[0], tuple(points), dropped, played)))
    rows.sort(key=lambda kr: (kr[0][0], kr[0][1]), reverse=True)
    ranked: list[SeriesRow] = []
    rest: list[SeriesRow] = []
    last_key: tuple[Fraction, tuple[Fraction, ...]] | None = None
    rank = 0
    for key, row in rows:
        if row.played < rules.min_tournaments:
            rest.append(row)
            continue
        if key != last_key:
            rank = len(ranked) + 1
            last_key = key
        ranked.append(SeriesRow(row.player, rank, row.total, row.points, row.dropped, row.played))
    return ranked + rest


# ------------------------------------------------------------------------- experiment


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
        Source(i, tuple(kop_matches(t.table, model) if model != "none" else ()))
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
