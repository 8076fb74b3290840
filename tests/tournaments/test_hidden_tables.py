"""Hidden standings stay hidden: while a tournament hides them, its tables' sheets,
history and exports are for a director and the table's own phones and scorers only
(anyone else gets "no such session", so a guessed sequential id tells nothing)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.actors import DIRECTOR_ACCEPTS, phone
from tournaments import services

READS = ["sheet", "history", "export_json", "export_csv"]
DEAL = {"contract": "normal", "declarers": ["1", "3"], "doublings": "0", "declarer_points": "60"}


@pytest.fixture
def hidden_table(kop_tournament, sixteen):
    kop_tournament.hide_standings = True
    kop_tournament.rounds_planned = 1
    kop_tournament.save()
    table = services.round_generate(tournament=kop_tournament).tables.get(number=1)
    scorer = phone(table.session, seat=1)
    add = reverse("scoring:deal_add", kwargs={"pk": table.session_id})
    assert scorer.post(add, DEAL).status_code == 302
    table.scorer_phone = scorer
    return table


def get(client, name, table):
    return client.get(reverse(f"scoring:{name}", kwargs={"pk": table.session_id}))


@pytest.mark.parametrize("name", READS)
def test_an_outsider_gets_no_such_session(client, member_client, hidden_table, name):
    assert get(client, name, hidden_table).status_code == 404
    assert get(member_client, name, hidden_table).status_code == 404


def test_the_session_page_shows_no_totals_to_an_outsider(client, hidden_table):
    page = get(client, "session", hidden_table).content.decode()
    assert 'id="results-hidden"' in page
    assert "data-total-seat" not in page and "Gracz" not in page


@pytest.mark.parametrize("name", ["session", *READS])
def test_the_table_and_the_director_see_it(director_client, hidden_table, name):
    assert get(hidden_table.scorer_phone, name, hidden_table).status_code == 200
    assert get(phone(hidden_table.session, seat=2), name, hidden_table).status_code == 200
    assert get(director_client, name, hidden_table).status_code == 200
    assert (
        'id="results-hidden"' not in get(director_client, "session", hidden_table).content.decode()
    )


def test_a_seated_scorer_account_sees_it(scorer, scorer_client, hidden_table):
    hidden_table.session.scorers.add(scorer)
    assert get(scorer_client, "sheet", hidden_table).status_code == 200


def test_another_table_link_does_not_open_this_tables_sheet(hidden_table):
    other = hidden_table.round.tables.get(number=2)
    assert get(phone(other.session, seat=1), "sheet", hidden_table).status_code == 404


def test_everyone_sees_it_once_the_tournament_is_finished(client, hidden_table):
    services.round_accept_all(rnd=hidden_table.round, actor=DIRECTOR_ACCEPTS, reason="done")
    for name in READS:
        assert get(client, name, hidden_table).status_code == 200


def test_tables_of_a_tournament_that_shows_its_standings_are_public(
    client, kop_tournament, sixteen
):
    table = services.round_generate(tournament=kop_tournament).tables.get(number=1)
    for name in ["session", *READS]:
        assert get(Client(), name, table).status_code == 200
