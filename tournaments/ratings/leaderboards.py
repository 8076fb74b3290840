"""Club rating leaderboards: players by displayed rating (all time or a season), the
rated club evenings, and the CSV."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from clubs.models import Player
from clubs.selectors import clubs_of, person_rows
from config.csvexport import heading
from tournaments.models import RatingEvent, RatingRun, RatingSource, RatingState
from tournaments.ranking import ratings as core
from tournaments.ratings.common import (
    CAUSE,
    SESSION,
    cause_label,
    change_label,
    check_game,
    club_evening_label,
    default_min_games,
    signed,
)


def rating_status(*, game: str) -> RatingRun | None:
    return RatingRun.objects.filter(game=game, computed_at__isnull=False).first()


def rating_seasons(*, game: str) -> list[int]:
    return sorted(
        {d.year for d in RatingEvent.objects.filter(game=game).dates("at", "year")}, reverse=True
    )


def _row(
    rows: list[Player], mu: float, sigma: float, games: int, tables: int, last: RatingEvent | None
) -> dict[str, Any]:
    """A person's line: named and linked by their first register row, with every club
    whose register they stand in."""
    source = last.source if last else None
    player = rows[0]
    return {
        "player_id": player.pk,
        "number": player.number,
        "name": player.name,
        "club": clubs_of(rows),
        "rating": round(mu - core.Z * sigma, 2),
        "mu": round(mu, 2),
        "sigma": round(sigma, 2),
        "games": games,
        "tables": tables,
        "change": round(last.delta, 2) if last else None,
        "change_label": signed(last.delta) if last else "",
        "cause": cause_label(source) if source else "",
        "change_text": change_label(last.delta, source) if last and source else "",
        # The evening the latest change came from, when it was a club evening.
        "club_evening": source is not None and source.table_id is None,
        "changed_at": last.at if last else None,
    }


def rating_leaderboard(
    *, game: str, min_games: int | None = None, season: int | None = None
) -> list[dict[str, Any]]:
    """Persons by displayed rating (μ − 3σ), with at least ``min_games`` games (a person
    in several clubs' registers: one line, their games in all of them).

    With ``season`` (a year): each player's rating at the end of that year (their last
    change in it) and the games they played in it; the minimum applies to those games.
    """
    check_game(game)
    minimum = default_min_games(game) if min_games is None else min_games
    rows = []
    if season is None:
        states = list(
            RatingState.objects.filter(game=game, games__gte=minimum).select_related(
                f"last_event__{CAUSE}", f"last_event__{SESSION}"
            )
        )
        registers = person_rows(s.person_id for s in states)
        for s in states:
            rows.append(
                _row(registers[s.person_id], s.mu, s.sigma, s.games, s.tables, s.last_event)
            )
    else:
        events = (
            RatingEvent.objects.filter(game=game, at__year=season)
            .select_related(CAUSE, SESSION)
            .order_by("person_id", "at", "source__session_id")
        )
        last: dict[int, RatingEvent] = {}
        games: Counter[int] = Counter()
        tables: Counter[int] = Counter()
        for e in events:
            last[e.person_id] = e
            games[e.person_id] += e.games
            tables[e.person_id] += 1
        registers = person_rows(p for p in last if games[p] >= minimum)
        for p, e in last.items():
            if games[p] >= minimum:
                rows.append(_row(registers[p], e.mu_after, e.sigma_after, games[p], tables[p], e))
    rows.sort(key=lambda r: (-r["rating"], r["name"], r["player_id"]))
    for i, r in enumerate(rows, 1):
        r["rank"] = i
    return rows


def rated_evenings(
    *, game: str, season: int | None = None, limit: int = 20
) -> list[dict[str, Any]]:
    """The club evenings (sessions outside a tournament) rated in ``game``, newest first."""
    sources = RatingSource.objects.filter(game=game, table__isnull=True)
    if season is not None:
        sources = sources.filter(at__year=season)
    return [
        {"session_id": s.session_id, "label": club_evening_label(s.session), "at": s.at}
        for s in sources.select_related("session").order_by("-at", "-session_id")[:limit]
    ]


def leaderboard_csv_rows(rows: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    head = ["rank", "number", "name", "club", "rating", "mu", "sigma", "games", "change", "cause"]
    return [[heading(k) for k in head], *[[r[k] for k in head] for r in rows]]
