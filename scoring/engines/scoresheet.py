"""Read and score any scoresheet (``shared/formats/scoresheet-json.md``) by its ``game``.

``load_sheet(raw)`` turns the bytes of a file into the sheet's JSON object, or raises
``SheetError``; it is the one place that reads untrusted JSON, for the import page and
the ``score`` command alike, so their safeguards cannot drift apart. ``score_sheet(data)``
returns the output document or raises ``SheetError`` with one line per problem; both
touch nothing outside their arguments.

What ``load_sheet`` refuses, each as one line naming where it is: bytes that are not
UTF-8, a file over ``MAX_SHEET_BYTES``, JSON nested deeper than ``MAX_DEPTH`` (a sheet
needs five levels; a hundred thousand brackets would exhaust the parser's stack), an
integer of more than ``MAX_INT_DIGITS`` digits (Python refuses to read 4,300 and more,
and no count on a sheet needs 19), ``NaN``, ``Infinity`` and numbers like ``1e999``,
and text holding a NUL or an unpaired surrogate (``"\\ud800"``: valid JSON, but not
text that a database or a terminal can store or print). ``parse_json`` applies the
same limits to JSON typed into a form.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from itertools import accumulate
from typing import Any

from scoring.engines.errors import Param, Problem, SheetError, sheet_problem
from scoring.engines.sheet_checks import shown, text_problem

GAMES = ("kop", "baska", "vint")

#: The largest sheet read, in bytes: a long Vint evening is about 100 kB.
MAX_SHEET_BYTES = 2_000_000
#: Arrays and objects within each other: a Vint sheet uses five levels.
MAX_DEPTH = 20
#: Digits of a JSON integer; 18 keep every value within a 64-bit database column.
MAX_INT_DIGITS = 18

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def load_sheet(raw: bytes | str) -> dict[str, Any]:
    """The JSON object of a scoresheet file; ``SheetError`` (one line) if it cannot be read.

    Only the reading is checked here; ``score_sheet`` checks what the sheet says.
    """
    if isinstance(raw, bytes):
        if len(raw) > MAX_SHEET_BYTES:
            raise SheetError([_too_large()])
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            byte = exc.start + 1
            raise SheetError(
                [
                    sheet_problem(
                        "sheet.not_utf8", f"not UTF-8 text (byte {byte})", "sheet", byte=byte
                    )
                ]
            ) from None
    if len(raw) > MAX_SHEET_BYTES:
        raise SheetError([_too_large()])
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise SheetError([not_an_object()])
    return data


def _too_large() -> Problem:
    text = f"the file is larger than {MAX_SHEET_BYTES:,} bytes"
    return sheet_problem("sheet.too_large", text, "sheet", limit=MAX_SHEET_BYTES)


def not_an_object(data: object = None, *, shown_value: bool = False) -> Problem:
    """The line for a sheet that is not a JSON object (with the value, if ``shown_value``)."""
    if shown_value:
        value = shown(data)
        text = f"expected a JSON object, got {value}"
        return sheet_problem("sheet.not_an_object_got", text, "sheet", value=value)
    return sheet_problem("sheet.not_an_object", "expected a JSON object", "sheet")


def parse_json(text: str, where: str = "sheet") -> Any:
    """``text`` as JSON, within the limits of the module docstring, or ``SheetError``.

    Also what a form's JSON field uses (rule options typed into a page).
    """
    _check_depth(text, where)
    try:
        data = json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_reject_constant
        )
    except json.JSONDecodeError as exc:
        text = f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        raise SheetError(
            [sheet_problem("sheet.not_json", text, where, line=exc.lineno, column=exc.colno)]
        ) from None
    except _Refused as exc:
        line = sheet_problem(exc.code, str(exc), where)
        raise SheetError([replace(line, params={**exc.params, **line.params})]) from None
    except RecursionError:  # the depth check should have caught it; never a traceback
        raise SheetError([_too_deep(where)]) from None
    problems = _text_problems(data, where)
    if problems:
        raise SheetError(problems)
    return data


class _Refused(ValueError):
    """A JSON value that is valid but refused (see the module docstring)."""

    def __init__(self, text: str, code: str, **params: Param) -> None:
        super().__init__(text)
        self.code, self.params = code, params


def _too_deep(where: str) -> Problem:
    text = f"nested deeper than {MAX_DEPTH} levels"
    return sheet_problem("sheet.too_deep", text, where, limit=MAX_DEPTH)


def _check_depth(text: str, where: str) -> None:
    # Brackets inside strings do not nest: drop the strings, keep the brackets.
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    deepest = max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)
    if deepest > MAX_DEPTH:
        raise SheetError([_too_deep(where)])


def _parse_int(digits: str) -> int:
    count = len(digits.lstrip("-"))
    if count > MAX_INT_DIGITS:
        raise _Refused(
            f"a number of {count:,} digits (at most {MAX_INT_DIGITS})",
            "sheet.number_too_long",
            digits=count,
            limit=MAX_INT_DIGITS,
        )
    return int(digits)


def _parse_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999: JSON cannot write it back
        raise _Refused(
            f"{text[:20]} is too large a number", "sheet.number_too_large", value=text[:20]
        )
    return number


def _reject_constant(name: str) -> None:
    raise _Refused(f"{name} is not a JSON number", "sheet.not_a_number", value=name)


def _text_problems(value: object, where: str) -> list[Problem]:
    """A line for each string (key or value) that holds a NUL or an unpaired surrogate."""
    problems: list[Problem] = []
    stack: list[tuple[object, str]] = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                problems.append(problem.at(path))
        elif isinstance(item, dict):
            for key, child in item.items():
                problem = text_problem(key)
                if problem:
                    problems.append(problem.at(path, key=True))
                    continue
                stack.append((child, key if path == where else f"{path}.{key}"))
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(item))
    return sorted(problems, key=lambda p: p.message)


def game_unknown(game: object) -> Problem:
    value = shown(game)
    text = f"{value} is not one of {', '.join(GAMES)}"
    return sheet_problem("sheet.game_unknown", text, "game", value=value, games=list(GAMES))
