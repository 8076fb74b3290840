"""Tournament standings: rows from the database through the pure ranking package.

``standings_compute`` is what the Celery task stores as a snapshot. It reads
only accepted tables, so a table still playing never moves the standings.
Kop and Baśka: small points = a player's net payments at the table in the
round; big points per table from the profile (Kościan 5/3/1/0, Wolsztyn
4/3/2/1, ties share); tie-breaks from the profile; a sit-out scores the bye
(see ``tournaments.seating.bye_big_points``). Vint: the sum of each player's
session nets, then rubbers won, then total points. Pairs and teams are
ranked from their members' results when the director groups players.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, Literal

from scoring.engines.rules import KOSCIAN_BIG_POINTS, TIE_BREAKS
from scoring.games import game_for
from tournaments import adapters
from tournaments.collector import without_cycle_collection
from tournaments.models import Tournament
from tournaments.ranking import group_standings, kop_standings, vint_standings
from tournaments.ranking.vint import VintSession
from tournaments.shapes import (
    KopRow,
    KopStandings,
    StandingsDocument,
    VintStandings,
)

VINT_TOURNAMENT_TIE_BREAKS = ("rubbers_won", "total_points")
# Players grouped by registration kind, and the key their ranking goes under.
GROUP_KEYS: tuple[tuple[str, Literal["pairs", "teams"]], ...] = (
    ("pair", "pairs"),
    ("team", "teams"),
)


def _tournament_settings(tournament: Tournament) -> tuple[list[int], list[str]]:
    settings = tournament.profile_version.tournament or {}
    return (
        list(settings.get("big_points") or KOSCIAN_BIG_POINTS),
        list(settings.get("tie_breaks") or TIE_BREAKS),
    )


class _Plain(dict[Any, Any]):
    """Points (whole numbers and fractions) -> their JSON-ready form, each made once."""

    def __missing__(self, value: Any) -> Any:
        plain = self[value] = adapters.json_ready(value)
        return plain


def _kop(tournament: Tournament) -> KopStandings:
    big_points, tie_breaks = _tournament_settings(tournament)
    rounds: dict[int, list[dict[int, int]]] = defaultdict(list)
    table_numbers: dict[int, list[int]] = defaultdict(list)
    for table in adapters.table_results(tournament):
        rounds[table.round].append({n: r.points for n, r in table.seats.items()})
        table_numbers[table.round].append(table.number)
    byes = {
        number: list(b)
        for number, b in tournament.rounds.order_by().values_list("number", "byes")
        if number in rounds
    }
    rows = kop_standings(rounds, big_points, tie_breaks, byes)
    field = adapters.field_of(tournament)
    names = field.names
    # A few distinct point values occur thousands of times: each is made JSON-ready once.
    plain = _Plain()
    individual: list[KopRow] = [
        {
            "rank": row.rank_label,
            "place": row.rank,
            "number": row.player,
            "name": names[row.player],
            "big_points": plain[row.big_points],
            "small_points": plain[row.small_points],
            "firsts": row.firsts,
            "seconds": row.seconds,
            "thirds": row.thirds,
            "fourths": row.fourths,
            "rounds": row.rounds_played,
            "byes": row.byes,
            "by_round": [
                {
                    "round": e.round,
                    "table": table_numbers[e.round][e.table - 1] if e.table else None,
                    "small_points": plain[e.small_points],
                    "big_points": plain[e.big_points],
                    "place": e.place,
                }
                for e in row.rounds_detail
            ],
        }
        for row in rows
    ]
    out: KopStandings = {
        "game": tournament.game,
        "big_points": big_points,
        "tie_breaks": tie_breaks,
        "individual": individual,
    }
    ranked = {row.player for row in rows}
    for kind, key in GROUP_KEYS:
        groups = {
            name: [n for n in members if n in ranked]
            for name, members in field.groups[kind].items()
        }
        groups = {name: members for name, members in groups.items() if members}
        if groups:
            out[key] = [
                {
                    "rank": g.rank_label,
                    "group": g.group,
                    "members": ", ".join(names[n] for n in g.members),
                    "big_points": adapters.json_ready(g.big_points),
                    "small_points": adapters.json_ready(g.small_points),
                }
                for g in group_standings(rows, groups)
            ]
    return out


def _vint(tournament: Tournament) -> VintStandings:
    names = adapters.field_of(tournament).names
    # A rubber still unfinished when the table is accepted was cut short by the time
    # limit: the sheet already closes it under the profile's rule (vint.md A27).
    sessions = [
        VintSession(
            totals={n: r.points for n, r in table.seats.items()},
            rubbers_won={n: r.wins for n, r in table.seats.items()},
        )
        for table in adapters.table_results(tournament)
    ]
    # Issue 5: nets, then rubbers won, then total points (vint.md §4.11 would put
    # head-to-head second; the ranking package offers it as an option).
    rows = vint_standings(sessions, VINT_TOURNAMENT_TIE_BREAKS) if sessions else []
    return {
        "game": "vint",
        "individual": [
            {
                "rank": row.rank_label,
                "place": row.rank,
                "number": row.player,
                "name": names[row.player],
                "net": adapters.json_ready(row.net),
                "rubbers_won": row.rubbers_won,
                "total_points": adapters.json_ready(row.total_points),
                "rounds": row.sessions,
            }
            for row in rows
        ],
    }


# How each family of games is ranked in a tournament (``scoring.games.Game.family``).
STANDINGS: dict[str, Callable[[Tournament], StandingsDocument]] = {"kop": _kop, "vint": _vint}


def standings_compute(*, tournament: Tournament) -> StandingsDocument:
    """The full standings as plain JSON-ready data (what a snapshot stores)."""
    with without_cycle_collection():
        return STANDINGS[game_for(tournament.game).results.family](tournament)
