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
from tournaments.families.base import Meetings, SessionLine, table_results
from tournaments.models import Tournament
from tournaments.ranking import group_standings, kop_standings
from tournaments.ranking import ratings as core
from tournaments.seating import bye_big_points
from tournaments.shapes import GroupRow, JsonPoints
from tournaments.sql import seat_players
from tournaments.tables import PlayerStandingsTable, num_column

# A Kop table's seats.
SEATS: Final = (1, 2, 3, 4)

# ------------------------------------------------------------------------- standings


class KopRoundCell(TypedDict):
    """One round of one player (``KopRow.by_round``); ``table`` and ``place`` are
    None for a sit-out."""

    round: int
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
    by_round: list[KopRoundCell]


class KopStandings(TypedDict):
    game: str  # "kop" or "baska"
    big_points: list[int]
    tie_breaks: list[str]
    individual: list[KopRow]
    pairs: NotRequired[list[GroupRow]]  # only when the director grouped players
    teams: NotRequired[list[GroupRow]]


# Players grouped by registration kind, and the key their ranking goes under.
GROUP_KEYS: tuple[tuple[str, Literal["pairs", "teams"]], ...] = (
    ("pair", "pairs"),
    ("team", "teams"),
)


def _tournament_settings(tournament: Tournament) -> tuple[list[int], list[str]]:
    options = tournament.profile_version.tournament or {}
    return (
        list(options.get("big_points") or KOSCIAN_BIG_POINTS),
        list(options.get("tie_breaks") or TIE_BREAKS),
    )


class _Plain(dict[Any, Any]):
    """Points (whole numbers and fractions) -> their JSON-ready form, each made once."""

    def __missing__(self, value: Any) -> Any:
        plain = self[value] = adapters.json_ready(value)
        return plain


def standings(tournament: Tournament) -> KopStandings:
    """The tournament's standings document from its accepted tables."""
    big_points, tie_breaks = _tournament_settings(tournament)
    rounds: dict[int, list[dict[int, int]]] = defaultdict(list)
    table_numbers: dict[int, list[int]] = defaultdict(list)
    for table in table_results(tournament):
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


def rules_in_force(tournament: Tournament) -> list[str]:
    """What the standings page says of the rules a player cannot see in the table: what
    a bye scores (``bye_big_points``: the average of a table under the tournament's big
    points) and what a walkout or an absence does, in the reader's language."""
    big_points, _tie_breaks = _tournament_settings(tournament)
    bye = number_format(adapters.json_ready(bye_big_points(big_points)))
    return [
        _(
            "A player who sits out a round (a bye) gets the average of a table: "
            "(%(sum)s) / 4 = %(bye)s big points, and 0 small points."
        )
        % {"sum": " + ".join(str(p) for p in big_points), "bye": bye},
        _(
            "When a player walks out, his table's result is the deals played until then, "
            "for all four. A player absent from a round (arrived later, or withdrawn) "
            "gets nothing for it."
        ),
    ]


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
    """Kop/Baśka sessions as the pure module's tables (players by id, deals in order): two
    queries.

    A rebuild reads every deal, so this is its main read: one aggregate row per session
    gives its small points and its deals as one string (in order where the database
    orders an aggregate, else sorted here); a deal's code is parsed once per run, and a
    table's deals with the same code are one object."""
    seats = seat_players(session_ids)
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

    def meetings(self, player_id: int, session_ids: Sequence[int]) -> Meetings:
        """Partners (same side of a deal) and opponents, with deals won together."""
        seats = seat_players(session_ids)
        partners: Counter[int] = Counter()
        partner_wins: Counter[int] = Counter()
        opponents: Counter[int] = Counter()
        for session_id, declarers, won in KopDeal.objects.filter(
            session_id__in=session_ids, voided=False
        ).values_list("session_id", "declarers", "declarers_won"):
            by_seat = seats[session_id]
            side_d = {by_seat[int(s)] for s in declarers}
            side_o = set(by_seat.values()) - side_d
            mine, theirs = (side_d, side_o) if player_id in side_d else (side_o, side_d)
            we_won = bool(won) == (mine is side_d)
            for p in mine - {player_id}:
                partners[p] += 1
                partner_wins[p] += we_won
            for p in theirs:
                opponents[p] += 1
        return partners, partner_wins, opponents

    def session_lines(
        self, player_id: int, seat_of: Mapping[int, int], session_ids: Sequence[int]
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
