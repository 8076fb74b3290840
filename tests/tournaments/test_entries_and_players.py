"""Registering many players at once, checking everyone in, player lists and selects
(issue 11, item 10): the Polish alphabetical order in the lists and the entry forms, the
default rule profile. (The order itself and a player's label: ``tests/clubs/``.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.selectors import collation_key, player_list
from scoring.forms import SessionForm
from tests.clubs.test_players import POLISH
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.forms import EntryForm, TournamentForm
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def test_player_lists_and_selects_sort_by_the_polish_alphabet(
    club, kop_tournament, profiles, director
):
    for name in POLISH:
        PlayerFactory(club=club, name=name)
    expected = sorted(POLISH, key=collation_key)
    assert [p.name for p in player_list()] == expected
    entry = EntryForm(tournament=kop_tournament)
    assert [label.split(" (")[0] for _v, label in list(entry.fields["player"].choices)[1:]] == (
        expected
    )
    session = SessionForm(user=director)
    assert [label.split(" (")[0] for _v, label in list(session.fields["seat_1"].choices)[1:]] == (
        expected
    )


def test_the_players_page_is_alphabetical_and_links_to_each_player(client, club):
    players = [PlayerFactory(club=club, name=name) for name in ("Łucja", "Lech", "Zofia")]
    html = client.get(reverse("tournaments:players")).content.decode()
    for p in players:
        assert f'href="{reverse("tournaments:player_page", args=[p.pk])}"' in html
    assert html.index("Lech") < html.index("Łucja") < html.index("Zofia")


def test_new_tables_and_tournaments_start_from_the_kop_koscian_profile(profiles, director):
    assert TournamentForm(user=director)["profile"].value() == profiles["kop-koscian"].pk
    assert SessionForm(user=director)["profile"].value() == profiles["kop-koscian"].pk


def test_without_koscian_the_first_kop_profile_is_offered(profiles, director):
    profiles["kop-koscian"].versions.all().delete()
    profiles["kop-koscian"].delete()
    first_kop = min((p for p in profiles.values() if p.game == "kop" and p.slug != "kop-koscian"),
                    key=lambda p: p.name)  # fmt: skip
    assert TournamentForm(user=director)["profile"].value() == first_kop.pk


# ------------------------------------------------------------------ many players at once


def test_a_pasted_list_registers_everyone_at_once(director_client, kop_tournament, club):
    known = PlayerFactory(club=club, name="Bartek Nowak", number=7)
    pasted = "name,club number\nAnna Kowalska\nBartek Nowak, 7\n\nŁucja Wiśniewska\n"
    response = director_client.post(
        reverse("tournaments:entries_paste", args=[kop_tournament.slug]), {"players": pasted}
    )
    assert response.status_code == 302
    entries = list(Registration.objects.filter(tournament=kop_tournament).order_by("number"))
    assert [e.player.name for e in entries] == ["Anna Kowalska", "Bartek Nowak", "Łucja Wiśniewska"]
    assert entries[1].player == known
    assert {e.player.club for e in entries} == {club}
    page = director_client.get(response.url).content.decode()
    assert "3 players registered." in page
    # Pasting the same list again registers nobody twice.
    director_client.post(
        reverse("tournaments:entries_paste", args=[kop_tournament.slug]), {"players": pasted}
    )
    assert Registration.objects.filter(tournament=kop_tournament).count() == 3


def test_a_pasted_list_with_problems_registers_nobody(director_client, kop_tournament, club):
    PlayerFactory(club=club, name="Bartek Nowak", number=7)
    pasted = "Anna Kowalska\nCelina, 7\nDarek, x\nEwa, 99\n"
    response = director_client.post(
        reverse("tournaments:entries_paste", args=[kop_tournament.slug]), {"players": pasted}
    )
    page = director_client.get(response.url).content.decode()
    assert not Registration.objects.filter(tournament=kop_tournament).exists()
    assert "Nobody was registered" in page
    assert "Line 2: club number 7 is Bartek Nowak, not Celina." in page
    assert "Line 3: x is not a club number." in page
    assert "Line 4: Klub Kopa has no player number 99." in page


def test_check_in_all_checks_in_everyone_not_withdrawn(director_client, kop_tournament, club):
    entries = [
        services.registration_add(tournament=kop_tournament, player=PlayerFactory(club=club))
        for _ in range(5)
    ]
    services.registration_withdraw(registration=entries[0], user=None, reason="Ill.")
    response = director_client.post(
        reverse("tournaments:entries_check_in_all", args=[kop_tournament.slug])
    )
    assert response.status_code == 302
    checked = dict(
        Registration.objects.filter(tournament=kop_tournament).values_list("number", "checked_in")
    )
    assert checked == {1: False, 2: True, 3: True, 4: True, 5: True}
    assert "4 players checked in." in director_client.get(response.url).content.decode()


def test_only_directors_paste_or_check_in_all(scorer_client, kop_tournament):
    for name in ("entries_paste", "entries_check_in_all"):
        url = reverse(f"tournaments:{name}", args=[kop_tournament.slug])
        assert scorer_client.post(url, {"players": "Anna"}).status_code == 403
    assert not Registration.objects.exists()
