"""A tournament as an event file (``shared/formats/event-json.md``): the download, the
import (command and page), refusals that write nothing, player matching, the round trip,
and the property that an exported event scores to the standings the app shows."""

from __future__ import annotations

import copy
import io
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Club, Player
from scoring.engines.simulate import random_kop_deals
from scoring.games.kop.models import KopDeal
from scoring.models import DealHistory, TableSession
from scoring.services import DealRejected
from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import TournamentFactory, record_kop_deals
from tournaments import services as tournament_services
from tournaments.events.event_json import score_event
from tournaments.families import family_for
from tournaments.models import (
    Adjustment,
    Registration,
    Round,
    RoundTable,
    Tournament,
    TournamentAction,
)
from tournaments.selectors.events import event_document
from tournaments.services import events as event_services
from tournaments.services.snapshots import standings_recompute

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "tests/fixtures/events"


def example(n: int) -> dict:
    return json.loads((EVENTS / f"example-{n}-input.json").read_text())


def counts() -> dict[str, int]:
    models = (
        Tournament,
        Registration,
        Round,
        RoundTable,
        TableSession,
        KopDeal,
        DealHistory,
        Player,
        Club,
        Adjustment,
        TournamentAction,
    )
    return {m.__name__: m.objects.count() for m in models}


def run(raw: bytes, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("event", "import", "-", *args, stdin=io.BytesIO(raw), stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def imported(data: dict) -> Tournament:
    club = event_services.club_for()
    tournament, _matches = event_services.event_import(
        raw=json.dumps(data, ensure_ascii=False), club=club, user=None
    )
    return tournament


# ------------------------------------------------------------------------ round trip


@pytest.mark.django_db
@pytest.mark.parametrize("n", [1, 2, 3])
def test_an_imported_example_exports_as_the_same_event(n):
    source = example(n)
    doc = event_document(imported(source))
    # What the export adds, as the brief says: every option written out, the deal rules
    # in full, and a team's id is its name (the app names a team by its name).
    expected = copy.deepcopy(source)
    expected["competition"] = doc["competition"]
    expected["rules"] = doc["rules"]
    expected.setdefault("name", "Imported event")  # a tournament has a name
    for team in expected.get("teams", []):
        team["id"] = team["name"]
    assert doc == expected
    order = ["format", "name", "date", "game", "rules", "competition", "players", "teams"]
    assert list(doc) == [k for k in [*order, "rounds", "adjustments"] if k in doc]
    # The competition options are the source's, the defaults filled in.
    for key, value in source.get("competition", {}).items():
        assert doc["competition"][key] == value
    # Importing the export exports it again, byte for byte.
    again = event_document(imported(doc))
    assert json.dumps(again, ensure_ascii=False) == json.dumps(doc, ensure_ascii=False)
    # And it scores as the source does.
    assert score_event(doc)["individual"] == score_event(source)["individual"]


@pytest.mark.django_db
def test_example_1_stores_what_the_file_says():
    t = imported(example(1))
    assert (t.name, t.game, str(t.date)) == ("Turniej o Puchar Wójta", "kop", "2025-10-04")
    assert t.competition["bye_score"] == {"big": 3, "small": 35}
    entries = {e.number: e for e in t.entries.select_related("player")}
    assert entries[1].player.federation_id == "PSB-0107"
    assert str(entries[1].licence_since) == "2025-09-01"
    assert entries[1].classes == ["W"] and entries[2].classes == []
    assert entries[5].team == "Kartuzy" and entries[9].team == "Puck"
    r1 = t.rounds.get(number=1)
    assert r1.byes == [9]
    table1 = r1.tables.get(number=1)
    assert table1.accepted_at is not None and table1.session.locked
    said = list(table1.session.history.filter(deal_number=0).values_list("action", "reason"))
    assert sorted(said) == [("accepted", "import"), ("locked", "import")]
    deals = KopDeal.objects.filter(session=table1.session).order_by("number")
    assert [d.contract for d in deals] == ["normal", "zolo", "normal"]
    # deal 1: seats 1+3 declare, 60 points in a normal game (value 1 each): they win.
    assert deals[0].declarers_won
    walkout = t.rounds.get(number=2).tables.get(number=2)
    assert (walkout.walkout_seat, walkout.walkout_after) == (4, 12)
    assert walkout.paper == {"small_points": [6, -10, 8, -4]}
    adj = Adjustment.objects.get(tournament=t)
    assert (adj.entry.number, adj.round, adj.big, adj.reason) == (5, 2, -1, "late for round 2")
    assert TournamentAction.objects.get(tournament=t).action == "imported"


@pytest.mark.django_db
def test_the_app_shows_example_1_as_the_format_says():
    """E13's output, read from the app's own standings document."""
    t = imported(example(1))
    doc = family_for("kop").standings(t)
    rows = [(r["rank"], r["number"], r["big_points"], r["small_points"]) for r in doc["individual"]]
    assert rows == [
        ("1", 9, 8, 55),
        ("2", 3, 8, 49),
        ("=3", 2, 5, 31),
        ("=3", 4, 5, 31),
        ("5", 5, 5, 17),
        ("6", 7, 3.5, 20),
        ("7", 1, 3, 6),
        ("8", 6, 3, -19),
        ("9", 8, 0.5, -15),
    ]


# ------------------------------------------------------------------------ export


def played_kop(rounds: int, players: int, deals: int, seed: int, *, last_open: bool = False):
    t = TournamentFactory(game="kop", field=players, rounds=rounds, deals_per_round=deals)
    rng = random.Random(seed)
    for r in range(1, rounds + 1):
        rnd = tournament_services.round_generate(tournament=t)
        for table in rnd.tables.select_related("session").order_by("number"):
            record_kop_deals(session=table.session, deals=random_kop_deals(rng, deals))
        if r < rounds or not last_open:
            tournament_services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="paper")
    return t


@pytest.mark.django_db
def test_the_export_names_players_by_start_number_and_leaves_out_unaccepted_tables():
    t = played_kop(2, 9, 3, seed=4, last_open=True)
    Adjustment.objects.create(
        tournament=t, entry=t.entries.get(number=2), round=1, big="-0.5", reason="late"
    )
    t.competition = {"bye_score": {"big": 3, "small": 35}}
    t.save()
    doc = event_document(t)
    assert [p["id"] for p in doc["players"]] == list(range(1, 10))
    assert [r["number"] for r in doc["rounds"]] == [1]  # round 2 has no accepted table
    rnd = doc["rounds"][0]
    assert len(rnd["tables"]) == 2 and len(rnd["byes"]) == 1
    seated = {n for table in rnd["tables"] for n in table["seats"]} | set(rnd["byes"])
    assert seated == set(range(1, 10))
    assert all(len(table["deals"]) == 3 for table in rnd["tables"])
    assert doc["adjustments"] == [{"player": 2, "round": 1, "big": "-1/2", "reason": "late"}]
    assert doc["competition"]["bye_score"] == {"big": 3, "small": 35}  # the tournament's
    assert doc["competition"]["team_counting"] == 4  # and the defaults, written out
    assert set(doc["competition"]) == {
        "big_points",
        "tie_breaks",
        "bye_score",
        "walkout_score",
        "classes",
        "team_size_min",
        "team_size_max",
        "team_counting",
    }


@pytest.mark.django_db
def test_the_download_is_the_directors_only_while_the_standings_are_hidden(director_client):
    t = played_kop(1, 8, 2, seed=1)
    url = f"/tournaments/{t.slug}/event.json"
    anonymous = Client()
    response = anonymous.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{t.slug}-event.json"'
    assert json.loads(response.content) == event_document(t)
    hidden = played_kop(2, 8, 2, seed=1, last_open=True)
    hidden.hide_standings = True
    hidden.save()
    assert anonymous.get(f"/tournaments/{hidden.slug}/event.json").status_code == 403
    assert director_client.get(f"/tournaments/{hidden.slug}/event.json").status_code == 200
    nothing = TournamentFactory(game="kop", field=8)
    assert director_client.get(f"/tournaments/{nothing.slug}/event.json").status_code == 404
    t.refresh_from_db()
    standings_recompute(tournament_id=t.pk, version=t.results_version)
    page = anonymous.get(f"/tournaments/{t.slug}/standings/").content.decode()
    assert f"/tournaments/{t.slug}/event.json" in page


@pytest.mark.django_db
def test_a_played_tournament_round_trips():
    t = played_kop(2, 10, 4, seed=9)
    doc = event_document(t)
    again = event_document(imported(doc))
    assert again == {**doc, "name": t.name}


def _standings_rows(tournament: Tournament) -> list[tuple]:
    doc = family_for(tournament.game).standings(tournament)
    return [(r["rank"], r["number"], r["big_points"], r["small_points"]) for r in doc["individual"]]


def _rounded(value: int | str) -> int | float:
    """An exact value as the standings document keeps it: rounded to 2 places."""
    f = Fraction(value)
    return f.numerator if f.denominator == 1 else round(float(f), 2)


@pytest.mark.django_db
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.integers(4, 11),
    rounds=st.integers(1, 3),
    deals=st.integers(1, 4),
    seed=st.integers(0, 10_000),
    walkout=st.booleans(),
)
def test_an_exported_event_scores_to_the_standings_the_app_shows(
    players, rounds, deals, seed, walkout
):
    t = played_kop(rounds, players, deals, seed)
    if walkout:  # the first table of round 1: seat 2 left after the last deal
        table = RoundTable.objects.get(round__tournament=t, round__number=1, number=1)
        table.walkout_seat, table.walkout_after = 2, deals
        table.save()
        t.competition = {**t.competition, "walkout_score": {"big": 3, "small": 35}}
        t.save()
    scored = score_event(event_document(t))["individual"]
    pure = [(r["rank"], r["player"], _rounded(r["big_points"]), r["small_points"]) for r in scored]
    assert pure == _standings_rows(t)


# ------------------------------------------------------------------------ import


@pytest.mark.django_db
def test_players_are_matched_by_licence_then_by_exact_name():
    club = Club.objects.create(name="Kartuzy")
    licensed = Player.objects.create(club=club, number=1, name="Alicja", federation_id="PSB-0107")
    bartek = Player.objects.create(club=club, number=2, name="Bartek")
    Player.objects.create(club=club, number=3, name="Celina")
    Player.objects.create(club=club, number=4, name="Celina")  # two: no match by name
    Player.objects.create(club=club, number=5, name="darek")  # not the exact name
    matches = event_services.event_players(data=example(1), club=club)
    by_id = {m.id: m for m in matches}
    assert (by_id[1].player, by_id[1].how) == (licensed, "licence")
    assert (by_id[2].player, by_id[2].how) == (bartek, "name")
    assert (by_id[3].player, by_id[3].how) == (None, "new")
    assert (by_id[4].player, by_id[4].how) == (None, "new")
    tournament, _ = event_services.event_import(raw=json.dumps(example(1)), club=club, user=None)
    assert tournament.entries.get(number=1).player == licensed
    assert tournament.entries.get(number=2).player == bartek
    assert Player.objects.filter(club=club).count() == 5 + 7


BAD = [
    (b"{not json", "file"),
    (json.dumps({**example(1), "rounds": []}).encode(), "rounds"),
    (json.dumps({**example(1), "colour": "red"}).encode(), "colour"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("raw", "named"), BAD)
def test_the_command_refuses_bad_input_with_lines_and_writes_nothing(raw, named):
    before = counts()
    code, out, err = run(raw)
    assert (code, out) == (2, "")
    assert named in err and "Traceback" not in err
    assert counts() == before


@pytest.mark.django_db
def test_a_bad_deal_in_the_last_table_writes_nothing():
    data = example(1)
    data["rounds"][1]["tables"][1] = {
        "number": 2,
        "seats": [2, 7, 3, 8],
        "deals": [
            {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 150}
        ],
    }
    before = counts()
    code, out, err = run(json.dumps(data).encode())
    assert code == 2 and "round 2, table 2: deal 1" in err
    assert counts() == before


@pytest.mark.django_db
def test_a_failure_mid_way_rolls_everything_back(monkeypatch):
    """The last table's deals refused by the write path, after every other row was
    written: nothing stays."""
    data = example(1)
    data["rounds"][1]["tables"][1] = {
        "number": 2,
        "seats": [2, 7, 3, 8],
        "deals": [
            {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 70}
        ],
    }
    real = event_services.deals_import
    calls = []

    def refusing(**kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise DealRejected({"__all__": ["refused"]})
        return real(**kwargs)

    monkeypatch.setattr(event_services, "deals_import", refusing)
    before = counts()
    code, out, err = run(json.dumps(data).encode())
    assert code == 2 and "round 2, table 2: refused" in err
    assert len(calls) == 2
    assert counts() == before


@pytest.mark.django_db
def test_the_command_imports_and_its_dry_run_writes_nothing():
    raw = (EVENTS / "example-2-input.json").read_bytes()
    before = counts()
    code, out, err = run(raw, "--dry-run")
    assert (code, err) == (0, "")
    assert "player 1: Anna: new in the register" in out and "dry run" in out
    assert counts() == before
    code, out, err = run(raw)
    assert (code, err) == (0, "")
    t = Tournament.objects.get()
    assert f"/tournaments/{t.slug}/" in out
    assert t.entries.count() == 8 and RoundTable.objects.filter(round__tournament=t).count() == 4
    code, out, err = run(raw, "--club", "Nowhere")
    assert code == 2 and "--club" in err


@pytest.mark.django_db
def test_the_page_previews_then_imports(director_client):
    club = Club.objects.create(name="Kartuzy")
    Player.objects.create(club=club, number=1, name="Bartek")
    raw = (EVENTS / "example-1-input.json").read_bytes()
    before = counts()
    upload = io.BytesIO(raw)
    upload.name = "event.json"
    page = director_client.post("/tournaments/import/", {"event_file": upload, "club": club.pk})
    text = page.content.decode()
    assert page.status_code == 200
    assert counts() == before  # the preview writes nothing
    created = text[text.index('id="event-created"') : text.index('id="event-matched"')]
    matched = text[text.index('id="event-matched"') :]
    assert "Ala" in created and "Bartek" not in created
    assert "Bartek" in matched
    confirm = director_client.post(
        "/tournaments/import/", {"event_text": raw.decode(), "club": club.pk}
    )
    t = Tournament.objects.get()
    assert confirm.status_code == 302 and confirm["Location"] == f"/tournaments/{t.slug}/"
    assert t.entries.get(number=2).player.number == 1
    assert TournamentAction.objects.get(tournament=t).action == "imported"


@pytest.mark.django_db
def test_the_page_lists_the_problems_and_keeps_nothing(director_client, member_client):
    bad = json.dumps({**example(1), "rounds": []}).encode()
    before = counts()
    upload = io.BytesIO(bad)
    upload.name = "event.json"
    page = director_client.post("/tournaments/import/", {"event_file": upload})
    assert page.status_code == 200
    assert 'id="event-problems"' in page.content.decode()
    page = director_client.post("/tournaments/import/", {"event_text": bad.decode()})
    assert 'id="event-problems"' in page.content.decode()
    assert counts() == before
    assert member_client.get("/tournaments/import/").status_code in (302, 403)


def _deal(declarers: list[int], points: int) -> dict:
    return {"contract": "normal", "declarers": declarers, "doublings": 0, "declarer_points": points}


SHORT_AND_WALKOUT = {
    "format": "tablescore-event/1",
    "name": "Short and walkout",
    "game": "baska",
    "competition": {"walkout_score": {"big": 3, "small": 35}},
    "players": [{"id": n, "name": f"P{n}"} for n in range(1, 9)],
    "rounds": [
        {
            "number": 1,
            "byes": [],
            "tables": [
                {"number": 1, "seats": [1, 2, 3, 4], "deals": [_deal([1, 3], 60)]},
                {"number": 2, "seats": [5, 6, 7], "short": True},
            ],
        },
        {
            "number": 2,
            "byes": [],
            "tables": [
                {
                    "number": 1,
                    "seats": [8, 1, 5, 2],
                    "deals": [_deal([2, 4], 70)],
                    "walkout": {"player": 1, "after_deal": 1},
                },
                {"number": 2, "seats": [3, 6, 4, 7], "small_points": [10, -10, 5, -5]},
            ],
        },
    ],
}


@pytest.mark.django_db
def test_a_short_table_and_a_walkout_with_deals_round_trip():
    t = imported(SHORT_AND_WALKOUT)
    short = RoundTable.objects.get(round__tournament=t, round__number=1, number=2)
    # The empty seat is kept for the player absent that round (8), marked missing.
    seated = [s.player.name for s in short.session.seats.order_by("seat")]
    assert (seated, short.missing_seat) == (["P5", "P6", "P7", "P8"], 4)
    walkout = RoundTable.objects.get(round__tournament=t, round__number=2, number=1)
    assert (walkout.walkout_seat, walkout.walkout_after) == (2, 1)
    assert KopDeal.objects.filter(session=walkout.session).count() == 1
    doc = event_document(t)
    assert doc["rounds"] == SHORT_AND_WALKOUT["rounds"]
    # competitions.md §2.3, §2.4: the three at the short table and the three who stay at
    # the walkout get 3 big and 35 small points; the leaver gets nothing; P8 is absent in
    # round 1. P5: 3 + 3 = 6 big, 70 small.
    rows = {r["number"]: r for r in family_for("baska").standings(t)["individual"]}
    assert (rows[5]["big_points"], rows[5]["small_points"]) == (6, 70)
    assert rows[1]["walkouts"] == 1 and rows[8]["rounds"] == 1
    assert _standings_rows(t) == [
        (r["rank"], r["player"], _rounded(r["big_points"]), r["small_points"])
        for r in score_event(doc)["individual"]
    ]


def _refused(change) -> bytes:
    data = copy.deepcopy(SHORT_AND_WALKOUT)
    change(data)
    return json.dumps(data).encode()


def _two_licences(data: dict) -> None:
    for p in data["players"][:2]:
        p["licence"] = {"number": "PSB-1"}


def _nobody_for_the_empty_seat(data: dict) -> None:
    data["players"].pop()  # P8 was the one absent in round 1
    data["rounds"][1]["tables"][0]["seats"][0] = 6
    data["rounds"][1]["tables"][1]["seats"][1] = 8
    data["players"].append({"id": 9, "name": "P9"})
    data["rounds"][1]["tables"][1]["seats"][1] = 9
    data["rounds"][0]["byes"] = [9]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "named"),
    [
        (_two_licences, "licence number PSB-1 is given to 2 players"),
        (_nobody_for_the_empty_seat, "round 1, table 2: a short table"),
    ],
)
def test_what_the_app_cannot_store_is_refused_before_anything_is_written(change, named):
    before = counts()
    code, out, err = run(_refused(change))
    assert (code, out) == (2, "")
    assert named in err
    assert counts() == before


@pytest.mark.django_db
def test_a_vint_session_played_in_the_app_exports_its_rubbers_and_round_trips(profiles, club):
    from scoring import services as scoring_services
    from tests.scoring.test_vint_exchange import ACTOR, RUBBER_1, RUBBER_2, RUBBER_3

    t = TournamentFactory(game="vint", rounds=1, club=club, seed=1, field=["A", "B", "C", "D"])
    rnd = tournament_services.round_generate(tournament=t)
    table = rnd.tables.get()
    for number, deals in enumerate([RUBBER_1, RUBBER_2, RUBBER_3], 1):
        for n, facts in enumerate(deals):
            first = "N" if (number, n) == (3, 0) else None
            scoring_services.deal_record(
                session=table.session,
                facts=facts,
                actor=ACTOR,
                extra={"rubber": number, "first_dealer": first},
            )
    tournament_services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="paper")
    doc = event_document(t)
    out_table = doc["rounds"][0]["tables"][0]
    assert len(out_table["rubbers"]) == 3
    for rubber in out_table["rubbers"]:
        assert sorted(rubber["seats"].values()) == [1, 2, 3, 4]  # start numbers
    # vint.md §6.4: the session nets +13417, +854, -7102, -7169 (by the seats' players).
    scored = score_event(doc)["individual"]
    app = family_for("vint").standings(t)["individual"]
    assert [(r["player"], r["net"]) for r in scored] == [(r["number"], r["net"]) for r in app]
    assert sorted(r["net"] for r in scored) == [-7169, -7102, 854, 13417]
    again = event_document(imported(doc))
    assert again == doc


@pytest.mark.django_db
def test_a_vint_table_keeps_its_seat_order_apart_from_the_first_rubbers_compass():
    data = example(3)
    data["rounds"][0]["tables"][0]["seats"] = [14, 12, 11, 13]
    t = imported(data)
    table = RoundTable.objects.get(round__tournament=t)
    seats = [s.player.name for s in table.session.seats.order_by("seat")]
    assert seats == ["Dina", "Boris", "Anna", "Carl"]
    doc = event_document(t)
    assert doc["rounds"] == data["rounds"]
    assert score_event(doc)["individual"] == score_event(data)["individual"]


@pytest.mark.django_db
def test_the_club_ratings_rate_an_imported_tables_deals_never_a_paper_result():
    from tournaments import ratings
    from tournaments.models import RatingSource

    t = imported(example(1))
    ratings.ratings_update(game="kop")
    rated = set(RatingSource.objects.values_list("table__round__number", "table__number"))
    # Round 1, table 1 is given deal by deal; the other three are paper results.
    assert rated == {(1, 1)}
    assert RoundTable.objects.filter(round__tournament=t).count() == 4


@pytest.mark.django_db
def test_two_players_of_one_name_at_a_table_export_its_result_on_paper():
    t = played_kop(1, 4, 3, seed=2)
    twin = t.entries.get(number=2).player
    twin.name = t.entries.get(number=1).player.name
    twin.save()
    doc = event_document(t)
    table = doc["rounds"][0]["tables"][0]
    assert "deals" not in table and sum(table["small_points"]) == 0
    assert _standings_rows(t) == [
        (r["rank"], r["player"], _rounded(r["big_points"]), r["small_points"])
        for r in score_event(doc)["individual"]
    ]


def _paths(value: object, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON value (object keys and list indexes)."""
    found = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _paths(v, (*path, i))
    return found


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.text(max_size=5),
    st.just("\x00"),
    st.just([]),
    st.just({}),
    st.just(10**4000),
)


@pytest.mark.django_db
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_command_import_never_answers_with_a_traceback(data):
    source = example(data.draw(st.sampled_from([1, 2, 3])))
    path = data.draw(st.sampled_from(_paths(source)[1:]))
    junk = data.draw(JUNK)
    target = source
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = junk
    try:
        raw = json.dumps(source).encode()
    except ValueError:  # a number JSON cannot write: the file is its text then
        raw = b'{"format": 1e999999}'
    before = counts()
    code, out, err = run(raw)
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 2:
        assert out == "" and err.strip() and counts() == before


@pytest.mark.django_db
def test_a_name_with_another_licence_number_is_another_person(director_client):
    club = Club.objects.create(name="Kartuzy")
    Player.objects.create(club=club, number=1, name="Ala", federation_id="PSB-9999")
    bartek = Player.objects.create(club=club, number=2, name="Bartek")
    data = example(1)
    data["players"][1]["licence"] = {"number": "PSB-0002"}
    by_id = {m.id: m for m in event_services.event_players(data=data, club=club)}
    assert (by_id[1].player, by_id[1].how) == (None, "new")  # PSB-0107 is not PSB-9999
    assert (by_id[2].player, by_id[2].licence_added) == (bartek, True)
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "event.json"
    page = director_client.post("/tournaments/import/", {"event_file": upload, "club": club.pk})
    assert "PSB-0002" in page.content.decode()
    event_services.event_import(raw=json.dumps(data), club=club, user=None)
    bartek.refresh_from_db()
    assert bartek.federation_id == "PSB-0002"


@pytest.mark.django_db
def test_other_big_points_and_tie_breaks_make_a_profile_of_their_own():
    data = example(1)
    data["competition"]["big_points"] = [4, 3, 2, 1]
    data["competition"]["tie_breaks"] = ["head_to_head", "small_points"]
    t = imported(data)
    assert t.profile_version.tournament == {
        "big_points": [4, 3, 2, 1],
        "tie_breaks": ["head_to_head", "small_points"],
    }
    doc = event_document(t)
    assert doc["competition"]["big_points"] == [4, 3, 2, 1]
    assert score_event(doc)["individual"] == score_event(data)["individual"]
    # The same settings again: the same profile.
    assert imported(data).profile_version == t.profile_version
    # The defaults: another profile, found again by the next import of them.
    default = imported(example(1)).profile_version
    assert default != t.profile_version
    assert imported(example(1)).profile_version == default


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "named"),
    [
        (
            {
                **example(2),
                "competition": {**example(2)["competition"], "tie_breaks": ["head_to_head"]},
            },
            "the app ranks Vint tournaments by rubbers_won, total_points",
        ),
        (
            {**example(1), "competition": {**example(1)["competition"], "tie_breaks": []}},
            "competition: tie_breaks: the app orders tied players by at least one",
        ),
    ],
)
def test_tie_breaks_the_app_cannot_keep_are_refused(data, named):
    before = counts()
    code, out, err = run(json.dumps(data).encode())
    assert (code, out) == (2, "") and named in err
    assert counts() == before


@pytest.mark.django_db
def test_an_event_file_over_the_upload_limit_is_refused_before_it_is_read(director_client):
    from django.conf import settings as django_settings

    before = counts()
    big = io.BytesIO(b" " * (django_settings.UPLOAD_MAX_BYTES + 1))
    big.name = "event.json"
    response = director_client.post("/tournaments/import/", {"event_file": big})
    assert response.status_code == 413
    # Under the upload limit but over the event file's own: one line, nothing written.
    raw = json.dumps({**example(1), "name": "x" * 2_100_000}).encode()
    upload = io.BytesIO(raw)
    upload.name = "event.json"
    page = director_client.post("/tournaments/import/", {"event_file": upload})
    text = page.content.decode()
    assert page.status_code == 200 and 'id="event-problems"' in text and "larger than" in text
    assert counts() == before
    assert director_client.get("/tournaments/import/").status_code == 200


@pytest.mark.django_db
def test_the_preview_sends_the_file_back_as_multipart(director_client):
    upload = io.BytesIO((EVENTS / "example-1-input.json").read_bytes())
    upload.name = "event.json"
    page = director_client.post("/tournaments/import/", {"event_file": upload}).content.decode()
    preview = page[page.index('id="event-preview"') :]
    assert 'enctype="multipart/form-data"' in preview[: preview.index("event_text")]
