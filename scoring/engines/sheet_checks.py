"""Checks every sheet reader shares: storable text, players' names, values quoted short."""

from __future__ import annotations

import json
import re

#: A player's name, as long as the club's register stores (``clubs.Player.name``).
MAX_NAME_LENGTH = 120

_SURROGATE = re.compile("[\\ud800-\\udfff]")


def text_problem(text: str) -> str | None:
    """Why ``text`` is not storable text (a NUL, an unpaired surrogate), or ``None``."""
    if "\x00" in text:
        return "contains a NUL character"
    if _SURROGATE.search(text):
        return "contains an unpaired surrogate (not Unicode text)"
    return None


def name_problem(name: object) -> str | None:
    """What is wrong with a player's name on a sheet, or ``None`` for a good one."""
    if not isinstance(name, str):
        return None  # the sheet readers say "expected a name" with the value
    if not name.strip():
        return "the name is blank"
    if len(name) > MAX_NAME_LENGTH:
        return f"the name is longer than {MAX_NAME_LENGTH} characters ({len(name):,})"
    return text_problem(name)


def shown(value: object, limit: int = 80) -> str:
    """A value as the JSON the scorer typed (true, null, "zolo"), cut short if long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"
