"""A session's CSV export opens safely in a spreadsheet (``config.csvexport``): a name or
a cell that would run as a formula is written as text."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services as scoring_services
from tests.config.test_csvexport import HOSTILE, read_csv, rename

pytestmark = pytest.mark.django_db

TABLE = scoring_services.Actor(label="table link")
# Seats 1 and 3 declare and win: +1 -1 +1 -1, so the table has two shared places.
NORMAL = {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 70}


def test_session_csv_escapes_names(client, kop_session):
    rename([s.player for s in kop_session.seats.order_by("seat")])
    scoring_services.deal_record(session=kop_session, facts=NORMAL, actor=TABLE)
    rows = read_csv(client.get(reverse("scoring:export_csv", kwargs={"pk": kop_session.pk})))
    # Names appear inside the column headers ("total 1 =HYPERLINK..."), which are safe text.
    assert rows[0][0] == "deal"
    assert not any(c.startswith(("=", "+", "@")) for row in rows for c in row)
    assert rows[1][8:12] == ["1", "-1", "1", "-1"]


def test_session_csv_escapes_a_formula_in_a_cell_of_its_own(client, kop_session, monkeypatch):
    """The Kop sheet puts names only in headers; any game's cell is escaped all the same."""
    from scoring.games.kop.sheet import KopSheet

    monkeypatch.setattr(KopSheet, "csv_rows", lambda self, session: [HOSTILE, [-13, "=1"]])
    rows = read_csv(client.get(reverse("scoring:export_csv", kwargs={"pk": kop_session.pk})))
    assert rows == [[f"'{name}" for name in HOSTILE], ["-13", "'=1"]]
