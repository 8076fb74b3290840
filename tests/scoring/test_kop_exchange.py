"""Kop sessions leave as JSON (the scoresheet format) and CSV, and come back in."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring import services
from scoring.engines.scoresheet import score_sheet
from scoring.models import KopDeal, TableSession

pytestmark = pytest.mark.django_db

DEALS = [  # kop.md §6.3 E1, E7, E12, E17 (by seats), E3
    {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60},
    {"contract": "normal", "declarers": [1, 3], "doublings": 1, "declarer_points": 70},
    {"contract": "cicha", "declarers": [1], "doublings": 0, "declarer_points": 61},
    {"contract": "zolo", "declarers": [3], "doubling_seats": [4, 3], "declarer_points": 28},
    {"contract": "normal", "declarers": [2, 4], "doublings": 0, "declarer_points": 80},
]
# Payments typed from kop.md §6.3: E1 +1-1+1-1, E7 +2-2+2-2, E12 +12-4-4-4, E17 +20+20-60+20,
# E3 -2+2-2+2 -> totals:
EXPECTED_TOTALS = [
    1 + 2 + 12 + 20 - 2,
    -1 - 2 - 4 + 20 + 2,
    1 + 2 - 4 - 60 - 2,
    -1 - 2 - 4 + 20 + 2,
]


@pytest.fixture
def played(kop_session):
    actor = services.Actor(label="t", is_director=True)
    for facts in DEALS:
        services.deal_record(session=kop_session, facts=facts, actor=actor)
    return kop_session


def test_json_export_is_a_scoresheet_that_scores_to_the_same_totals(client, played):
    response = client.get(reverse("scoring:export_json", kwargs={"pk": played.pk}))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    sheet = json.loads(response.content)
    assert sheet["game"] == "kop"
    assert sheet["players"] == ["Ala", "Bartek", "Celina", "Darek"]
    assert sheet["deals"][3] == {**DEALS[3], "warnings": []}
    assert score_sheet(sheet)["totals"] == EXPECTED_TOTALS


def test_csv_export_has_a_row_per_deal_and_the_totals(client, played):
    response = client.get(reverse("scoring:export_csv", kwargs={"pk": played.pk}))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["deal", "dealer", "contract"]
    assert [r[0] for r in rows[1:6]] == ["1", "2", "3", "4", "5"]
    assert rows[-1][0] == "total"
    assert [int(x) for x in rows[-1][8:12]] == EXPECTED_TOTALS


def _upload(client, sheet):
    data = json.dumps(sheet).encode()
    return client.post(
        reverse("scoring:session_import"),
        {"sheet": SimpleUploadedFile("s.json", data, "application/json"), "title": "Imported"},
    )


def test_director_imports_an_exported_sheet_into_an_identical_session(
    client, director_client, played
):
    sheet = json.loads(client.get(reverse("scoring:export_json", kwargs={"pk": played.pk})).content)
    response = _upload(director_client, sheet)
    assert response.status_code == 302
    imported = TableSession.objects.exclude(pk=played.pk).get()
    assert [s.player.name for s in imported.seats.order_by("seat")] == sheet["players"]
    again = json.loads(
        client.get(reverse("scoring:export_json", kwargs={"pk": imported.pk})).content
    )
    assert again == sheet


def test_bad_sheet_imports_nothing_and_lists_every_problem(director_client, four_players):
    sheet = {
        "game": "kop",
        "players": ["Ala", "Bartek", "Celina", "Darek"],
        "deals": [
            {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60},
            {"contract": "zolo", "declarers": [3, 4], "doublings": 0, "declarer_points": 70},
            {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 105},
        ],
    }
    before = TableSession.objects.count()
    response = _upload(director_client, sheet)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was imported" in html
    assert "deal 2" in html and "deal 3" in html
    assert TableSession.objects.count() == before and KopDeal.objects.count() == 0


def test_non_json_upload_is_refused_with_a_message(director_client):
    response = director_client.post(
        reverse("scoring:session_import"),
        {"sheet": SimpleUploadedFile("s.json", b"{not json", "application/json")},
    )
    assert response.status_code == 200
    assert "not JSON" in response.content.decode()


def test_only_directors_import(scorer_client, client):
    assert scorer_client.get(reverse("scoring:session_import")).status_code == 403
    assert client.get(reverse("scoring:session_import")).status_code == 302


def test_printable_sheet_and_pads(client, played):
    sheet = client.get(reverse("scoring:sheet", kwargs={"pk": played.pk})).content.decode()
    assert "print.css" in sheet and "Totals" in sheet
    assert sheet.count('<tr class="">') + sheet.count('<tr class="voided">') == len(DEALS)
    pad = client.get(reverse("scoring:pad", kwargs={"pk": played.pk})).content.decode()
    assert pad.count("<tr><td>") == 32 and "Ala" in pad
    blank = client.get(reverse("scoring:blank_pad")).content.decode()
    assert blank.count("<tr><td>") == 32
