"""The defects the copied Kop and Vint layers had, each through the one game interface:
what the tournaments read.

Every test here failed on the code before ``scoring.games`` (issue 9): a director's deal on
an accepted table did not reach the standings, a Vint table with two players of one name
answered 500, the progress board counted only Kop deals, a player's Vint rounds showed 0
points, the standings CSV had a Python repr in a column, and GET requests wrote. (The
defects in scoring alone: ``tests/scoring/test_game_interface.py``.)
"""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from scoring import services as scoring_services
from scoring.games import game_of
from scoring.games.vint.models import VintDeal
from tests.actors import DIRECTOR_ACCEPTS
from tests.config.test_csvexport import RAW, read_csv
from tests.factories import CICHA_1, ZOLO_3, RoundTableFactory, TournamentFactory, amend_accepted
from tests.scoring.test_game_interface import writes_of_a_get
from tests.scoring.test_vint_exchange import RUBBER_1, RUBBER_2, RUBBER_3
from tournaments import services
from tournaments.models import StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db

DIRECTOR = scoring_services.Actor(label="director", is_director=True)
TABLE = scoring_services.Actor(label="table link")


def _status(client, tournament) -> str:
    html = client.get(reverse("tournaments:standings", kwargs={"slug": tournament.slug}))
    text = html.content.decode()
    if 'id="standings-current"' in text:
        return "current"
    return "updating" if "A newer version is on its way" in text else "none"


def test_a_deal_a_director_adds_to_an_accepted_table_reaches_the_standings(
    kop_tournament, sixteen, commit, client
):
    table = services.round_generate(tournament=kop_tournament).tables.get(number=1)
    scoring_services.deal_record(session=table.session, facts=CICHA_1, actor=TABLE)
    with commit():
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    assert _status(client, kop_tournament) == "current"
    first = table.session.seats.get(seat=1).player
    number = kop_tournament.entries.get(player=first).number

    # The table is locked now; the director unlocks it, adds a forgotten deal (zolo by
    # seat 3) and accepts it again.
    amend_accepted(
        session=table.session,
        change=lambda: scoring_services.deal_record(
            session=table.session, facts=ZOLO_3, actor=DIRECTOR
        ),
    )
    assert _status(client, kop_tournament) == "updating"  # its snapshot is older
    kop_tournament.refresh_from_db()
    # The version the deal made is recomputed (the task runs after commit)
    with commit():
        services.results_changed(tournament=kop_tournament)
    assert _status(client, kop_tournament) == "current"
    latest = StandingsSnapshot.objects.order_by("-results_version").first()
    rows = {r["number"]: r for r in latest.data["individual"]}
    assert rows[number]["small_points"] == 12 - 5  # both deals count


def test_unlock_and_a_new_deal_are_announced_too(kop_tournament, sixteen, commit):
    table = services.round_generate(tournament=kop_tournament).tables.get(number=1)
    with commit():
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    before = Tournament.objects.get(pk=kop_tournament.pk).results_version
    with commit():
        scoring_services.session_unlock(session=table.session, actor=DIRECTOR, reason="typo")
    with commit():
        scoring_services.deal_record(session=table.session, facts=CICHA_1, actor=TABLE)
    after = Tournament.objects.get(pk=kop_tournament.pk)
    assert after.results_version == before + 2
    assert StandingsSnapshot.objects.filter(
        tournament=kop_tournament, results_version=after.results_version
    ).exists()


def _vint_round(club, director, names):
    tournament = TournamentFactory(
        name="Vint night",
        game="vint",
        rounds=1,
        club=club,
        seed=1,
        created_by=director,
        field=names,
    )
    return tournament, RoundTableFactory(round__tournament=tournament)


def _play_vint_session(session):
    for number, deals in ((1, RUBBER_1), (2, RUBBER_2), (3, RUBBER_3)):
        for n, facts in enumerate(deals):
            first = "N" if (number, n) == (3, 0) else None
            scoring_services.deal_record(
                session=session,
                facts=facts,
                actor=TABLE,
                extra={"rubber": number, "first_dealer": first},
            )


def test_two_vint_players_of_one_name_stay_apart_in_pages_exports_and_standings(
    profiles, club, director, director_client, commit
):
    # Exactly the same name twice, and two names alike.
    names = ["Jan Kowalski", "Jan Kowalski", "Anna Nowak", "Anna Nowakowa"]
    tournament, table = _vint_round(club, director, names)
    session = table.session
    page = director_client.get(reverse("scoring:session", kwargs={"pk": session.pk}))
    assert page.status_code == 200  # was a 500 from the moment the session existed
    _play_vint_session(session)
    for name in ("session", "sheet", "export_json", "export_csv", "history"):
        assert (
            director_client.get(reverse(f"scoring:{name}", kwargs={"pk": session.pk})).status_code
            == 200
        )
    rows = read_csv(
        director_client.get(reverse("scoring:export_csv", kwargs={"pk": session.pk}), RAW)
    )
    seated = [s.player.name for s in session.seats.order_by("seat")]
    assert sorted(seated) == sorted(names)
    assert [c for c in rows[0] if c.startswith("total ")] == [
        f"total {seat} {name}" for seat, name in enumerate(seated, 1)
    ]
    with commit():
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    data = StandingsSnapshot.objects.get(tournament=tournament).data["individual"]
    assert sorted(r["number"] for r in data) == [1, 2, 3, 4]
    # vint.md §6.4 session nets by seat A..D (Anna, Boris, Carl, Dina there).
    by_number = {r["number"]: r for r in data}
    seat_of = {tournament.entries.get(player=s.player).number: s.seat for s in session.seats.all()}
    from tests.scoring.test_vint_exchange import NETS

    expected = dict(
        zip((1, 2, 3, 4), (NETS[n] for n in ("Anna", "Boris", "Carl", "Dina")), strict=True)
    )
    assert {n: by_number[n]["net"] for n in by_number} == {
        n: expected[seat_of[n]] for n in by_number
    }


def test_the_progress_board_counts_vint_deals_and_says_to_accept(
    profiles, club, director, director_client
):
    tournament, table = _vint_round(club, director, ["Ala", "Bea", "Cyd", "Dan"])
    board = reverse("tournaments:board", kwargs={"slug": tournament.slug})
    scoring_services.deal_record(
        session=table.session, facts=RUBBER_1[0], actor=TABLE, extra={"rubber": 1}
    )
    html = director_client.get(board).content.decode()
    row = html[html.index('data-table="1"') :]
    assert '<td class="num">1</td>' in row[:800] and "playing" in row[:800]
    VintDeal.objects.filter(session=table.session).delete()
    # Rows deleted behind the write path's back: its tally is put right by hand too.
    table.session.tally = game_of(table.session).ledger.tally_compute(table.session)
    table.session.save(update_fields=["tally"])
    _play_vint_session(table.session)
    row = director_client.get(board).content.decode()
    row = row[row.index('data-table="1"') :][:800]
    assert '<td class="num">25</td>' in row and "to accept" in row


def test_a_players_round_list_shows_their_vint_points(
    profiles, club, director, director_client, commit
):
    tournament, table = _vint_round(club, director, ["Anna", "Boris", "Carl", "Dina"])
    _play_vint_session(table.session)
    with commit():
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    from tests.scoring.test_vint_exchange import TOTALS

    for seat in table.session.seats.select_related("player"):
        entry = tournament.entries.get(player=seat.player)
        page = reverse(
            "tournaments:player_results", kwargs={"slug": tournament.slug, "number": entry.number}
        )
        html = director_client.get(page).content.decode()
        assert f'<td class="num">{TOTALS[("Anna", "Boris", "Carl", "Dina")[seat.seat - 1]]}' in html


def test_standings_csv_header_and_a_row_whole(kop_tournament, sixteen, commit, client):
    table = services.round_generate(tournament=kop_tournament).tables.get(number=1)
    for facts in (CICHA_1, CICHA_1, ZOLO_3):
        scoring_services.deal_record(session=table.session, facts=facts, actor=TABLE)
    with commit():
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    response = client.get(
        reverse("tournaments:standings_csv", kwargs={"slug": kop_tournament.slug}), RAW
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "rank",
        "place",
        "number",
        "name",
        "big_points",
        "small_points",
        "firsts",
        "seconds",
        "thirds",
        "fourths",
        "rounds",
        "byes",
        "walkouts",
        "adjustment_big",
        "adjustment_small",
        "round 1 table",
        "round 1 small_points",
        "round 1 big_points",
        "round 1 place",
    ]
    seat_1 = table.session.seats.get(seat=1).player
    number = kop_tournament.entries.get(player=seat_1).number
    # seat 1: +12 +12 -5 = 19 small points, first at table 1 of round 1: 5 big points
    assert rows[1] == [
        "1",
        "1",
        str(number),
        seat_1.name,
        "5",
        "19",
        "1",
        "0",
        "0",
        "0",
        "1",
        "0",
        "0",
        "0",
        "0",
        "1",
        "19",
        "5",
        "1",
    ]


@pytest.mark.parametrize("name", ["tournaments:new"])
def test_a_get_request_writes_nothing(director_client, name):
    assert writes_of_a_get(director_client, reverse(name)) == []
