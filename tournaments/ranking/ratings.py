"""Club ratings for Kop, Baśka and Vint (openskill's Weng-Lin Plackett-Luce model).

Pure Python: no Django. ``tournaments/families/`` maps each family's rows to the
plain data below, and ``tournaments/ratings/`` stores what comes back.

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
        call every won solo a huge upset (the experiment's ``deal_sum``, measured
        worse).
    ``table``
        The table is one match: four sides of one, placed by small points
        (the sum of each player's payments; equal sums share a place).

    Vint is rated per rubber, partnership against partnership, placed by the
    points each side scored in the rubber.

The choice between ``deal`` and ``table`` was made by a seeded experiment on
synthetic players with hidden skills (``tests/ranking/rating_models.py``, run with
``python -m tests.ranking.rating_models``); the figures are in ``docs/ratings.md``.

Series (Grand Prix)
-------------------
``series_standings`` sums placings over several tournaments by a points
table, with a minimum number of tournaments and optionally the worst result
dropped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from fractions import Fraction
from typing import Final

from openskill.models import PlackettLuce

#: How a Kop/Baśka table is rated; the first is the default (see the module docstring).
MODELS: Final = ("deal", "table")
DEFAULT_MODEL: Final = "deal"
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
        if len(d.declarers) == 2:
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
