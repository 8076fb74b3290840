"""Club ratings, player pages and series: services, selectors and the adapter between rows
and the pure ``tournaments.ranking.ratings``.

Vocabulary (see the pure module for rating, match and model): a **source** is one accepted
tournament table (``RatingSource``); sources are rated in the order (acceptance time, table
id). Its **fingerprint** (how many deals, when the newest changed) shows whether a table was
corrected after it was rated. ``ratings_update`` finds the first source that differs from
what was rated (new, corrected, or no longer accepted), puts every player back to their
rating before it (the ``before`` of their first event from there on) and rates from there:
so the incremental result is, float for float, the full rebuild's.

What differs between games lives in one table, ``RATINGS``, keyed by the game's family
(``scoring.games.Game.family``): a ``RatingFamily`` says which model rates its tables, how
a set of sessions becomes the pure module's matches, what else goes into a fingerprint,
and what a player's page counts (partners and opponents, each session's result, the
totals per game). Everything else here is the same for every game and never tests it.
Players are keyed by id throughout, never by name.

Settings: ``RATINGS_MODEL`` ("deal", the default, or "table") for Kop and Baśka;
``RATINGS_MIN_GAMES`` (a dict by game) for the leaderboards' default minimum. A change of
``RATINGS_MODEL`` takes effect with ``manage.py rebuild_ratings``.
"""

from __future__ import annotations

import functools
import json
import math
import operator
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, NamedTuple, Protocol

from django.conf import settings
from django.db import connection, transaction
from django.db.models import (
    Case,
    Count,
    Func,
    Max,
    Q,
    StringAgg,
    Sum,
    TextField,
    Value,
    When,
)
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Player
from scoring.engines.kop import SEATS as KOP_SEATS
from scoring.games import all_games, game_for
from scoring.games.kop.models import KopDeal
from scoring.games.vint.models import VintDeal, VintRubber
from scoring.models import TableSeat, TableSession
from scoring.rows import reader, rows_write
from tournaments.bulk import copy_rows
from tournaments.collector import without_cycle_collection
from tournaments.models import (
    RatingEvent,
    RatingRun,
    RatingSource,
    RatingState,
    Registration,
    Round,
    RoundTable,
    Series,
    SeriesTournament,
    StandingsSnapshot,
    Tournament,
)
from tournaments.ranking import ratings as core
from tournaments.selectors import standings_view

VINT_MODEL = "rubber"


class RatingError(Exception):
    """A request about ratings or series that cannot be done (said in plain words)."""


def rated_games() -> list[str]:
    """Every game of the registry, in its order (each is rated on its own)."""
    return [g.code for g in all_games()]


def _check_game(game: str) -> None:
    games = rated_games()
    if game not in games:
        raise RatingError(f"{game!r} is not a game ({', '.join(games)})")


def family_of(game: str) -> RatingFamily:
    """The ratings strategy of ``game``'s family (``RatingError`` for an unknown game)."""
    _check_game(game)
    return RATINGS[game_for(game).results.family]


def configured_model(game: str) -> str:
    return family_of(game).configured_model()


def default_min_games(game: str) -> int:
    configured = getattr(settings, "RATINGS_MIN_GAMES", {}) or {}
    if game in configured:
        return int(configured[game])
    return family_of(game).min_games


# ------------------------------------------------------------------------------ adapter


def _q(model: Any) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _q_column(model: Any, name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)


def _in(values: Sequence[Any]) -> str:
    return ", ".join(["%s"] * len(values))


def _fingerprints(game: str, session_ids: Iterable[int]) -> dict[int, str]:
    """Per session: its fingerprint (``RatingFamily.fingerprints``)."""
    ids = list(session_ids)
    return family_of(game).fingerprints(ids) if ids else {}


def deal_fingerprints(
    model: Any, session_ids: Sequence[int], **more: Any
) -> tuple[dict[int, str], dict[int, dict[str, Any]]]:
    """Per session, in one aggregate over its deals (``model``): how many and when the newest
    changed (a correction or void saves the deal, so it changes ``updated_at``), and the
    aggregates ``more`` names (each session's row, for a session with deals)."""
    fingerprints: dict[int, str] = {}
    rows: dict[int, dict[str, Any]] = {}
    for row in (
        model.objects.filter(session_id__in=session_ids)
        .order_by()  # not the model's ordering: it joins the sessions for nothing
        .values("session_id")
        .annotate(n=Count("pk"), last=Max("updated_at"), **more)
    ):
        last = row["last"]
        fingerprints[row["session_id"]] = f"{row['n']}:{last.isoformat() if last else '-'}"
        rows[row["session_id"]] = row
    return {s: fingerprints.get(s, "0:-") for s in session_ids}, rows


def _seats(session_ids: Sequence[int]) -> dict[int, dict[int, int]]:
    """Per session: its players by seat. Read raw: the ORM's rows cost a rebuild more than
    the read (a rebuild reads every session's four seats)."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    if not session_ids:
        return seats
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT session_id, seat, player_id FROM {_q(TableSeat)} "  # noqa: S608
            f"WHERE session_id IN ({_in(session_ids)}) ORDER BY session_id, seat",
            list(session_ids),
        )
        for session_id, seat, player_id in cursor.fetchall():
            seats[session_id][seat] = player_id
    return seats


# A Kop session's small points per seat, summed by the database (voided deals left out).
KOP_POINTS = {
    f"points_{seat}": Sum(f"payment_{seat}", filter=Q(voided=False)) for seat in range(1, 5)
}


def kop_tables(session_ids: Sequence[int]) -> dict[int, core.KopTable]:
    """Kop/Baśka sessions as the pure module's tables (players by id, deals in order)."""
    return kop_read(session_ids)[0]


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
    defending = tuple(s for s in KOP_SEATS if s not in declaring)
    return _players_at(declaring), _players_at(defending), code[-2] == "w", code[-1] == "v"


def kop_read(session_ids: Sequence[int]) -> tuple[dict[int, core.KopTable], dict[int, str]]:
    """Kop/Baśka sessions as the pure module's tables, and their fingerprints: two queries.

    A rebuild reads every deal, so this is its main read: one aggregate row per session
    gives its fingerprint, its small points and its deals as one string (in order where
    the database orders an aggregate, else sorted here); a deal's code is parsed once per
    run, and a table's deals with the same code are one object."""
    seats = _seats(session_ids)
    ordered = connection.features.supports_aggregate_order_by_clause
    fingerprints, rows = deal_fingerprints(
        KopDeal,
        session_ids,
        **KOP_POINTS,
        deals=StringAgg(_kop_deal(not ordered), Value("|"), order_by="number" if ordered else None),
    )
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
    return tables, fingerprints


def vint_rubbers(session_ids: Sequence[int]) -> dict[int, list[core.VintRubber]]:
    """Vint sessions as rubbers: partnerships (by player id) and the points each side wrote
    in the rubber (above and below the line, voided deals left out)."""
    seats = _seats(session_ids)
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


# ------------------------------------------------------------------------ rating families

# A player's partners (same side of a deal or rubber), the deals or rubbers won with each,
# and opponents, by player id.
Meetings = tuple[Counter[int], Counter[int], Counter[int]]


@dataclass(frozen=True)
class SessionLine:
    """A player's result at one table session, as their page shows it."""

    text: str  # the sessions table's "Result" column
    counts: dict[str, int]  # what "Results per game" adds up


class RatingFamily(Protocol):
    """What ratings and player pages do differently for a family of games."""

    min_games: int  # the leaderboards' default minimum (``RATINGS_MIN_GAMES`` overrides)

    def configured_model(self) -> str:
        """The model a rebuild uses when none is asked for."""
        ...

    def model(self, *, requested: str | None, stored: str | None) -> str:
        """The model an update rates with: the one ``requested``, else the one the ratings
        were computed with (``stored``, None before the first run), else the configured
        one; ``core.RatingOptionError`` for an unknown name."""
        ...

    def matches(
        self, model: str, session_ids: Sequence[int]
    ) -> tuple[dict[int, list[core.Match]], dict[int, str]]:
        """Each session's matches (players by id) under ``model``: the rows -> pure data
        step; and each session's fingerprint, read with them."""
        ...

    def fingerprints(self, session_ids: Sequence[int]) -> dict[int, str]:
        """Each session's fingerprint: what changes when its matches may have changed (its
        deals' count and newest change, and what else the family reads)."""
        ...

    def meetings(self, player_id: int, session_ids: Sequence[int]) -> Meetings: ...

    def session_lines(
        self, player_id: int, seat_of: Mapping[int, int], session_ids: Sequence[int]
    ) -> dict[int, SessionLine]:
        """Each of ``session_ids`` (where the player sat at ``seat_of[session_id]``)."""
        ...

    def game_totals(self, summary: Mapping[str, Any]) -> dict[str, Any]:
        """A game's row of "Results per game" from its ``sessions`` (at least one) and its
        sessions' ``counts`` summed: ``cells``, the row's four numbers after the sessions,
        and whatever else the family names."""
        ...


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

    def matches(
        self, model: str, session_ids: Sequence[int]
    ) -> tuple[dict[int, list[core.Match]], dict[int, str]]:
        tables, fingerprints = kop_read(session_ids)
        return {s: core.kop_matches(t, model) for s, t in tables.items()}, fingerprints

    def fingerprints(self, session_ids: Sequence[int]) -> dict[int, str]:
        return deal_fingerprints(KopDeal, session_ids)[0]  # the deals are the whole table

    def meetings(self, player_id: int, session_ids: Sequence[int]) -> Meetings:
        """Partners (same side of a deal) and opponents, with deals won together."""
        seats = _seats(session_ids)
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


def _won(player_id: int, rubber: core.VintRubber) -> bool:
    return (player_id in rubber.ns and rubber.ns_points > rubber.ew_points) or (
        player_id in rubber.ew and rubber.ew_points > rubber.ns_points
    )


class VintRatings:
    """Vint: rubber by rubber, partnership against partnership (its one model); a player's
    page counts rubbers played and won."""

    min_games = 3  # a session's rubbers

    def configured_model(self) -> str:
        return VINT_MODEL

    def model(self, *, requested: str | None, stored: str | None) -> str:
        return VINT_MODEL  # the Kop/Baśka models do not apply

    def matches(
        self, model: str, session_ids: Sequence[int]
    ) -> tuple[dict[int, list[core.Match]], dict[int, str]]:
        matches = {s: core.vint_matches(r) for s, r in vint_rubbers(session_ids).items()}
        return matches, self.fingerprints(session_ids)

    def fingerprints(self, session_ids: Sequence[int]) -> dict[int, str]:
        deals = deal_fingerprints(VintDeal, session_ids)[0]
        # A rubber's seating is its own row: a new one changes who partnered whom.
        rubbers = dict(
            VintRubber.objects.filter(session_id__in=session_ids)
            .order_by()
            .values("session_id")
            .annotate(n=Count("pk"))
            .values_list("session_id", "n")
        )
        return {s: f"{deals[s]}:{rubbers.get(s, 0)}" for s in session_ids}

    def meetings(self, player_id: int, session_ids: Sequence[int]) -> Meetings:
        """Partners (same partnership in a rubber) and opponents, with rubbers won together."""
        partners: Counter[int] = Counter()
        partner_wins: Counter[int] = Counter()
        opponents: Counter[int] = Counter()
        for rubbers in vint_rubbers(session_ids).values():
            for r in rubbers:
                mine, theirs = (r.ns, r.ew) if player_id in r.ns else (r.ew, r.ns)
                if player_id not in mine:
                    continue
                won = _won(player_id, r)
                for p in mine:
                    if p != player_id:
                        partners[p] += 1
                        partner_wins[p] += won
                for p in theirs:
                    opponents[p] += 1
        return partners, partner_wins, opponents

    def session_lines(
        self, player_id: int, seat_of: Mapping[int, int], session_ids: Sequence[int]
    ) -> dict[int, SessionLine]:
        rubbers = vint_rubbers(session_ids)
        out = {}
        for s in session_ids:
            played = rubbers.get(s, [])
            won = sum(1 for r in played if _won(player_id, r))
            out[s] = SessionLine(
                _("%(won)s of %(played)s rubbers won") % {"won": won, "played": len(played)},
                {"rubbers": len(played), "rubbers_won": won},
            )
        return out

    def game_totals(self, summary: Mapping[str, Any]) -> dict[str, Any]:
        return {"cells": [summary["rubbers"], "–", "–", summary["rubbers_won"]]}


# How each family of games is rated (``scoring.games.Game.family``); the order is the
# player page's.
RATINGS: dict[str, RatingFamily] = {"kop": KopRatings(), "vint": VintRatings()}


# ----------------------------------------------------------------------------- services


@dataclass(frozen=True)
class RatingUpdate:
    game: str
    model: str
    kind: str  # "full", "incremental" or "unchanged"
    rated: int  # sources rated in this run
    removed: int  # sources taken back to rate again (from the first change on)
    players: int  # players whose stored rating was written (changed)


# Rows a bulk write sends in one statement.
BATCH = 5000
# From this many new rows on, PostgreSQL gets them through COPY (a rebuild's sources and
# events): an INSERT sends every value in its SQL text, which costs more than the insert
# itself; below it one INSERT ... RETURNING is as quick and one round trip less.
COPY_ROWS = 500


def _insert(
    model: Any,
    fields: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
    *,
    update_on: Sequence[str] = (),
) -> list[int]:
    """Insert ``rows`` (values of ``fields``, attribute names) into ``model``'s table and
    return their primary keys in order: COPY on PostgreSQL for ``COPY_ROWS`` or more (the
    keys drawn from the table's sequence first), else INSERT ... RETURNING written here
    (the ORM's ``bulk_create`` makes an instance of every row and compiles the statement:
    most of an update's writing time).

    With ``update_on`` (the fields of a unique constraint), a row that clashes with a
    stored one sets that row's other ``fields`` instead, and nothing is returned."""
    if not rows:
        return []
    meta = model._meta
    quote = connection.ops.quote_name
    chosen = [meta.get_field(f) for f in fields]
    if connection.vendor == "postgresql" and len(rows) >= COPY_ROWS and not update_on:
        with connection.cursor() as cursor:
            # The sequence looked up once (nextval of its name as text looks it up again
            # for every key: three times the cost).
            cursor.execute(
                "SELECT nextval((SELECT pg_get_serial_sequence(%s, %s))::regclass) "
                "FROM generate_series(1, %s)",
                [meta.db_table, meta.pk.column, len(rows)],
            )
            pks = [pk for (pk,) in cursor.fetchall()]
        numbered = ((pk, *row) for pk, row in zip(pks, rows, strict=True))
        copy_rows(model, (meta.pk.name, *fields), numbered)
        return pks
    head = (
        f"INSERT INTO {quote(meta.db_table)} "  # noqa: S608 -- names from the model
        f"({', '.join(quote(f.column) for f in chosen)}) "
    )
    if update_on:
        keys = {meta.get_field(f).column for f in update_on}
        tail = (
            f" ON CONFLICT ({', '.join(quote(c) for c in sorted(keys))}) DO UPDATE SET "
            + ", ".join(
                f"{quote(f.column)} = EXCLUDED.{quote(f.column)}"
                for f in chosen
                if f.column not in keys
            )
        )
    else:
        tail = f" RETURNING {quote(meta.pk.column)}"
    if connection.vendor == "postgresql":
        # One array a column (as the ORM's bulk insert): seven arrays are sent quicker
        # than a thousand values in the statement's text.
        arrays = ", ".join(f"%s::{f.cast_db_type(connection)}[]" for f in chosen)
        sql = f"{head}SELECT * FROM UNNEST({arrays}){tail}"
        batches = [(sql, [list(column) for column in zip(*rows, strict=True)])]
    else:
        one = f"({', '.join(['%s'] * len(chosen))})"
        per = max(1, min(BATCH, connection.ops.bulk_batch_size(chosen, rows)))
        batches = [
            (
                head + "VALUES " + ", ".join([one] * len(rows[i : i + per])) + tail,
                [
                    f.get_db_prep_save(value, connection)
                    for row in rows[i : i + per]
                    for f, value in zip(chosen, row, strict=True)
                ],
            )
            for i in range(0, len(rows), per)
        ]
    pks = []
    with connection.cursor() as cursor:
        for sql, params in batches:
            cursor.execute(sql, params)
            if not update_on:
                pks += [pk for (pk,) in cursor.fetchall()]
    return pks


# What a rating event says, in the order a stored one is compared with what rating gives.
EVENT_VALUES = ("at", "mu_before", "sigma_before", "mu_after", "sigma_after", "games")
# A stored event, by (session id, player id): its primary key and its ``EVENT_VALUES``.
_Stored = tuple[int, tuple[Any, ...]]


@dataclass(frozen=True)
class _Current:
    session_id: int
    table_id: int | None  # None: a club evening's session
    at: datetime
    fingerprint: str


def hidden_tournaments(*, game: str) -> list[int]:
    """Tournaments whose standings are hidden until the last round is finished, and not
    finished yet: their tables are not rated (nor their places shown) until then, or the
    rating changes would tell the standings."""
    return [
        t.pk
        for t in Tournament.objects.filter(game=game, hide_standings=True)
        if not standings_view(tournament=t, viewer_is_director=False, with_data=False)["visible"]
    ]


def club_sessions(*, game: str) -> Any:
    """The accepted club sessions of ``game`` (no tournament's table) that a director has
    not left out of the ratings: sources beside the accepted tournament tables."""
    return TableSession.objects.filter(
        game=game,
        accepted_at__isnull=False,
        rating_excluded_at__isnull=True,
        round_table__isnull=True,
    ).order_by("accepted_at", "pk")


# Every time column read here is a DateTimeField: SQLite's text read as the ORM reads it.
_AT = RatingSource._meta.get_field("at")


@functools.cache
def _accepted_sql(hidden: int, which: str, pad: int = 0) -> str:
    """A game's accepted sources: its tournaments' accepted tables (not of one of ``hidden``
    hidden tournaments) and its accepted club sessions (not left out), as (acceptance,
    session id, table id or NULL) and ``pad`` NULLs: ``which`` "all", those "new" (not
    rated yet) or those "since" a cut (acceptance, session id: three parameters after each
    branch's game and hidden ids). Parameters: game, the hidden ids, [cut], game, [cut]."""
    nulls = ", NULL" * pad

    def which_sql(at: str, session: str, link: str) -> str:
        if which == "since":
            return f" AND ({at} > %s OR ({at} = %s AND {session} >= %s))"
        if which == "new":
            return f" AND NOT EXISTS (SELECT 1 FROM {_q(RatingSource)} s WHERE s.{link})"
        return ""

    hid = f" AND r.tournament_id NOT IN ({', '.join(['%s'] * hidden)})" if hidden else ""
    return (
        f"SELECT rt.accepted_at, rt.session_id, rt.id{nulls} "  # noqa: S608
        f"FROM {_q(RoundTable)} rt JOIN {_q(Round)} r ON r.id = rt.round_id "
        f"JOIN {_q(Tournament)} t ON t.id = r.tournament_id "
        f"WHERE t.game = %s AND rt.accepted_at IS NOT NULL{hid}"
        + which_sql("rt.accepted_at", "rt.session_id", "table_id = rt.id")
        + f" UNION ALL SELECT ts.accepted_at, ts.id, NULL{nulls} FROM {_q(TableSession)} ts "
        "WHERE ts.game = %s AND ts.accepted_at IS NOT NULL AND ts.rating_excluded_at IS NULL "
        f"AND NOT EXISTS (SELECT 1 FROM {_q(RoundTable)} rt WHERE rt.session_id = ts.id)"
        + which_sql("ts.accepted_at", "ts.id", "session_id = ts.id")
    )


@functools.cache
def _changes_sql(hidden: int, one_tournament: bool) -> str:
    """``_first_change``'s one read, for ``hidden`` hidden tournaments, checking one
    tournament's tables for corrections or all: the rated sources that moved (and those to
    check), then the accepted sources not rated yet (no fingerprint). Written once: the
    ORM's compiler costs more than the read (its union and nested conditions)."""
    hid = f" OR r.tournament_id IN ({', '.join(['%s'] * hidden)})" if hidden else ""
    checked = " OR r.tournament_id = %s" if one_tournament else " OR 1 = 1"
    return (
        # The rated sources (typed first: the NULLs below take these columns' types).
        "SELECT s.at, s.session_id, s.table_id, s.fingerprint, r.tournament_id, "  # noqa: S608
        "rt.accepted_at, ts.accepted_at, ts.rating_excluded_at "
        f"FROM {_q(RatingSource)} s "
        f"LEFT JOIN {_q(RoundTable)} rt ON rt.id = s.table_id "
        f"LEFT JOIN {_q(Round)} r ON r.id = rt.round_id "
        f"JOIN {_q(TableSession)} ts ON ts.id = s.session_id "
        "WHERE s.game = %s AND ((s.table_id IS NOT NULL AND (rt.accepted_at IS NULL "
        f"OR rt.accepted_at <> s.at{hid})) "
        "OR (s.table_id IS NULL AND (ts.accepted_at IS NULL OR ts.accepted_at <> s.at "
        f"OR ts.rating_excluded_at IS NOT NULL)){checked}) "
        "UNION ALL " + _accepted_sql(hidden, "new", pad=5)
    )


def _first_change(
    game: str, tournament_id: int | None, hidden: Sequence[int]
) -> tuple[datetime, int] | None:
    """The (time, session id) of the first source to rate again, or None if all are
    current: the earliest of a table or club session accepted but not rated, a rated one
    whose acceptance moved or was withdrawn (or whose tournament now hides its standings,
    or that a director left out), and a rated one whose deals changed (checked for
    ``tournament_id``'s tables, or all). Reads only what changed, not the history: one
    read, and the fingerprints of the sources to check."""
    params: list[Any] = [game, *hidden]
    if tournament_id is not None:
        params.append(tournament_id)
    params += [game, *hidden, game]
    with connection.cursor() as cursor:
        cursor.execute(_changes_sql(len(hidden), tournament_id is not None), params)
        rows = cursor.fetchall()
    keys: list[tuple[datetime, int]] = []
    stored: dict[int, tuple[datetime, str]] = {}
    out_of = set(hidden)
    read = reader(_AT)
    for at, session_id, table_id, fingerprint, t_id, table_at, session_at, excluded in rows:
        at = read(at)
        if fingerprint is None:  # accepted, not rated yet
            keys.append((at, session_id))
            continue
        if table_id is not None:  # a tournament's table: withdrawn, moved or hidden now
            now, out = read(table_at), t_id in out_of
        else:  # a club evening: withdrawn, moved or left out
            now, out = read(session_at), excluded is not None
        if now != at or out:
            keys.append((at, session_id))
            if now is not None and not out:
                keys.append((now, session_id))
        if tournament_id is None or (table_id is not None and t_id == tournament_id):
            stored[session_id] = (at, fingerprint)
    fresh = _fingerprints(game, list(stored))
    keys += [(at, sid) for sid, (at, fp) in stored.items() if fresh[sid] != fp]
    return min(keys) if keys else None


# A stored state, as an update compares it with the one it computes.
class _State(NamedTuple):
    pk: int
    player_id: int
    mu: float
    sigma: float
    games: int
    tables: int
    last_event_id: int | None


def _states(game: str, players: set[int] | None) -> dict[int, _State]:
    """``game``'s stored states, by player: of ``players``, or all (None)."""
    if players is not None and not players:
        return {}
    sql = (
        "SELECT id, player_id, mu, sigma, games, tables, last_event_id "  # noqa: S608
        f"FROM {_q(RatingState)} WHERE game = %s"
    )
    params: list[Any] = [game]
    if players is not None:
        sql += f" AND player_id IN ({_in(list(players))})"
        params += list(players)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {row[1]: _State(*row) for row in cursor.fetchall()}


@functools.cache
def _stored_sql(since: bool) -> tuple[str, str]:
    """A game's stored sources (from a cut on: ``since``), and their events in rating order
    (the source's session first; instead of the event's time, whether it is its source's:
    a time read costs a Python step per value, and an event's time is its source's)."""
    cut = " AND (s.at > %s OR (s.at = %s AND s.session_id >= %s))" if since else ""
    values = ", ".join(f"e.{_q_column(RatingEvent, f)}" for f in EVENT_VALUES[1:])
    return (
        f"SELECT s.id, s.session_id, s.at, s.fingerprint FROM {_q(RatingSource)} s "  # noqa: S608
        f"WHERE s.game = %s{cut}",
        f"SELECT s.session_id, e.id, e.player_id, e.at = s.at, {values} "  # noqa: S608
        f"FROM {_q(RatingEvent)} e JOIN {_q(RatingSource)} s ON s.id = e.source_id "
        f"WHERE s.game = %s{cut}" + (" ORDER BY s.at, s.session_id" if since else ""),
    )


def _lock_run(game: str) -> RatingRun:
    run = RatingRun.objects.select_for_update().filter(game=game).first()
    if run is not None:
        return run
    RatingRun.objects.get_or_create(game=game, defaults={"model": configured_model(game)})
    return RatingRun.objects.select_for_update().get(game=game)


@without_cycle_collection()
@transaction.atomic
def ratings_update(
    *,
    game: str,
    tournament_id: int | None = None,
    model: str | None = None,
    full: bool = False,
) -> RatingUpdate:
    """Bring ``game``'s ratings up to date with the accepted tables.

    ``tournament_id`` limits the check for corrections to that tournament's tables (the
    ones ``results_changed`` is about); new tables are always found. Without it every
    table is checked. ``model`` switches model (Kop/Baśka; Vint has one), which rebuilds
    everything; ``full`` rebuilds anyway. Running it again with nothing new changes nothing.
    """
    family = family_of(game)
    run = _lock_run(game)
    wanted = family.model(requested=model, stored=run.model if run.computed_at else None)
    if wanted != run.model or run.computed_at is None:
        full = True

    hidden = hidden_tournaments(game=game)
    since: list[Any] = []  # the cut's parameters: (acceptance, session) from which to rate
    if not full:
        cut = _first_change(game, tournament_id, hidden)
        if cut is None:
            return RatingUpdate(game, wanted, "unchanged", 0, 0, 0)
        at = _AT.get_db_prep_value(cut[0], connection)  # as stored (SQLite: UTC text)
        since = [at, at, cut[1]]

    # What is stored from the cut on: compared with what rating gives now, so that only
    # what differs is written (a rebuild of unchanged ratings writes nothing). One read of
    # the sources with their events; a full rebuild reads them all and starts everybody at
    # the prior, an update starts each player at their first event from the cut on.
    stored_sources: dict[int, tuple[int, datetime, str]] = {}
    stored_events: dict[tuple[int, int], _Stored] = {}
    start: dict[int, core.Rating] = {}
    games_back: Counter[int] = Counter()
    tables_back: Counter[int] = Counter()
    read = reader(_AT)
    sources_sql, events_sql = _stored_sql(not full)
    with connection.cursor() as cursor:
        cursor.execute(sources_sql, [game, *since])
        for source_id, session_id, source_at, fingerprint in cursor.fetchall():
            stored_sources[session_id] = (source_id, read(source_at), fingerprint)
        cursor.execute(events_sql, [game, *since])
        stored_rows = cursor.fetchall()
    for session_id, event_id, player_id, same_at, *event in stored_rows:
        # An event whose time is not its source's gets one no rating gives (None): it is
        # written again.
        values = (stored_sources[session_id][1] if same_at else None, *event)
        stored_events[(session_id, player_id)] = (event_id, values)
        if not full:  # the rating before the player's first event from the cut on
            start.setdefault(player_id, core.Rating(values[1], values[2]))
            games_back[player_id] += values[5]
            tables_back[player_id] += 1

    # The tournaments' tables and the club evenings to rate, in rating order: (acceptance,
    # session); a club evening has no table.
    with connection.cursor() as cursor:
        cursor.execute(
            _accepted_sql(len(hidden), "all" if full else "since"),
            [game, *hidden, *since, game, *since],
        )
        tables = sorted((read(at), s, pk) for at, s, pk in cursor.fetchall())
    matches, fingerprints = family.matches(wanted, [s for _at, s, _pk in tables])
    # Both branches read accepted ones only, so every ``accepted_at`` is set.
    todo = [_Current(s, pk, at, fingerprints[s]) for at, s, pk in tables if at is not None]
    # A full rebuild reads every state and starts everybody at the prior; an update, the
    # states of the players it replays or whose events it may take back.
    replay_players: set[int] = set()
    wanted_states: set[int] = set()
    if not full:
        replay_players = {p for ms in matches.values() for m in ms for p in m.players}
        wanted_states = {p for _s, p in stored_events} | replay_players
    states = _states(game, None if full else wanted_states)
    if not full:
        for p in replay_players:
            if p not in start and p in states:
                start[p] = core.Rating(states[p].mu, states[p].sigma)
    replay = core.Rater().replay(
        (core.Source(c.session_id, tuple(matches.get(c.session_id, ()))) for c in todo),
        start={p: r for p, r in start.items() if p in replay_players} if not full else {},
    )
    # Everybody whose state may change: rated from the cut on, before or now, or stored.
    touched = {p for _s, p in stored_events} | set(replay.games) | set(states)

    # Sources: insert the new, update the moved or corrected, delete the gone.
    source_pk: dict[int, int] = {}
    changed_sources = []
    new_sources = []
    for c in todo:
        stored = stored_sources.get(c.session_id)
        if stored is None:
            new_sources.append(c)
            continue
        source_pk[c.session_id] = stored[0]
        if (stored[1], stored[2]) != (c.at, c.fingerprint):
            changed_sources.append((stored[0], c))
    for pk, c in changed_sources:
        RatingSource.objects.filter(pk=pk).update(at=c.at, fingerprint=c.fingerprint)
    inserted = _insert(
        RatingSource,
        ("game", "session_id", "table_id", "at", "fingerprint"),
        [(game, c.session_id, c.table_id, c.at, c.fingerprint) for c in new_sources],
    )
    source_pk.update(zip((c.session_id for c in new_sources), inserted, strict=True))
    rated = {c.session_id for c in todo}
    gone = [pk for sid, (pk, _a, _f) in stored_sources.items() if sid not in rated]

    # Events: insert the new, update those that differ from the stored ones (one upsert),
    # delete the gone.
    at_of = {c.session_id: c.at for c in todo}
    event_pk: dict[tuple[int, int], int] = {}
    new_keys: list[tuple[int, int]] = []
    new_events: list[tuple[Any, ...]] = []
    updates: list[tuple[Any, ...]] = []
    for sc in replay.sources:
        source_id, at = source_pk[sc.key], at_of[sc.key]
        for ch in sc.changes:
            key = (sc.key, ch.player)
            values = (at, ch.before.mu, ch.before.sigma, ch.after.mu, ch.after.sigma, ch.games)
            old = stored_events.pop(key, None)
            if old is None:
                new_keys.append(key)
                new_events.append((source_id, ch.player, game, *values))
                continue
            event_pk[key] = old[0]
            if old[1] != values:
                updates.append((source_id, ch.player, game, *values))
    event_fields = ("source_id", "player_id", "game", *EVENT_VALUES)
    inserted = _insert(RatingEvent, event_fields, new_events)
    event_pk.update(zip(new_keys, inserted, strict=True))
    _insert(RatingEvent, event_fields, updates, update_on=("source_id", "player_id"))
    # Left over: events of sources gone, or of players no longer at a rated table.
    if stored_events:
        RatingEvent.objects.filter(pk__in=[pk for pk, _v in stored_events.values()]).delete()
    if gone:
        RatingSource.objects.filter(pk__in=gone).delete()

    newest: dict[int, int] = {}  # player -> their latest event, in rating order
    new_tables: Counter[int] = Counter()
    for sc in replay.sources:
        for ch in sc.changes:
            newest[ch.player] = event_pk[(sc.key, ch.player)]
            new_tables[ch.player] += 1
    orphans = [p for p in touched if p not in newest]
    kept_last: dict[int, int] = {}
    if orphans and not full:  # rated before the cut but not after it: their newest kept event
        for event_id, player_id in (
            RatingEvent.objects.filter(game=game, player_id__in=orphans)
            .order_by("player_id", "-at", "-source__session_id")
            .values_list("pk", "player_id")
        ):
            kept_last.setdefault(player_id, event_id)
    # One upsert for every state that differs (Django's bulk_update builds a CASE per row
    # and field: most of an update's time); a player left without events loses their state.
    upserts: list[tuple[Any, ...]] = []
    to_delete = []
    for p in touched:
        state = states.get(p)
        last = newest.get(p) or kept_last.get(p)
        if last is None:
            if state is not None:
                to_delete.append(state.pk)
            continue
        rating = replay.ratings.get(p) or start[p]
        games = replay.games.get(p, 0)
        tables_ = new_tables[p]
        if state is not None and not full:
            games += state.games - games_back[p]
            tables_ += state.tables - tables_back[p]
        wanted_state = (rating.mu, rating.sigma, games, tables_, last)
        if state is not None and wanted_state == (
            state.mu,
            state.sigma,
            state.games,
            state.tables,
            state.last_event_id,
        ):
            continue
        upserts.append((p, game, *wanted_state))
    if to_delete:
        RatingState.objects.filter(pk__in=to_delete).delete()
    _insert(
        RatingState,
        ("player_id", "game", "mu", "sigma", "games", "tables", "last_event_id"),
        upserts,
        update_on=("player_id", "game"),
    )
    run.model = wanted
    run.computed_at = timezone.now()
    run.kind = "full" if full else "incremental"
    run.sources = len(todo) if full else run.sources - len(gone) + len(new_sources)
    rows_write(updates=[(run, ["model", "computed_at", "kind", "sources"])])
    return RatingUpdate(game, wanted, run.kind, len(todo), len(stored_sources), len(upserts))


def ratings_update_for_tournament(*, tournament_id: int) -> RatingUpdate | None:
    """What the Celery task runs after a tournament's result was accepted or corrected."""
    game = Tournament.objects.filter(pk=tournament_id).values_list("game", flat=True).first()
    if game is None:
        return None
    return ratings_update(game=game, tournament_id=tournament_id)


def ratings_rebuild(*, game: str, model: str | None = None) -> RatingUpdate:
    """Rate every accepted table of ``game`` from scratch (``model`` defaults to the setting)."""
    return ratings_update(game=game, model=model or configured_model(game), full=True)


# ---------------------------------------------------------------------------- selectors


def cause_label(source: RatingSource) -> str:
    """What a rating change came from: a tournament's table, or a club evening."""
    table = source.table
    if table is None:
        return club_evening_label(source.session)
    return _("%(tournament)s round %(round)s table %(table)s") % {
        "tournament": table.round.tournament.name,
        "round": table.round.number,
        "table": table.number,
    }


def club_evening_label(session: TableSession) -> str:
    return _("club evening %(date)s, %(title)s") % {
        "date": date_format(timezone.localtime(session.accepted_at or session.created_at)),
        "title": str(session),
    }


def signed(value: float, digits: int = 1) -> str:
    """+1.8 / −0.4 (a real minus sign), in the current language's number format."""
    text = number_format(abs(value), digits)
    if round(value, digits) == 0:
        return text
    return ("+" if value > 0 else "−") + text


def change_label(delta: float, source: RatingSource) -> str:
    return _("%(change)s after %(cause)s") % {
        "change": signed(delta),
        "cause": cause_label(source),
    }


_CAUSE = "source__table__round__tournament"
_SESSION = "source__session"


def rating_status(*, game: str) -> RatingRun | None:
    return RatingRun.objects.filter(game=game, computed_at__isnull=False).first()


def rating_seasons(*, game: str) -> list[int]:
    return sorted(
        {d.year for d in RatingEvent.objects.filter(game=game).dates("at", "year")}, reverse=True
    )


def _row(
    player: Player, mu: float, sigma: float, games: int, tables: int, last: RatingEvent | None
) -> dict[str, Any]:
    source = last.source if last else None
    return {
        "player_id": player.pk,
        "number": player.number,
        "name": player.name,
        "club": player.club.name,
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
    """Players by displayed rating (μ − 3σ), with at least ``min_games`` games.

    With ``season`` (a year): each player's rating at the end of that year (their last
    change in it) and the games they played in it; the minimum applies to those games.
    """
    _check_game(game)
    minimum = default_min_games(game) if min_games is None else min_games
    rows = []
    if season is None:
        states = RatingState.objects.filter(game=game, games__gte=minimum).select_related(
            "player__club", f"last_event__{_CAUSE}", f"last_event__{_SESSION}"
        )
        for s in states:
            rows.append(_row(s.player, s.mu, s.sigma, s.games, s.tables, s.last_event))
    else:
        events = (
            RatingEvent.objects.filter(game=game, at__year=season)
            .select_related("player__club", _CAUSE, _SESSION)
            .order_by("player_id", "at", "source__session_id")
        )
        last: dict[int, RatingEvent] = {}
        games: Counter[int] = Counter()
        tables: Counter[int] = Counter()
        for e in events:
            last[e.player_id] = e
            games[e.player_id] += e.games
            tables[e.player_id] += 1
        for p, e in last.items():
            if games[p] >= minimum:
                rows.append(_row(e.player, e.mu_after, e.sigma_after, games[p], tables[p], e))
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
    return [head, *[[r[k] for k in head] for r in rows]]


# -------------------------------------------------------------------------- player page


def rating_history(*, player: Player, game: str) -> list[dict[str, Any]]:
    events = (
        RatingEvent.objects.filter(player=player, game=game)
        .select_related(_CAUSE, _SESSION)
        .order_by("at", "source__session_id")
    )
    return [
        {
            "at": e.at,
            "cause": cause_label(e.source),
            "tournament": e.source.table.round.tournament if e.source.table else None,
            "club_evening": e.source.table_id is None,
            "session_id": e.source.session_id,
            "games": e.games,
            "mu": round(e.mu_after, 2),
            "sigma": round(e.sigma_after, 2),
            "rating": round(e.after, 2),
            "change": round(e.delta, 2),
            "change_label": signed(e.delta),
            "before": round(e.before, 2),
            "mu_before": round(e.mu_before, 2),
        }
        for e in events
    ]


def _nice_step(span: float, ticks: int = 4) -> float:
    raw = span / ticks if span > 0 else 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * magnitude:
            return m * magnitude
    return 10 * magnitude


def rating_chart(history: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """An SVG line chart of the displayed rating (and μ), coordinates computed here so
    the template only draws; no script. Points are evenly spaced, one per table."""
    if not history:
        return None
    width, height = 480, 220
    left, right, top, bottom = 40, 10, 12, 30
    first = history[0]
    ratings = [first["before"], *[h["rating"] for h in history]]
    mus = [first["mu_before"], *[h["mu"] for h in history]]
    low, high = min(ratings + mus), max(ratings + mus)
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    n = len(ratings)

    def x(i: int) -> float:
        return round(left + (width - left - right) * (i / (n - 1) if n > 1 else 0.5), 1)

    def y(v: float) -> float:
        return round(top + (height - top - bottom) * (high - v) / (high - low), 1)

    ticks = []
    v = low
    while v <= high + step / 2:
        ticks.append({"y": y(v), "label": number_format(v, 0 if step >= 1 else 1)})
        v += step
    points = [
        {
            "x": x(i + 1),
            "y": y(h["rating"]),
            "title": f"{h['cause']}: {number_format(h['rating'], 1)} ({h['change_label']})",
        }
        for i, h in enumerate(history)
    ]
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "bottom": height - bottom,
        "rating_line": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(ratings)),
        "mu_line": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(mus)),
        "points": points,
        "ticks": ticks,
        "first_label": history[0]["at"],
        "last_label": history[-1]["at"],
        "label_y": height - 8,
    }


def _snapshot_ranks(tournament_ids: Sequence[int]) -> dict[int, dict[int, Any]]:
    """Tournament -> start number -> rank label ("3", "=8"), from each tournament's latest
    standings (none for a tournament that still hides its standings)."""
    return {
        t_id: {number: row.get("rank") for number, row in rows.items()}
        for t_id, rows in _snapshot_rows(tournament_ids).items()
    }


def _row_place(row: Mapping[str, Any]) -> int | None:
    """A standings row's numeric place: tied players share the first place they cover
    (the label "=8" is place 8). Snapshots older than the ``place`` key give the label."""
    place = row.get("place")
    if isinstance(place, int) and not isinstance(place, bool):
        return place
    try:
        return int(str(row.get("rank")).lstrip("="))
    except ValueError:
        return None  # not ranked (e.g. withdrawn before playing)


def _snapshot_rows(tournament_ids: Sequence[int]) -> dict[int, dict[int, dict[str, Any]]]:
    """Tournament -> start number -> individual standings row, from each tournament's
    latest standings (none for a tournament that still hides its standings)."""
    hidden = {
        t.pk
        for t in Tournament.objects.filter(pk__in=tournament_ids, hide_standings=True)
        if not standings_view(tournament=t, viewer_is_director=False, with_data=False)["visible"]
    }
    out: dict[int, dict[int, dict[str, Any]]] = {}
    latest: dict[int, int] = {}  # tournament -> its newest snapshot (the only JSON read)
    for t_id, pk in (
        StandingsSnapshot.objects.filter(
            tournament_id__in=[t for t in tournament_ids if t not in hidden]
        )
        .order_by("tournament_id", "-results_version")
        .values_list("tournament_id", "pk")
    ):
        latest.setdefault(t_id, pk)
    for t_id, data in StandingsSnapshot.objects.filter(pk__in=latest.values()).values_list(
        "tournament_id", "data"
    ):
        rows = (data or {}).get("individual") or []
        out[t_id] = {int(r["number"]): r for r in rows if "number" in r}
    return out


def _evening_state(session: TableSession, rated: bool) -> str:
    if rated:
        return _("rated")
    if session.rating_excluded_at is not None:
        return _("left out of the ratings")
    if session.accepted_at is not None:
        return _("accepted, rating soon")
    return _("not accepted: not rated")


def player_profile(*, player: Player) -> dict[str, Any]:
    """Everything on a player's page: ratings, history and chart per game, tournaments,
    sessions with results, and the partners and opponents met most."""
    seats = list(
        TableSeat.objects.filter(player=player)
        .select_related("session")
        .order_by("-session__created_at", "-session_id")
    )
    session_ids = [s.session_id for s in seats]
    seat_of = {s.session_id: s.seat for s in seats}
    tables = {
        t.session_id: t
        for t in RoundTable.objects.filter(session_id__in=session_ids).select_related(
            "round__tournament"
        )
    }
    hiding = {
        t.round.tournament_id: t.round.tournament
        for t in tables.values()
        if t.round.tournament.hide_standings
    }
    hiding_now = {
        pk
        for pk, tournament in hiding.items()
        if not standings_view(tournament=tournament, viewer_is_director=False, with_data=False)[
            "visible"
        ]
    }
    hidden = {s for s, t in tables.items() if t.round.tournament_id in hiding_now}
    shown = [s for s in seats if s.session_id not in hidden]
    ids_of: dict[str, list[int]] = defaultdict(list)  # by family
    for s in shown:
        ids_of[game_for(s.session.game).results.family].append(s.session_id)
    lines: dict[int, SessionLine] = {}
    partners: Counter[int] = Counter()
    partner_wins: Counter[int] = Counter()
    opponents: Counter[int] = Counter()
    for code, family in RATINGS.items():
        ids = ids_of.get(code)
        if not ids:
            continue
        lines.update(family.session_lines(player.pk, seat_of, ids))
        met = family.meetings(player.pk, ids)
        partners.update(met[0])
        partner_wins.update(met[1])
        opponents.update(met[2])

    rated_ids = set(
        RatingSource.objects.filter(session_id__in=session_ids).values_list("session_id", flat=True)
    )
    sessions = []
    per_game: dict[str, dict[str, Any]] = {}
    for s in seats:
        session = s.session
        table = tables.get(session.pk)
        summary = per_game.setdefault(
            session.game,
            {"game": session.game, "label": session.get_game_display(), "sessions": 0},
        )
        if session.pk in hidden:
            result = _("hidden until the last round is finished")
        else:
            line = lines[session.pk]
            summary["sessions"] += 1
            for key, n in line.counts.items():
                summary[key] = summary.get(key, 0) + n
            result = line.text
        sessions.append(
            {
                "session_id": session.pk,
                "title": str(session),
                "game": session.get_game_display(),
                "date": session.created_at,
                "tournament": table.round.tournament.name if table else "",
                "tournament_slug": table.round.tournament.slug if table else "",
                "result": result,
                "accepted": bool(table and table.accepted_at) or session.locked,
                "rated": session.pk in rated_ids,
                # Its rating state in words (a club evening: also left out or waiting).
                "evening": _evening_state(session, session.pk in rated_ids)
                if table is None
                else (_("rated") if session.pk in rated_ids else ""),
            }
        )
    played = [g for g in per_game.values() if g["sessions"]]
    for summary in played:
        summary.update(RATINGS[game_for(summary["game"]).results.family].game_totals(summary))

    entries = list(
        Registration.objects.filter(player=player)
        .select_related("tournament")
        .order_by("-tournament__created_at")
    )
    ranks = _snapshot_ranks([e.tournament_id for e in entries])
    tournaments = [
        {
            "name": e.tournament.name,
            "slug": e.tournament.slug,
            "number": e.number,
            "game": e.tournament.get_game_display(),
            "date": e.tournament.created_at,
            "rank": ranks.get(e.tournament_id, {}).get(e.number),
        }
        for e in entries
    ]

    top_partners = partners.most_common(5)
    top_opponents = opponents.most_common(5)
    names = dict(
        Player.objects.filter(pk__in={p for p, _n in top_partners + top_opponents}).values_list(
            "pk", "name"
        )
    )

    states = {
        s.game: s
        for s in RatingState.objects.filter(player=player).select_related(
            f"last_event__{_CAUSE}", f"last_event__{_SESSION}"
        )
    }
    ratings = []
    for game in all_games():
        state = states.get(game.code)
        if state is None:
            continue
        history = rating_history(player=player, game=game.code)
        last = state.last_event
        ratings.append(
            {
                "game": game.code,
                "label": game.label,
                "state": state,
                "rating": round(state.display, 2),
                "last": change_label(last.delta, last.source) if last else "",
                "history": history,
                "chart": rating_chart(history),
                "run": rating_status(game=game.code),
            }
        )
    return {
        "ratings": ratings,
        "per_game": played,
        "sessions": sessions,
        "tournaments": tournaments,
        "partners": [
            {"player_id": p, "name": names.get(p, "?"), "count": n, "won": partner_wins[p]}
            for p, n in top_partners
        ],
        "opponents": [
            {"player_id": p, "name": names.get(p, "?"), "count": n} for p, n in top_opponents
        ],
    }


# ------------------------------------------------------------------------------- series


def parse_points_table(text: str) -> tuple[int, ...]:
    """ "25, 18, 15 12" -> (25, 18, 15, 12); raises ``RatingError`` in plain words."""
    parts = [p for p in text.replace(";", ",").replace(",", " ").split() if p]
    try:
        points = tuple(int(p) for p in parts)
    except ValueError as exc:
        raise RatingError(_("Points must be whole numbers, e.g. 25, 18, 15, 12.")) from exc
    try:
        core.SeriesRules(points)
    except core.RatingOptionError as exc:
        raise RatingError(_("Give the points for 1st, 2nd, ... place, none negative.")) from exc
    return points


def _check_series_tournaments(game: str, tournaments: Sequence[Tournament]) -> None:
    other = [t.name for t in tournaments if t.game != game]
    if other:
        raise RatingError(
            _("Not a tournament of this game: %(names)s.") % {"names": ", ".join(other)}
        )


@transaction.atomic
def series_create(
    *,
    name: str,
    game: str,
    points_table: Sequence[int],
    min_tournaments: int = 1,
    drop_worst: bool = False,
    tournaments: Sequence[Tournament] = (),
    created_by: Any = None,
) -> Series:
    _check_game(game)
    core.SeriesRules(tuple(points_table), min_tournaments, drop_worst)
    _check_series_tournaments(game, tournaments)
    base = slugify(name)[:40] or "series"
    slug, n = base, 1
    while Series.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    series = Series.objects.create(
        name=" ".join(name.split()),
        slug=slug,
        game=game,
        points_table=list(points_table),
        min_tournaments=min_tournaments,
        drop_worst=drop_worst,
        created_by=created_by,
    )
    SeriesTournament.objects.bulk_create(
        SeriesTournament(series=series, tournament=t) for t in tournaments
    )
    return series


@transaction.atomic
def series_update(
    *,
    series: Series,
    name: str,
    points_table: Sequence[int],
    min_tournaments: int,
    drop_worst: bool,
    tournaments: Sequence[Tournament],
) -> Series:
    core.SeriesRules(tuple(points_table), min_tournaments, drop_worst)
    _check_series_tournaments(series.game, tournaments)
    series.name = " ".join(name.split())
    series.points_table = list(points_table)
    series.min_tournaments = min_tournaments
    series.drop_worst = drop_worst
    series.save()
    wanted = {t.pk for t in tournaments}
    SeriesTournament.objects.filter(series=series).exclude(tournament_id__in=wanted).delete()
    have = set(
        SeriesTournament.objects.filter(series=series).values_list("tournament_id", flat=True)
    )
    SeriesTournament.objects.bulk_create(
        SeriesTournament(series=series, tournament=t) for t in tournaments if t.pk not in have
    )
    return series


def _points(value: Fraction | None) -> str:
    if value is None:
        return "–"
    return number_format(float(value), 0 if value.denominator == 1 else 1)


def series_table(*, series: Series) -> dict[str, Any]:
    """Standings of a series from each tournament's latest standings snapshot
    (``data["individual"]``: start number and rank), start numbers mapped to players."""
    legs = list(
        SeriesTournament.objects.filter(series=series)
        .select_related("tournament")
        .order_by("tournament__created_at", "tournament_id")
    )
    ranks = _snapshot_rows([leg.tournament_id for leg in legs])
    held = [leg.tournament for leg in legs if ranks.get(leg.tournament_id)]
    numbers: dict[tuple[int, int], int] = {
        (t_id, number): player_id
        for t_id, number, player_id in Registration.objects.filter(
            tournament_id__in=[t.pk for t in held]
        ).values_list("tournament_id", "number", "player_id")
    }
    placings = []
    for t in held:
        places: dict[int, int] = {}
        for number, row in ranks[t.pk].items():
            player_id = numbers.get((t.pk, number))
            place = _row_place(row)
            if player_id is not None and place is not None:
                # Players tied at a place share the points of the places they cover
                # (kop.md §8.2: two tied for 1st get (5 + 3) / 2): series_standings.
                places[player_id] = place
        placings.append(places)
    rules = core.SeriesRules(
        tuple(series.points_table) or (0,), series.min_tournaments, series.drop_worst
    )
    standings = core.series_standings(placings, rules)
    players = {
        p.pk: p
        for p in Player.objects.filter(pk__in=[r.player for r in standings]).select_related("club")
    }
    rows = []
    for r in standings:
        line: dict[str, Any] = {
            "rank": r.rank,
            "player_id": r.player,
            "name": players[r.player].name,
            "club": players[r.player].club.name,
            "total": float(r.total),
            "total_label": _points(r.total),
            "played": r.played,
            "qualified": r.rank is not None,
        }
        for i, value in enumerate(r.points):
            label = _points(value)
            line[f"t{i}"] = f"({label})" if i == r.dropped else label
        rows.append(line)
    return {
        "rows": rows,
        "held": held,
        "pending": [leg.tournament for leg in legs if not ranks.get(leg.tournament_id)],
    }
