"""Kop sessions leave as JSON (the scoresheet format) and CSV, and come back in."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring import services
from scoring.engines.sheets import score_sheet
from scoring.games import game_of
from scoring.games.interface import Slot
from scoring.games.kop.models import KopDeal
from scoring.games.kop.sheet import scoreboard as kop_scoreboard
from scoring.models import TableSession
from tests.actors import home_club

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
    response = client.get(reverse("scoring:export_csv", kwargs={"pk": played.pk}) + "?format=raw")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["deal", "dealer", "contract"]
    assert [r[0] for r in rows[1:6]] == ["1", "2", "3", "4", "5"]
    assert rows[-1][0] == "total"
    assert [int(x) for x in rows[-1][8:12]] == EXPECTED_TOTALS


def _upload(client, sheet):
    data = json.dumps(sheet).encode()
    return client.post(
        reverse("scoring:session_import"),
        {
            "sheet": SimpleUploadedFile("s.json", data, "application/json"),
            "title": "Imported",
            "club": home_club().pk,
        },
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
    assert "Deal 2" in html and "Deal 3" in html
    assert TableSession.objects.count() == before and KopDeal.objects.count() == 0


def test_non_json_upload_is_refused_with_a_message(director_client):
    response = director_client.post(
        reverse("scoring:session_import"),
        {
            "sheet": SimpleUploadedFile("s.json", b"{not json", "application/json"),
            "club": home_club().pk,
        },
    )
    assert response.status_code == 200
    assert "Not valid JSON" in response.content.decode()


def test_only_directors_import(scorer_client, client):
    assert scorer_client.get(reverse("scoring:session_import")).status_code == 403
    assert client.get(reverse("scoring:session_import")).status_code == 302


def test_printable_sheet_and_pads(client, played):
    sheet = client.get(reverse("scoring:sheet", kwargs={"pk": played.pk})).content.decode()
    assert "print.css" in sheet and "Totals" in sheet
    assert sheet.count('<tr class="">') + sheet.count('<tr class="voided">') == len(DEALS)
    pad = client.get(reverse("scoring:pad", kwargs={"pk": played.pk})).content.decode()
    assert pad.count("<tr><td>") == 32 and "Ala" in pad
    blank = client.get(reverse("scoring:blank_pad", kwargs={"game": "kop"})).content.decode()
    assert blank.count("<tr><td>") == 32


@pytest.fixture
def corrected(played):
    """The played session after a correction of deal 2 and a void of deal 3."""
    actor = services.Actor(label="t", is_director=True)
    services.deal_correct(
        session=played,
        slot=Slot(0, 2),
        facts={"contract": "normal", "declarers": [2, 4], "doublings": 0, "declarer_points": 70},
        actor=actor,
        reason="wrong pair",
    )
    services.deal_void(session=played, slot=Slot(0, 3), actor=actor, reason="misdeal")
    return played


def test_json_export_writes_a_voided_deal_in_its_place(client, corrected):
    sheet = json.loads(client.get(reverse("scoring:export_json", args=[corrected.pk])).content)
    assert len(sheet["deals"]) == len(DEALS)
    assert sheet["deals"][2] == {**DEALS[2], "voided": True}
    assert sheet["deals"][1]["declarers"] == [2, 4]
    out = score_sheet(sheet)
    assert out["deals"][2] == {"voided": True, "value": 0, "payments": [0, 0, 0, 0], "warnings": []}
    totals = [row.running for row in kop_scoreboard(session=corrected).rows][-1]
    assert out["totals"] == list(totals)


def test_export_import_export_is_byte_identical_with_voids_and_corrections(
    client, director_client, corrected
):
    first = client.get(reverse("scoring:export_json", args=[corrected.pk])).content
    assert _upload(director_client, json.loads(first)).status_code == 302
    imported = TableSession.objects.exclude(pk=corrected.pk).get()
    again = client.get(reverse("scoring:export_json", args=[imported.pk])).content
    assert again == first
    rows = list(KopDeal.objects.filter(session=imported).order_by("number"))
    assert [r.number for r in rows] == [1, 2, 3, 4, 5]
    assert [r.voided for r in rows] == [False, False, True, False, False]
    # The deals after the void keep their dealers, and the sheets agree deal by deal.
    board = kop_scoreboard(session=imported)
    assert [r.dealer for r in board.rows] == [1, 2, 3, 4, 1]
    original = kop_scoreboard(session=corrected)
    assert [r.running for r in board.rows] == [r.running for r in original.rows]
    assert board.totals == original.totals
    # the tally the pad shows (kept by the import) counts the voided deal for nothing
    imported.refresh_from_db()
    assert imported.tally == game_of(imported).ledger.tally_compute(imported)
    assert imported.tally["counted"] == 4
    assert kop_scoreboard(session=imported, last=8).totals == original.totals


def test_a_sheet_voided_deal_with_only_its_contract_imports_and_exports(client, director_client):
    sheet = {
        "game": "kop",
        "players": ["Ala", "Bartek", "Celina", "Darek"],
        "deals": [{"contract": "zolo", "voided": True}, DEALS[0]],
    }
    assert _upload(director_client, sheet).status_code == 302
    imported = TableSession.objects.get()
    out = json.loads(client.get(reverse("scoring:export_json", args=[imported.pk])).content)
    # the played deal comes back with the warnings confirmed for it (none here)
    assert out["deals"] == [sheet["deals"][0], {**sheet["deals"][1], "warnings": []}]
    assert kop_scoreboard(session=imported).totals == (1, -1, 1, -1)


def test_csv_shows_no_payments_for_a_voided_deal_and_booleans_as_words(client, corrected):
    response = client.get(
        reverse("scoring:export_csv", kwargs={"pk": corrected.pk}) + "?format=raw"
    )
    rows = list(csv.reader(io.StringIO(response.content.decode().lstrip("\ufeff"))))
    header = rows[0]
    pays = [i for i, h in enumerate(header) if h.startswith("payment ")]
    runs = [i for i, h in enumerate(header) if h.startswith("total ")]
    voided = rows[3]
    assert voided[0] == "3" and voided[-1] == "voided"
    assert [voided[i] for i in pays] == ["", "", "", ""]
    assert voided[header.index("value")] == "" and voided[header.index("declarers_won")] == ""
    assert [voided[i] for i in runs] == [rows[2][i] for i in runs]
    # A spreadsheet's sum of the payment columns gives the totals.
    sums = [sum(int(r[i]) for r in rows[1:-1] if r[i]) for i in pays]
    assert sums == [int(rows[-1][i]) for i in pays]
    assert {r[header.index("declarers_won")] for r in rows[1:-1]} == {"won", "lost", ""}
    body = response.content.decode()
    assert "True" not in body and "False" not in body and "None" not in body


def test_the_kop_paper_pad_lists_only_kop_contracts(client, played, baska_session):
    kop_pad = client.get(reverse("scoring:pad", kwargs={"pk": played.pk})).content.decode()
    assert "Kop score pad" in kop_pad and "zolo du" in kop_pad
    assert "grand" not in kop_pad and "baśka" not in kop_pad.lower().split("score pad")[1]
    baska_pad = client.get(reverse("scoring:pad", kwargs={"pk": baska_session.pk})).content
    assert "grand du" in baska_pad.decode() and "Baśka score pad" in baska_pad.decode()
    blank = client.get(reverse("scoring:blank_pad", kwargs={"game": "kop"})).content.decode()
    assert "Kop score pad" in blank and "grand" not in blank
    blank_baska = client.get(
        reverse("scoring:blank_pad", kwargs={"game": "baska"})
    ).content.decode()
    assert "Baśka score pad" in blank_baska and "grand du" in blank_baska
    assert blank_baska.count("<tr><td>") == 32


def test_the_migration_computes_again_a_tally_that_counted_a_struck_out_deal(
    director_client, client
):
    import importlib

    from django.apps import apps

    sheet = {
        "game": "kop",
        "players": ["Ala", "Bartek", "Celina", "Darek"],
        "deals": [{**DEALS[0], "voided": True}, DEALS[0]],
    }
    assert _upload(director_client, sheet).status_code == 302
    imported = TableSession.objects.get()
    right = dict(imported.tally)
    # as the import stored it before the fix: the struck-out deal counted
    TableSession.objects.filter(pk=imported.pk).update(
        tally={"totals": [2 * t for t in right["totals"]], "counted": 2, "last": 2}
    )
    migration = importlib.import_module("scoring.migrations.0014_tallies_on_the_current_schema")
    migration.tallies_compute(apps, None)
    imported.refresh_from_db()
    assert imported.tally == right == {"totals": [1, -1, 1, -1], "counted": 1, "last": 2}
