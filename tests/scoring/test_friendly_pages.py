"""Refusals and missing pages say why and what to do, in the reader's language; a scorer
seats a newcomer at a club evening without a director."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Player
from scoring.models import TableSession

pytestmark = pytest.mark.django_db


def test_a_refusal_says_why_and_what_to_do(member_client):
    response = member_client.get(reverse("scoring:session_new"))
    assert response.status_code == 403
    html = response.content.decode()
    assert "Only directors and scorers start table sessions." in html
    assert "Ask the tournament director" in html


def test_a_refusal_in_polish(member_client):
    member_client.cookies["django_language"] = "pl"
    html = member_client.get(reverse("scoring:session_new")).content.decode()
    assert "Tylko sędziowie i protokolanci" in html or "Nie możesz" in html
    assert "You may not do this here" not in html


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_missing_page_says_what_to_do(language):
    client = Client()
    client.cookies["django_language"] = language
    response = client.get("/sessions/999999/")
    assert response.status_code == 404
    html = response.content.decode()
    expected = {"en": "There is nothing at this address", "pl": "Pod tym adresem nic nie ma"}
    assert expected[language] in html


def test_a_scorer_seats_a_newcomer(scorer_client, profiles, four_players):
    club = four_players[0].club
    data = {
        "title": "Friday",
        "profile": profiles["kop-pagat"].pk,
        "seat_1": four_players[0].pk,
        "seat_2": four_players[1].pk,
        "seat_3": four_players[2].pk,
        "new_4": "  Zenon   Nowicjusz ",
        "planned_deals": 32,
        "club": club.pk,
    }
    response = scorer_client.post(reverse("scoring:session_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    newcomer = Player.objects.get(name="Zenon Nowicjusz")
    assert newcomer.club == club
    session = TableSession.objects.get(title="Friday")
    assert session.seats.get(seat=4).player == newcomer


def test_a_seat_needs_a_player_or_a_name(scorer_client, profiles, four_players):
    data = {"profile": profiles["kop-pagat"].pk, "seat_1": four_players[0].pk}
    response = scorer_client.post(reverse("scoring:session_new"), data)
    assert response.status_code == 200
    assert "Choose a player, or type a newcomer" in response.content.decode()
    assert not TableSession.objects.exists()
