"""Registration, check-in, late arrivals and withdrawals."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def test_start_numbers_are_stable_and_sequential(kop_tournament, club):
    a = services.registration_add(tournament=kop_tournament, player=PlayerFactory(club=club))
    b = services.registration_add(tournament=kop_tournament, player=PlayerFactory(club=club))
    assert (a.number, b.number) == (1, 2)
    assert (a.first_round, a.checked_in) == (1, False)


def test_a_player_is_registered_once(kop_tournament, club):
    player = PlayerFactory(club=club)
    services.registration_add(tournament=kop_tournament, player=player)
    with pytest.raises(services.TournamentError, match="already registered"):
        services.registration_add(tournament=kop_tournament, player=player)


def test_one_person_enters_once_whichever_clubs_register_row(kop_tournament, club, director):
    """Two clubs' rows of one (merged) person never both play one event (issue 26)."""
    from clubs.services import player_merge
    from tests.factories import ClubFactory

    home = PlayerFactory(club=club, name="Jan Kowalski")
    away = PlayerFactory(club=ClubFactory(name="Puck"), name="Jan Kowalski")
    player_merge(keep=home, other=away, by=director, reason="One man, two clubs.")
    away.refresh_from_db()
    services.registration_add(tournament=kop_tournament, player=home)
    with pytest.raises(services.TournamentError, match="already registered"):
        services.registration_add(tournament=kop_tournament, player=away)
    assert kop_tournament.entries.count() == 1


def test_director_registers_a_new_player_by_name(director_client, kop_tournament):
    url = reverse("tournaments:entry_add", kwargs={"slug": kop_tournament.slug})
    response = director_client.post(url, {"new_name": "Zenon Nowy", "team": "Kościan"})
    assert response.status_code == 302
    entry = Registration.objects.get()
    assert (entry.player.name, entry.team, entry.number) == ("Zenon Nowy", "Kościan", 1)


def test_empty_registration_is_refused_with_a_message(director_client, kop_tournament):
    url = reverse("tournaments:entry_add", kwargs={"slug": kop_tournament.slug})
    response = director_client.post(url, {}, follow=True)
    assert "Choose a registered player or type a new name." in response.content.decode()
    assert Registration.objects.count() == 0


def test_check_in_and_withdraw(director_client, kop_tournament, club):
    entry = services.registration_add(tournament=kop_tournament, player=PlayerFactory(club=club))
    url = reverse(
        "tournaments:entry_update", kwargs={"slug": kop_tournament.slug, "number": entry.number}
    )
    director_client.post(url, {"action": "check_in"})
    entry.refresh_from_db()
    assert entry.checked_in
    withdrawal = reverse(
        "tournaments:entry_withdrawal",
        kwargs={"slug": kop_tournament.slug, "number": entry.number},
    )
    director_client.post(withdrawal, {"action": "withdraw", "reason": "Went home."})
    entry.refresh_from_db()
    assert entry.withdrawn_after == 0
    assert not entry.plays_in(1)


def test_only_directors_manage_entries(scorer_client, client, kop_tournament):
    url = reverse("tournaments:entry_add", kwargs={"slug": kop_tournament.slug})
    assert scorer_client.post(url, {"new_name": "X"}).status_code == 403
    assert client.post(url, {"new_name": "X"}).status_code == 302  # to the login page
    assert Registration.objects.count() == 0


def test_director_creates_a_tournament(director_client, profiles):
    response = director_client.post(
        reverse("tournaments:new"),
        {
            "name": "Puchar Wolsztyna",
            "profile": profiles["kop-wolsztyn"].pk,
            "rounds": 5,
            "deals_per_round": 32,
        },
    )
    assert response.status_code == 302
    page = director_client.get(response.url).content.decode()
    assert "Puchar Wolsztyna" in page and "Kop, Wolsztyn" in page


def test_tournament_pages_are_public(client, kop_tournament):
    for name in ("detail", "standings", "meetings"):
        url = reverse(f"tournaments:{name}", kwargs={"slug": kop_tournament.slug})
        assert client.get(url).status_code == 200, name
    assert client.get(reverse("tournaments:index")).status_code == 200
    board = reverse("tournaments:board", kwargs={"slug": kop_tournament.slug})
    assert client.get(board).status_code == 302
