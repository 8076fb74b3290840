"""The tournaments app's hand-written SQL: every statement of the app that is not the ORM's.

Each is here because a figure a user can feel needs it, named with its benchmark:

- **The public standings page and its poll** (``standings_states``, ``standings_status_row``,
  ``display_row``): every reader's request and every open page's poll every few seconds
  reads one row with its standings state. Built by the ORM's compiler (three subqueries
  and three EXISTS) the read cost 4-7 ms of the app server's CPU on the development
  container, against 0.3 ms written out once; kept prepared on the connection
  (``prepared_cursor``) it takes 0.3-0.4 ms from the request's side instead of 0.9-1.4 ms
  (planning it cost the server more than running it). Either way the page's rate under
  load would fall below half the static file's.
  ``benchmarks/bench_public_page.py`` (target: at least 0.5x the stylesheet's rate, p95 at
  most 100 ms) and ``benchmarks/bench_tournament.py`` (the poll at most 2 ms).
- **Club ratings** (``seat_persons``, ``accepted_sources``, ``changed_sources``,
  ``stored_sources``, ``stored_events``, ``rating_states``, ``insert_rows``): a rebuild reads
  every rated table's seats and events and writes every source and event, where the ORM's
  rows and its ``bulk_create`` cost more than the reads and writes themselves; an update
  finds what changed in one read instead of through the compiler's unions.
  ``benchmarks/bench_ratings.py`` (a rebuild at most 1.5x the pure rating code on the same
  deals; a round's update at most 50 ms; a club evening's update over 100,000 stored deals
  at most 1.5x the one over 1,000).
- **A deal's save at a tournament table** (``results_version_bump``): one statement finds
  the table's tournament and counts its new results version (the ORM: three, on the save
  every scorer waits for). ``benchmarks/bench_requests.py`` (a save at most 3x a bare insert).
- **COPY** (``copy_rows``): a standings snapshot's rows and a rebuild's sources and events
  stream into PostgreSQL; an INSERT of many rows sends every value inside its SQL text
  (psycopg binds parameters on the client), and quoting them costs more than the insert.
  ``benchmarks/bench_tournament.py`` (the standings recompute at most 3x reading its deals)
  and ``benchmarks/bench_ratings.py``.

Table and column names come from the models' metadata (``quoted``), values are always
parameters; values read here are made what the ORM gives by ``read_as`` (SQLite sends
dates as text).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model

from clubs.models import Player
from ops.models import TaskOutbox
from scoring.models import TableSeat, TableSession
from tournaments.models import (
    RatingEvent,
    RatingSource,
    RatingState,
    Round,
    RoundTable,
    StandingsSnapshot,
    Tournament,
)


def quoted(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def quoted_column(model: type[Model], name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)  # type: ignore[union-attr,arg-type]


def placeholders(values: Sequence[Any]) -> str:
    return ", ".join(["%s"] * len(values))


# ------------------------------------------------------------------- reading values


@functools.cache
def _converters(field: Field[Any, Any], vendor: str) -> tuple[tuple[Any, Any], ...]:
    column = field.get_col(field.model._meta.db_table)
    found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
    return tuple((convert, column) for convert in found)


def read_as(field: Field[Any, Any]) -> Callable[[Any], Any]:
    """How to read ``field``'s column (or an aggregate of it) as the database sends it into
    what the ORM gives (SQLite sends dates as text); on PostgreSQL mostly as it is."""
    converters = _converters(field, connection.vendor)
    if not converters:
        return _same

    def read(value: Any) -> Any:
        for convert, expression in converters:
            value = convert(value, expression, connection)
        return value

    return read


def _same(value: Any) -> Any:
    return value


def model_from_row[M: Model](model: type[M], names: Sequence[str], values: Sequence[Any]) -> M:
    """A model instance from the values of the fields ``names`` (attribute names) as the
    database sent them, as the ORM would make it (``Model.from_db``; fields left out are
    deferred)."""
    readers = _readers(model, tuple(names), connection.vendor)
    if readers:
        values = [read(v) for read, v in zip(readers, values, strict=True)]
    return model.from_db(connection.alias, list(names), list(values))


@functools.cache
def _readers(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[Any, ...]:
    """``read_as`` of each of ``names``, once per shape; none when no field needs one."""
    by_name = {f.attname: f for f in model._meta.concrete_fields}
    readers = tuple(read_as(by_name[n]) for n in names)
    return readers if any(r is not _same for r in readers) else ()


# --------------------------------------------------------------------- prepared reads


class _PreparedCursor(psycopg.Cursor[Any]):
    """psycopg's cursor binding on the server, each statement prepared on its first use."""

    def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
        return super().execute(query, params, **{"prepare": True, **options})


# Django leaves psycopg's ``prepare_threshold`` at None (off); 0 prepares on first use, for
# the cursors binding on the server only (Django's own bind on the client).
_PREPARE_FROM_FIRST_USE = 0


def prepared_cursor() -> Any:
    """A cursor for the statements every reader sends over and over (the public standings
    page's read and its poll): on PostgreSQL each is planned once per connection and then
    only executed; Django's own cursor elsewhere, or with ``settings.DATABASE_PREPARED`` off
    (behind a pooler that cannot keep prepared statements). Wrapped as Django wraps its
    cursors; its log shows "QUERY = '...' - PARAMS = ..." (server-bound parameters)."""
    db: Any = connections[DEFAULT_DB_ALIAS]  # looked up once: the proxy looks up each use
    if db.vendor != "postgresql" or not settings.DATABASE_PREPARED:
        return db.cursor()
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    with db.wrap_database_errors:
        raw = db.connection
        if raw.prepare_threshold is None:
            raw.prepare_threshold = _PREPARE_FROM_FIRST_USE
        cursor: Any = _PreparedCursor(raw)
    return db.make_debug_cursor(cursor) if db.queries_logged else db.make_cursor(cursor)


# ------------------------------------------------------------------- standings state

# The tournament's columns the standings pages read: all but the imported seating plan
# (every round's tables: no page shows it; ``Tournament.seating_plan`` reads it if asked).
_TOURNAMENT_COLUMNS = tuple(
    f.attname for f in Tournament._meta.concrete_fields if f.attname != "seating_plan"
)


@functools.cache
def _standings_state_sql(where: str) -> str:
    """``standings_states``' statement for one ``where``, written once."""
    snapshots, rounds, tables, outbox = (
        quoted(m) for m in (StandingsSnapshot, Round, RoundTable, TaskOutbox)
    )
    columns = ", ".join(f"t.{quoted_column(Tournament, n)}" for n in _TOURNAMENT_COLUMNS)
    return (
        f"SELECT {columns}, s.id, s.results_version, s.computed_at, "  # noqa: S608
        f"EXISTS (SELECT 1 FROM {rounds} r WHERE r.tournament_id = t.id "
        "AND r.number >= t.rounds_planned), "
        f"EXISTS (SELECT 1 FROM {tables} rt JOIN {rounds} r ON r.id = rt.round_id "
        "WHERE r.tournament_id = t.id AND rt.accepted_at IS NULL), "
        f"EXISTS (SELECT 1 FROM {outbox} o WHERE o.tournament_id = t.id) "
        f"FROM {quoted(Tournament)} t LEFT JOIN {snapshots} s ON s.tournament_id = t.id "
        f"AND s.results_version = (SELECT MAX(n.results_version) FROM {snapshots} n "
        f"WHERE n.tournament_id = t.id) WHERE {where}"
    )


class StandingsState(NamedTuple):
    """A tournament's standings state as ``standings_states`` reads it."""

    snapshot_id: int | None  # the newest snapshot
    shown: int | None  # its results version
    computed_at: datetime | None
    last_seated: bool  # the last planned round is seated
    open_tables: bool  # a table of the tournament is not accepted
    deferred: bool  # a recompute waits in the outbox for the broker

    @property
    def finished(self) -> bool:
        """The last planned round is seated and every table accepted
        (``tournaments.selectors.tournament_finished``)."""
        return self.last_seated and not self.open_tables


def standings_states(
    where: str, key: Any, *, prepared: bool = False
) -> list[tuple[Tournament, StandingsState]]:
    """In one read, the tournaments ``where`` names (``t.id = %s`` or ``t.slug = %s``, with
    ``key``) with their standings state: what every standings page asks before anything
    else (``prepared``: the public page's, see ``prepared_cursor``)."""
    with prepared_cursor() if prepared else connection.cursor() as cursor:
        cursor.execute(_standings_state_sql(where), [key])
        found = cursor.fetchall()
    n = len(_TOURNAMENT_COLUMNS)
    at = read_as(StandingsSnapshot._meta.get_field("computed_at"))
    return [
        (
            model_from_row(Tournament, _TOURNAMENT_COLUMNS, row[:n]),
            StandingsState(
                row[n],
                row[n + 1],
                at(row[n + 2]) if row[n] is not None else None,
                bool(row[n + 3]),
                bool(row[n + 4]),
                bool(row[n + 5]),
            ),
        )
        for row in found
    ]


@functools.cache
def _standings_status_sql() -> str:
    snapshots, outbox = quoted(StandingsSnapshot), quoted(TaskOutbox)
    return (
        f"SELECT t.id, t.results_version, s.results_version, s.computed_at, "  # noqa: S608
        f"EXISTS (SELECT 1 FROM {outbox} o WHERE o.tournament_id = t.id) "
        f"FROM {quoted(Tournament)} t LEFT JOIN {snapshots} s ON s.tournament_id = t.id "
        f"AND s.results_version = (SELECT MAX(n.results_version) FROM {snapshots} n "
        "WHERE n.tournament_id = t.id) WHERE t.slug = %s"
    )


def standings_status_row(slug: str) -> tuple[int, int, int | None, datetime | None, bool] | None:
    """The standings poll's one small indexed read: the tournament's id and results
    version, the newest snapshot's version and time (never its JSON), and whether a
    recompute waits in the outbox. None for an unknown tournament."""
    with prepared_cursor() as cursor:
        cursor.execute(_standings_status_sql(), [slug])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, version, shown, computed_at, deferred = row
    at = read_as(StandingsSnapshot._meta.get_field("computed_at"))
    return pk, version, shown, at(computed_at), bool(deferred)


def display_row(slug: str) -> tuple[int, int | None, int | None, int] | None:
    """The hall display's poll: the results version, the newest snapshot's version, the
    newest round's number and its accepted tables. None for an unknown tournament."""
    tournaments, snapshots, rounds, tables = (
        quoted(m) for m in (Tournament, StandingsSnapshot, Round, RoundTable)
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.results_version, "  # noqa: S608
            f"(SELECT MAX(s.results_version) FROM {snapshots} s WHERE s.tournament_id = t.id), "
            f"r.number, (SELECT COUNT(*) FROM {tables} rt "
            "WHERE rt.round_id = r.id AND rt.accepted_at IS NOT NULL) "
            f"FROM {tournaments} t LEFT JOIN {rounds} r ON r.tournament_id = t.id "
            f"AND r.number = (SELECT MAX(m.number) FROM {rounds} m WHERE m.tournament_id = t.id) "
            "WHERE t.slug = %s",
            [slug],
        )
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1], row[2], row[3])


# --------------------------------------------------------------------------- COPY


def copy_rows(model: Any, fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """COPY ``rows`` (values of ``fields``, attribute names, in order) into ``model``'s
    table; PostgreSQL only (elsewhere the ORM's ``bulk_create`` does the job)."""
    meta = model._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(f).column) for f in fields)
    sql = f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)


# Rows a bulk write sends in one statement.
BATCH = 5000
# From this many new rows on, PostgreSQL gets them through COPY (a rebuild's sources and
# events): an INSERT sends every value in its SQL text, which costs more than the insert
# itself; below it one INSERT ... RETURNING is as quick and one round trip less.
COPY_ROWS = 500


def insert_rows(
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
    most of a rating update's writing time).

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


# ------------------------------------------------------------------------ club ratings


def seat_persons(session_ids: Sequence[int]) -> dict[int, dict[int, int]]:
    """Per session: the persons at its seats, by seat (ratings and player pages follow the
    person, whichever register row sat there; the ORM's rows cost a rebuild more than the
    read: it reads every session's four seats)."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    if not session_ids:
        return seats
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.session_id, t.seat, p.person_id FROM {quoted(TableSeat)} t "  # noqa: S608
            f"JOIN {quoted(Player)} p ON p.id = t.player_id "
            f"WHERE t.session_id IN ({placeholders(session_ids)}) ORDER BY t.session_id, t.seat",
            list(session_ids),
        )
        for session_id, seat, person_id in cursor.fetchall():
            seats[session_id][seat] = person_id
    return seats


# Every time column read here is a DateTimeField: SQLite's text read as the ORM reads it.
_AT = RatingSource._meta.get_field("at")


def _sessions_sql(hidden: int) -> tuple[str, str, str]:
    """The FROM part of the sources' reads (a game's sessions, each with its rating source
    and its tournament table when it has them), and the conditions that an accepted table
    or club session is a source now, and that a rated one no longer is or was accepted at
    another time (of ``hidden`` hidden tournaments, whose ids follow in the parameters)."""
    ids = ", ".join(["%s"] * hidden)
    hidden_now = f"r.tournament_id IN ({ids})" if hidden else "1 = 0"
    sessions = (
        f"FROM {quoted(TableSession)} ts "
        f"LEFT JOIN {quoted(RatingSource)} s ON s.session_id = ts.id "
        f"LEFT JOIN {quoted(RoundTable)} rt ON rt.session_id = ts.id "
        f"LEFT JOIN {quoted(Round)} r ON r.id = rt.round_id "
    )
    # A tournament's table by its acceptance and its tournament (out while it hides its
    # standings, or on paper: no deals to rate); a club evening by its acceptance, unless left out.
    source = (
        f"((rt.id IS NOT NULL AND rt.accepted_at IS NOT NULL AND rt.paper IS NULL AND NOT {hidden_now}) "  # noqa: E501
        "OR (rt.id IS NULL AND ts.accepted_at IS NOT NULL AND ts.rating_excluded_at IS NULL))"
    )
    moved = (
        f"((rt.id IS NOT NULL AND (rt.accepted_at IS NULL OR rt.accepted_at <> s.at "
        f"OR rt.paper IS NOT NULL OR {hidden_now})) OR (rt.id IS NULL AND (ts.accepted_at IS NULL "
        "OR ts.accepted_at <> s.at OR ts.rating_excluded_at IS NOT NULL)))"
    )
    return sessions, source, moved


@functools.cache
def _accepted_sql(hidden: int) -> str:
    sessions, source, _moved = _sessions_sql(hidden)
    return (
        "SELECT CASE WHEN rt.id IS NULL THEN ts.accepted_at ELSE rt.accepted_at END, "  # noqa: S608
        f"ts.id, rt.id, ts.revision {sessions}WHERE ts.game = %s AND {source}"
    )


def accepted_sources(
    game: str, hidden: Sequence[int]
) -> list[tuple[datetime, int, int | None, int]]:
    """Every source of ``game``: its tournaments' accepted tables (not of ``hidden``
    tournaments) and its accepted club sessions (not left out), as (acceptance, session
    id, table id or None, the session's revision), in rating order."""
    with connection.cursor() as cursor:
        cursor.execute(_accepted_sql(len(hidden)), [game, *hidden])
        found = cursor.fetchall()
    read = read_as(_AT)
    return sorted((read(at), s, table, revision) for at, s, table, revision in found)


@functools.cache
def _changes_sql(hidden: int) -> str:
    """``changed_sources``' one read for ``hidden`` hidden tournaments: in one pass over the
    game's sessions, the rated ones written since (their revision moved), accepted at
    another time or no more, or out of the ratings now, and the accepted ones not rated
    yet. Only what changed comes back, and no deal is read: the session's revision stands
    for its deals."""
    ids = ", ".join(["%s"] * hidden)
    hidden_now = f"r.tournament_id IN ({ids})" if hidden else "1 = 0"
    sessions, source, moved = _sessions_sql(hidden)
    return (
        "SELECT ts.id, s.id IS NOT NULL, s.at, "  # noqa: S608
        "CASE WHEN rt.id IS NULL THEN ts.accepted_at ELSE rt.accepted_at END, "
        f"CASE WHEN rt.id IS NULL THEN ts.rating_excluded_at IS NOT NULL ELSE {hidden_now} END, "
        f"rt.id, ts.revision {sessions}WHERE ts.game = %s AND ("
        "(s.id IS NULL AND " + source + ") OR (s.id IS NOT NULL AND (s.revision IS NULL "
        f"OR s.revision <> ts.revision OR {moved})))"
    )


class Change(NamedTuple):
    """A source ``changed_sources`` found: rated at ``at`` (a new one: its acceptance),
    accepted ``now`` (None: not any more), ``out`` of the ratings now (its tournament hides
    its standings, or a director left the evening out); its table (None: a club evening)
    and its session's revision now. ``rated``: it was rated before."""

    at: datetime
    session_id: int
    rated: bool
    now: datetime | None
    out: bool
    table_id: int | None
    revision: int


def changed_sources(game: str, hidden: Sequence[int]) -> list[Change]:
    """Every source of ``game`` to rate again or for the first time (``_changes_sql``)."""
    with connection.cursor() as cursor:
        cursor.execute(_changes_sql(len(hidden)), [*hidden, game, *hidden, *hidden])
        rows = cursor.fetchall()
    read = read_as(_AT)
    out = []
    for session_id, rated, at, now, left_out, table_id, revision in rows:
        now = read(now)
        if rated:
            out.append(Change(read(at), session_id, True, now, bool(left_out), table_id, revision))
        else:
            out.append(Change(now, session_id, False, now, False, table_id, revision))
    return out


# What a rating event says, in the order a stored one is compared with what rating gives.
EVENT_VALUES = ("at", "mu_before", "sigma_before", "mu_after", "sigma_after", "games")


@functools.cache
def _stored_sql(since: bool) -> tuple[str, str]:
    """A game's stored sources (from a cut on: ``since``), and their events in rating order
    (the source's session first; instead of the event's time, whether it is its source's:
    a time read costs a Python step per value, and an event's time is its source's)."""
    # The cut as a range of the sources' index (game, at, session) and then a filter: an OR
    # of the two would have the database read every source of the game.
    cut = " AND s.at >= %s AND (s.at > %s OR s.session_id >= %s)" if since else ""
    values = ", ".join(f"e.{quoted_column(RatingEvent, f)}" for f in EVENT_VALUES[1:])
    return (
        f"SELECT s.id, s.session_id, s.at, s.revision, s.table_id "  # noqa: S608
        f"FROM {quoted(RatingSource)} s "
        f"WHERE s.game = %s{cut}",
        f"SELECT s.session_id, e.id, e.person_id, e.at = s.at, {values} "  # noqa: S608
        f"FROM {quoted(RatingEvent)} e JOIN {quoted(RatingSource)} s ON s.id = e.source_id "
        f"WHERE s.game = %s{cut}" + (" ORDER BY s.at, s.session_id" if since else ""),
    )


class StoredSource(NamedTuple):
    """A rated source as stored: its id, time, its session's revision when rated (None:
    before revisions were kept) and its table (None: a club evening)."""

    pk: int
    at: datetime
    revision: int | None
    table_id: int | None


def stored_sources(game: str, since: Sequence[Any]) -> dict[int, StoredSource]:
    """``game``'s rated sources from the cut ``since`` on (all without one), by session."""
    sources_sql, _events_sql = _stored_sql(bool(since))
    read = read_as(_AT)
    with connection.cursor() as cursor:
        cursor.execute(sources_sql, [game, *since])
        return {
            s: StoredSource(pk, read(at), revision, table)
            for pk, s, at, revision, table in cursor.fetchall()
        }


def stored_events(game: str, since: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The events of ``game``'s sources from the cut ``since`` on (all without one), in
    rating order from a cut: (session id, event id, person id, whether the event's time is
    its source's, then ``EVENT_VALUES`` after the time)."""
    _sources_sql, events_sql = _stored_sql(bool(since))
    with connection.cursor() as cursor:
        cursor.execute(events_sql, [game, *since])
        return cursor.fetchall()


class StoredState(NamedTuple):
    """A stored rating state, as an update compares it with the one it computes."""

    pk: int
    person_id: int
    mu: float
    sigma: float
    games: int
    tables: int
    last_event_id: int | None


def rating_states(game: str, persons: set[int] | None) -> dict[int, StoredState]:
    """``game``'s stored states, by person: of ``persons``, or all (None)."""
    if persons is not None and not persons:
        return {}
    sql = (
        "SELECT id, person_id, mu, sigma, games, tables, last_event_id "  # noqa: S608
        f"FROM {quoted(RatingState)} WHERE game = %s"
    )
    params: list[Any] = [game]
    if persons is not None:
        sql += f" AND person_id IN ({placeholders(list(persons))})"
        params += list(persons)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {row[1]: StoredState(*row) for row in cursor.fetchall()}


def results_version_bump(*, session_id: int) -> tuple[int, int] | None:
    """``results_changed`` for the tournament of a table session, in one statement: its
    (id, new results version), or None when the session is no tournament's table."""
    q = connection.ops.quote_name
    tournament, table, round_ = (m._meta.db_table for m in (Tournament, RoundTable, Round))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {q(tournament)} SET results_version = results_version + 1 "  # noqa: S608
            f"WHERE id = (SELECT r.tournament_id FROM {q(table)} t "
            f"JOIN {q(round_)} r ON r.id = t.round_id WHERE t.session_id = %s) "
            "RETURNING id, results_version",
            [session_id],
        )
        row = cursor.fetchone()
    return (row[0], row[1]) if row else None
