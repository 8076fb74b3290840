"""Players of a club: names alike (a typo or a missing accent), club numbers never reused,
the Polish alphabetical order, and the label a select gives a player (the club's number,
and the club's name once there are several clubs)."""

from __future__ import annotations

import pytest

from clubs.forms import PlayerChoiceField
from clubs.models import Player
from clubs.selectors import collation_key, names_alike
from clubs.services import player_create
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

POLISH = ["Adam", "Łucja", "Lech", "Zofia", "Śliwa", "Sara", "Żaneta", "Źdźbło", "Ola", "Ćma"]


@pytest.mark.parametrize(
    ("a", "b", "alike"),
    [
        ("Paweł Nowak", "Pawel Nowak", True),
        ("Paweł Nowak", "pawel  nowak", True),
        ("Nowak Paweł", "Paweł Nowak", True),
        ("Anna Kowalska", "Anna Kowalski", True),
        ("Anna Kowalska", "Jan Kowalski", False),
        ("Ewa Lis", "Ewa Mazur", False),
    ],
)
def test_names_alike(a, b, alike):
    assert names_alike(a, b) is alike


def test_club_numbers_are_stable_and_never_reused():
    club = ClubFactory()
    first = player_create(club=club, name="Anna Kowalska")
    second = player_create(club=club, name="Bartek Nowak")
    assert (first.number, second.number) == (1, 2)
    second.delete()
    third = player_create(club=club, name="Celina Wiśniewska")
    assert third.number == 2  # max+1: a deleted last number may return; earlier ones never move
    first.refresh_from_db()
    assert first.number == 1


def test_collation_key_puts_polish_letters_after_their_base_letters():
    assert sorted(POLISH, key=collation_key) == [
        "Adam",
        "Ćma",
        "Lech",
        "Łucja",
        "Ola",
        "Sara",
        "Śliwa",
        "Zofia",
        "Źdźbło",
        "Żaneta",
    ]
    assert sorted(POLISH) != sorted(POLISH, key=collation_key)  # bytewise puts Ł after Z
    assert sorted(["ewa", "Ewa", "Edek"], key=collation_key) == ["Edek", "Ewa", "ewa"]


def test_players_of_two_clubs_are_told_apart_by_their_club(club):
    PlayerFactory(club=club, name="Anna Nowak", number=1)
    other = ClubFactory(name="Wolsztyn")
    PlayerFactory(club=other, name="Anna Nowak", number=1)
    field = PlayerChoiceField(queryset=Player.objects.all())
    labels = [label for _v, label in list(field.choices)[1:]]
    assert labels == ["Anna Nowak (Klub Kopa #1)", "Anna Nowak (Wolsztyn #1)"]


def test_one_club_shows_the_bare_number(club):
    PlayerFactory(club=club, name="Anna Nowak", number=1)
    field = PlayerChoiceField(queryset=Player.objects.all())
    assert [label for _v, label in list(field.choices)[1:]] == ["Anna Nowak (#1)"]
