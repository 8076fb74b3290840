"""What every ranking family builds on: the game registry's answers, the accepted tables'
results, and what a family tells the ratings.

This is the one module of ``tournaments`` that asks ``scoring.games``: a game's family
(``family_name``), the part of a game that tournaments read (``results_of``: planned
deals, progress, seat results) and the list of games (``games``). Everything else in
``tournaments`` asks ``tournaments.families`` (which passes these on), so a change of the
registry's interface is answered here.

Vocabulary (see ``tournaments.families`` for family): a **source** is one accepted table
session the ratings rate; a player's **meetings** are their partners (the same side of a
deal or rubber, with the ones won together) and opponents.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from scoring.games import game_choices, game_for
from scoring.games.interface import Results, SeatResult
from tournaments.models import Registration, RoundTable, Tournament
from tournaments.ranking import competition
from tournaments.ranking import ratings as core
from tournaments.shapes import ClassStandingsDoc, JsonPoints

# ----------------------------------------------------------------- the game registry


def family_name(game: str) -> str:
    """The family ``game`` is ranked and rated in (``KeyError`` for an unknown game)."""
    return game_for(game).results.family


def results_of(game: str) -> Results:
    """The part of ``game`` that tournaments read: ``planned_deals``, ``progress`` and
    ``seat_results`` (``KeyError`` for an unknown game)."""
    return game_for(game).results


def games() -> list[tuple[str, str]]:
    """Every game of the registry as (code, label), in its order."""
    return game_choices()


# ----------------------------------------------------------------- the accepted tables


@dataclass(frozen=True)
class TableResult:
    """An accepted table of a round: its number and each start number's seat result."""

    round: int
    number: int
    seats: dict[int, SeatResult]  # start number -> result
    walkout_seat: int | None = None  # the seat that left (competitions.md §2.3)
    missing_seat: int | None = None  # the seat nobody took: a short table (§2.4)


def paper_result(result: SeatResult, paper: Mapping[str, Any] | None) -> SeatResult:
    """A seat's result, from the table's paper result when it has one
    (``RoundTable.paper``: a Kop table's small points, a Vint table's totals and rubbers
    won, by seat) instead of its deals."""
    if not paper:
        return result
    i = result.seat - 1
    if "small_points" in paper:
        points = int(paper["small_points"][i])
        return result._replace(points=points, net=points)
    total = int(paper["totals"][i])
    won = paper.get("rubbers_won") or (0, 0, 0, 0)
    return result._replace(points=total, net=total, wins=int(won[i]))


def table_results(tournament: Tournament) -> list[TableResult]:
    """The tournament's accepted tables in round and table order, results keyed by start
    number (players are told apart by id, never by name): what every family ranks.

    Reads only what the totals need: per table its round and table number (never a
    round's other columns: ``Round.inputs`` grows with the field) and the game's seat
    results, which sum the deal rows in SQL where the game can."""
    accepted = RoundTable.objects.filter(round__tournament=tournament, accepted_at__isnull=False)
    tables = list(
        accepted.order_by("round__number", "number").values_list(
            "round__number", "number", "session_id", "walkout_seat", "missing_seat", "paper"
        )
    )
    # The same filter as a subquery, not a list of every table's session id.
    results = results_of(tournament.game).seat_results(accepted.order_by().values("session_id"))
    numbers = dict(
        Registration.objects.filter(tournament=tournament).values_list("player_id", "number")
    )
    return [
        TableResult(
            round=r,
            number=n,
            seats={
                numbers[res.player_id]: paper_result(res, paper) for res in results.get(sid, [])
            },
            walkout_seat=walkout,
            missing_seat=missing,
        )
        for r, n, sid, walkout, missing, paper in tables
    ]


def class_docs(
    classes: Sequence[competition.ClassStandings],
    names: Mapping[int, str],
    points: Mapping[int, tuple[JsonPoints, JsonPoints]],
) -> list[ClassStandingsDoc]:
    """Each class's standings as the standings document keeps them: class rank, overall
    rank, start number, name and the two points a class table shows (``points``: Kop's
    big and small points, Vint's net and total points)."""
    return [
        {
            "code": c.code,
            "label": c.label,
            "rows": [
                {
                    "rank": r.rank_label,
                    "overall": r.overall_rank_label,
                    "number": r.player,
                    "name": names[r.player],
                    "big_points": points[r.player][0],
                    "small_points": points[r.player][1],
                }
                for r in c.rows
            ],
        }
        for c in classes
    ]


@dataclass(frozen=True)
class Competition:
    """What a family's events hold beyond their tables (competitions.md §9: Vint has no
    byes, walkouts, short tables or teams, and its adjustments are a net): the options in
    force for a tournament, how options are read and checked (``RankingError``), which of
    them ``Tournament.competition`` keeps (big points and tie-breaks are the profile's),
    which amounts an adjustment gives, whether walkouts, short tables and teams apply,
    how the options are written out in full (``options_json``), which of them the rule
    profile holds (``profile_keys``), and how an event file writes one of its tables
    (``event_table``: the table, its scoresheet's JSON or None, its start numbers and the
    seats' names on the sheet)."""

    options: Callable[[Tournament], Any]
    read: Callable[[Mapping[str, object]], Any]
    kept: tuple[str, ...]
    amounts: tuple[str, ...]
    walkouts: bool
    options_json: Callable[[Any], dict[str, Any]]
    profile_keys: tuple[str, ...]
    event_table: Callable[
        [RoundTable, Mapping[str, Any] | None, list[int], list[str]], dict[str, Any]
    ]


# -------------------------------------------------------------------------- ratings

# A player's partners (same side of a deal or rubber), the deals or rubbers won with each,
# and opponents, by person id.
Meetings = tuple[Counter[int], Counter[int], Counter[int]]


@dataclass(frozen=True)
class SessionLine:
    """A player's result at one table session, as their page shows it."""

    text: str  # the sessions table's "Result" column
    counts: dict[str, int]  # what "Results per game" adds up


class RatingFamily(Protocol):
    """What ratings and player pages do differently for a family of games: the rows of
    its deal models read as the pure module's matches, and a player's page's counts."""

    min_games: int  # the leaderboards' default minimum (``RATINGS_MIN_GAMES`` overrides)

    def configured_model(self) -> str:
        """The model a rebuild uses when none is asked for."""
        ...

    def model(self, *, requested: str | None, stored: str | None) -> str:
        """The model an update rates with: the one ``requested``, else the one the ratings
        were computed with (``stored``, None before the first run), else the configured
        one; ``core.RatingOptionError`` for an unknown name."""
        ...

    def matches(self, model: str, session_ids: Sequence[int]) -> dict[int, list[core.Match]]:
        """Each session's matches (persons by id: ratings follow the person, whichever
        register row sat there) under ``model``: the rows -> pure data step."""
        ...

    def meetings(self, person_id: int, session_ids: Sequence[int]) -> Meetings: ...

    def session_lines(
        self, person_id: int, seat_of: Mapping[int, int], session_ids: Sequence[int]
    ) -> dict[int, SessionLine]:
        """Each of ``session_ids`` (where the person sat at ``seat_of[session_id]``)."""
        ...

    def game_totals(self, summary: Mapping[str, Any]) -> dict[str, Any]:
        """A game's row of "Results per game" from its ``sessions`` (at least one) and its
        sessions' ``counts`` summed: ``cells``, the row's four numbers after the sessions,
        and whatever else the family names."""
        ...
