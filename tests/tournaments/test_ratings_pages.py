"""Leaderboards (minimum games, season, CSV), the player page, and series (drop-worst,
minimum tournaments, who may create them)."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.urls import reverse

from clubs.models import Player
from tests.config.test_csvexport import RAW
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    play_rounds_then_rate,
)
from tournaments import ratings
from tournaments.models import (
    RatingEvent,
    RatingState,
    Series,
    StandingsSnapshot,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(kop_tournament, sixteen):
    play_rounds_then_rate(kop_tournament, 2)
    return kop_tournament


def leaderboard(client, **params):
    return client.get(reverse("tournaments:rating_leaderboard", args=["kop"]), params)


# -------------------------------------------------------------------------- leaderboard


def test_leaderboard_is_public_and_says_when_it_was_computed(client, rated):
    response = leaderboard(client, min=0)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Computed" in body and "Rated deal by deal" in body
    rows = response.context["rows"]
    assert len(rows) == 16
    assert [r["rank"] for r in rows] == list(range(1, 17))
    assert rows == sorted(rows, key=lambda r: -r["rating"])
    assert all(r["games"] == 8 for r in rows)
    top = rows[0]
    assert top["rating"] == pytest.approx(top["mu"] - 3 * top["sigma"], abs=0.011)
    assert "after Kościan Cup round 2 table" in body  # each player's last change and cause


def test_leaderboard_shows_everyone_unless_a_minimum_is_asked(client, rated):
    """A newcomer with 8 games finds himself: the usual minimum (32 for Kop) is offered,
    not applied."""
    assert ratings.default_min_games("kop") == 32
    response = leaderboard(client)
    assert len(response.context["rows"]) == 16  # 8 deals each, every one shown
    assert 'id="rating-established" href="?min=32"' in response.content.decode().replace(
        'class="btn" ', ""
    )
    assert leaderboard(client, min=32).context["rows"] == []
    assert 'id="rating-everyone"' in leaderboard(client, min=32).content.decode()
    assert len(leaderboard(client, min=8).context["rows"]) == 16
    assert leaderboard(client, min=9).context["rows"] == []
    response = leaderboard(client, min="lots")  # not a number: everyone
    assert response.status_code == 200 and response.context["min_games"] == 0


def test_leaderboard_sorts_through_the_table_template(client, rated):
    response = leaderboard(client, min=0, **{"r-sort": "name"})
    names = [row.record["name"] for row in response.context["table"].page.object_list]
    assert names == sorted(names)
    assert b'hx-select="#table-r-"' in response.content


def test_leaderboard_season_filter(client, rated):
    this_year = timezone_year()
    assert ratings.rating_seasons(game="kop") == [this_year]
    # Move the first round's events a year back: last season has one table each.
    first = RatingEvent.objects.filter(source__table__round__number=1)
    for e in first:
        e.at = e.at - timedelta(days=366)
        e.save(update_fields=["at"])
    rows = leaderboard(client, min=0, season=this_year - 1).context["rows"]
    assert len(rows) == 16 and {r["games"] for r in rows} == {4}
    by_person = {e.person_id: e for e in first}
    person_of = dict(Player.objects.values_list("pk", "person_id"))
    for r in rows:
        assert r["mu"] == pytest.approx(by_person[person_of[r["player_id"]]].mu_after, abs=0.006)
    assert {r["games"] for r in leaderboard(client, min=0, season=this_year).context["rows"]} == {4}
    response = leaderboard(client, min=0, season=1990)  # not a season: all time
    assert response.status_code == 200 and len(response.context["rows"]) == 16
    assert response.context["season"] is None


def timezone_year():
    from django.utils import timezone

    return timezone.now().year


def test_leaderboard_csv(client, rated):
    response = client.get(
        reverse("tournaments:rating_leaderboard_csv", args=["kop"]), {"min": 8, **RAW}
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:5] == ["rank", "number", "name", "club", "rating"]
    assert len(rows) == 17
    assert (
        client.get(reverse("tournaments:rating_leaderboard_csv", args=["kop"]), {"min": 9})
        .content.decode("utf-8-sig")
        .strip()
        .count("\n")
        == 0
    )


def test_unknown_game_is_404(client):
    assert client.get("/ratings/chess/").status_code == 404
    assert client.get("/ratings/").status_code == 200


# -------------------------------------------------------------------------- player page


def test_player_page_shows_ratings_chart_history_and_meetings(client, rated, sixteen):
    player = sixteen[0].player
    response = client.get(reverse("tournaments:player_page", args=[player.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert f"/players/{player.pk}/" in body  # the permanent link
    assert (
        "<svg" in body
        and 'class="rating-line"' in body
        and "<script" not in body.split("<main", 1)[1]
    )
    (kop,) = response.context["ratings"]
    assert len(kop["history"]) == 2 and len(kop["chart"]["points"]) == 2
    assert kop["last"].startswith(("+", "−", "0")) and "Kościan Cup round 2" in kop["last"]
    state = RatingState.objects.get(person=player.person_id, game="kop")
    assert kop["history"][-1]["mu"] == round(state.mu, 2)
    assert 'class="grid compact rating-history"' in body
    (summary,) = response.context["per_game"]
    assert summary["sessions"] == 2 and summary["deals"] == 8
    assert response.context["partners"] and response.context["opponents"]
    assert sum(p["count"] for p in response.context["opponents"]) <= 8 * 3
    assert [t["name"] for t in response.context["tournaments"]] == ["Kościan Cup"]


def test_player_page_hides_results_of_hidden_standings(client, kop_tournament, sixteen):
    kop_tournament.hide_standings = True
    kop_tournament.save()
    play_rounds_then_rate(kop_tournament, 1)
    _snapshot(kop_tournament, {e.number: e.number for e in sixteen})
    response = client.get(reverse("tournaments:player_page", args=[sixteen[0].player.pk]))
    assert response.context["ratings"] == [] and response.context["per_game"] == []
    (session,) = response.context["sessions"]
    assert session["result"] == "hidden until the last round is finished"
    (tournament,) = response.context["tournaments"]
    assert tournament["rank"] is None
    assert response.context["partners"] == []


def test_player_without_results_has_a_page(client, club):
    player = PlayerFactory(club=club)
    response = client.get(reverse("tournaments:player_page", args=[player.pk]))
    assert response.status_code == 200
    assert b"No rated results yet." in response.content
    assert client.get("/players/999999/").status_code == 404


# ------------------------------------------------------------------------------- series


def _snapshot(tournament, ranks):
    """Standings as the standings task stores them: start number, name, rank."""
    rows = [
        {"number": e.number, "name": e.player.name, "rank": ranks[e.number]}
        for e in tournament.entries.select_related("player")
        if e.number in ranks
    ]
    return StandingsSnapshot.objects.create(
        tournament=tournament,
        results_version=tournament.results_version + 1,
        data={"individual": rows},
    )


@pytest.fixture
def three_cups(profiles, club, director):
    players = [PlayerFactory(club=club, name=n) for n in ("Ala", "Bolek", "Celina", "Darek")]
    cups = []
    for i in range(3):
        t = TournamentFactory(name=f"Cup {i + 1}", club=club, created_by=director)
        for p in players:
            RegistrationFactory(tournament=t, player=p, checked_in=False)
        cups.append(t)
    return players, cups


def test_director_creates_a_series_and_the_standings_drop_the_worst(director_client, three_cups):
    players, cups = three_cups
    response = director_client.post(
        reverse("tournaments:series_new"),
        {
            "club": cups[0].club_id,
            "name": "Grand Prix 2026",
            "game": "kop",
            "points_table": "25, 18, 15, 12",
            "min_tournaments": 2,
            "drop_worst": "on",
            "tournaments": [c.pk for c in cups],
        },
    )
    series = Series.objects.get()
    assert response.status_code == 302 and response.url == f"/series/{series.slug}/"
    assert series.points_table == [25, 18, 15, 12]
    # Start numbers 1..4 are Ala, Bolek, Celina, Darek in every cup.
    _snapshot(cups[0], {1: 1, 2: 2, 3: 3, 4: 4})
    _snapshot(cups[1], {1: 4, 2: 1, 3: 2, 4: 3})
    _snapshot(cups[2], {2: 1, 3: 2, 4: 2})  # Ala missed it; Celina and Darek tied 2nd
    response = director_client.get(reverse("tournaments:series_detail", args=[series.slug]))
    assert response.status_code == 200
    rows = {r["name"]: r for r in response.context["rows"]}
    assert rows["Bolek"]["total"] == 50 and rows["Bolek"]["t0"] == "(18)"  # 18 dropped
    assert rows["Ala"]["total"] == 37 and rows["Ala"]["t2"] == "(–)"  # the absence dropped
    assert rows["Celina"]["total"] == pytest.approx(34.5)  # 18 + 16.5, 15 dropped
    assert rows["Darek"]["total"] == pytest.approx(31.5)  # 16.5 + 15, 12 dropped
    assert [r["name"] for r in response.context["rows"]] == ["Bolek", "Ala", "Celina", "Darek"]
    assert [r["rank"] for r in response.context["rows"]] == [1, 2, 3, 4]
    assert "16.5" in response.content.decode()


def _labelled_snapshot(tournament, places, *, with_place=True):
    """Standings as tournaments/standings.py stores them: the rank label ("=2" for a tie)
    and, since it exists, the numeric place."""
    tied = {p for p in places.values() if list(places.values()).count(p) > 1}
    rows = []
    for e in tournament.entries.select_related("player"):
        if e.number not in places:
            continue
        place = places[e.number]
        row = {"number": e.number, "name": e.player.name, "rank": f"={place}"}
        if place not in tied:
            row["rank"] = str(place)
        if with_place:
            row["place"] = place
        rows.append(row)
    return StandingsSnapshot.objects.create(
        tournament=tournament,
        results_version=tournament.results_version + 1,
        data={"individual": rows},
    )


@pytest.mark.parametrize("with_place", [True, False], ids=["place", "label only"])
def test_tied_players_stay_in_the_series_and_share_the_places_points(
    client, three_cups, with_place
):
    players, cups = three_cups
    series = ratings.series_create(
        name="Grand Prix", game="kop", points_table=[25, 18, 15, 12], tournaments=cups[:2]
    )
    # Cup 1: Bolek and Celina tied 2nd ("=2"); cup 2: all four tied 1st.
    _labelled_snapshot(cups[0], {1: 1, 2: 2, 3: 2, 4: 4}, with_place=with_place)
    _labelled_snapshot(cups[1], {1: 1, 2: 1, 3: 1, 4: 1}, with_place=with_place)
    response = client.get(reverse("tournaments:series_detail", args=[series.slug]))
    rows = {r["name"]: r for r in response.context["rows"]}
    assert set(rows) == {"Ala", "Bolek", "Celina", "Darek"}
    # Tied players get the mean of the places they cover (kop.md §8.2): (18 + 15) / 2.
    assert rows["Bolek"]["t0"] == rows["Celina"]["t0"] == "16.5"
    assert rows["Darek"]["t0"] == "12"
    shared = (25 + 18 + 15 + 12) / 4
    assert rows["Ala"]["total"] == pytest.approx(25 + shared)
    assert rows["Bolek"]["total"] == rows["Celina"]["total"] == pytest.approx(16.5 + shared)
    assert [r["name"] for r in response.context["rows"]][0] == "Ala"


def test_series_minimum_tournaments_and_pending_tournaments(client, three_cups, director):
    players, cups = three_cups
    series = ratings.series_create(
        name="Ladder", game="kop", points_table=[10, 6, 3], min_tournaments=2, tournaments=cups
    )
    _snapshot(cups[0], {1: 1, 2: 2, 3: 3, 4: 4})
    _snapshot(cups[1], {2: 1, 3: 2, 4: 3})
    response = client.get(reverse("tournaments:series_detail", args=[series.slug]))
    rows = response.context["rows"]
    assert [(r["name"], r["rank"]) for r in rows] == [
        ("Bolek", 1),
        ("Celina", 2),
        ("Darek", 3),
        ("Ala", None),
    ]
    assert [t.name for t in response.context["pending"]] == ["Cup 3"]
    assert "too few tournaments" in response.content.decode()


def test_series_refuses_tournaments_of_another_game(director_client, three_cups, profiles):
    _players, cups = three_cups
    response = director_client.post(
        reverse("tournaments:series_new"),
        {
            "name": "Mixed",
            "game": "baska",
            "points_table": "10 5",
            "min_tournaments": 1,
            "tournaments": [cups[0].pk],
        },
    )
    assert response.status_code == 200
    assert "Not a tournament of this game" in response.content.decode()
    assert not Series.objects.exists()
    response = director_client.post(
        reverse("tournaments:series_new"),
        {"name": "Bad", "game": "kop", "points_table": "ten, five", "min_tournaments": 1},
    )
    assert "whole numbers" in response.content.decode()


def test_director_edits_a_series(director_client, three_cups):
    _players, cups = three_cups
    series = ratings.series_create(
        name="GP", game="kop", points_table=[10], tournaments=cups[:1], club=cups[0].club
    )
    response = director_client.post(
        reverse("tournaments:series_edit", args=[series.slug]),
        {
            "name": "GP renamed",
            "points_table": "12, 8",
            "min_tournaments": 1,
            "tournaments": [c.pk for c in cups[1:]],
        },
    )
    assert response.status_code == 302
    series.refresh_from_db()
    assert series.name == "GP renamed" and series.points_table == [12, 8]
    assert set(series.tournaments.all()) == set(cups[1:])


@pytest.mark.parametrize("url_name", ["series_new", "series_edit"])
def test_only_directors_create_or_edit_series(
    client, member_client, scorer_client, director_client, url_name, three_cups
):
    club = three_cups[1][0].club
    series = ratings.series_create(name="GP", game="kop", points_table=[10], club=club)
    args = [series.slug] if url_name == "series_edit" else []
    url = reverse(f"tournaments:{url_name}", args=args)
    data = {"name": "Sneaky", "game": "kop", "points_table": "1", "min_tournaments": 1}
    anonymous = client.post(url, data)
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))
    assert member_client.post(url, data).status_code == 403
    assert scorer_client.post(url, data).status_code == 403
    assert Series.objects.count() == 1 and Series.objects.get().name == "GP"
    assert director_client.get(url).status_code == 200


def test_series_pages_are_public(client):
    series = ratings.series_create(name="Open GP", game="kop", points_table=[10])
    assert client.get(reverse("tournaments:series_index")).status_code == 200
    assert client.get(reverse("tournaments:series_detail", args=[series.slug])).status_code == 200
