"""The Vint family: its tournament standings, their table, and what the club ratings read
of its rubbers.

Standings: the sum of each player's session nets, then rubbers won, then total points
(``VintStandings``: no round-by-round entries, a Vint session is the unit).

Ratings (``VintRatings``): rubber by rubber, partnership against partnership (its one
model), from the ``VintRubber`` rows (who sat where) and the ``VintDeal`` rows (the points
each side wrote); a player's page counts rubbers played and won.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal, NotRequired, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.games.vint.models import VintDeal, VintRubber
from tournaments import adapters
from tournaments.families.base import (
    Competition,
    Meetings,
    SessionLine,
    class_docs,
    results_of,
    table_results,
)
from tournaments.models import RoundTable, Tournament
from tournaments.ranking import competition
from tournaments.ranking import ratings as core
from tournaments.shapes import ClassStandingsDoc, JsonPoints
from tournaments.sql import seat_persons
from tournaments.tables import PlayerStandingsTable, num_column

# ------------------------------------------------------------------------- standings

# Nets, then rubbers won, then total points: the rules' default for Vint events.
VINT_TOURNAMENT_TIE_BREAKS = competition.VINT_EVENT_TIE_BREAKS


class VintRow(TypedDict):
    """A player in the Vint individual standings."""

    rank: str
    place: int
    number: int
    name: str
    net: JsonPoints
    rubbers_won: int
    total_points: JsonPoints
    rounds: int  # sessions played
    adjustment_net: JsonPoints


class VintStandings(TypedDict):
    game: Literal["vint"]
    competition: dict[str, Any]  # the options in force, written out in full
    individual: list[VintRow]
    classes: NotRequired[list[ClassStandingsDoc]]
    adjustments: NotRequired[list[dict[str, Any]]]


def competition_options(tournament: Tournament) -> competition.VintOptions:
    """A Vint tournament's options: its classes (``Tournament.competition``) and the
    tie-breaks of the app's Vint tournaments (nets, then rubbers won, then total points:
    vint.md §4.11 would put head-to-head second; the rules offer it as an option)."""
    return competition.vint_options(
        {**(tournament.competition or {}), "tie_breaks": list(VINT_TOURNAMENT_TIE_BREAKS)}
    )


def event_table(
    table: RoundTable, sheet: Mapping[str, Any] | None, seats: list[int], names: list[str]
) -> dict[str, Any]:
    """A Vint table as an event file writes it: its seats, its rubbers (the sheet's, the
    players named by start number: ``names`` are the seats' names on the sheet) or its
    totals and rubbers won on paper."""
    out: dict[str, Any] = {"number": table.number, "seats": seats}
    paper = table.paper or {}
    rubbers = [r for r in (sheet or {}).get("rubbers", []) if r.get("deals")]
    if "totals" in paper:
        out["totals"] = list(paper["totals"])
        if "rubbers_won" in paper:
            out["rubbers_won"] = list(paper["rubbers_won"])
        return out
    if not rubbers:  # the session's result, on paper
        results = (
            results_of(table.session.game)
            .seat_results([table.session_id])
            .get(table.session_id, [])
        )
        ordered = sorted(results, key=lambda r: r.seat)
        out["totals"] = [r.points for r in ordered] or [0, 0, 0, 0]
        out["rubbers_won"] = [r.wins for r in ordered] or [0, 0, 0, 0]
        return out
    # The sheet names the players; at one table the four names are four people.
    number_of = dict(zip(names, seats, strict=True))
    out["rubbers"] = [
        {**r, "seats": {compass: number_of[name] for compass, name in r["seats"].items()}}
        for r in rubbers
    ]
    return out


# What a Vint event holds beyond its tables: classes, and adjustments of the net
# (``Family.competition``).
COMPETITION = Competition(
    options=competition_options,
    read=competition.vint_options,
    kept=("classes",),
    amounts=("net",),
    walkouts=False,
    options_json=competition.vint_options_json,
    profile_keys=(),
    event_table=event_table,
)


def standings(tournament: Tournament) -> VintStandings:
    """The tournament's standings document from its accepted tables and adjustments (a
    net each), by the competition rules (``competitions.md`` §9)."""
    options = competition_options(tournament)
    field = adapters.field_of(tournament)
    names = field.names
    # A rubber still unfinished when the table is accepted was cut short by the time
    # limit: the sheet already closes it under the profile's rule (vint.md A27).
    by_round: dict[int, list[competition.VintTable]] = defaultdict(list)
    for table in table_results(tournament):
        seats = sorted(table.seats.items(), key=lambda item: item[1].seat)
        players = tuple(n for n, _r in seats)
        if len(players) != 4:
            continue  # a session without its four seats has no result to rank
        by_round[table.round].append(
            competition.VintTable(
                players,
                tuple(r.points for _n, r in seats),  # type: ignore[arg-type]
                tuple(r.wins for _n, r in seats),  # type: ignore[arg-type]
                number=table.number,
            )
        )
    numbers = sorted(by_round)
    rounds = tuple(competition.VintRound(tuple(by_round[n])) for n in numbers)
    participants = {p for rnd in rounds for t in rnd.tables for p in t.players}
    known = {c.code for c in options.classes}
    position = {n: i for i, n in enumerate(numbers, 1)}
    result = (
        competition.score_vint_event(
            competition.VintEvent(
                players=tuple(
                    competition.Player(
                        n, names[n], tuple(c for c in field.classes.get(n, ()) if c in known)
                    )
                    for n in sorted(participants)
                ),
                rounds=rounds,
                options=options,
                adjustments=tuple(
                    replace(a, round=position.get(a.round) if a.round else None)
                    for a in field.adjustments
                    if a.player in participants
                ),
            )
        )
        if rounds
        else None
    )
    rows = result.individual if result else ()
    out: VintStandings = {
        "game": "vint",
        "competition": competition.vint_options_json(options),
        "individual": [
            {
                "rank": row.rank_label,
                "place": row.rank,
                "number": row.player,
                "name": names[row.player],
                "net": adapters.json_ready(row.net),
                "rubbers_won": row.rubbers_won,
                "total_points": adapters.json_ready(row.total_points),
                "rounds": row.rounds_played,
                "adjustment_net": adapters.json_ready(row.adjustment_net),
            }
            for row in rows
        ],
    }
    if result is not None and result.classes:
        out["classes"] = class_docs(
            result.classes,
            names,
            {
                r.player: (adapters.json_ready(r.net), adapters.json_ready(r.total_points))
                for r in rows
            },
        )
    if field.adjustments:
        out["adjustments"] = [
            {
                "number": a.player,
                "name": names[a.player],
                "round": a.round,
                "net": adapters.json_ready(a.net),
                "reason": a.reason,
            }
            for a in field.adjustments
        ]
    return out


def rules_in_force(tournament: Tournament) -> list[str]:
    """What the standings page says of byes, walkouts and absences under Vint."""
    return [
        _(
            "A player who sits out a round (a bye) or is absent from it gets nothing for it. When a player walks out, his table counts what its sheet holds when accepted."  # noqa: E501
        )
    ]


class VintStandingsTable(PlayerStandingsTable):
    """The Vint individual standings: the net first."""

    net = num_column(gettext_lazy("Net"))
    rubbers_won = num_column(gettext_lazy("Rubbers won"), wide_only=True)
    total_points = num_column(gettext_lazy("Points"))
    rounds = num_column(gettext_lazy("Rounds"), wide_only=True)

    class Meta(PlayerStandingsTable.Meta):  # django-tables2 reads only a class's own Meta
        pass


# --------------------------------------------------------------------------- ratings

VINT_MODEL = "rubber"


def vint_rubbers(session_ids: Sequence[int]) -> dict[int, list[core.VintRubber]]:
    """Vint sessions as rubbers: partnerships (by person id) and the points each side wrote
    in the rubber (above and below the line, voided deals left out)."""
    seats = seat_persons(session_ids)
    totals: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    for session_id, rubber, entries in VintDeal.objects.filter(
        session_id__in=session_ids, voided=False
    ).values_list("session_id", "rubber", "entries"):
        total = totals[(session_id, rubber)]
        for i, side in enumerate(("NS", "EW")):
            for where in ("above", "below"):
                total[i] += int((entries or {}).get(where, {}).get(side, 0) or 0)
    out: dict[int, list[core.VintRubber]] = defaultdict(list)
    for row in VintRubber.objects.filter(session_id__in=session_ids).order_by(
        "session_id", "number"
    ):
        by_seat = seats[row.session_id]
        ns, ew = totals.get((row.session_id, row.number), [0, 0])
        if (row.session_id, row.number) not in totals:
            continue  # a rubber with no deal counted: nothing to rate
        out[row.session_id].append(
            core.VintRubber(
                (by_seat[row.north], by_seat[row.south]),
                (by_seat[row.east], by_seat[row.west]),
                ns,
                ew,
            )
        )
    return out


def _won(person_id: int, rubber: core.VintRubber) -> bool:
    return (person_id in rubber.ns and rubber.ns_points > rubber.ew_points) or (
        person_id in rubber.ew and rubber.ew_points > rubber.ns_points
    )


class VintRatings:
    """Vint: rubber by rubber, partnership against partnership (its one model); a player's
    page counts rubbers played and won."""

    min_games = 3  # a session's rubbers

    def configured_model(self) -> str:
        return VINT_MODEL

    def model(self, *, requested: str | None, stored: str | None) -> str:
        return VINT_MODEL  # the Kop/Baśka models do not apply

    def matches(self, model: str, session_ids: Sequence[int]) -> dict[int, list[core.Match]]:
        return {s: core.vint_matches(r) for s, r in vint_rubbers(session_ids).items()}

    def meetings(self, person_id: int, session_ids: Sequence[int]) -> Meetings:
        """Partners (same partnership in a rubber) and opponents, with rubbers won together."""
        partners: Counter[int] = Counter()
        partner_wins: Counter[int] = Counter()
        opponents: Counter[int] = Counter()
        for rubbers in vint_rubbers(session_ids).values():
            for r in rubbers:
                mine, theirs = (r.ns, r.ew) if person_id in r.ns else (r.ew, r.ns)
                if person_id not in mine:
                    continue
                won = _won(person_id, r)
                for p in mine:
                    if p != person_id:
                        partners[p] += 1
                        partner_wins[p] += won
                for p in theirs:
                    opponents[p] += 1
        return partners, partner_wins, opponents

    def session_lines(
        self, person_id: int, seat_of: Mapping[int, int], session_ids: Sequence[int]
    ) -> dict[int, SessionLine]:
        rubbers = vint_rubbers(session_ids)
        out = {}
        for s in session_ids:
            played = rubbers.get(s, [])
            won = sum(1 for r in played if _won(person_id, r))
            out[s] = SessionLine(
                _("%(won)s of %(played)s rubbers won") % {"won": won, "played": len(played)},
                {"rubbers": len(played), "rubbers_won": won},
            )
        return out

    def game_totals(self, summary: Mapping[str, Any]) -> dict[str, Any]:
        return {"cells": [summary["rubbers"], "–", "–", summary["rubbers_won"]]}
