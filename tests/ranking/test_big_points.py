"""Big points at one table (kop.md 8.2 step 2 and A13): places by small points, ties share."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tournaments.ranking import KOSCIAN, WOLSZTYN, RankingError, big_points_for_table

# (name, small points of A, B, C, D, Kościan 5/3/1/0, Wolsztyn 4/3/2/1), worked by hand.
CASES = [
    ("all different", (30, 10, -15, -25), (5, 3, 1, 0), (4, 3, 2, 1)),
    ("two tied for 1st: (5+3)/2", (20, 20, -10, -30), (4, 4, 1, 0), (F(7, 2), F(7, 2), 2, 1)),
    ("two tied for 2nd: (3+1)/2", (30, 0, 0, -30), (5, 2, 2, 0), (4, F(5, 2), F(5, 2), 1)),
    (
        "two tied for 3rd: (1+0)/2",
        (30, 10, -20, -20),
        (5, 3, F(1, 2), F(1, 2)),
        (4, 3, F(3, 2), F(3, 2)),
    ),
    ("three tied for 1st: (5+3+1)/3", (10, 10, 10, -30), (3, 3, 3, 0), (3, 3, 3, 1)),
    (
        "three tied for 2nd: (3+1+0)/3",
        (30, -10, -10, -10),
        (5, F(4, 3), F(4, 3), F(4, 3)),
        (4, 2, 2, 2),
    ),
    ("all four tied: 9/4, 10/4", (0, 0, 0, 0), (F(9, 4),) * 4, (F(5, 2),) * 4),
    (
        "two pairs tied",
        (20, 20, -20, -20),
        (4, 4, F(1, 2), F(1, 2)),
        (F(7, 2), F(7, 2), F(3, 2), F(3, 2)),
    ),
    ("order of entry does not matter", (-25, 30, -15, 10), (0, 5, 1, 3), (1, 4, 2, 3)),
    ("fractional small points", (F(1, 2), F(1, 2), 0, -1), (4, 4, 1, 0), (F(7, 2), F(7, 2), 2, 1)),
]


@pytest.mark.parametrize(("name", "small", "koscian", "wolsztyn"), CASES, ids=[c[0] for c in CASES])
def test_big_points_share_tied_places(name, small, koscian, wolsztyn):
    table = dict(zip("ABCD", small, strict=True))
    assert big_points_for_table(table, KOSCIAN) == dict(zip("ABCD", koscian, strict=True))
    assert big_points_for_table(table, WOLSZTYN) == dict(zip("ABCD", wolsztyn, strict=True))
    assert sum(big_points_for_table(table, KOSCIAN).values()) == 9
    assert sum(big_points_for_table(table, WOLSZTYN).values()) == 10


def test_any_four_entry_table_is_accepted():
    table = {"A": 5, "B": 5, "C": -4, "D": -6}
    assert big_points_for_table(table, (10, 6, 2, 0)) == {"A": 8, "B": 8, "C": 2, "D": 0}


@pytest.mark.parametrize(
    ("table", "big_points", "message"),
    [
        ({"A": 1, "B": -1, "C": 0}, KOSCIAN, "a table has 4 players, not 3"),
        ({"A": 1.5, "B": -1.5, "C": 0, "D": 0}, KOSCIAN, "small points of player A must be"),
        ({"A": True, "B": -1, "C": 0, "D": 0}, KOSCIAN, "small points of player A must be"),
        ({"A": 1, "B": -1, "C": 0, "D": 0}, (5, 3, 1), "big points must be four whole numbers"),
        ({"A": 1, "B": -1, "C": 0, "D": 0}, (0, 1, 3, 5), "not rising"),
        (
            {"A": 1, "B": -1, "C": 0, "D": 0},
            (5.0, 3, 1, 0),
            "big points must be four whole numbers",
        ),
    ],
)
def test_bad_tables_are_refused(table, big_points, message):
    with pytest.raises(RankingError, match=message):
        big_points_for_table(table, big_points)
