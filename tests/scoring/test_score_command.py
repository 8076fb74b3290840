"""``python manage.py score``: the worked examples of kop.md §6.3 from sheets; bad input exits 2.

Runs the real command in a subprocess with no database configured, as a user would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHEETS = ROOT / "tests/fixtures/sheets"

# Seat payments of E1..E30, typed from the table in kop.md §6.3.
E = {
    1: [1, -1, 1, -1],
    2: [-1, 1, -1, 1],
    3: [-2, 2, -2, 2],
    4: [3, -3, 3, -3],
    5: [-2, 2, -2, 2],
    6: [-1, 1, -1, 1],
    7: [2, -2, 2, -2],
    8: [4, -4, 4, -4],
    9: [8, -8, 8, -8],
    10: [-32, 32, -32, 32],
    11: [2, -2, 2, -2],
    12: [12, -4, -4, -4],
    13: [-24, 8, 8, 8],
    14: [-1, 1, -1, 1],
    15: [2, -2, 2, -2],
    16: [-5, -5, 15, -5],
    17: [20, 20, -60, 20],
    18: [-15, -15, 45, -15],
    19: [-10, -10, 30, -10],
    20: [10, 10, -30, 10],
    21: [-80, -80, 240, -80],
    22: [96, -96, 96, -96],
    23: [1, -1, 1, -1],
    24: [-2, 2, -2, 2],
    25: [-5, 15, -5, -5],
    26: [80, -240, 80, 80],
    27: [-10, 30, -10, -10],
    28: [40, 40, 40, -120],
    29: [30, -10, -10, -10],
    30: [8, 8, -24, 8],
}
VALUES = {
    1: 1,
    2: 1,
    3: 2,
    4: 3,
    5: 2,
    6: 1,
    7: 2,
    8: 4,
    9: 8,
    10: 32,
    11: 2,
    12: 4,
    13: 8,
    14: 1,
    15: 2,
    16: 5,
    17: 20,
    18: 15,
    19: 10,
    20: 10,
    21: 80,
    22: 96,
    23: 1,
    24: 2,
    25: 5,
    26: 80,
    27: 10,
    28: 40,
    29: 10,
    30: 8,
}
EXAMPLE_SHEETS = [
    ("kop_examples_default.json", range(1, 21)),
    ("kop_examples_koscian.json", range(21, 23)),
    ("baska_examples.json", range(23, 31)),
]


def score(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    # A database that does not exist: the command must not need one.
    env["DATABASE_URL"] = "postgres://nobody@127.0.0.1:1/none"
    return subprocess.run(
        [sys.executable, "manage.py", "score", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


@pytest.mark.parametrize(("sheet", "examples"), EXAMPLE_SHEETS)
def test_score_reproduces_the_worked_examples(sheet, examples):
    result = score(str(SHEETS / sheet))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert [d["payments"] for d in out["deals"]] == [E[n] for n in examples]
    assert [d["value"] for d in out["deals"]] == [VALUES[n] for n in examples]
    assert out["totals"] == [sum(E[n][i] for n in examples) for i in range(4)]
    assert out["players"] == json.loads((SHEETS / sheet).read_text())["players"]


def test_score_reads_standard_input_and_check_prints_nothing():
    sheet = (SHEETS / "kop_format_example.json").read_text()
    result = score("-", stdin=sheet)
    assert result.returncode == 0
    assert json.loads(result.stdout) == json.loads(
        (SHEETS / "kop_format_example.expected.json").read_text()
    )
    checked = score("--check", "-", stdin=sheet)
    assert (checked.returncode, checked.stdout) == (0, "")


BAD = [
    ("not json", "{", "not valid JSON"),
    (
        "unknown key",
        {"game": "kop", "players": ["a", "b", "c", "d"], "deals": [], "extra": 1},
        "extra",
    ),
    ("unknown game", {"game": "skat", "players": ["a", "b", "c", "d"], "deals": []}, "game"),
    (
        "unknown option",
        {"game": "kop", "rules": {"bez_wyjscia": 26}, "players": ["a", "b", "c", "d"], "deals": []},
        "bez_wyjscia",
    ),
    (
        "bad contract",
        {
            "game": "kop",
            "players": ["a", "b", "c", "d"],
            "deals": [
                {"contract": "grand", "declarers": [1], "doublings": 0, "declarer_points": 60}
            ],
        },
        "deal 1",
    ),
    (
        "points out of range",
        {
            "game": "kop",
            "players": ["a", "b", "c", "d"],
            "deals": [
                {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 105}
            ],
        },
        "declarer_points",
    ),
    (
        "bool as a number",
        {
            "game": "kop",
            "players": ["a", "b", "c", "d"],
            "deals": [
                {
                    "contract": "normal",
                    "declarers": [1, 3],
                    "doublings": True,
                    "declarer_points": 60,
                }
            ],
        },
        "doublings",
    ),
    (
        "over the cap",
        {
            "game": "kop",
            "players": ["a", "b", "c", "d"],
            "deals": [
                {"contract": "normal", "declarers": [1, 3], "doublings": 5, "declarer_points": 60}
            ],
        },
        "doublings",
    ),
    ("three players", {"game": "kop", "players": ["a", "b", "c"], "deals": []}, "players"),
]


@pytest.mark.parametrize(("case", "sheet", "mentions"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_exits_2_with_a_line_per_problem(case, sheet, mentions):
    text = sheet if isinstance(sheet, str) else json.dumps(sheet)
    result = score("-", stdin=text)
    assert result.returncode == 2
    assert result.stdout == ""
    assert mentions in result.stderr


def test_every_problem_of_a_sheet_gets_its_own_line():
    result = score(str(SHEETS / "kop_bad_many_problems.json"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) >= 3
    assert all(line.strip() for line in lines)


def test_missing_file_exits_2():
    result = score("/nonexistent/sheet.json")
    assert result.returncode == 2
    assert "cannot read" in result.stderr


def test_score_writes_voided_deals_in_their_places():
    # A deal struck out keeps its place and scores nothing (scoresheet-json.md, "voided").
    kop_sheet = {
        "game": "kop",
        "players": ["Ala", "Bartek", "Celina", "Darek"],
        "deals": [
            {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60},
            {"contract": "zolo", "declarers": [2], "doublings": 0, "declarer_points": 90,
             "voided": True},
            {"contract": "normal", "declarers": [1, 3], "doublings": 1, "declarer_points": 70},
        ],
    }  # fmt: skip
    done = score("-", stdin=json.dumps(kop_sheet))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["deals"][1] == {
        "voided": True,
        "value": 0,
        "payments": [0, 0, 0, 0],
        "warnings": [],
    }
    assert out["totals"] == [3, -3, 3, -3]  # E1 + E7 of kop.md §6.3
    vint_sheet = {
        "game": "vint",
        "rubbers": [
            {
                "seats": {"N": "Anna", "E": "Boris", "S": "Carl", "W": "Dina"},
                "first_dealer": "N",
                "deals": [
                    {"contract": "5D", "voided": True},
                    {"contract": "4H", "declarer": "N", "doubling": 0, "declarer_tricks": 10,
                     "honours": {"side": "NS", "count": 5}},
                ],
            }
        ],
    }  # fmt: skip
    done = score("-", stdin=json.dumps(vint_sheet))
    assert done.returncode == 0, done.stderr
    deals = json.loads(done.stdout)["rubbers"][0]["deals"]
    assert deals[0]["voided"] is True
    assert (deals[0]["above"], deals[0]["below"]) == ({"NS": 0, "EW": 0}, {"NS": 0, "EW": 0})
    assert "voided" not in deals[1] and deals[1]["below"] == {"NS": 40, "EW": 12}
