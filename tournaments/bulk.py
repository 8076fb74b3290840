"""Writing many rows at once on PostgreSQL: ``COPY ... FROM STDIN``.

An INSERT of many rows sends every value inside its SQL text (psycopg binds parameters
on the client), and quoting them costs more than the insert itself; COPY streams the
rows as they are, each value converted by the driver's C dumpers. Elsewhere (SQLite, the
embedded default) the ORM's ``bulk_create`` does the same job.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import orjson
from django.db import connection


def copy_rows(model: Any, fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """COPY ``rows`` (values of ``fields``, attribute names, in order) into ``model``'s
    table; PostgreSQL only."""
    meta = model._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(f).column) for f in fields)
    sql = f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)


def json_text(value: Any) -> str:
    """``value`` as JSON text, as ``json.dumps`` writes it (keys that are not strings as
    strings), several times faster: standings documents are written whole on every
    recompute."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
