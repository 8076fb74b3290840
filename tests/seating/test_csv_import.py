"""Importing a club's own seating table: good files in every accepted shape, bad ones refused."""

from __future__ import annotations

import pytest

from tests.seating.kop_table import KOP_16x5
from tournaments.seating import (
    IMPORTED,
    ImportedSeating,
    SeatingError,
    SeatingImportError,
    parse_seating_csv,
)

SIXTEEN = range(1, 17)


def kop_rows(sep=",", rounds=KOP_16x5):
    return [
        sep.join(map(str, (r, t, s, p)))
        for r, tables in enumerate(rounds, 1)
        for t, table in enumerate(tables, 1)
        for s, p in enumerate(table, 1)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(kop_rows()),
        "round,table,seat,player\n" + "\n".join(kop_rows()),
        "\ufeffrunda;stół;miejsce;gracz\r\n" + "\r\n".join(kop_rows(";")) + "\r\n",
        "round\ttable\tseat\tplayer\n\n" + "\n".join(kop_rows("\t")) + "\n\n",
        "\n".join(row + ";;" for row in kop_rows(";")),  # empty trailing cells
    ],
    ids=["plain", "header", "polish-semicolon-bom-crlf", "tabs-blank-lines", "trailing-cells"],
)
def test_the_kop_table_imports_in_every_accepted_shape(text):
    seating = parse_seating_csv(text, SIXTEEN)
    assert isinstance(seating, ImportedSeating)
    assert seating.rounds == KOP_16x5
    assert seating.byes == ((),) * 5
    assert seating.repeats == 0
    assert (seating.seed, seating.algorithm_version) == (None, IMPORTED)


def test_columns_may_come_in_any_order_under_a_header():
    rows = ["player,seat,table,round"] + [
        ",".join(reversed(row.split(","))) for row in kop_rows(rounds=KOP_16x5[:1])
    ]
    assert parse_seating_csv("\n".join(rows), SIXTEEN).rounds == KOP_16x5[:1]


def test_rows_may_come_in_any_order_and_table_numbers_give_the_table_order():
    rows = [
        "1,7,4,8",
        "1,7,1,5",
        "1,3,2,2",
        "1,3,1,1",
        "1,7,3,7",
        "1,3,4,4",
        "1,7,2,6",
        "1,3,3,3",
    ]
    seating = parse_seating_csv("\n".join(rows), range(1, 9))
    assert seating.rounds == (((1, 2, 3, 4), (5, 6, 7, 8)),)


def test_sit_outs_are_written_as_bye_rows():
    text = "\n".join(
        [
            "1,1,1,1",
            "1,1,2,2",
            "1,1,3,3",
            "1,1,4,4",
            "1,bye,,5",
            "2,1,1,5",
            "2,1,2,4",
            "2,1,3,3",
            "2,1,4,2",
            "2,PAUZA,,1",
        ]
    )
    seating = parse_seating_csv(text, range(1, 6))
    assert seating.rounds == (((1, 2, 3, 4),), ((5, 4, 3, 2),))
    assert seating.byes == ((5,), (1,))


def test_a_table_leaving_out_a_registered_player_is_refused_naming_him():
    # Round 2 seats everybody but player 7 (his row is removed): his table has no seat 2.
    rows = [row for row in kop_rows() if row != "2,4,2,7"]
    with pytest.raises(SeatingImportError) as caught:
        parse_seating_csv("\n".join(rows), SIXTEEN)
    assert "player 7 is registered but not seated in round 2" in caught.value.problems
    assert "round 2, table 4: seat 2 is missing" in caught.value.problems


def test_a_registered_player_missing_from_every_table_is_refused():
    with pytest.raises(SeatingImportError) as caught:
        parse_seating_csv("\n".join(kop_rows()), range(1, 18))  # 17 registered, 16 seated
    assert caught.value.problems == [
        f"player 17 is registered but not seated in round {r}" for r in range(1, 6)
    ]


FIRST_TABLE = ["1,1,1,1", "1,1,2,2", "1,1,3,3", "1,1,4,4"]


@pytest.mark.parametrize(
    ("rows", "registered", "problem"),
    [
        (["1,1,1,1", "1,1,x,2", "1,1,3,3", "1,1,4,4"], 4, "line 2: seat 'x' is not a whole number"),
        (["1,1,1,1", "1,1,2,2", "1,1,3,3", "1,1,5,4"], 4, "line 4: seat 5 is not between 1 and 4"),
        (["0,1,1,1"], 1, "line 1: round 0 must be 1 or more"),
        (["1,0,1,1"], 1, "line 1: table 0 must be 1 or more"),
        (["1,1,1,1,9"], 1, "line 1: expected 4 values (round, table, seat, player), got 5"),
        (["1,1,1"], 1, "line 1: expected 4 values (round, table, seat, player), got 3"),
        (
            ["1,1,1,1", "1,1,1,2", "1,1,3,3", "1,1,4,4"],
            4,
            "round 1, table 1: seat 1 is given 2 times (players 1, 2)",
        ),
        (
            ["1,1,1,1", "1,1,2,2"],
            2,
            "round 1, table 1: seats 3, 4 are missing",
        ),
        (
            [*FIRST_TABLE, "1,2,1,1", "1,2,2,5", "1,2,3,6", "1,2,4,7"],
            7,
            "player 1 appears 2 times in round 1 (table 1 seat 1, table 2 seat 1)",
        ),
        ([*FIRST_TABLE[:3], "1,1,4,99"], 4, "line 4: player 99 is not registered"),
        (
            [*FIRST_TABLE, *(row.replace("1,", "3,", 1) for row in FIRST_TABLE)],
            4,
            "rounds must be numbered 1 to 3 without gaps: round 2 is missing",
        ),
        (["round,table,place,player", *FIRST_TABLE], 4, "line 1: the header must name"),
        ([], 4, "no seating rows found"),
        (["", "  "], 4, "no seating rows found"),
    ],
)
def test_each_kind_of_bad_table_is_refused_with_its_own_message(rows, registered, problem):
    with pytest.raises(SeatingImportError) as caught:
        parse_seating_csv("\n".join(rows), range(1, registered + 1))
    assert any(p.startswith(problem) for p in caught.value.problems), caught.value.problems
    assert isinstance(caught.value, ValueError)
    assert problem in str(caught.value)


def test_all_problems_are_reported_at_once():
    rows = ["1,1,1,1", "1,1,x,2", "1,1,3,99", "1,1,7,4", "1,2,1,1"]
    with pytest.raises(SeatingImportError) as caught:
        parse_seating_csv("\n".join(rows), range(1, 5))
    assert caught.value.problems == [
        "line 2: seat 'x' is not a whole number",
        "line 3: player 99 is not registered",
        "line 4: seat 7 is not between 1 and 4",
        "round 1, table 1: seats 2, 3, 4 are missing",
        "round 1, table 2: seats 2, 3, 4 are missing",
        "player 1 appears 2 times in round 1 (table 1 seat 1, table 2 seat 1)",
        "player 2 is registered but not seated in round 1",
        "player 3 is registered but not seated in round 1",
        "player 4 is registered but not seated in round 1",
    ]


def test_bad_registered_numbers_are_a_plain_seating_error():
    with pytest.raises(SeatingError, match="registered player numbers"):
        parse_seating_csv("1,1,1,1", [0, 1, 2, 3])


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1,1,1," + "7" * 200_000, "line 1: field larger than field limit"),
        ('1,1,1,"' + "x" * 200_000 + '"', "line 1: field larger than field limit"),
        ("round,table,seat,player\n" + "1," * 70_000, "line 2: expected 4 values"),
        ("1000000000,1,1,1", "line 1: round 1000000000 is more than 99"),
        ("1,1,1," + "9" * 5000, "is not a whole number"),
    ],
    ids=["long-number", "long-quoted-cell", "many-cells", "huge-round", "5000-digits"],
)
def test_oversized_cells_and_numbers_are_problems_not_crashes(text, says):
    with pytest.raises(SeatingImportError) as caught:
        parse_seating_csv(text, SIXTEEN)
    assert any(says in p for p in caught.value.problems), caught.value.problems
