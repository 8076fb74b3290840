"""Checks every sheet reader shares: storable text, players' names, values quoted short."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.engines.errors import Params, Problem, sheet_problem

#: A player's name, as long as the club's register stores (``clubs.Player.name``).
MAX_NAME_LENGTH = 120

_SURROGATE = re.compile("[\\ud800-\\udfff]")


@dataclass(frozen=True)
class Fault:
    """What is wrong with a piece of text: a code's last part, the English, the params."""

    code: str
    text: str
    params: Params = field(default_factory=dict)

    def at(self, where: str, *, key: bool = False, said: str | None = None) -> Problem:
        """The sheet line for this fault in the value (or a key, if ``key``) at ``where``."""
        if key:
            return sheet_problem(f"sheet.key_{self.code}", f"a key {self.text}", where, said=said)
        return sheet_problem(f"sheet.{self.code}", self.text, where, said=said, **self.params)


def text_problem(text: str) -> Fault | None:
    """Why ``text`` is not storable text (a NUL, an unpaired surrogate), or ``None``."""
    if "\x00" in text:
        return Fault("text_nul", "contains a NUL character")
    if _SURROGATE.search(text):
        return Fault("text_surrogate", "contains an unpaired surrogate (not Unicode text)")
    return None


def name_problem(name: object) -> Fault | None:
    """What is wrong with a player's name on a sheet, or ``None`` for a good one."""
    if not isinstance(name, str):
        return None  # the sheet readers say "expected a name" with the value
    if not name.strip():
        return Fault("name_blank", "the name is blank")
    if len(name) > MAX_NAME_LENGTH:
        text = f"the name is longer than {MAX_NAME_LENGTH} characters ({len(name):,})"
        return Fault("name_too_long", text, {"limit": MAX_NAME_LENGTH, "length": len(name)})
    return text_problem(name)


def shown(value: object, limit: int = 80) -> str:
    """A value as the JSON the scorer typed (true, null, "zolo"), cut short if long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


#: What a sheet's key should hold, by the name its ``sheet.expected_*`` code ends in.
EXPECTED = {
    "integer": "an integer",
    "bool": "true or false",
    "name": "a name",
    "object": "an object",
    "object_with": "an object with {keys}",
    "list": "a list",
    "seat_list": "a list of seats",
    "messages": "a list of messages",
    "players": "a list of 4 names (seats 1..4)",
    "deals": "a list of deals",
    "rubbers": "a non-empty list of rubbers",
    "options": "an object of options",
    "side": "a side (NS, EW)",
    "seat": "a seat (N, E, S, W)",
    "suit": "a suit (S, C, D, H)",
    "contract": 'a contract such as "4H" or "pass"',
    "holding": "an object with side, count",
    "grand_aces": "an object with side, count (omit it on a 2-2 split)",
}


def expected(
    where: str | None,
    what: str,
    value: object,
    keys: Sequence[str] | None = None,
    *,
    said: str | None = None,
) -> Problem:
    """The line for a key that holds the wrong kind of value (``what``: a key of
    ``EXPECTED``); ``keys`` are the keys an object needs."""
    params: Params = {"value": shown(value)}
    if keys is not None:
        params["keys"] = list(keys)
    text = f"expected {EXPECTED[what].format(keys=', '.join(keys or []))}, got {shown(value)}"
    return sheet_problem(f"sheet.expected_{what}", text, where, said=said, **params)


def unknown_key(where: str, allowed: Sequence[str]) -> Problem:
    text = f"unknown key (allowed: {', '.join(allowed)})"
    return sheet_problem("sheet.unknown_key", text, where, allowed=list(allowed))


def missing(where: str) -> Problem:
    return sheet_problem("sheet.missing", "missing", where)


def already_seated(where: str, name: str, seat: int | str, *, said: str | None = None) -> Problem:
    text = f"{shown(name)} already sits at {'seat ' if isinstance(seat, int) else ''}{seat}"
    return sheet_problem("sheet.name_repeated", text, where, said=said, name=shown(name), seat=seat)


#: Every code of a sheet's structure problems (``sheet.*``), whichever reader finds it.
CODES = frozenset(
    {
        *(f"sheet.expected_{what}" for what in EXPECTED),
        *(f"sheet.{fault}" for fault in ("text_nul", "text_surrogate")),
        *(f"sheet.key_{fault}" for fault in ("text_nul", "text_surrogate")),
        "sheet.name_blank",
        "sheet.name_too_long",
        "sheet.name_repeated",
        "sheet.unknown_key",
        "sheet.missing",
        "sheet.too_large",
        "sheet.not_utf8",
        "sheet.not_json",
        "sheet.too_deep",
        "sheet.number_too_long",
        "sheet.number_too_large",
        "sheet.not_a_number",
        "sheet.not_an_object",
        "sheet.not_an_object_got",
        "sheet.game_unknown",
        "sheet.not_vint",
        "sheet.not_a_seat",
        "sheet.not_on_all_pass",
        "sheet.players_differ",
        "sheet.players_same_person",
    }
)
