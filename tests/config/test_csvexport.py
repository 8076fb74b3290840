"""CSV files a spreadsheet can open safely.

Every CSV the site writes goes through ``config.csvexport``: text that a spreadsheet would
run as a formula starts with ``'``, numbers stay numbers, tied ranks are written "1=",
and the file starts with a UTF-8 byte-order mark (Excel then reads Polish letters). The
helpers here check a CSV page (``read_csv``, ``assert_escaped``); the CSV exports of each
app are checked beside their pages (``tests/scoring/test_session_csv.py``,
``tests/tournaments/test_csv_and_bad_input.py``).
"""

from __future__ import annotations

import csv
import io

import pytest

from clubs.models import Player
from config.csvexport import cell

#: The query of the machine-readable CSV (codes, "," and a decimal point).
RAW = {"format": "raw"}

HOSTILE = ['=HYPERLINK("http://x")', "@SUM(A1)", "+1", "-2+3"]


def read_csv(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(b"\xef\xbb\xbf"), "no UTF-8 byte-order mark"
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def rename(players, names=HOSTILE) -> None:
    for player, name in zip(players, names, strict=False):
        Player.objects.filter(pk=player.pk).update(name=name)


def assert_escaped(rows: list[list[str]]) -> None:
    cells = [c for row in rows for c in row]
    for name in HOSTILE:
        assert f"'{name}" in cells, name
        assert name not in cells, name
    assert not any(c.startswith(("=", "+", "@")) for c in cells)


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Łucja Żak", "Łucja Żak"),
        ("1=", "1="),
        (-13, -13),
        (-1.5, -1.5),
        (0, 0),
        (True, True),
        (None, None),
    ],
)
def test_text_that_starts_a_formula_is_escaped_and_numbers_are_not(value, written):
    assert cell(value) == written
