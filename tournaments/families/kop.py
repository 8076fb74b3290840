"""The Kop family (Kop and Baśka): its tournament standings, their table, and what the
club ratings read of its deals.

Standings: small points = a player's net payments at the table in the round; big points
per table from the tournament's profile (Kościan 5/3/1/0, Wolsztyn 4/3/2/1, ties share);
tie-breaks from the profile; a sit-out scores the bye (see
``tournaments.seating.bye_big_points``). Pairs and teams are ranked from their members'
results when the director groups players. The document (``KopStandings``) keeps every
round of every player (``KopRow.by_round``).

Ratings (``KopRatings``): deal by deal, declarers against the others, or table by table
(``RATINGS_MODEL``), from the ``KopDeal`` rows; a player's page counts deals, small points
and declarer wins.
"""

from __future__ import annotations

import functools
import json
import operator
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, Literal, NotRequired, TypedDict

from django.conf import settings
from django.db import connection
from django.db.models import Case, Func, Q, StringAgg, Sum, TextField, Value, When
from django.db.models.functions import Cast
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.engines.rules import KOSCIAN_BIG_POINTS, TIE_BREAKS
from scoring.games.kop.models import KopDeal
from tournaments import adapters
from tournaments.families.base import (
    Competition,
    Meetings,
    SessionLine,
    class_docs,
    table_results,
)
from tournaments.models import RoundTable, Tournament
from tournaments.ranking import competition
from tournaments.ranking import ratings as core
from tournaments.seating import bye_big_points
from tournaments.shapes import ClassStandingsDoc, GroupRow, JsonPoints
from tournaments.sql import seat_persons
from tournaments.tables import PlayerStandingsTable, num_column

# A Kop table's seats.
SEATS: Final = (1, 2, 3, 4)

# ------------------------------------------------------------------------- standings


class KopRoundCell(TypedDict):
    """One round of one player (``KopRow.by_round``): at a table decided by play
    (``situation`` "table", with a place), a walkout ("stayer" or "leaver"), a short
    table ("short") or a bye ("bye": no table); rounds he was absent are left out."""

    round: int
    situation: str
    table: int | None
    small_points: JsonPoints
    big_points: JsonPoints
    place: int | None


class KopRow(TypedDict):
    """A player in the Kop/Baśka individual standings."""

    rank: str  # "3", or "=3" when shared
    place: int
    number: int  # start number
    name: str
    big_points: JsonPoints
    small_points: JsonPoints
    firsts: int
    seconds: int
    thirds: int
    fourths: int
    rounds: int  # rounds played (sit-outs not counted)
    byes: int
    walkouts: int
    adjustment_big: JsonPoints
    adjustment_small: JsonPoints
    by_round: list[KopRoundCell]


class AdjustmentDoc(TypedDict):
    """A director's adjustment, as the standings list it publicly."""

    number: int
    name: str
    round: int | None
    big: JsonPoints
    small: JsonPoints
    reason: str


class KopStandings(TypedDict):
    game: str  # "kop" or "baska"
    big_points: list[int]
    tie_breaks: list[str]
    competition: dict[str, Any]  # the competition options in force, written out in full
    individual: list[KopRow]
    pairs: NotRequired[list[GroupRow]]  # only when the director grouped players
    teams: NotRequired[list[GroupRow]]
    teams_left_out: NotRequired[list[dict[str, Any]]]  # teams whose line-up breaks the sizes
    classes: NotRequired[list[ClassStandingsDoc]]
    adjustments: NotRequired[list[AdjustmentDoc]]


# Players grouped by registration kind, and the key their ranking goes under.
GROUP_KEYS: tuple[tuple[str, Literal["pairs", "teams"]], ...] = (
    ("pair", "pairs"),
    ("team", "teams"),
)


def competition_options(tournament: Tournament) -> competition.KopOptions:
    """The tournament's competition options: big points and tie-breaks from its rule
    profile, the rest (byes, walkouts, classes, teams) from ``Tournament.competition``
    (checked when stored: ``tournaments.services.competition``)."""
    profile = tournament.profile_version.tournament or {}
    return competition.kop_options(
        {
            **(tournament.competition or {}),
            "big_points": list(profile.get("big_points") or KOSCIAN_BIG_POINTS),
            "tie_breaks": list(profile.get("tie_breaks") or TIE_BREAKS),
        }
    )


def event_table(
    table: RoundTable, sheet: Mapping[str, Any] | None, seats: list[int], names: list[str]
) -> dict[str, Any]:
    """A Kop or Baśka table as an event file writes it (``shared/formats/event-json.md``):
    its seats (three when short), its deals (the scoresheet's deal objects) or its result
    on paper, and a walkout (``names``: the seats' names, unused here)."""
    out: dict[str, Any] = {"number": table.number}
    if table.missing_seat is not None:
        out["seats"] = [n for s, n in enumerate(seats, 1) if s != table.missing_seat]
        out["short"] = True
        return out
    out["seats"] = seats
    deals = [
        {k: v for k, v in deal.items() if not (k == "warnings" and not v)}
        for deal in (sheet or {}).get("deals", [])
    ]
    walkout = table.walkout_seat is not None
    after = table.walkout_after if table.walkout_after is not None else len(deals)
    paper = table.paper or {}
    if "small_points" in paper:
        out["small_points"] = list(paper["small_points"])
    elif deals and (not walkout or len(deals) == after):
        out["deals"] = deals
    elif walkout and after == 0 and not deals:
        out["deals"] = []
    else:  # no deal, no sheet, or a walkout's count the deals do not show: on paper
        tally = table.session.tally or {}
        out["small_points"] = list(tally.get("totals") or (0, 0, 0, 0))
    if table.walkout_seat is not None:
        out["walkout"] = {"player": seats[table.walkout_seat - 1], "after_deal": after}
    return out


# What a Kop or Baśka event holds beyond its tables (``Family.competition``).
COMPETITION = Competition(
    options=competition_options,
    read=competition.kop_options,
    kept=(
        "bye_score",
        "walkout_score",
        "classes",
        "team_size_min",
        "team_size_max",
        "team_counting",
    ),
    amounts=("big", "small"),
    walkouts=True,
    options_json=competition.kop_options_json,
    profile_keys=("big_points", "tie_breaks"),
    event_table=event_table,
)


class _Plain(dict[Any, Any]):
    """Points (whole numbers and fractions) -> their JSON-ready form, each made once."""

    def __missing__(self, value: Any) -> Any:
        plain = self[value] = adapters.json_ready(value)
        return plain


def standings(tournament: Tournament) -> KopStandings:
    """The tournament's standings document from its accepted tables, its byes, walkouts,
    short tables and adjustments, by the competition rules (``competitions.md``) and the
    tournament's options. Rounds count once one of their tables has a result (live
    standings hand out no bye for a round still being played)."""
    options = competition_options(tournament)
    by_round: dict[int, list[competition.Table]] = defaultdict(list)
    for table in table_results(tournament):
        seats = sorted(table.seats.items(), key=lambda item: item[1].seat)
        players = tuple(n for n, r in seats if r.seat != table.missing_seat)
        if table.missing_seat is not None:  # a short table: the three, no result
            by_round[table.round].append(competition.Table(players, number=table.number))
            continue
        leaver = next((n for n, r in seats if r.seat == table.walkout_seat), None)
        by_round[table.round].append(
            competition.Table(
                players,
                small_points=tuple(r.points for _n, r in seats),
                walkout=leaver,
                number=table.number,
            )
        )
    numbers = sorted(by_round)  # the rounds with a result, in order
    byes = dict(tournament.rounds.order_by().values_list("number", "byes"))
    field = adapters.field_of(tournament)
    names = field.names
    rounds = tuple(
        competition.KopRound(tuple(by_round[n]), tuple(b for b in byes.get(n) or () if b in names))
        for n in numbers
    )
    participants = {p for rnd in rounds for t in rnd.tables for p in t.players}
    participants |= {p for rnd in rounds for p in rnd.byes}
    known = {c.code for c in options.classes}
    entrants = tuple(
        competition.Player(n, names[n], tuple(c for c in field.classes.get(n, ()) if c in known))
        for n in sorted(names)
    )
    adjustments = [a for a in field.adjustments if a.player in participants]
    position = {n: i for i, n in enumerate(numbers, 1)}
    teams, left_out = _teams(field.groups["team"], options)
    result = (
        competition.score_kop_event(
            competition.KopEvent(
                players=tuple(p for p in entrants if p.id in participants),
                rounds=rounds,
                options=options,
                # An adjustment names its round only to say what it is about: here rounds
                # are counted from those with a result.
                adjustments=tuple(
                    replace(a, round=position.get(a.round) if a.round else None)
                    for a in adjustments
                ),
                teams=tuple(t for t in teams if any(m in participants for m in t.members)),
            )
        )
        if rounds
        else None
    )
    # A few distinct point values occur thousands of times: each is made JSON-ready once.
    plain = _Plain()
    rows = result.individual if result else ()
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
            "walkouts": row.walkouts,
            "adjustment_big": plain[row.adjustment_big],
            "adjustment_small": plain[row.adjustment_small],
            "by_round": [
                {
                    "round": numbers[e.round - 1],
                    "situation": e.situation,
                    "table": e.table,
                    "small_points": plain[e.small_points],
                    "big_points": plain[e.big_points],
                    "place": e.place,
                }
                for e in row.rounds
                if e.situation != "absent"
            ],
        }
        for row in rows
    ]
    out: KopStandings = {
        "game": tournament.game,
        "big_points": list(options.big_points),
        "tie_breaks": list(options.tie_breaks),
        "competition": competition.kop_options_json(options),
        "individual": individual,
    }
    by_number = {row.player: row for row in rows}
    pairs = [
        competition.Team(name, name, tuple(members))
        for name, members in field.groups["pair"].items()
        if any(m in by_number for m in members)
    ]
    if pairs:
        ranked = competition.team_standings(rows, pairs, "all", options.tie_breaks)
        out["pairs"] = [_group_row(g, names, field.groups["pair"][g.team]) for g in ranked]
    if result is not None and result.teams:
        out["teams"] = [
            {**_group_row(g, names, field.groups["team"][g.team]), "counted": list(g.counted)}
            for g in result.teams
        ]
    if left_out:
        out["teams_left_out"] = left_out
    if result is not None and result.classes:
        out["classes"] = class_docs(
            result.classes,
            names,
            {r.player: (plain[r.big_points], plain[r.small_points]) for r in rows},
        )
    if field.adjustments:
        out["adjustments"] = [
            {
                "number": a.player,
                "name": names[a.player],
                "round": a.round,
                "big": plain[a.big],
                "small": plain[a.small],
                "reason": a.reason,
            }
            for a in field.adjustments
        ]
    return out


def _teams(
    groups: Mapping[str, Sequence[int]], options: competition.KopOptions
) -> tuple[list[competition.Team], list[dict[str, Any]]]:
    """The registered teams whose line-up the options allow, and the others (named on
    the standings page, ranked nowhere, until the director mends the line-up)."""
    teams, left_out = [], []
    for name, members in groups.items():
        if options.team_size_min <= len(members) <= options.team_size_max:
            teams.append(competition.Team(name, name, tuple(members)))
        else:
            left_out.append({"group": name, "size": len(members)})
    return teams, left_out


def _group_row(
    g: competition.TeamRow, names: Mapping[int, str], members: Sequence[int]
) -> GroupRow:
    return {
        "rank": g.rank_label,
        "group": g.name,
        "members": ", ".join(names[n] for n in members),
        "big_points": adapters.json_ready(g.big_points),
        "small_points": adapters.json_ready(g.small_points),
    }


def rules_in_force(tournament: Tournament) -> list[str]:
    """What the standings page says of the rules a player cannot see in the table, from
    the tournament's competition options: what a bye scores, what a walkout or a short
    table scores, and that an absence scores nothing, in the reader's language."""
    options = competition_options(tournament)
    average = number_format(adapters.json_ready(bye_big_points(options.big_points)))
    if isinstance(options.bye_score, competition.FixedScore):
        bye = _(
            "A player who sits out a round (a bye) gets %(big)s big and %(small)s small points."
        ) % {
            "big": options.bye_score.big,
            "small": options.bye_score.small,
        }
    else:
        bye = _(
            "A player who sits out a round (a bye) gets the average of a table: (%(sum)s) / 4 = %(bye)s big points, and 0 small points."  # noqa: E501
        ) % {"sum": " + ".join(str(p) for p in options.big_points), "bye": average}
    big, small = (
        (str(options.walkout_score.big), str(options.walkout_score.small))
        if isinstance(options.walkout_score, competition.FixedScore)
        else (average, "0")
    )
    walkout = _(
        "When a player walks out, the three who stay get %(big)s big and %(small)s small points whatever the deals played said, and he gets nothing for the round; the three at a short table get the same."  # noqa: E501
    ) % {"big": big, "small": small}
    absent = _("A player absent from a round (arrived later, or withdrawn) gets nothing for it.")
    return [bye, walkout, absent]


class KopStandingsTable(PlayerStandingsTable):
    """The Kop/Baśka individual standings: big and small points first."""

    big_points = num_column(gettext_lazy("Big points"))
    small_points = num_column(gettext_lazy("Small points"))
    firsts = num_column(gettext_lazy("1st"), wide_only=True)
    seconds = num_column(gettext_lazy("2nd"), wide_only=True)
    rounds = num_column(gettext_lazy("Rounds"), wide_only=True)

    class Meta(PlayerStandingsTable.Meta):  # django-tables2 reads only a class's own Meta
        pass


# --------------------------------------------------------------------------- ratings

# A Kop session's small points per seat, summed by the database (voided deals left out).
KOP_POINTS = {f"points_{seat}": Sum(f"payment_{seat}", filter=Q(voided=False)) for seat in SEATS}

# A Kop deal as the one aggregate reads it: the declarers' JSON text and two letters, won or
# lost, voided or not ("[1, 3]w-"), after "number:" where the database cannot order an
# aggregate ("12:[1, 3]w-": sorted here). Joined with SQL's ``||`` (PostgreSQL and SQLite
# alike), not ``Concat``: none of the parts is ever NULL, and Concat's COALESCE around each
# part cost a rebuild's aggregate a fifth of its time.
_KOP_CODE = (
    Cast("declarers", TextField()),
    Case(When(declarers_won=True, then=Value("w")), default=Value("l")),
    Case(When(voided=True, then=Value("v")), default=Value("-")),
)


def _kop_deal(numbered: bool) -> Func:
    parts = (Cast("number", TextField()), Value(":")) if numbered else ()
    return Func(
        *parts,
        *_KOP_CODE,
        template="(%(expressions)s)",
        arg_joiner=" || ",
        output_field=TextField(),
    )


def _deal_number(text: str) -> int:
    return int(text[: text.index(":")])


# A table's players at some seats: their players by seat to a tuple of theirs.
PlayersAt = Callable[[Mapping[int, int]], tuple[int, ...]]


def _players_at(seats: tuple[int, ...]) -> PlayersAt:
    if len(seats) == 1:
        (seat,) = seats
        return lambda by_seat: (by_seat[seat],)
    return operator.itemgetter(*seats)


@functools.cache
def _kop_code(code: str) -> tuple[PlayersAt, PlayersAt, bool, bool]:
    """A deal's code ("[1, 3]w-") parsed once: who declares and who defends, won, voided."""
    declaring = tuple(int(s) for s in json.loads(code[:-2]))
    defending = tuple(s for s in SEATS if s not in declaring)
    return _players_at(declaring), _players_at(defending), code[-2] == "w", code[-1] == "v"


def kop_tables(session_ids: Sequence[int]) -> dict[int, core.KopTable]:
    """Kop/Baśka sessions as the pure module's tables (persons by id, deals in order): two
    queries.

    A rebuild reads every deal, so this is its main read: one aggregate row per session
    gives its small points and its deals as one string (in order where the database
    orders an aggregate, else sorted here); a deal's code is parsed once per run, and a
    table's deals with the same code are one object."""
    seats = seat_persons(session_ids)
    ordered = connection.features.supports_aggregate_order_by_clause
    rows: dict[int, Any] = {
        row["session_id"]: row
        for row in KopDeal.objects.filter(session_id__in=session_ids)
        .order_by()  # not the model's ordering: it joins the sessions for nothing
        .values("session_id")
        .annotate(
            **KOP_POINTS,
            deals=StringAgg(
                _kop_deal(not ordered), Value("|"), order_by="number" if ordered else None
            ),
        )
    }
    tables: dict[int, core.KopTable] = {}
    for session_id, by_seat in seats.items():
        row = rows.get(session_id)
        if row is None:
            tables[session_id] = core.KopTable((), tuple((p, 0) for p in by_seat.values()))
            continue
        codes = row["deals"].split("|")
        if not ordered:  # "12:[1, 3]w-": in order of the numbers, which are then dropped
            codes.sort(key=_deal_number)
            codes = [text.partition(":")[2] for text in codes]
        made: dict[str, core.KopDeal] = {}  # one object per code
        for code in set(codes):
            declaring, defending, won, voided = _kop_code(code)
            made[code] = core.KopDeal(declaring(by_seat), defending(by_seat), won, voided)
        # Then each deal is a look-up (map: no Python step per deal, the bulk of a rebuild's
        # deals).
        deals = tuple(map(made.__getitem__, codes))
        tables[session_id] = core.KopTable(
            deals,
            tuple((p, row[f"points_{seat}"] or 0) for seat, p in by_seat.items()),
        )
    return tables


class KopRatings:
    """Kop and Baśka: deal by deal (declarers against the others) or table by table
    (``RATINGS_MODEL``); a player's page counts deals, small points and declarer wins."""

    min_games = 32  # a round of deals

    def configured_model(self) -> str:
        return core.parse_model(getattr(settings, "RATINGS_MODEL", core.DEFAULT_MODEL))

    def model(self, *, requested: str | None, stored: str | None) -> str:
        if requested is not None:
            return core.parse_model(requested)
        return stored if stored is not None else self.configured_model()

    def matches(self, model: str, session_ids: Sequence[int]) -> dict[int, list[core.Match]]:
        return {s: core.kop_matches(t, model) for s, t in kop_tables(session_ids).items()}

    def meetings(self, person_id: int, session_ids: Sequence[int]) -> Meetings:
        """Partners (same side of a deal) and opponents, with deals won together."""
        seats = seat_persons(session_ids)
        partners: Counter[int] = Counter()
        partner_wins: Counter[int] = Counter()
        opponents: Counter[int] = Counter()
        for session_id, declarers, won in KopDeal.objects.filter(
            session_id__in=session_ids, voided=False
        ).values_list("session_id", "declarers", "declarers_won"):
            by_seat = seats[session_id]
            side_d = {by_seat[int(s)] for s in declarers}
            side_o = set(by_seat.values()) - side_d
            mine, theirs = (side_d, side_o) if person_id in side_d else (side_o, side_d)
            we_won = bool(won) == (mine is side_d)
            for p in mine - {person_id}:
                partners[p] += 1
                partner_wins[p] += we_won
            for p in theirs:
                opponents[p] += 1
        return partners, partner_wins, opponents

    def session_lines(
        self, person_id: int, seat_of: Mapping[int, int], session_ids: Sequence[int]
    ) -> dict[int, SessionLine]:
        small: Counter[int] = Counter()
        deals: Counter[int] = Counter()
        declared: Counter[int] = Counter()
        declared_won: Counter[int] = Counter()
        for session_id, declarers, won, *payments in KopDeal.objects.filter(
            session_id__in=session_ids, voided=False
        ).values_list(
            "session_id",
            "declarers",
            "declarers_won",
            "payment_1",
            "payment_2",
            "payment_3",
            "payment_4",
        ):
            seat = seat_of[session_id]
            small[session_id] += payments[seat - 1]
            deals[session_id] += 1
            if seat in [int(s) for s in declarers]:
                declared[session_id] += 1
                declared_won[session_id] += bool(won)
        return {
            s: SessionLine(
                _("%(points)s small points in %(deals)s deals")
                % {"points": small[s], "deals": deals[s]},
                {
                    "deals": deals[s],
                    "small_points": small[s],
                    "declared": declared[s],
                    "declared_won": declared_won[s],
                },
            )
            for s in session_ids
        }

    def game_totals(self, summary: Mapping[str, Any]) -> dict[str, Any]:
        declared, won = summary["declared"], summary["declared_won"]
        rate = round(100 * won / declared) if declared else None
        average = round(summary["small_points"] / summary["sessions"], 1)
        return {
            "declared_rate": rate,
            "average": average,
            "cells": [
                summary["deals"],
                summary["small_points"],
                average,
                f"{won} / {declared} ({rate}%)" if rate is not None else "–",
            ],
        }
