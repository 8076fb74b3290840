"""Kop / Baśka scoresheets (``shared/formats/scoresheet-json.md``).

The fixtures in ``tests/fixtures/sheets`` reproduce every worked example of
``rules/kop.md`` §6.3; the expected numbers below are typed from that table.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engines.errors import RuleError, SheetError
from scoring.engines.kop import KopDeal, default_rules, parse_rules
from scoring.engines.kop_sheet import (
    check_kop_sheet,
    kop_sheet_from_deals,
    read_kop_sheet,
    score_kop_sheet,
)

SHEETS = Path(__file__).resolve().parents[1] / "fixtures" / "sheets"


def load(name: str) -> Any:
    return json.loads((SHEETS / name).read_text(encoding="utf-8"))


# (example, value V, declarers won, payments seats 1-4), from §6.3.
KOP_DEFAULT = [
    ("E1", 1, True, [+1, -1, +1, -1]),
    ("E2", 1, False, [-1, +1, -1, +1]),
    ("E3", 2, True, [-2, +2, -2, +2]),
    ("E4", 3, True, [+3, -3, +3, -3]),
    ("E5", 2, False, [-2, +2, -2, +2]),
    ("E6", 1, False, [-1, +1, -1, +1]),
    ("E7", 2, True, [+2, -2, +2, -2]),
    ("E8", 4, True, [+4, -4, +4, -4]),
    ("E9", 8, False, [+8, -8, +8, -8]),
    ("E10", 32, True, [-32, +32, -32, +32]),
    ("E11", 2, True, [+2, -2, +2, -2]),
    ("E12", 4, True, [+12, -4, -4, -4]),
    ("E13", 8, False, [-24, +8, +8, +8]),
    ("E14", 1, True, [-1, +1, -1, +1]),
    ("E15", 2, False, [+2, -2, +2, -2]),
    ("E16", 5, True, [-5, -5, +15, -5]),
    ("E17", 20, False, [+20, +20, -60, +20]),
    ("E18", 15, True, [-15, -15, +45, -15]),
    ("E19", 10, True, [-10, -10, +30, -10]),
    ("E20", 10, False, [+10, +10, -30, +10]),
]
KOP_KOSCIAN = [
    ("E21", 80, True, [-80, -80, +240, -80]),
    ("E22", 96, True, [+96, -96, +96, -96]),
]
BASKA = [
    ("E23", 1, True, [+1, -1, +1, -1]),
    ("E24", 2, False, [-2, +2, -2, +2]),
    ("E25", 5, True, [-5, +15, -5, -5]),
    ("E26", 80, False, [+80, -240, +80, +80]),
    ("E27", 10, True, [-10, +30, -10, -10]),
    ("E28", 40, False, [+40, +40, +40, -120]),
    ("E29", 10, True, [+30, -10, -10, -10]),
    ("E30", 8, False, [+8, +8, -24, +8]),
]

EXAMPLE_SHEETS = [
    ("kop_examples_default.json", "kop", KOP_DEFAULT),
    ("kop_examples_koscian.json", "kop", KOP_KOSCIAN),
    ("baska_examples.json", "baska", BASKA),
]


@pytest.mark.parametrize(("name", "game", "rows"), EXAMPLE_SHEETS)
def test_example_sheets_score_as_the_document_says(
    name: str, game: str, rows: list[tuple[str, int, bool, list[int]]]
) -> None:
    sheet = load(name)
    out = score_kop_sheet(sheet)
    assert list(out) == ["game", "players", "deals", "totals"]
    assert out["game"] == game
    assert out["players"] == sheet["players"]
    assert len(out["deals"]) == len(rows)
    for got, (example, value, won, payments) in zip(out["deals"], rows, strict=True):
        assert list(got) == ["value", "declarers_won", "payments", "warnings"], example
        assert got["value"] == value, example
        assert got["declarers_won"] is won, example
        assert got["payments"] == payments, example
    assert out["totals"] == [sum(row[3][seat] for row in rows) for seat in range(4)]


def test_koscian_sheet_needs_its_caps() -> None:
    # E22's five doublings (zub) are over the official cap of 4.
    sheet = load("kop_examples_koscian.json")
    del sheet["rules"]
    with pytest.raises(SheetError) as err:
        score_kop_sheet(sheet)
    assert err.value.problems == [
        "deal 2: doubling_seats: [2, 1, 4, 3, 2] make 5 counted doublings, "
        "above the cap of 4 for normal"
    ]


def test_format_document_example() -> None:
    assert score_kop_sheet(load("kop_format_example.json")) == load(
        "kop_format_example.expected.json"
    )


def test_output_is_plain_json() -> None:
    out = score_kop_sheet(load("baska_examples.json"))
    assert json.loads(json.dumps(out)) == out


def test_an_empty_sheet_is_valid() -> None:
    # A session before its first deal: nothing to pay yet.
    assert score_kop_sheet(load("baska_empty.json")) == {
        "game": "baska",
        "players": ["Kasia", "Leszek", "Marta", "Norbert"],
        "deals": [],
        "totals": [0, 0, 0, 0],
    }


def test_every_problem_of_a_bad_sheet_is_reported_at_once() -> None:
    with pytest.raises(SheetError) as err:
        score_kop_sheet(load("kop_bad_many_problems.json"))
    assert err.value.problems == [
        "notes: unknown key (allowed: game, rules, players, deals)",
        "rules: bez_wyjsica_max: not an option of kop; did you mean bez_wyjscia_max?",
        "rules: margin_on_du: 1 is not allowed (true or false)",
        'players: seat 3: "Ala" already sits at seat 1',
        "players: seat 4: expected a name, got true",
        'deal 2: contract: "grand" is not a Kop contract (normal, cicha, wesele, zolo, zolo_du)',
        "deal 3: doublings: expected an integer, got true",
        "deal 3: declarer_points: 105 is outside 0..104",
        "deal 4: doubling_seats: give doublings or doubling_seats, not both",
        "deal 5: doubling_seats: [1, 3, 1, 3, 1] make 5 counted doublings, "
        "above the cap of 4 for zolo",
        "deal 6: dealer: unknown key (allowed: contract, declarers, doublings, "
        "doubling_seats, declarer_points, voided, warnings)",
        "deal 6: declarers: 5 is not a seat (1..4)",
        "deal 6: declarer_points: expected an integer, got 60.0",
    ]
    assert isinstance(err.value, RuleError)


GOOD: dict[str, Any] = {
    "game": "kop",
    "players": ["Ala", "Bartek", "Celina", "Darek"],
    "deals": [
        {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60},
        {"contract": "zolo", "declarers": [3], "doubling_seats": [4, 3], "declarer_points": 28},
    ],
}


def with_change(path: tuple[Any, ...], value: Any, *, delete: bool = False) -> dict[str, Any]:
    sheet = copy.deepcopy(GOOD)
    target: Any = sheet
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return sheet


BAD_SHEETS = [
    # (what, sheet, the one problem line)
    ("not an object", [1, 2], "sheet: expected a JSON object, got [1, 2]"),
    (
        "unknown top-level key",
        with_change(("rule",), {}),
        "rule: unknown key (allowed: game, rules, players, deals)",
    ),
    ("game missing", with_change(("game",), None, delete=True), "game: missing"),
    (
        "game vint",
        with_change(("game",), "vint"),
        'game: "vint" is not a Kop or Baśka game (kop, baska)',
    ),
    ("players missing", with_change(("players",), None, delete=True), "players: missing"),
    (
        "three players",
        with_change(("players",), ["Ala", "Bartek", "Celina"]),
        'players: expected a list of 4 names (seats 1..4), got ["Ala", "Bartek", "Celina"]',
    ),
    (
        "players as an object",
        with_change(("players",), {"1": "Ala"}),
        'players: expected a list of 4 names (seats 1..4), got {"1": "Ala"}',
    ),
    (
        "a number for a name",
        with_change(("players", 1), 7),
        "players: seat 2: expected a name, got 7",
    ),
    ("a blank name", with_change(("players", 3), "  "), "players: seat 4: the name is blank"),
    ("deals missing", with_change(("deals",), None, delete=True), "deals: missing"),
    (
        "deals not a list",
        with_change(("deals",), {"1": {}}),
        'deals: expected a list of deals, got {"1": {}}',
    ),
    ("deal not an object", with_change(("deals", 1), 5), "deal 2: expected an object, got 5"),
    (
        "unknown deal key",
        with_change(("deals", 0, "doubled"), 0),
        "deal 1: doubled: unknown key (allowed: contract, declarers, doublings, "
        "doubling_seats, declarer_points, voided, warnings)",
    ),
    (
        "contract missing",
        with_change(("deals", 0, "contract"), None, delete=True),
        "deal 1: contract: missing",
    ),
    (
        "declarers missing",
        with_change(("deals", 1, "declarers"), None, delete=True),
        "deal 2: declarers: missing",
    ),
    (
        "points missing",
        with_change(("deals", 0, "declarer_points"), None, delete=True),
        "deal 1: declarer_points: missing",
    ),
    (
        "neither doubling key",
        with_change(("deals", 0, "doublings"), None, delete=True),
        "deal 1: doublings: give doublings (the count k) or doubling_seats",
    ),
    (
        "both doubling keys",
        with_change(("deals", 1, "doublings"), 2),
        "deal 2: doubling_seats: give doublings or doubling_seats, not both",
    ),
    (
        "doublings null",
        with_change(("deals", 1, "doublings"), None),
        "deal 2: doublings: expected an integer, got null",
    ),
    (
        "bad contract",
        with_change(("deals", 0, "contract"), "grand"),
        'deal 1: contract: "grand" is not a Kop contract (normal, cicha, wesele, zolo, zolo_du)',
    ),
    (
        "contract as a number",
        with_change(("deals", 0, "contract"), 1),
        "deal 1: contract: 1 is not a Kop contract (normal, cicha, wesele, zolo, zolo_du)",
    ),
    (
        "bad seat",
        with_change(("deals", 0, "declarers"), [1, 5]),
        "deal 1: declarers: 5 is not a seat (1..4)",
    ),
    (
        "seat as a string",
        with_change(("deals", 0, "declarers"), [1, "3"]),
        'deal 1: declarers: "3" is not a seat (1..4)',
    ),
    (
        "seat as a bool",
        with_change(("deals", 1, "declarers"), [True]),
        "deal 2: declarers: true is not a seat (1..4)",
    ),
    (
        "declarers not a list",
        with_change(("deals", 1, "declarers"), 3),
        "deal 2: declarers: expected a list of seats, got 3",
    ),
    (
        "one declarer in a normal game",
        with_change(("deals", 0, "declarers"), [1]),
        "deal 1: declarers: normal needs two different seats, got [1]",
    ),
    (
        "two declarers in a zolo",
        with_change(("deals", 1, "declarers"), [3, 1]),
        "deal 2: declarers: zolo needs exactly one seat, got [3, 1]",
    ),
    (
        "the same seat twice",
        with_change(("deals", 0, "declarers"), [3, 3]),
        "deal 1: declarers: seats [3, 3] repeat a seat",
    ),
    (
        "bad doubling seat",
        with_change(("deals", 1, "doubling_seats"), [4, 0]),
        "deal 2: doubling_seats: 0 is not a seat (1..4)",
    ),
    (
        "doublings as a bool",
        with_change(("deals", 0, "doublings"), True),
        "deal 1: doublings: expected an integer, got true",
    ),
    (
        "doublings as a float",
        with_change(("deals", 0, "doublings"), 1.0),
        "deal 1: doublings: expected an integer, got 1.0",
    ),
    (
        "doublings over the cap",
        with_change(("deals", 0, "doublings"), 5),
        "deal 1: doublings: 5 is above the cap of 4 for normal",
    ),
    (
        "doublings below 0",
        with_change(("deals", 0, "doublings"), -1),
        "deal 1: doublings: -1 is below 0",
    ),
    (
        "worked-out count over the cap",
        with_change(("deals", 1, "doubling_seats"), [4, 3, 4, 3, 4]),
        "deal 2: doubling_seats: [4, 3, 4, 3, 4] make 5 counted doublings, "
        "above the cap of 4 for zolo",
    ),
    (
        "points over 104",
        with_change(("deals", 0, "declarer_points"), 105),
        "deal 1: declarer_points: 105 is outside 0..104",
    ),
    (
        "points below 0",
        with_change(("deals", 0, "declarer_points"), -3),
        "deal 1: declarer_points: -3 is outside 0..104",
    ),
    (
        "points as a string",
        with_change(("deals", 0, "declarer_points"), "60"),
        'deal 1: declarer_points: expected an integer, got "60"',
    ),
    (
        "points as a bool",
        with_change(("deals", 0, "declarer_points"), False),
        "deal 1: declarer_points: expected an integer, got false",
    ),
    (
        "unknown option",
        with_change(("rules",), {"bez_wyjscia": 26}),
        "rules: bez_wyjscia: not an option of kop; did you mean bez_wyjscia_max?",
    ),
    (
        "unknown option value",
        with_change(("rules",), {"doubling_count": "everyCall"}),
        'rules: doubling_count: "everyCall" is not allowed '
        "(one of alternating_sides_only, every_call)",
    ),
    (
        "option number as a bool",
        with_change(("rules",), {"bez_wyjscia_max": True}),
        "rules: bez_wyjscia_max: true is not allowed "
        "(an integer from 0 to 52; default 25, some clubs 26)",
    ),
    (
        "cap for a Baśka contract in Kop",
        with_change(("rules",), {"doubling_cap": {"grand": 3}}),
        'rules: doubling_cap: "grand" is not a contract of kop '
        "(normal, cicha, wesele, zolo, zolo_du)",
    ),
    (
        "rules not an object",
        with_change(("rules",), [25]),
        "rules: expected an object of options, got [25]",
    ),
    (
        "game in the rules differs",
        with_change(("rules",), {"game": "baska"}),
        'rules: game: "baska" is not allowed (only kop, the game being scored)',
    ),
]


@pytest.mark.parametrize(("what", "sheet", "line"), BAD_SHEETS, ids=[b[0] for b in BAD_SHEETS])
def test_bad_input_names_where_and_what(what: str, sheet: Any, line: str) -> None:
    with pytest.raises(SheetError) as err:
        score_kop_sheet(sheet)
    assert err.value.problems == [line]
    with pytest.raises(SheetError):
        check_kop_sheet(sheet)


def test_a_cap_from_the_rules_applies_to_the_deals() -> None:
    sheet = with_change(("rules",), {"doubling_cap": {"zolo": 1}})
    with pytest.raises(SheetError) as err:
        score_kop_sheet(sheet)
    assert err.value.problems == [
        "deal 2: doubling_seats: [4, 3] make 2 counted doublings, above the cap of 1 for zolo"
    ]


def test_rules_change_the_numbers() -> None:
    sheet = with_change(("deals", 0, "declarer_points"), 26)
    assert score_kop_sheet(sheet)["deals"][0]["value"] == 1
    sheet["rules"] = {"bez_wyjscia_max": 26}
    assert score_kop_sheet(sheet)["deals"][0]["value"] == 2


def test_check_reports_warnings_to_confirm() -> None:
    sheet = copy.deepcopy(GOOD)
    sheet["deals"] += [
        {"contract": "normal", "declarers": [2, 4], "doublings": 0, "declarer_points": 30},
        {"contract": "zolo", "declarers": [1], "doubling_seats": [1, 2], "declarer_points": 70},
        {
            "contract": "wesele",
            "declarers": [2, 3],
            "doubling_seats": [1, 2],
            "declarer_points": 60,
        },
    ]
    assert check_kop_sheet(sheet) == [
        "deal 3: declarer_points: 30 : 74 cannot occur (no set of tricks is worth that); "
        "please confirm",
        "deal 4: doubling_seats: seat 1, the soloist, made the first doubling "
        "(R5 forbids it); please confirm",
        "deal 5: doubling_seats: seat 2, the wesele bidder, doubled (R6 forbids it); "
        "please confirm",
    ]
    assert check_kop_sheet(GOOD) == []


def test_read_gives_engine_data() -> None:
    sheet = read_kop_sheet(GOOD)
    assert sheet.game == "kop"
    assert sheet.rules == default_rules("kop")
    assert sheet.players == ("Ala", "Bartek", "Celina", "Darek")
    assert sheet.deals == (
        KopDeal(contract="normal", declarers=(1, 3), doublings=0, declarer_points=60),
        KopDeal(contract="zolo", declarers=(3,), doubling_seats=(4, 3), declarer_points=28),
    )


def test_reading_does_not_change_the_input() -> None:
    sheet = load("kop_examples_koscian.json")
    before = copy.deepcopy(sheet)
    score_kop_sheet(sheet)
    assert sheet == before


# ------------------------------------------------------------------ writing sheets


@pytest.mark.parametrize("name", [s[0] for s in EXAMPLE_SHEETS] + ["baska_empty.json"])
def test_written_sheet_reimports_identically(name: str) -> None:
    original = read_kop_sheet(load(name))
    written = kop_sheet_from_deals(
        original.game, original.rules, list(original.players), original.deals
    )
    again = read_kop_sheet(json.loads(json.dumps(written)))
    assert again == original
    assert score_kop_sheet(written) == score_kop_sheet(load(name))


def test_writer_takes_options_or_nothing() -> None:
    deals = [KopDeal(contract="cicha", declarers=(1,), doublings=0, declarer_points=61)]
    players = ["A", "B", "C", "D"]
    plain = kop_sheet_from_deals("kop", None, players, deals)
    assert read_kop_sheet(plain).rules == default_rules("kop")
    assert plain["deals"] == [
        {"contract": "cicha", "declarers": [1], "doublings": 0, "declarer_points": 61}
    ]
    options = kop_sheet_from_deals("kop", {"bez_wyjscia_max": 26}, players, deals)
    assert read_kop_sheet(options).rules == parse_rules("kop", {"bez_wyjscia_max": 26})


def test_writer_refuses_what_would_not_reimport() -> None:
    players = ["A", "B", "C", "D"]
    with pytest.raises(RuleError, match="the rules are for baska"):
        kop_sheet_from_deals("kop", default_rules("baska"), players, [])
    bad = [KopDeal(contract="normal", declarers=(1, 3), doublings=9, declarer_points=61)]
    with pytest.raises(SheetError, match="deal 1: doublings: 9 is above the cap"):
        kop_sheet_from_deals("kop", None, players, bad)
    with pytest.raises(SheetError, match="players"):
        kop_sheet_from_deals("kop", None, ["A", "B", "C"], [])


def test_deals_are_checked_even_when_the_game_is_unknown() -> None:
    sheet = with_change(("game",), "kopp")
    sheet["deals"][0]["declarer_points"] = 105
    with pytest.raises(SheetError) as err:
        score_kop_sheet(sheet)
    assert err.value.problems == [
        'game: "kopp" is not a Kop or Baśka game (kop, baska)',
        "deal 1: declarer_points: 105 is outside 0..104",
    ]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 110) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=20,
)


@settings(deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from(["kop", "baska", "vint"]) | json_values,
            "rules": st.dictionaries(st.sampled_from(["doubling_cap", "x"]), json_values),
            "players": json_values,
            "deals": st.lists(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "contract": st.sampled_from(["normal", "zolo", "grand"]) | json_values,
                        "declarers": st.lists(st.integers(0, 5), max_size=3) | json_values,
                        "doublings": st.integers(-1, 6) | json_values,
                        "doubling_seats": st.lists(st.integers(0, 5), max_size=6) | json_values,
                        "declarer_points": st.integers(-1, 105) | json_values,
                    },
                )
                | json_values,
                max_size=4,
            ),
        },
    )
    | json_values
)
def test_any_json_is_either_scored_or_refused_with_lines(data: Any) -> None:
    try:
        out = score_kop_sheet(data)
    except SheetError as e:
        assert e.problems and all(isinstance(line, str) and line for line in e.problems)
    else:
        assert sum(out["totals"]) == 0


# ------------------------------------------------------------------ voided deals

VOIDED = {
    "contract": "normal",
    "declarers": [2, 4],
    "doublings": 0,
    "declarer_points": 80,
    "voided": True,
}


def test_a_voided_deal_keeps_its_place_and_scores_nothing() -> None:
    sheet = copy.deepcopy(GOOD)
    sheet["deals"].insert(1, VOIDED)
    out = score_kop_sheet(sheet)
    assert out["deals"][1] == {
        "voided": True,
        "value": 0,
        "payments": [0, 0, 0, 0],
        "warnings": [],
    }
    # The deals around it score as without it, in their own places.
    plain = score_kop_sheet(GOOD)
    assert [out["deals"][0], out["deals"][2]] == plain["deals"]
    assert out["totals"] == plain["totals"]
    read = read_kop_sheet(sheet)
    assert read.voided == frozenset({2}) and len(read.deals) == 3
    assert read.counted == read_kop_sheet(GOOD).deals


def test_a_voided_deal_needs_only_its_contract_but_what_it_gives_is_checked() -> None:
    sheet = copy.deepcopy(GOOD)
    sheet["deals"].append({"contract": "zolo", "voided": True})
    assert score_kop_sheet(sheet)["deals"][2]["voided"] is True
    sheet["deals"].append({"contract": "grand", "declarers": [5], "voided": True})
    sheet["deals"].append({**VOIDED, "voided": "yes"})
    sheet["deals"].append({"declarers": [1, 3], "voided": True})
    with pytest.raises(SheetError) as err:
        score_kop_sheet(sheet)
    assert err.value.problems == [
        'deal 4: contract: "grand" is not a Kop contract (normal, cicha, wesele, zolo, zolo_du)',
        "deal 4: declarers: 5 is not a seat (1..4)",
        'deal 5: voided: expected true or false, got "yes"',
        "deal 6: contract: missing",
    ]


def test_warnings_are_in_the_output_and_numbered_by_place_with_voids() -> None:
    sheet = copy.deepcopy(GOOD)
    sheet["deals"][1:1] = [
        VOIDED,
        {"contract": "normal", "declarers": [2, 4], "doublings": 0, "declarer_points": 30},
    ]
    out = score_kop_sheet(sheet)
    assert out["deals"][2]["warnings"] == [
        "declarer_points: 30 : 74 cannot occur (no set of tricks is worth that); please confirm"
    ]
    assert out["deals"][0]["warnings"] == []
    assert check_kop_sheet(sheet) == [
        "deal 3: declarer_points: 30 : 74 cannot occur (no set of tricks is worth that); "
        "please confirm"
    ]


def test_written_sheet_with_voided_deals_reads_back_identically() -> None:
    sheet = copy.deepcopy(GOOD)
    sheet["deals"][1:1] = [VOIDED, {"contract": "cicha", "voided": True}]
    original = read_kop_sheet(sheet)
    written = kop_sheet_from_deals(
        original.game, original.rules, list(original.players), original.deals, original.voided
    )
    assert written["deals"] == sheet["deals"]
    assert read_kop_sheet(json.loads(json.dumps(written))) == original
