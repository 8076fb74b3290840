"""Standings written in bulk: ``json_text``, the JSON of a snapshot and of each of its
rows, written whole on every recompute. (The rows themselves go to PostgreSQL by COPY:
``tournaments.sql.copy_rows``.)"""

from __future__ import annotations

from typing import Any

import orjson


def json_text(value: Any) -> str:
    """``value`` as JSON text, as ``json.dumps`` writes it (keys that are not strings as
    strings), several times faster: standings documents are written whole on every
    recompute."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
