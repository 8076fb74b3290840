"""Reading an untrusted scoresheet file: any bytes give a sheet or a ``SheetError``, never a crash.

``load_sheet`` is shared by the import page and the ``score`` command; what it refuses is
listed in ``scoring/engines/scoresheet.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engines.errors import SheetError
from scoring.engines.scoresheet import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_SHEET_BYTES,
    load_sheet,
)
from scoring.engines.sheet_checks import MAX_NAME_LENGTH, shown
from scoring.engines.sheets import score_sheet

SHEETS = Path(__file__).resolve().parents[1] / "fixtures" / "sheets"
KOP = (SHEETS / "kop_format_example.json").read_bytes()
VINT = (SHEETS / "vint_single_deals.json").read_bytes()


def problems(raw: bytes | str) -> list[str]:
    with pytest.raises(SheetError) as caught:
        score_sheet(load_sheet(raw))
    return caught.value.problems


def kop_with_player(name: str) -> bytes:
    sheet = json.loads(KOP)
    sheet["players"][1] = name
    return json.dumps(sheet).encode()


def vint_with_player(name: str) -> bytes:
    sheet = json.loads(VINT)
    for rubber in sheet["rubbers"]:
        rubber["seats"]["E"] = name
    return json.dumps(sheet).encode()


def test_good_sheets_load_with_or_without_a_byte_order_mark():
    assert load_sheet(KOP) == json.loads(KOP)
    assert load_sheet(b"\xef\xbb\xbf" + VINT) == json.loads(VINT)
    assert load_sheet(KOP.decode()) == json.loads(KOP)


@pytest.mark.parametrize(
    ("raw", "line"),
    [
        (b"[" * 100_000 + b"]" * 100_000, f"sheet: nested deeper than {MAX_DEPTH} levels"),
        (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "nested deeper than"),
        (b"[" * 100_000, "nested deeper than"),  # not even closed
        (b'{"game": "kop", "deals": [' + b"9" * 5000 + b"]}", "a number of 5,000 digits"),
        (b'{"game": "kop", "deals": [-' + b"9" * 19 + b"]}", "a number of 19 digits"),
        (b'{"n": NaN}', "NaN is not a JSON number"),
        (b'{"n": -Infinity}', "-Infinity is not a JSON number"),
        (b"\xff\xfe{}", "sheet: not UTF-8 text (byte 1)"),
        (b'{"game": "kop\xed\xa0\x80"}', "not UTF-8 text"),  # a surrogate, UTF-8 encoded
        (b"{", "sheet: not valid JSON: Expecting property name"),
        (b"", "sheet: not valid JSON"),
        (b"[1, 2]", "sheet: expected a JSON object"),
        (b'"kop"', "sheet: expected a JSON object"),
        (b" " * (MAX_SHEET_BYTES + 1), "larger than 2,000,000 bytes"),
        (rb'{"game": "kop", "players": ["\ud800", "B", "C", "D"]}', "players[0]: contains an"),
        (rb'{"game": "kop\u0000"}', "game: contains a NUL character"),
        (rb'{"ga\u0000me": "kop"}', "sheet: a key contains a NUL character"),
        (rb'{"game": "vint", "rubbers": [{"seats": {"N": "\udfff"}}]}', "rubbers[0].seats.N"),
    ],
    ids=[
        "100k-brackets",
        "100k-objects",
        "unclosed",
        "5000-digits",
        "19-digits",
        "nan",
        "infinity",
        "not-utf8",
        "utf8-surrogate",
        "truncated",
        "empty",
        "array",
        "string",
        "too-large",
        "lone-surrogate",
        "nul-value",
        "nul-key",
        "nested-surrogate",
    ],
)
def test_unreadable_sheets_are_one_line_problems(raw, line):
    found = problems(raw)
    assert len(found) == 1
    assert line in found[0]


def test_brackets_inside_strings_do_not_count_as_nesting():
    sheet = json.loads(KOP)
    sheet["players"][0] = "[" * 1000 + "{" * 1000
    assert load_sheet(json.dumps(sheet).encode())["players"][0].startswith("[[[")


def test_the_deepest_sheet_allowed_still_loads_and_one_more_level_does_not():
    deepest = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    assert load_sheet(f'{{"a": {deepest}}}')["a"] == json.loads(deepest)
    with pytest.raises(SheetError):
        load_sheet(f'{{"a": [{deepest}]}}')


def test_eighteen_digits_are_a_number_nineteen_are_not():
    assert load_sheet('{"n": -' + "9" * MAX_INT_DIGITS + "}")["n"] == -int("9" * 18)


@pytest.mark.parametrize("with_player", [kop_with_player, vint_with_player], ids=["kop", "vint"])
def test_player_names_are_at_most_120_characters_of_text(with_player):
    assert score_sheet(load_sheet(with_player("B" * MAX_NAME_LENGTH)))
    for name, says in [
        ("B" * (MAX_NAME_LENGTH + 1), "the name is longer than 120 characters (121)"),
        ("Bar\x00tek", "contains a NUL character"),
        ("Bar\ud800tek", "contains an unpaired surrogate"),
    ]:
        lines = problems(with_player(name))  # a Vint sheet names the player in every rubber
        assert lines and all(says in line for line in lines), lines


def test_names_with_nul_or_surrogates_are_refused_by_the_readers_too():
    """``score_sheet`` is also called on dicts that did not come through ``load_sheet``."""
    for name in ("Bar\x00tek", "Bar\udc00tek", "x" * 500):
        sheet = json.loads(kop_with_player(name))
        with pytest.raises(SheetError) as caught:
            score_sheet(sheet)
        assert "players: seat 2: " in caught.value.problems[0]


def test_long_values_are_quoted_short_in_problems():
    assert shown("z" * 10_000).endswith("…") and len(shown("z" * 10_000)) == 80
    sheet = json.loads(KOP)
    sheet["players"] = ["z" * 100_000]
    [line] = problems(json.dumps(sheet))
    assert line.startswith("players: expected a list of 4 names") and len(line) < 200


@settings(max_examples=300, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_any_bytes_load_or_are_refused_with_a_sheet_error(raw):
    try:
        score_sheet(load_sheet(raw))
    except SheetError as exc:
        assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([KOP, VINT]),
    st.sampled_from(["game", "rules", "players", "deals", "rubbers"]),
    JSON_VALUES,
)
def test_a_sheet_with_any_json_in_a_key_is_scored_or_refused(base, key, value):
    sheet = json.loads(base)
    sheet[key] = value
    try:
        result = score_sheet(load_sheet(json.dumps(sheet).encode()))
    except SheetError as exc:
        assert exc.problems
    else:
        json.dumps(result)
