"""Leagues: a season of events added up for players and teams (competitions.md §8).

Vocabulary
----------
league, season
    A series of events, each scored on its own (``competition.score_kop_event``);
    a league only reads the events' standings.
licence
    A league's registration of a player, with the day it was granted. When the
    league requires licences, only events dated on or after that day count for
    him; a player without one is not classified.
counting ``sum``
    Total big points over the counted events (adjustments included), then total
    small points, then more *event wins* (events where his rank is 1, shared or
    not). Players still tied share the rank.
counting ``placement``
    The app's Grand Prix (``tournaments.ranking.ratings.series_standings``): points
    by place from a table. ``league_placings`` gives it the counted events' places.
roster, line-up, substitute
    A league team's registered regular players; the team at one event; a player
    from outside the roster in a line-up. At most one substitute per line-up,
    and never one on another team's roster.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.engines.ranks import by_key, rank, rank_label

from .errors import RankingProblem

#: The problem codes this module emits (a page says each in the reader's language).
CODES = frozenset(
    {
        "league.substitute_on_roster",
        "league.substitutes",
        "league.unlicensed",
    }
)


@dataclass(frozen=True, slots=True)
class EventRow:
    """A player's (or a team's) row in one event's standings."""

    who: int | str
    rank: int
    big_points: Fraction
    small_points: Fraction


@dataclass(frozen=True, slots=True)
class LeagueEvent:
    date: datetime.date
    rows: tuple[EventRow, ...]


@dataclass(frozen=True, slots=True)
class LeagueRow:
    who: int | str
    rank: int
    tied: bool
    big_points: Fraction
    small_points: Fraction
    event_wins: int
    events: int

    @property
    def rank_label(self) -> str:
        return rank_label(self.rank, self.tied)


def counted_rows(
    events: Sequence[LeagueEvent], licences: Mapping[int | str, datetime.date] | None
) -> list[list[EventRow]]:
    """Each event's rows that count: all of them when ``licences`` is ``None`` (not
    required), else those of players licensed on or before the event's date."""
    if licences is None:
        return [list(e.rows) for e in events]
    return [[r for r in e.rows if r.who in licences and licences[r.who] <= e.date] for e in events]


def league_standings(
    events: Sequence[LeagueEvent],
    licences: Mapping[int | str, datetime.date] | None = None,
) -> tuple[LeagueRow, ...]:
    """Counting ``sum``: big points, then small points, then event wins; ties share.

    Also the team classification (§8.2): give each event's team rows.
    """
    tables = league_progress(events, licences)
    return tables[-1] if tables else ()


def league_progress(
    events: Sequence[LeagueEvent],
    licences: Mapping[int | str, datetime.date] | None = None,
) -> list[tuple[LeagueRow, ...]]:
    """Counting ``sum`` after each event: the k-th table is ``league_standings`` of the
    first k events, all of them found in one pass over the events (running totals,
    ranked after each event), so a season's tables cost time linear in its events."""
    big: dict[int | str, Fraction] = {}
    small: dict[int | str, Fraction] = {}
    wins: dict[int | str, int] = {}
    played: dict[int | str, int] = {}
    order: list[int | str] = []
    criteria = [by_key(big.__getitem__), by_key(small.__getitem__), by_key(wins.__getitem__)]
    tables: list[tuple[LeagueRow, ...]] = []
    for rows in counted_rows(events, licences):
        for r in rows:
            if r.who not in big:
                order.append(r.who)
                big[r.who], small[r.who], wins[r.who], played[r.who] = (
                    Fraction(0),
                    Fraction(0),
                    0,
                    0,
                )
            big[r.who] += r.big_points
            small[r.who] += r.small_points
            wins[r.who] += r.rank == 1
            played[r.who] += 1
        tables.append(
            tuple(
                LeagueRow(who, place, tied, big[who], small[who], wins[who], played[who])
                for who, place, tied in rank(order, criteria)
            )
        )
    return tables


def league_placings(
    events: Sequence[LeagueEvent],
    licences: Mapping[int | str, datetime.date] | None = None,
) -> list[dict[int | str, int]]:
    """Counting ``placement``: each counted event's places (player -> rank, shared ranks
    kept), for ``ratings.series_standings``. An unlicensed player's row is left out, and
    the places of the others are as the event gave them."""
    return [{r.who: r.rank for r in rows} for rows in counted_rows(events, licences)]


def lineup_problems(
    team: str,
    lineup: Sequence[int],
    rosters: Mapping[str, Sequence[int]],
    *,
    licences: Mapping[int, datetime.date] | None = None,
    date: datetime.date | None = None,
) -> list[RankingProblem]:
    """What is wrong with ``team``'s line-up for an event (§8.2), empty when nothing:
    more than one substitute, a substitute on another team's roster, and (when the
    league requires licences) a member without a licence granted on or before ``date``."""
    own = set(rosters.get(team, ()))
    others = {p: t for t, roster in rosters.items() if t != team for p in roster}
    problems = []
    substitutes = [p for p in lineup if p not in own]
    for p in substitutes:
        if p in others:
            text = f"team {team}: player {p} is on the roster of team {others[p]}"
            problems.append(
                RankingProblem(
                    "league.substitute_on_roster",
                    text,
                    {"team": team, "player": p, "other": others[p]},
                )
            )
    if len(substitutes) > 1:
        text = f"team {team}: {len(substitutes)} substitutes, at most 1"
        problems.append(
            RankingProblem("league.substitutes", text, {"team": team, "players": list(substitutes)})
        )
    if licences is not None:
        for p in lineup:
            since = licences.get(p)
            if since is None or (date is not None and since > date):
                text = f"team {team}: player {p} holds no licence for this event"
                problems.append(
                    RankingProblem("league.unlicensed", text, {"team": team, "player": p})
                )
    return problems
