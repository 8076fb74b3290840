"""League pages: the public tables (after each event and final, counted members, CSV in
the reader's language, print), the director pages (licences upload -> preview ->
confirm), and who may use them (a director of another club changes nothing)."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.roles import make_director
from tests.clubs.identities import WHO, database_state, people, refused
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.leagues_data import D, e13_rows, e17_second_rows, event, psb
from tournaments.models import League, LeagueEvent, LeagueTeam, Licence, LineUp, RosterMember
from tournaments.services import leagues

__all__ = ["people", "psb"]

pytestmark = pytest.mark.django_db


@pytest.fixture
def e17(psb):
    """E17's league: KAR and PUC, E13 then a second event with PUC's substitute Jan."""
    p = psb.players
    league = leagues.league_create(
        organiser=psb.association, name="Liga", game="baska", season="2025"
    )
    kar = leagues.team_create(league=league, name="KAR")
    puc = leagues.team_create(league=league, name="PUC")
    leagues.roster_set(team=kar, players=[p[n] for n in (1, 2, 3, 4, 5)])
    leagues.roster_set(team=puc, players=[p[n] for n in (6, 7, 8, 9)])
    leagues.event_add(league=league, tournament=event(psb.kartuzy, D(2025, 10, 4), e13_rows(p)))
    second = leagues.event_add(
        league=league, tournament=event(psb.puck, D(2025, 11, 8), e17_second_rows(p))
    )
    leagues.lineup_set(team=kar, event=second, players=[p[n] for n in (1, 2, 3, 4)])
    leagues.lineup_set(team=puc, event=second, players=[p[n] for n in (6, 7, 9, 20)])
    return league


def test_league_page_shows_team_and_player_tables_after_each_event(client, e17, psb):
    url = reverse("tournaments:league_detail", args=[e17.slug])
    final = client.get(url)
    assert final.status_code == 200
    page = final.context["page"]
    assert [(r.name, r.rank, r.big, r.small) for r in page.teams] == [
        ("KAR", "1", "40", "140"),
        ("PUC", "2", "36", "105"),
    ]
    puc_second = page.teams[1].cells[1]
    assert [(m["name"], m["counted"], m["substitute"]) for m in puc_second.members] == [
        ("Filip", True, False),
        ("Grażyna", True, False),
        ("Irena", True, False),
        ("Jan", True, True),
    ]
    body = final.content.decode()
    assert "<strong>Jan</strong>" in body and "(sub.)" in body
    first = client.get(url, {"after": 1}).context["page"]
    assert [(r.name, r.big) for r in first.teams] == [("KAR", "23"), ("PUC", "15")]
    kar = first.teams[0].cells[0]
    assert [m["name"] for m in kar.members if not m["counted"]] == ["Ala"]  # 5th of five
    # A bad "after" shows the final tables, never an error.
    assert client.get(url, {"after": "x' or 1"}).context["page"].is_final


def test_league_csv_in_polish_uses_semicolons_and_a_decimal_comma(client, e17):
    response = client.get(
        reverse("tournaments:league_csv", args=[e17.slug]),
        {"after": 1},
        HTTP_ACCEPT_LANGUAGE="pl",
    )
    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[1][:7] == ["KAR", "1", "", "23", "128", "1", "1"]
    grazyna = next(r for r in rows if r and r[0] == "Grażyna")
    assert grazyna[3] == "3,5"  # 7/2 big points
    english = client.get(
        reverse("tournaments:league_csv", args=[e17.slug]), {"after": 1}, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode("utf-8-sig")
    grazyna = next(r for r in csv.reader(io.StringIO(english)) if r and r[0] == "Grażyna")
    assert grazyna[3] == "3.5"


def test_league_print_page_has_every_table(client, e17):
    response = client.get(reverse("tournaments:league_detail", args=[e17.slug]), {"print": 1})
    body = response.content.decode()
    assert response.status_code == 200
    assert "data-print-on-load" in body and 'id="league-teams"' in body


def test_association_director_imports_licences_upload_preview_confirm(client, psb):
    director = UserFactory(username="secretary")
    make_director(director, psb.association)
    league = leagues.league_create(
        organiser=psb.association, name="Liga", game="baska", season="2025"
    )
    client.force_login(director)
    url = reverse("tournaments:league_licences", args=[league.slug])
    upload = SimpleUploadedFile(
        "licencje.csv", b"Nr;Nazwisko;Data\nL1;Ala;01.09.2025\nL2;Bartek;2025-11-01\n"
    )
    preview = client.post(url, {"upload": "1", "file": upload})
    assert preview.status_code == 200
    assert [x.number for x in preview.context["preview"].lines] == ["L1", "L2"]
    assert Licence.objects.count() == 0  # the preview wrote nothing
    text = preview.context["confirm"].initial["text"]
    done = client.post(url, {"confirm": "1", "text": text})
    assert done.status_code == 302
    assert sorted(Licence.objects.values_list("number", flat=True)) == ["L1", "L2"]


def test_a_licence_list_with_duplicates_is_refused_on_the_preview(client, psb):
    director = UserFactory(username="secretary")
    make_director(director, psb.association)
    league = leagues.league_create(
        organiser=psb.association, name="Liga", game="baska", season="2025"
    )
    client.force_login(director)
    upload = SimpleUploadedFile("l.csv", b"L1;Ala;01.09.2025\nL1;Ala;01.09.2025\n\xff\xfe")
    response = client.post(
        reverse("tournaments:league_licences", args=[league.slug]),
        {"upload": "1", "file": upload},
    )
    assert response.status_code == 200
    assert "lines 1, 2" in response.content.decode()
    assert "confirm" not in response.context
    assert Licence.objects.count() == 0


def test_director_builds_a_league_with_pages(client, psb):
    director = UserFactory(username="secretary")
    make_director(director, psb.association)
    client.force_login(director)
    response = client.post(
        reverse("tournaments:league_new"),
        {
            "organiser": psb.association.pk,
            "name": "Liga Pomorsko-Kaszubska",
            "season": "2026",
            "game": "baska",
            "counting": "sum",
            "team_size_min": 4,
            "team_size_max": 5,
            "team_counting": 4,
        },
    )
    league = League.objects.get()
    assert response.status_code == 302 and league.organiser == psb.association
    manage = reverse("tournaments:league_manage", args=[league.slug])
    kop = TournamentFactory(club=psb.kartuzy, game="kop")
    refusal = client.post(manage, {"add_event": "1", "tournament": kop.pk})
    assert "another game" in refusal.content.decode()
    assert not LeagueEvent.objects.exists()
    client.post(manage, {"add_team": "1", "name": "KAR"})
    team = LeagueTeam.objects.get()
    p = psb.players
    roster = reverse("tournaments:league_roster", args=[league.slug, team.pk])
    client.post(roster, {"players": [p[n].pk for n in (1, 2, 3, 4)]})
    assert RosterMember.objects.filter(team=team).count() == 4
    too_few = client.post(roster, {"players": [p[1].pk]})
    assert "4 to 5 regular players, not 1" in too_few.content.decode()
    assert RosterMember.objects.filter(team=team).count() == 4


# ------------------------------------------------------------------------------- access


def league_urls(league, team, event):
    slug = league.slug
    return [
        (reverse("tournaments:league_manage", args=[slug]), {"add_team": "1", "name": "X"}),
        (
            reverse("tournaments:league_licences", args=[slug]),
            {"confirm": "1", "text": "L7;X;01.01.2025"},
        ),
        (reverse("tournaments:league_roster", args=[slug, team.pk]), {"players": []}),
        (
            reverse("tournaments:league_lineups", args=[slug, event.pk]),
            {"team": team.pk, f"team-{team.pk}-players": []},
        ),
        (reverse("tournaments:league_recompute", args=[slug]), {}),
    ]


@pytest.fixture
def club_a_league(people):
    league = leagues.league_create(
        organiser=people.club_a, name="Liga A", game="kop", season="2026"
    )
    team = leagues.team_create(league=league, name="A1")
    players = [PlayerFactory(club=people.club_a) for _ in range(4)]
    leagues.roster_set(team=team, players=players)
    tournament = TournamentFactory(club=people.club_a, game="kop")
    event = leagues.event_add(league=league, tournament=tournament)
    return league, team, event, players


@pytest.mark.parametrize("who", [w for w in WHO if w not in ("site_admin", "director_a")])
def test_only_the_organisers_directors_change_a_league(people, club_a_league, who):
    league, team, event, _players = club_a_league
    client = people.client(who)
    before = database_state()
    for url, data in league_urls(league, team, event):
        answer = client.get(url)
        assert refused(answer) or answer.status_code == 405, (who, url)  # 405: POST only
        assert refused(client.post(url, data)), (who, url)
    assert database_state() == before
    assert client.get(reverse("tournaments:league_detail", args=[league.slug])).status_code == 200


def test_the_organisers_director_changes_the_league(people, club_a_league):
    league, team, event, players = club_a_league
    client = people.client("director_a")
    for url, _data in league_urls(league, team, event)[:4]:
        assert client.get(url).status_code == 200, url
    response = client.post(
        reverse("tournaments:league_lineups", args=[league.slug, event.pk]),
        {"team": team.pk, f"team-{team.pk}-players": [p.pk for p in players[:3]]},
    )
    assert response.status_code == 302
    assert LineUp.objects.filter(team=team, event=event).count() == 3


def test_a_new_league_for_a_club_one_does_not_direct_is_refused(people):
    client = people.client("director_b")
    before = database_state()
    response = client.post(
        reverse("tournaments:league_new"),
        {
            "organiser": people.club_a.pk,
            "name": "Theirs",
            "season": "2026",
            "game": "kop",
            "counting": "sum",
            "team_size_min": 4,
            "team_size_max": 5,
            "team_counting": 4,
        },
    )
    assert response.status_code == 200  # the form: club A is not among the choices
    assert "organiser" in response.context["form"].errors
    assert database_state() == before
