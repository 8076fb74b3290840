"""A session's CSV export opens safely in a spreadsheet (``config.csvexport``): a name or
a cell that would run as a formula is written as text."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from django.utils.translation import gettext, override

from scoring import services as scoring_services
from scoring.games.kop.deals import contract_label
from tests.config.test_csvexport import HOSTILE, RAW, read_csv, rename

pytestmark = pytest.mark.django_db

TABLE = scoring_services.Actor(label="table link")
# Seats 1 and 3 declare and win: +1 -1 +1 -1, so the table has two shared places.
NORMAL = {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 70}


def test_session_csv_escapes_names(client, kop_session):
    rename([s.player for s in kop_session.seats.order_by("seat")])
    scoring_services.deal_record(session=kop_session, facts=NORMAL, actor=TABLE)
    rows = read_csv(client.get(reverse("scoring:export_csv", kwargs={"pk": kop_session.pk}), RAW))
    # Names appear inside the column headers ("total 1 =HYPERLINK..."), which are safe text.
    assert rows[0][0] == "deal"
    assert not any(c.startswith(("=", "+", "@")) for row in rows for c in row)
    assert rows[1][8:12] == ["1", "-1", "1", "-1"]


def test_session_csv_escapes_a_formula_in_a_cell_of_its_own(client, kop_session, monkeypatch):
    """The Kop sheet puts names only in headers; any game's cell is escaped all the same."""
    from scoring.games.kop.sheet import KopSheet

    monkeypatch.setattr(KopSheet, "csv_rows", lambda self, session: [HOSTILE, [-13, "=1"]])
    rows = read_csv(client.get(reverse("scoring:export_csv", kwargs={"pk": kop_session.pk}), RAW))
    assert rows == [[f"'{name}" for name in HOSTILE], ["-13", "'=1"]]


@pytest.mark.parametrize("language", ["pl", "ru", "et"])
def test_session_csv_speaks_the_reader_s_language(client, kop_session, language):
    """Issue 27: headings and values in words (the contract's name, yes/no), ``;`` between
    cells where the language writes a decimal comma; the codes only with ``?format=raw``."""
    scoring_services.deal_record(session=kop_session, facts=NORMAL, actor=TABLE)
    url = reverse("scoring:export_csv", kwargs={"pk": kop_session.pk})
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    with override(language):
        words = {
            "deal": gettext("Deal"),
            "contract": gettext("Contract"),
            "declarers_won": gettext("Declarers won"),
            "normal": contract_label("normal"),
            "won": gettext("won"),
            "total": gettext("Total"),
        }
    head = rows[0]
    assert (
        head[0] == words["deal"]
        and head[2] == words["contract"]
        and head[7] == words["declarers_won"]
    )
    assert not [h for h in head if "_" in h or h.startswith(("payment ", "total "))]
    assert rows[1][2] == words["normal"] and rows[1][7] == words["won"]
    assert rows[-1][0] == words["total"]
    raw = read_csv(client.get(url, RAW, HTTP_ACCEPT_LANGUAGE=language))
    assert raw[0][:8] == [
        "deal",
        "dealer",
        "contract",
        "declarers",
        "doublings",
        "declarer_points",
        "value",
        "declarers_won",
    ]
    assert raw[1][2] == "normal"
