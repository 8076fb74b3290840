"""``session_structure`` (rules/vint.md A31): three rubbers, each partnership once."""

from __future__ import annotations

import pytest

from scoring.engines.errors import SheetError
from scoring.engines.vint import Seating, parse_rules, session_partnerships, session_problems
from scoring.engines.vint_sheet import read_vint_sheet

FREE = parse_rules({"session_structure": "free"})
ROTATED = parse_rules({})
# Parlett's three seatings: A+C v B+D, A+B v C+D, A+D v B+C.
PARLETT = session_partnerships(["Anna", "Boris", "Carl", "Dina"])


def test_the_default_is_rotated():
    assert ROTATED.session_structure == "rotated"
    with pytest.raises(ValueError):
        parse_rules({"session_structure": "any"})


@pytest.mark.parametrize("rubbers", [1, 2, 3])
def test_parletts_session_is_accepted(rubbers):
    assert session_problems(PARLETT[:rubbers], ROTATED) == []


def test_a_repeated_partnership_is_named():
    # Rubber 2: Anna (N) and Carl (S) again, Boris and Dina again.
    again = Seating("Anna", "Dina", "Carl", "Boris")
    problems = session_problems([PARLETT[0], again], ROTATED)
    assert [(p.code, p.params["partner"], p.params["other_partner"]) for p in problems] == [
        ("vint.partnership_repeated", "Anna", "Carl"),
        ("vint.partnership_repeated", "Dina", "Boris"),
    ]
    assert problems[0].params["rubber"] == 2 and problems[0].params["first"] == 1
    assert session_problems([PARLETT[0], again], FREE) == []


def test_a_fourth_rubber_is_refused_once():
    problems = session_problems([*PARLETT, PARLETT[0]], ROTATED)
    assert [p.code for p in problems] == ["vint.session_too_many_rubbers"]
    assert problems[0].params == {"count": 4, "most": 3}
    assert session_problems([*PARLETT, PARLETT[0]], FREE) == []


def _sheet(seatings, rules=None):
    return {
        "game": "vint",
        "rules": rules or {},
        "rubbers": [{"seats": s.as_dict(), "first_dealer": "N", "deals": []} for s in seatings],
    }


def test_the_sheet_reader_applies_it():
    with pytest.raises(SheetError) as err:
        read_vint_sheet(_sheet([PARLETT[0], PARLETT[0]]))
    assert "rubber 2: Anna and Carl were partners in rubber 1 already" in err.value.problems[0]
    assert (
        len(read_vint_sheet(_sheet([PARLETT[0]] * 5, {"session_structure": "free"})).rubbers) == 5
    )
