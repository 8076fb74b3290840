"""A whole Vint session (vint.md §6.2-§6.4): the sheet's three rubbers and session
standings, the session's end, JSON and CSV export, import all or nothing.

Every expected figure is typed from ``shared/rules/vint.md`` §6.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils.translation import gettext, override

from clubs.models import Player
from scoring import imports, services
from scoring.engines.errors import SheetError
from scoring.engines.sheets import score_sheet
from scoring.games.vint.models import VintDeal, VintRubber
from scoring.models import DealHistory, TableSession
from tests.actors import home_club
from tests.factories import TableSessionFactory

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sheets"


def suit(c, declarer, tricks, side, units, doubling=0, **more):
    return {
        "contract": c,
        "declarer": declarer,
        "doubling": doubling,
        "declarer_tricks": tricks,
        "honours": {"side": side, "count": units},
        **more,
    }


def grand(c, declarer, tricks, side=None, aces=None, doubling=0, **more):
    deal = {"contract": c, "declarer": declarer, "doubling": doubling, "declarer_tricks": tricks}
    if side:
        deal["grand_aces"] = {"side": side, "count": aces}
    return {**deal, **more}


def misere(c, declarer, tricks, dumps, doubling=0):
    return {
        "contract": c,
        "declarer": declarer,
        "doubling": doubling,
        "declarer_tricks": tricks,
        "ace_dumps": [{"seat": s, "trick": t} for s, t in dumps],
    }


def all_pass(ns, ew, dumps):
    return {
        "contract": "pass",
        "tricks": {"NS": ns, "EW": ew},
        "ace_dumps": [{"seat": s, "trick": t} for s, t in dumps],
    }


def run(seat, s, n):
    return {"sequences": [{"seat": seat, "suit": s, "length": n}]}


# §6.2: Anna (N) + Carl (S) v Boris (E) + Dina (W), first dealer N.
RUBBER_1 = [
    suit("4H", "N", 10, "NS", 5),
    suit("5D", "W", 11, "EW", 6),
    suit("6C", "S", 12, "NS", 8, **run("S", "H", 3)),
    suit("4S", "E", 9, "EW", 6),
    grand("4G", "N", 11, "NS", 3),
    misere("4M", "E", 3, [("W", 6)]),
    all_pass(5, 8, [("S", 10)]),
    suit("6H", "N", 12, "NS", 8, **run("N", "H", 4)),
    grand("5G", "W", 11, "EW", 3),
]
# §6.3: Anna (N) + Boris (S) v Carl (E) + Dina (W), first dealer E.
RUBBER_2 = [
    suit("5S", "E", 11, "EW", 6),
    suit("4D", "S", 9, "NS", 5, doubling=1),
    suit("6H", "N", 12, "NS", 6),
    misere("4M", "W", 2, [("W", 7)]),
    grand("5G", "S", 11, "NS", 3),
    suit("7C", "E", 13, "EW", 8, **run("E", "C", 5)),
    suit("6S", "N", 12, "NS", 8),
    all_pass(6, 7, [("E", 12)]),
    suit("5H", "W", 11, "EW", 6, doubling=1),
]
# §6.4: Anna (N) + Dina (S) v Boris (E) + Carl (W), first dealer N.
RUBBER_3 = [
    suit("4H", "W", 10, "EW", 5, doubling=2),
    misere("5M", "N", 4, [("E", 8)]),
    suit("6D", "E", 11, "EW", 7),
    grand("7G", "S", 11, "NS", 3, doubling=1, aces_in_hand=[{"seat": "S", "count": 3}]),
    suit("4S", "N", 10, "NS", 5),
    grand("6G", "W", 12, "EW", 3, **run("W", "S", 3)),
    suit("4C", "E", 10, "EW", 5),
]
# §6.4 "Session standings (defaults)".
STANDINGS = {
    "Carl": ((12756, 16914, 17198), 46868, 13417, 1),
    "Boris": ((6508, 10599, 17198), 34305, 854, 2),
    "Dina": ((6508, 16914, 2927), 26349, -7102, 3),
    "Anna": ((12756, 10599, 2927), 26282, -7169, 4),
}
TOTALS = {name: total for name, (_r, total, _n, _p) in STANDINGS.items()}
NETS = {name: net for name, (_r, _t, net, _p) in STANDINGS.items()}


@pytest.fixture
def vint_session(profiles, vint_players, scorer):
    """The shared one (``tests/fixtures.py``), titled as this evening's sheet."""
    return TableSessionFactory(
        game="vint", players=vint_players, title="Vint evening", created_by=scorer
    )


ACTOR = services.Actor(label="t", is_director=True)


@pytest.fixture
def played(vint_session):
    for number, deals in enumerate([RUBBER_1, RUBBER_2, RUBBER_3], 1):
        for n, facts in enumerate(deals):
            # Rubber 3 of §6.4 starts with N dealing (rubber 2 ended with E).
            first = "N" if (number, n) == (3, 0) else None
            services.deal_record(
                session=vint_session,
                facts=facts,
                actor=ACTOR,
                extra={"rubber": number, "first_dealer": first},
            )
    return vint_session


def url(name, session):
    return reverse(f"scoring:{name}", kwargs={"pk": session.pk})


def test_the_sheet_shows_three_rubbers_side_by_side_and_the_standings(client, played):
    html = client.get(url("sheet", played)).content.decode()
    for number, columns in [
        (1, [12756, 6508, 12756, 6508]),  # Anna Boris Carl Dina
        (2, [10599, 16914, 10599, 16914]),  # Anna Carl Boris Dina
        (3, [2927, 17198, 2927, 17198]),  # Anna Boris Dina Carl
    ]:
        for seat, total in zip("NESW", columns, strict=True):
            assert f'data-sheet-total="{number}-{seat}">{total}<' in html
    for name, (_rubbers, total, net, _place) in STANDINGS.items():
        assert f'data-session-total="{name}">{total}<' in html
        assert f'data-session-net="{name}">{net:+d}<' in html
    rows = html.split('id="session-standings"')[1]
    assert [rows.index(n) for n in ["Carl", "Boris", "Dina", "Anna"]] == sorted(
        rows.index(n) for n in ["Carl", "Boris", "Dina", "Anna"]
    )
    # §6.3 deal 2: both sides pass 60 and EW (87) take the game over NS (82).
    assert "EW game 1 (87)" in html
    # §6.3 deal 9: the rubber losers' third game.
    assert "bonus for game 3" in html


def test_the_session_ends_after_rubber_3(scorer_client, played):
    with pytest.raises(services.DealRejected, match="session is complete"):
        services.deal_record(session=played, facts=RUBBER_1[0], actor=ACTOR)
    # A fifth extra deal in rubber 3 is refused in so many words.
    with pytest.raises(services.DealRejected, match="Rubber 3 is over"):
        services.deal_record(session=played, facts=RUBBER_1[0], actor=ACTOR, extra={"rubber": 3})
    assert VintDeal.objects.filter(session=played).count() == 25
    html = scorer_client.get(url("session", played)).content.decode()
    assert 'id="session-complete"' in html and 'id="deal-form"' not in html


def test_json_export_scores_to_the_document_totals(client, played):
    response = client.get(url("export_json", played))
    assert "attachment" in response["Content-Disposition"]
    sheet = json.loads(response.content)
    assert sheet["game"] == "vint"
    assert [r["seats"] for r in sheet["rubbers"]] == [
        {"N": "Anna", "E": "Boris", "S": "Carl", "W": "Dina"},
        {"N": "Anna", "E": "Carl", "S": "Boris", "W": "Dina"},
        {"N": "Anna", "E": "Boris", "S": "Dina", "W": "Carl"},
    ]
    assert [r["first_dealer"] for r in sheet["rubbers"]] == ["N", "E", "N"]
    assert sheet["rubbers"][2]["deals"][3] == RUBBER_3[3]
    result = score_sheet(sheet)
    assert result["session"]["totals"] == TOTALS
    assert result["session"]["net"] == NETS


def test_the_score_command_reproduces_the_export(client, played, tmp_path, capsys):
    path = tmp_path / "session.json"
    path.write_bytes(client.get(url("export_json", played)).content)
    call_command("score", str(path))
    result = json.loads(capsys.readouterr().out)
    assert result["session"]["totals"] == TOTALS
    assert [r["totals"]["Anna"] for r in result["rubbers"]] == [12756, 10599, 2927]


def _upload(client, sheet, title="Imported"):
    data = json.dumps(sheet).encode()
    return client.post(
        reverse("scoring:session_import"),
        {
            "sheet": SimpleUploadedFile("s.json", data, "application/json"),
            "title": title,
            "club": home_club().pk,
        },
    )


def test_export_then_import_gives_an_identical_session(client, director_client, played):
    sheet = json.loads(client.get(url("export_json", played)).content)
    response = _upload(director_client, sheet)
    assert response.status_code == 302
    imported = TableSession.objects.exclude(pk=played.pk).get()
    assert imported.game == "vint" and imported.title == "Imported"
    assert [s.player.name for s in imported.seats.order_by("seat")] == [
        "Anna",
        "Boris",
        "Carl",
        "Dina",
    ]
    # The default rules come back as the built-in Vint profile.
    assert imported.profile_version == played.profile_version
    again = json.loads(client.get(url("export_json", imported)).content)
    assert again == sheet
    # The same entries deal by deal, and the history says where they came from.
    original = list(VintDeal.objects.filter(session=played).values_list("entries", flat=True))
    copied = list(VintDeal.objects.filter(session=imported).values_list("entries", flat=True))
    assert copied == original
    assert DealHistory.objects.filter(session=imported, action="created").count() == 25
    html = client.get(url("sheet", imported)).content.decode()
    assert 'data-session-total="Carl">46868<' in html


def test_csv_export_has_a_row_per_deal_then_totals_and_nets(client, played):
    response = client.get(url("export_csv", played) + "?format=raw")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header = rows[0]
    assert header[:5] == ["rubber", "deal", "phase", "dealer", "contract"]
    assert len(rows) == 1 + 25 + 2
    # one column per seat, named by seat and player: two players of one name stay apart
    names = ["1 Anna", "2 Boris", "3 Carl", "4 Dina"]
    first = rows[1]
    assert first[:8] == ["1", "1", "main", "N", "4H", "N", "0", "10"]
    assert [first[header.index(f"total {n}")] for n in names] == ["1240", "12", "1240", "12"]
    # Rubber 2, deal 2 (§6.3): NS 200 above and 72 below, EW 800 and 32; EW's game.
    r2d2 = rows[11]
    assert r2d2[:2] == ["2", "2"]
    cols = ["NS above", "NS below", "EW above", "EW below", "games NS", "games EW"]
    assert [r2d2[header.index(c)] for c in cols] == ["200", "72", "800", "32", "0", "1"]
    assert rows[-2][0] == "total" and rows[-1][0] == "net"
    totals = [int(rows[-2][header.index(f"total {n}")]) for n in names]
    nets = [int(rows[-1][header.index(f"total {n}")]) for n in names]
    assert totals == [TOTALS[n.split()[1]] for n in names]
    assert nets == [NETS[n.split()[1]] for n in names]


@pytest.mark.parametrize("language", ["ru", "et", "pl"])
def test_csv_for_a_person_says_the_phase_contract_and_doubling_in_words(client, played, language):
    """Issue 27: the reader's file writes "4♥" and the phase in words, codes only raw."""
    response = client.get(url("export_csv", played), HTTP_ACCEPT_LANGUAGE=language)
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    raw = list(
        csv.reader(
            io.StringIO(
                client.get(url("export_csv", played) + "?format=raw").content.decode("utf-8-sig")
            )
        )
    )
    with override(language):
        main, extra = gettext("main"), gettext("extra deal %(n)s of 4")
        doubled = gettext("doubled")
    assert rows[1][2:5] == [main, "N", "4♥"] and rows[1][6] == ""
    for person, program in zip(rows[1:-2], raw[1:-2], strict=True):
        if program[2].startswith("extra "):
            assert person[2] == extra % {"n": program[2].split()[1]}
        if program[6] == "1":
            assert person[6] == doubled
        assert not re.fullmatch(r"\d[SHDCGM]", person[4]) and (
            person[2] != program[2] or not program[2]
        )
    assert any(p[2].startswith("extra ") for p in raw) and any(p[6] == "1" for p in raw)


def test_a_voided_deal_is_marked_in_the_csv_and_kept_in_its_place_in_the_json(client, played):
    deal = VintDeal.objects.get(session=played, rubber=3, number=7)
    before = list(
        csv.reader(
            io.StringIO(client.get(url("export_csv", played) + "?format=raw").content.decode())
        )
    )
    services.deal_void(session=deal.session, slot=deal.slot, actor=ACTOR, reason="misdeal")
    text = client.get(url("export_csv", played) + "?format=raw").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    assert rows[-3][-1] == "voided"
    # It wrote nothing: blank entry cells, and the running totals stay as after deal 6.
    entries = ["NS above", "NS below", "EW above", "EW below", "games NS", "games EW"]
    assert [rows[-3][header.index(c)] for c in entries] == [""] * 6
    totals = [c for c in header if c.startswith("total ")]
    assert [rows[-3][header.index(c)] for c in totals] == [
        before[-4][header.index(c)] for c in totals
    ]
    sheet = json.loads(client.get(url("export_json", played)).content)
    assert len(sheet["rubbers"][2]["deals"]) == 7
    assert sheet["rubbers"][2]["deals"][6] == {**deal.facts, "voided": True}


def test_the_engine_authors_session_sheet_imports_to_the_same_standings(director):
    data = json.loads((FIXTURES / "vint_session.json").read_text())
    session = imports.session_import_sheet(data=data, user=director, club=home_club())
    assert session.game == "vint"
    assert VintRubber.objects.filter(session=session).count() == 3
    from scoring.games.vint.board import vint_scoreboard

    board = vint_scoreboard(session=session)
    assert {s.name: s.total for s in board.standings} == TOTALS
    assert board.complete


def test_a_bad_sheet_writes_nothing_and_lists_every_problem(director_client, played):
    sheet = json.loads(director_client.get(url("export_json", played)).content)
    sheet["rubbers"][0]["deals"][3]["declarer_tricks"] = 14
    sheet["rubbers"][1]["deals"][0]["honours"]["count"] = 4
    sheet["rubbers"][2]["seats"]["W"] = "Eve"
    sheet["rubbers"][0]["first_dealer"] = "X"
    counts = (TableSession.objects.count(), VintDeal.objects.count(), Player.objects.count())
    with pytest.raises(SheetError) as error:
        imports.session_import_sheet(data=sheet, user=None, club=home_club())
    problems = "\n".join(error.value.problems)
    assert "rubber 1, deal 4: declarer_tricks: 14 is outside 0..13" in problems
    assert "rubber 2, deal 1: honours.count" in problems
    assert "rubber 3: seats" in problems and "Eve" in problems
    assert "rubber 1: first_dealer" in problems
    response = _upload(director_client, sheet)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Rubber 1, deal 4, declarer_tricks: Tricks must be from 0 to 13, not 14." in html
    assert "Eve" in html
    assert (
        TableSession.objects.count(),
        VintDeal.objects.count(),
        Player.objects.count(),
    ) == counts


def test_a_sheet_with_four_rubbers_is_refused(director):
    data = json.loads((FIXTURES / "vint_session.json").read_text())
    data["rubbers"].append(data["rubbers"][0])
    before = TableSession.objects.count()
    with pytest.raises(SheetError, match="at most 3 rubbers"):
        imports.session_import_sheet(data=data, user=director, club=home_club())
    assert TableSession.objects.count() == before


def test_an_empty_session_round_trips(client, director_client, vint_session):
    sheet = json.loads(client.get(url("export_json", vint_session)).content)
    assert sheet["rubbers"] == [
        {
            "seats": {"N": "Anna", "E": "Boris", "S": "Carl", "W": "Dina"},
            "first_dealer": "N",
            "deals": [],
        }
    ]
    assert _upload(director_client, sheet).status_code == 302
    imported = TableSession.objects.exclude(pk=vint_session.pk).get()
    assert json.loads(client.get(url("export_json", imported)).content) == sheet


def test_an_imported_unfinished_session_carries_on(director, director_client):
    data = json.loads((FIXTURES / "vint_session.json").read_text())
    data["rubbers"] = data["rubbers"][:1]
    data["rubbers"][0]["deals"] = data["rubbers"][0]["deals"][:4]
    session = imports.session_import_sheet(data=data, user=director, club=home_club())
    html = director_client.get(url("session", session)).content.decode()
    assert "Rubber 1 · deal 5" in html and 'dealer: N (<span title="Anna">Anna</span>)' in html
    services.deal_record(session=session, facts=RUBBER_1[4], actor=ACTOR, extra={"rubber": 1})
    # §6.2 deal 5 wins the rubber for NS (games 2-1, the 400 bonus).
    entries = VintDeal.objects.get(session=session, number=5).entries
    assert entries["rubber_winner"] == "NS" and entries["above"]["NS"] == 1000 + 120 + 400


def test_export_import_export_is_byte_identical_with_voids_and_corrections(
    client, director_client, played
):
    # Rubber 3: deal 7 struck out, deal 2 corrected (the 5M declarer took 3 tricks, not 4).
    seventh = VintDeal.objects.get(session=played, rubber=3, number=7)
    services.deal_void(session=played, slot=seventh.slot, actor=ACTOR, reason="misdeal")
    second = VintDeal.objects.get(session=played, rubber=3, number=2)
    facts = {**second.facts, "declarer_tricks": 3}
    services.deal_correct(
        session=played, slot=second.slot, facts=facts, actor=ACTOR, reason="miscounted"
    )
    assert DealHistory.objects.filter(session=played, action="edited").exists()
    first = client.get(url("export_json", played)).content
    sheet = json.loads(first)
    assert sheet["rubbers"][2]["deals"][6]["voided"] is True
    assert _upload(director_client, sheet).status_code == 302
    imported = TableSession.objects.exclude(pk=played.pk).get()
    assert client.get(url("export_json", imported)).content == first
    rows = VintDeal.objects.filter(session=imported, rubber=3).order_by("number")
    assert [r.voided for r in rows] == [False] * 6 + [True]
    # Both sessions' sheets agree: entries, dealers and standings.
    from scoring.games.vint.board import vint_scoreboard

    a, b = vint_scoreboard(session=played), vint_scoreboard(session=imported)
    assert [[row.dealer for row in r.rows] for r in a.rubbers] == [
        [row.dealer for row in r.rows] for r in b.rubbers
    ]
    assert [(s.name, s.total) for s in a.standings] == [(s.name, s.total) for s in b.standings]


def test_a_voided_deal_keeps_its_place_in_the_dealer_rotation(vint_session):
    for facts in RUBBER_1[:3]:
        services.deal_record(session=vint_session, facts=facts, actor=ACTOR)
    deal = VintDeal.objects.get(session=vint_session, number=2)
    services.deal_void(session=vint_session, slot=deal.slot, actor=ACTOR, reason="misdeal")
    from scoring.games.vint.board import vint_scoreboard

    rubber = vint_scoreboard(session=vint_session).rubber(1)
    assert [row.dealer for row in rubber.rows] == ["N", "E", "S"]
    assert rubber.next_dealer == "W"
