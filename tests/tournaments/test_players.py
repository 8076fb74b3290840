"""A director adds a player from the players page (asked "same person?" when a name is
alike); the player list is public. (Names alike and club numbers: ``tests/clubs/``.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import Player
from clubs.services import player_create
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db
ADD = reverse("tournaments:player_add")


def test_director_adds_a_player(director_client):
    club = ClubFactory()
    response = director_client.post(ADD, {"club": club.pk, "name": " Anna   Kowalska "})
    assert response.status_code == 302
    assert Player.objects.get().name == "Anna Kowalska"


def test_similar_name_asks_same_person_and_keeps_what_was_typed(director_client):
    club = ClubFactory()
    player_create(club=club, name="Paweł Nowak")
    response = director_client.post(
        ADD, {"club": club.pk, "name": "Pawel Nowak", "federation_id": "PL-77"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Same person?" in html
    assert "#1 Paweł Nowak" in html
    assert 'value="Pawel Nowak"' in html and 'value="PL-77"' in html
    assert Player.objects.count() == 1


def test_confirming_a_different_person_registers_them(director_client):
    club = ClubFactory()
    player_create(club=club, name="Paweł Nowak")
    response = director_client.post(
        ADD, {"club": club.pk, "name": "Pawel Nowak", "different_person": "on"}
    )
    assert response.status_code == 302
    assert list(Player.objects.values_list("number", "name")) == [
        (1, "Paweł Nowak"),
        (2, "Pawel Nowak"),
    ]


def test_empty_name_is_refused_beside_the_field(director_client):
    club = ClubFactory()
    response = director_client.post(ADD, {"club": club.pk, "name": "   "})
    assert response.status_code == 200
    assert Player.objects.count() == 0
    assert "error" in response.content.decode()


def test_player_list_is_public(client):
    player_create(club=ClubFactory(), name="Anna Kowalska")
    response = client.get(reverse("tournaments:players"))
    assert response.status_code == 200
    assert "Anna Kowalska" in response.content.decode()
