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
from itertools import accumulate
from typing import Any

from scoring.engines.errors import SheetError
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
            raise SheetError([f"sheet: the file is larger than {MAX_SHEET_BYTES:,} bytes"])
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise SheetError([f"sheet: not UTF-8 text (byte {exc.start + 1})"]) from None
    if len(raw) > MAX_SHEET_BYTES:
        raise SheetError([f"sheet: the file is larger than {MAX_SHEET_BYTES:,} bytes"])
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise SheetError(["sheet: expected a JSON object"])
    return data


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
        raise SheetError(
            [f"{where}: not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"]
        ) from None
    except _Refused as exc:
        raise SheetError([f"{where}: {exc}"]) from None
    except RecursionError:  # the depth check should have caught it; never a traceback
        raise SheetError([f"{where}: nested deeper than {MAX_DEPTH} levels"]) from None
    problems = _text_problems(data, where)
    if problems:
        raise SheetError(problems)
    return data


class _Refused(ValueError):
    """A JSON value that is valid but refused (see the module docstring)."""


def _check_depth(text: str, where: str) -> None:
    # Brackets inside strings do not nest: drop the strings, keep the brackets.
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    deepest = max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)
    if deepest > MAX_DEPTH:
        raise SheetError([f"{where}: nested deeper than {MAX_DEPTH} levels"])


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"a number of {len(digits.lstrip('-')):,} digits (at most {MAX_INT_DIGITS})")
    return int(digits)


def _parse_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999: JSON cannot write it back
        raise _Refused(f"{text[:20]} is too large a number")
    return number


def _reject_constant(name: str) -> None:
    raise _Refused(f"{name} is not a JSON number")


def _text_problems(value: object, where: str) -> list[str]:
    """A line for each string (key or value) that holds a NUL or an unpaired surrogate."""
    problems: list[str] = []
    stack: list[tuple[object, str]] = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem:
                problems.append(f"{path}: {problem}")
        elif isinstance(item, dict):
            for key, child in item.items():
                problem = text_problem(key)
                if problem:
                    problems.append(f"{path}: a key {problem}")
                    continue
                stack.append((child, key if path == where else f"{path}.{key}"))
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(item))
    return sorted(problems)


def score_sheet(data: object) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SheetError(["sheet: expected a JSON object"])
    game = data.get("game")
    if game in ("kop", "baska"):
        from scoring.engines.kop_sheet import score_kop_sheet

        return score_kop_sheet(data)
    if game == "vint":
        from scoring.engines.vint_sheet import score_vint_sheet

        return score_vint_sheet(data)
    raise SheetError([f"game: {shown(game)} is not one of {', '.join(GAMES)}"])
