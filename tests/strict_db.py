"""SQLite, strict as PostgreSQL where bad input is concerned.

The django tier runs on SQLite, which stores what PostgreSQL refuses: a NUL in text
(``ValueError`` from psycopg), an integer beyond 64 bits, text longer than a column's
``max_length``. Each is a 500 in production and invisible in a SQLite test. Inside
``postgres_rules()`` such a query raises ``PostgresWouldRefuse`` instead, so the fuzzing
tests find these bugs without PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

from django.db import connection, models
from django.db.models.query import QuerySet
from django.db.models.signals import pre_save

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class PostgresWouldRefuse(AssertionError):
    """What PostgreSQL would answer with an error (a 500), named."""


def _check_param(value: Any, sql: str) -> None:
    if isinstance(value, str) and "\x00" in value:
        raise PostgresWouldRefuse(f"a NUL in a query parameter: {sql[:120]}")
    # Compared, not ``in range(...)``: for an int subclass (psycopg's Int8, the parameters
    # Django sends PostgreSQL) ``in`` walks the range.
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and not INT64_MIN <= value <= INT64_MAX
    ):
        raise PostgresWouldRefuse(f"an integer beyond 64 bits ({value}): {sql[:120]}")


def _refuse(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
    rows = params if many else [params]
    for row in rows or []:
        values = row.values() if isinstance(row, dict) else row
        for value in values or []:
            _check_param(value, sql)
    return execute(sql, params, many, context)


def _check_lengths(sender: type[models.Model], instance: models.Model, **kwargs: Any) -> None:
    for field in sender._meta.concrete_fields:
        limit = getattr(field, "max_length", None)
        value = getattr(instance, field.attname, None)
        if limit and isinstance(value, str) and len(value) > limit:
            raise PostgresWouldRefuse(
                f"{sender.__name__}.{field.name}: {len(value)} characters, the column holds {limit}"
            )


def _checked_bulk_create(bulk_create: Any) -> Any:
    def checked(self: Any, objs: Any, *args: Any, **kwargs: Any) -> Any:
        objs = list(objs)
        for obj in objs:
            _check_lengths(type(obj), obj)
        return bulk_create(self, objs, *args, **kwargs)

    return checked


def _checked_bulk_update(bulk_update: Any) -> Any:
    def checked(self: Any, objs: Any, *args: Any, **kwargs: Any) -> Any:
        objs = list(objs)
        for obj in objs:
            _check_lengths(type(obj), obj)
        return bulk_update(self, objs, *args, **kwargs)

    return checked


@contextmanager
def lengths_checked() -> Iterator[None]:
    """Every model saved meanwhile holds no text longer than its column (on every test of
    the Django tiers: ``tests/conftest.py``)."""
    pre_save.connect(_check_lengths, dispatch_uid="tests.strict_db")
    try:
        # The writes that send no pre_save: the ORM's bulk inserts and updates (a save's
        # deal and history row, a Vint rubber's deals scored again).
        with (
            patch.object(QuerySet, "bulk_create", _checked_bulk_create(QuerySet.bulk_create)),
            patch.object(QuerySet, "bulk_update", _checked_bulk_update(QuerySet.bulk_update)),
        ):
            yield
    finally:
        pre_save.disconnect(dispatch_uid="tests.strict_db")


@contextmanager
def postgres_rules() -> Iterator[None]:
    with lengths_checked(), connection.execute_wrapper(_refuse):
        yield
