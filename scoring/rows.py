"""A deal save's statements, written out once per model and kept.

A save runs the same few statements on every deal: the session locked and read with
the rows it needs (``row_locked``), the deal and its history row inserted and the
session's tally updated (``rows_write``: one statement on PostgreSQL), and its answer
reads a few rows (``rows_where``).
Building each of them through the ORM's query compiler costs more than running it (on
PostgreSQL about 1 ms against 0.3 ms), so here each statement is written once per
model (and per shape: which related rows, which extra columns) from the model's own
metadata, cached, and sent with the row's values prepared by the fields themselves
(``get_db_prep_save``: JSON, dates and choices as the ORM stores them). The instances
that come back are ordinary model instances (``Model.from_db``), with the related rows
cached as ``select_related`` caches them.

Nothing else goes through here: reads for pages and every rare write use the ORM. Other
hand-written statements (the ratings' reads) read their values with ``reader``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model


def _q(name: str | None) -> str:
    return connection.ops.quote_name(str(name))


@functools.cache
def _columns(model: type[Model], alias: str, defer: tuple[str, ...] = ()) -> tuple[list[str], str]:
    fields = [f for f in model._meta.concrete_fields if f.attname not in defer]
    return [f.attname for f in fields], ", ".join(f"{alias}.{_q(f.column)}" for f in fields)


def rows_where[M: Model](
    model: type[M], where: str, params: Sequence[Any], *, join: str = ""
) -> list[M]:
    """``model``'s rows by ``where`` (the SQL after WHERE, with %s for ``params``; ``t``
    is this table, and ``join`` may join others to it), as model instances."""
    return [row for row, _more in rows_with(model, (), where, params, join=join)]


def rows_with[M: Model](
    model: type[M],
    more: Sequence[str],
    where: str,
    params: Sequence[Any],
    *,
    join: str = "",
    prepared: bool = False,
    defer: tuple[str, ...] = (),
) -> list[tuple[M, tuple[Any, ...]]]:
    """``rows_where``, each row with the values of the SQL expressions ``more`` (as the
    database sends them), read in the same statement (``prepared``: see
    ``prepared_cursor``). ``defer``: fields left unread, as ``QuerySet.defer`` leaves
    them (read on first use)."""
    names, sql = _select_sql(model, tuple(more), where, join, defer)
    with prepared_cursor() if prepared else connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    db, n = connection.alias, len(names)
    return [
        (model.from_db(db, names, _converted(model, list(row[:n]), defer)), tuple(row[n:]))
        for row in found
    ]


@functools.lru_cache(maxsize=256)  # bounded: its key is the statement's text
def _select_sql(
    model: type[Model], more: tuple[str, ...], where: str, join: str, defer: tuple[str, ...]
) -> tuple[list[str], str]:
    """``rows_with``'s statement, written once per shape (a page's read runs it on every
    request)."""
    names, select = _columns(model, "t", defer)
    extra = "".join(f", {expression}" for expression in more)
    table = _q(model._meta.db_table)
    return names, f"SELECT {select}{extra} FROM {table} t {join} WHERE {where}"  # noqa: S608


def prepared_cursor() -> Any:
    """A cursor for the statements sent over and over: a save's locked read and its writes
    (``row_locked``, ``rows_write``), the public standings page's read and its poll. On
    PostgreSQL the server keeps each one planned on the connection (server-side binding;
    psycopg prepares a statement on its first use and then only executes it): planning
    them cost the server more than running them. Django's own cursor elsewhere, or with
    ``settings.DATABASE_PREPARED`` off (behind a connection pooler that cannot keep
    prepared statements, PgBouncer before 1.21). Django's query log shows such a
    statement as "QUERY = '...' - PARAMS = ...": it cannot write the parameters in."""
    django: Any = connections[DEFAULT_DB_ALIAS]  # looked up once: the proxy looks up each use
    if django.vendor != "postgresql" or not settings.DATABASE_PREPARED:
        return django.cursor()
    import psycopg

    django.close_if_health_check_failed()
    django.ensure_connection()
    raw = django.connection
    if raw.prepare_threshold is None:  # Django's: it binds on the client and never prepares
        raw.prepare_threshold = 0  # then only cursors binding on the server prepare
    with django.wrap_database_errors:  # its cursor wrapping, as ``connection.cursor()`` does it
        return django._prepare_cursor(psycopg.Cursor(raw))


@dataclass(frozen=True)
class Along:
    """Rows that a locked read brings along with its row (``row_locked``), in the same
    statement: ``model``'s rows by ``where`` (``a`` is ``model``'s table, ``t`` the locked
    row; ``join`` may join others to ``a``), in ``order``, set on the locked row's instance
    as the list ``name``. On PostgreSQL one lateral join of one array per column; elsewhere
    nothing is brought and the caller reads them itself (SQLite runs in the process: a
    read of its own costs no round trip)."""

    name: str
    model: type[Model]
    where: str
    join: str = ""
    order: str = ""

    def sql(self) -> str:
        by = f" ORDER BY {self.order}" if self.order else ""
        columns = ", ".join(
            f"array_agg(a.{_q(f.column)}{by}) AS c{n}"
            for n, f in enumerate(self.model._meta.concrete_fields)
        )
        table = _q(self.model._meta.db_table)
        return (
            f"LEFT JOIN LATERAL (SELECT {columns} FROM {table} a {self.join} "  # noqa: S608
            f"WHERE {self.where}) along ON true"
        )

    def rows(self, columns: Sequence[list[Any] | None]) -> list[Any]:
        if columns[0] is None:  # no row: array_agg of nothing is NULL
            return []
        names, _select = _columns(self.model, "a")
        db = connection.alias
        return [
            self.model.from_db(db, names, _converted(self.model, [c[i] for c in columns]))  # type: ignore[index]
            for i in range(len(columns[0]))
        ]


@functools.cache
def _locked_sql(
    model: type[Model],
    related: tuple[str, ...],
    extra: tuple[tuple[str, str], ...],
    along: Along | None,
    vendor: str,
) -> tuple[str, list[tuple[Any, type[Model], list[str], bool]], list[str]]:
    names, select = _columns(model, "t")
    joins: list[str] = []
    parts: list[tuple[Any, type[Model], list[str], bool]] = []
    for i, name in enumerate(related):
        field: Any = model._meta.get_field(name)
        other: Any = field.related_model
        alias = f"r{i}"
        other_names, other_select = _columns(other, alias)
        if field.concrete:  # a foreign key on this row
            on = f"{alias}.{_q(other._meta.pk.column)} = t.{_q(field.column)}"
        else:  # the other row's one-to-one onto this one
            on = f"{alias}.{_q(field.field.column)} = t.{_q(model._meta.pk.column)}"
        joins.append(f"LEFT JOIN {_q(other._meta.db_table)} {alias} ON {on}")
        select += ", " + other_select
        parts.append((field, other, other_names, field.concrete))
    select += "".join(f", ({sql}) AS {_q(key)}" for key, sql in extra)
    if along is not None:
        joins.append(along.sql())
        select += "".join(f", along.c{n}" for n in range(len(along.model._meta.concrete_fields)))
    lock = " FOR UPDATE OF t" if vendor != "sqlite" else ""
    sql = (
        f"SELECT {select} FROM {_q(model._meta.db_table)} t {' '.join(joins)} "  # noqa: S608
        f"WHERE t.{_q(model._meta.pk.column)} = %s{lock}"
    )
    return sql, parts, names


def row_locked(
    model: Any,
    pk: int,
    *,
    related: Sequence[str] = (),
    extra: Mapping[str, str] | None = None,
    extra_params: Sequence[Any] = (),
    along: Along | None = None,
) -> Any:
    """The row ``pk`` of ``model``, locked for this transaction (``SELECT ... FOR UPDATE``;
    on SQLite the transaction's write lock does it), read with the ``related`` rows (a
    foreign key's, or a one-to-one onto it: cached as ``select_related`` caches them, None
    when there is none) and the ``extra`` columns (name: a scalar subquery that may use
    ``t`` for this row; ``extra_params`` fill them in order), and the rows ``along``
    brings (PostgreSQL). ``model.DoesNotExist`` when there is no such row."""
    low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
    if not (low is None or low <= pk) or not (high is None or pk <= high):  # as the ORM: no row
        raise model.DoesNotExist(f"{model.__name__} {pk} not found")
    extra = extra or {}
    vendor = connection.vendor
    if vendor != "postgresql":
        along = None
    sql, parts, names = _locked_sql(model, tuple(related), tuple(extra.items()), along, vendor)
    with prepared_cursor() as cursor:
        cursor.execute(sql, [*extra_params, pk])
        found = cursor.fetchone()
    if found is None:
        raise model.DoesNotExist(f"{model.__name__} {pk} not found")
    row = list(found)
    db = connection.alias
    width = len(names)
    instance = model.from_db(db, names, _converted(model, row[:width]))
    at = width
    for field, other, other_names, forward in parts:
        values = row[at : at + len(other_names)]
        at += len(other_names)
        related_row = None
        if values[other_names.index(other._meta.pk.attname)] is not None:
            related_row = other.from_db(db, other_names, _converted(other, values))
        field.set_cached_value(instance, related_row)
        if not forward and related_row is not None:  # and the other row's way back
            field.field.set_cached_value(related_row, instance)
    for key, value in zip(extra, row[at : at + len(extra)], strict=True):
        setattr(instance, key, value)
    if along is not None:
        setattr(instance, along.name, along.rows(row[at + len(extra) :]))
    return instance


def _converted(model: type[Model], values: list[Any], defer: tuple[str, ...] = ()) -> list[Any]:
    """Values as the ORM reads them (JSON decoded, SQLite's dates parsed): each field's
    converters, as the compiler applies them (the fields read: all but ``defer``)."""
    if not any(_converters(model, defer)):
        return values
    out = list(values)
    for i, converters in enumerate(_converters(model, defer)):
        for convert, expression in converters:
            out[i] = convert(out[i], expression, connection)
    return out


@functools.cache
def _field_converters(field: Field[Any, Any], vendor: str) -> tuple[Any, ...]:
    column = field.get_col(field.model._meta.db_table)
    found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
    return tuple((convert, column) for convert in found)


@functools.cache
def _converters_for(
    model: type[Model], vendor: str, defer: tuple[str, ...]
) -> tuple[tuple[Any, ...], ...]:
    fields = model._meta.concrete_fields
    return tuple(_field_converters(f, vendor) for f in fields if f.attname not in defer)


def reader(field: Field[Any, Any]) -> Callable[[Any], Any]:
    """How to read ``field``'s column (or an aggregate of it) as the database sends it into
    what the ORM gives: SQLite sends dates as text or naive, the ORM gives them aware.
    Made once per read and applied to each value (on PostgreSQL most fields need nothing:
    then it gives the value back as it is, without looking up converters per value)."""
    converters = _field_converters(field, connection.vendor)
    if not converters:
        return _same

    def read(value: Any) -> Any:
        for convert, expression in converters:
            value = convert(value, expression, connection)
        return value

    return read


def _same(value: Any) -> Any:
    return value


def _converters(model: type[Model], defer: tuple[str, ...] = ()) -> tuple[tuple[Any, ...], ...]:
    return _converters_for(model, connection.vendor, defer)


@functools.cache
def _insert_sql(model: type[Model]) -> tuple[str, tuple[Field[Any, Any], ...]]:
    fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
    columns = ", ".join(_q(f.column) for f in fields)
    values = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {_q(model._meta.db_table)} ({columns}) VALUES ({values})"  # noqa: S608
    return sql, fields


def _insert(instance: Model) -> tuple[str, list[Any]]:
    """The INSERT of ``instance`` (without RETURNING) and its values, as ``save()`` makes
    them: the fields' defaults and ``auto_now`` filled in."""
    sql, fields = _insert_sql(type(instance))
    return sql, [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]


def _update(instance: Model, fields: Sequence[str]) -> tuple[str, list[Any]]:
    meta = type(instance)._meta
    chosen: list[Any] = [meta.get_field(name) for name in fields]
    sets = ", ".join(f"{_q(f.column)} = %s" for f in chosen)
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in chosen]
    sql = f"UPDATE {_q(meta.db_table)} SET {sets} WHERE {_q(meta.pk.column)} = %s"  # noqa: S608
    return sql, [*params, instance.pk]


def _inserted(instance: Model, pk: Any) -> None:
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias


def row_insert[M: Model](instance: M) -> M:
    """Insert ``instance`` (a new row with an automatic id) as ``save()`` would, and set
    its new id. No signals are sent (the models that go through here have no listeners)."""
    rows_write(inserts=[instance])
    return instance


def rows_write(
    *, inserts: Sequence[Model] = (), updates: Sequence[tuple[Model, Sequence[str]]] = ()
) -> None:
    """Insert ``inserts`` (new rows: their ids are set) and update ``updates`` (a row and
    the fields to write). On PostgreSQL in one statement, whatever their number: each is a
    data-modifying part of a ``WITH``, which PostgreSQL runs exactly once (a save's deal,
    history row and tally: one round trip, not three). Elsewhere one statement each."""
    if connection.vendor != "postgresql" or len(inserts) + len(updates) < 2:
        returning = bool(connection.features.can_return_columns_from_insert)
        with prepared_cursor() as cursor:
            for instance in inserts:
                sql, values = _insert(instance)
                cursor.execute(sql + (f" RETURNING {_pk(instance)}" if returning else ""), values)
                _inserted(instance, cursor.fetchone()[0] if returning else cursor.lastrowid)
            for instance, fields in updates:
                cursor.execute(*_update(instance, fields))
        return
    parts: list[str] = []
    params: list[Any] = []
    for n, instance in enumerate(inserts):
        sql, values = _insert(instance)
        parts.append(f"i{n} AS ({sql} RETURNING {_pk(instance)})")
        params += values
    for n, (instance, fields) in enumerate(updates):
        sql, values = _update(instance, fields)
        parts.append(f"u{n} AS ({sql})")
        params += values
    ids = ", ".join(f"(SELECT * FROM i{n})" for n in range(len(inserts))) or "1"
    with prepared_cursor() as cursor:
        cursor.execute(f"WITH {', '.join(parts)} SELECT {ids}", params)
        found = cursor.fetchone()
    for instance, pk in zip(inserts, found, strict=False):
        _inserted(instance, pk)


def _pk(instance: Model) -> str:
    return _q(type(instance)._meta.pk.column)
