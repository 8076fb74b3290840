"""The hall: a player finds their table and seat by name or start number, and the
public hall display (round clock, tables, standings in pages), polled with a 304 (that
poll's one read: ``tests/config/test_statements.py``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import PlayerFactory, RegistrationFactory
from tournaments import services


def find(client, tournament, **params):
    url = reverse("tournaments:find", kwargs={"slug": tournament.slug})
    response = client.get(url, params)
    assert response.status_code == 200
    return response.content.decode()


def seat_of(rnd, number):
    for table in rnd.tables.all():
        for seat in table.session.seats.select_related("player"):
            if seat.player.number == number:
                return table.number, seat.seat
    raise AssertionError(number)


def test_a_start_number_finds_the_table_and_seat(client, kop_tournament, sixteen):
    rnd = services.round_generate(tournament=kop_tournament)
    table, seat = seat_of(rnd, 7)
    for params in ({"q": "7"}, {"q": " #7 "}, {"n": "7"}):
        html = find(client, kop_tournament, **params)
        assert 'data-number="7"' in html
        assert f"Table {table}, seat {seat}" in html


def test_a_name_without_diacritics_finds_the_player(client, kop_tournament, sixteen, club):
    extra = PlayerFactory(club=club, name="Łukasz Żółć", number=17)
    RegistrationFactory(tournament=kop_tournament, player=extra)
    services.round_generate(tournament=kop_tournament)
    html = find(client, kop_tournament, q="lukasz zolc")
    assert 'data-number="17"' in html and 'id="find-result"' in html


def test_the_newest_round_is_the_one_shown(client, kop_tournament, sixteen):
    first = services.round_generate(tournament=kop_tournament)
    services.round_accept_all(rnd=first, actor=DIRECTOR_ACCEPTS, reason="on paper")
    second = services.round_generate(tournament=kop_tournament)
    table, seat = seat_of(second, 3)
    html = find(client, kop_tournament, n="3")
    assert "round 2" in html and f"Table {table}, seat {seat}" in html


def test_an_ambiguous_name_lists_every_match_by_start_number(client, kop_tournament, sixteen):
    """Two players of the same name: neither is shown a seat until they tap their number."""
    sixteen[4].player.name = sixteen[3].player.name = "Jan Kowalski"
    sixteen[4].player.save()
    sixteen[3].player.save()
    services.round_generate(tournament=kop_tournament)
    html = find(client, kop_tournament, q="Kowalski")
    assert 'id="find-several"' in html and 'id="find-result"' not in html
    assert 'href="?n=4"' in html and 'href="?n=5"' in html
    assert "seat" not in html.split('id="find-several"')[1].split("</ul>")[0]


def test_a_partial_name_matching_many_lists_them(client, kop_tournament, sixteen):
    services.round_generate(tournament=kop_tournament)
    html = find(client, kop_tournament, q="gracz")
    assert 'id="find-several"' in html and html.count('href="?n=') >= 16


def test_before_the_first_round_the_page_says_so(client, kop_tournament, sixteen):
    html = find(client, kop_tournament, q="Gracz 03")
    assert 'id="find-no-round"' in html and 'data-number="3"' in html
    assert "seat" not in html.split('id="find-result"')[1].split("</div>")[0].lower()


def test_a_player_sitting_out_is_told(client, kop_tournament, sixteen, club):
    extra = PlayerFactory(club=club, name="Ostatni Gracz", number=17)
    RegistrationFactory(tournament=kop_tournament, player=extra)
    rnd = services.round_generate(tournament=kop_tournament)
    assert rnd.byes
    html = find(client, kop_tournament, n=str(rnd.byes[0]))
    assert "You sit out this round." in html


@pytest.mark.parametrize(
    "params",
    [
        {"q": "nobody at all"},
        {"q": "x" * 5000},
        {"q": "999999999999999999999"},
        {"n": "-1"},
        {"n": "abc"},
        {"n": "9" * 40},
        {"q": "\u202e<script>"},
        {"q": ""},
    ],
)
def test_bad_input_is_answered_not_a_500(client, kop_tournament, sixteen, params):
    services.round_generate(tournament=kop_tournament)
    html = find(client, kop_tournament, **params)
    assert "<script>" not in html.split("<main")[1]


def test_a_nul_in_the_search_is_refused_with_a_page_that_says_why(client, kop_tournament, sixteen):
    services.round_generate(tournament=kop_tournament)
    url = reverse("tournaments:find", kwargs={"slug": kop_tournament.slug})
    refused = client.get(url, {"q": "\x00\u202e<script>"})
    assert refused.status_code == 400
    assert "cannot be used" in refused.content.decode()
    assert "<script>" not in refused.content.decode()


def test_an_unknown_tournament_is_404(client, db):
    assert client.get(reverse("tournaments:find", kwargs={"slug": "nowhere"})).status_code == 404
    assert client.get(reverse("tournaments:display", kwargs={"slug": "nowhere"})).status_code == 404


def test_the_board_carries_a_qr_of_the_find_page_and_a_projector_view(
    director_client, kop_tournament, sixteen
):
    services.round_generate(tournament=kop_tournament)
    url = reverse("tournaments:board", kwargs={"slug": kop_tournament.slug})
    html = director_client.get(url).content.decode()
    qr = html.split('id="find-qr"')[1]
    assert "<svg" in qr.split("</div>")[0] and f"/tournaments/{kop_tournament.slug}/find/" in qr
    projector = director_client.get(url + "?projector=1").content.decode()
    assert 'class="projector"' in projector and "?projector=1" in projector
    assert "#1</small>" in projector and 'class="projector"' not in html


# ----------------------------------------------------------------------------- the display


def display(client, tournament, part=False, **headers):
    url = reverse("tournaments:display", kwargs={"slug": tournament.slug})
    return client.get(url + ("?part=1" if part else ""), headers=headers)


def test_the_display_is_public_and_shows_tables_clock_and_standings(
    client, kop_tournament, sixteen, commit
):
    kop_tournament.round_minutes = 90
    kop_tournament.save()
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    second = services.round_generate(tournament=kop_tournament)
    html = display(client, kop_tournament).content.decode()
    assert "data-round-clock" in html and 'src="/static/js/display.js"' in html
    assert "Round 2" in html and html.count("<li data-table=") == len(second.tables.all())
    standings = html.split('id="hall-standings"')[1]
    assert standings.count("<tr>") == 1 + 16  # the header and every player: the script pages
    assert "Big points" in standings
    assert "<script>" not in html  # the CSP forbids inline scripts


def test_the_display_lists_the_last_accepted_tables(client, kop_tournament, sixteen, commit):
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    html = display(client, kop_tournament).content.decode()
    accepted = html.split('class="plain hall-accepted"')[1].split("</ul>")[0]
    assert accepted.count("<li data-table") == 4 and "Every table is accepted." in html


def test_hidden_standings_stay_off_the_display_until_the_end(
    client, kop_tournament, sixteen, commit
):
    kop_tournament.hide_standings = True
    kop_tournament.rounds_planned = 2
    kop_tournament.save()
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    for part in (False, True):
        html = display(client, kop_tournament, part=part).content.decode()
        assert 'id="hall-standings-hidden"' in html and 'id="hall-standings"' not in html
        assert "Big points" not in html
    last = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=last, actor=DIRECTOR_ACCEPTS, reason="on paper")
    html = display(client, kop_tournament).content.decode()
    assert 'id="hall-standings"' in html and "Big points" in html


def test_the_display_before_any_round(client, kop_tournament, sixteen):
    html = display(client, kop_tournament).content.decode()
    assert "No round seated yet." in html and "No results accepted yet." in html
