"""One person, one identity across clubs (issue 26 item 2): a register row stands for a
person; a federation id links new rows, never an edited one; a director of both rows'
clubs merges two rows (recorded on each club, refused with a reason when the rows sat at
one table), and a merge can be split again. Only a POST merges; a director of another
club changes nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from clubs.models import ClubRecord, Person, Player
from clubs.roles import make_director
from clubs.services import MergeError, player_create, player_merge, player_split
from scoring import acceptance
from scoring import services as scoring_services
from tests.clubs.identities import *  # noqa: F403
from tests.clubs.identities import database_state
from tests.factories import (
    ClubFactory,
    KopDealFactory,
    PlayerFactory,
    RegistrationFactory,
    TableSessionFactory,
    UserFactory,
)
from tournaments import ratings
from tournaments.models import RatingEvent, RatingRun, RatingState

pytestmark = pytest.mark.django_db

DIRECTOR = scoring_services.Actor(label="dora", is_director=True)


# ------------------------------------------------------------------------- migration

BEFORE = [("clubs", "0003_memberships"), ("tournaments", "0022_club_owners")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_rows_of_one_federation_id_one_person_and_others_their_own():
    executor = MigrationExecutor(connection)
    # Forwards first: another migration test may have left the database anywhere (a plan
    # may not go both ways).
    executor.migrate(executor.loader.graph.leaf_nodes())
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Club, OldPlayer = old.get_model("clubs", "Club"), old.get_model("clubs", "Player")
    a, b = Club.objects.create(name="Kościan"), Club.objects.create(name="Leszno")
    rows = {
        "anna_a": OldPlayer.objects.create(club=a, number=1, name="Anna", federation_id="PSB-1"),
        # the same licence in another club's register (typed with a space after it)
        "anna_b": OldPlayer.objects.create(
            club=b, number=7, name="Anna N.", federation_id="PSB-1 "
        ),
        # one name in two registers, no licence: two persons until a director merges them
        "jan_a": OldPlayer.objects.create(club=a, number=2, name="Jan Kos"),
        "jan_b": OldPlayer.objects.create(club=b, number=8, name="Jan Kos"),
        "ola_a": OldPlayer.objects.create(club=a, number=3, name="Ola", federation_id="PSB-3"),
    }
    # Ratings stored per register row: Kop's rows of one licence were rated apart, so Kop
    # is rated again from scratch; Vint's rows are each their own person, kept as they were.
    OldRun = old.get_model("tournaments", "RatingRun")
    OldState = old.get_model("tournaments", "RatingState")
    now = timezone.now()
    OldRun.objects.create(game="kop", model="deal", computed_at=now, sources=3)
    OldRun.objects.create(game="vint", model="rubber", computed_at=now, sources=1)
    for key in ("anna_a", "anna_b", "jan_a"):
        OldState.objects.create(player=rows[key], game="kop", mu=26, sigma=8, games=4, tables=1)
    OldState.objects.create(player=rows["jan_b"], game="vint", mu=24, sigma=8, games=2, tables=1)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    person = {key: Player.objects.get(pk=row.pk).person for key, row in rows.items()}
    assert person["anna_a"] == person["anna_b"]
    assert person["anna_a"].federation_id == "PSB-1"
    assert person["jan_a"] != person["jan_b"]
    assert len({p.pk for p in person.values()}) == 4
    assert Person.objects.count() == 4
    assert person["ola_a"].federation_id == "PSB-3" and person["jan_a"].federation_id == ""
    assert not RatingState.objects.filter(game="kop").exists()
    assert RatingRun.objects.get(game="kop").computed_at is None
    (vint,) = RatingState.objects.filter(game="vint")
    assert (vint.person_id, vint.games) == (person["jan_b"].pk, 2)
    assert RatingRun.objects.get(game="vint").computed_at is not None


# ----------------------------------------------------------------------- new rows


def test_a_new_row_with_a_federation_id_joins_its_person_and_without_one_is_new():
    a, b = ClubFactory(name="Kościan"), ClubFactory(name="Leszno")
    anna = player_create(club=a, name="Anna", federation_id="PSB-1")
    again = player_create(club=b, name="Anna Nowak", federation_id="PSB-1")
    other = player_create(club=b, name="Anna")
    assert again.person_id == anna.person_id
    assert other.person_id != anna.person_id
    assert Person.objects.get(pk=anna.person_id).federation_id == "PSB-1"


def test_editing_a_federation_id_to_another_persons_never_links_the_rows(people):
    anna = player_create(club=people.club_a, name="Anna", federation_id="PSB-1")
    ania = player_create(club=people.club_b, name="Ania")
    client = people.client("director_b")
    url = reverse("tournaments:player_edit", args=[ania.pk])
    response = client.post(url, {"name": "Ania", "federation_id": "PSB-1"})
    ania.refresh_from_db()
    assert ania.federation_id == "PSB-1"  # the row keeps what was typed...
    assert ania.person_id != anna.person_id  # ...and stays its own person
    assert not ClubRecord.objects.filter(action="merged").exists()
    # The page says so and offers the merge.
    assert response.status_code == 302 and "same-person" in response["Location"]
    page = client.get(response["Location"])
    assert "stay two persons until you merge them" in page.content.decode()
    assert [f["player"] for f in page.context["found"]] == [anna]


def test_a_fresh_federation_id_on_a_row_becomes_its_persons():
    ala = PlayerFactory(name="Ala")
    ala.federation_id = "PSB-9"
    ala.save()
    assert Person.objects.get(pk=ala.person_id).federation_id == "PSB-9"
    assert player_create(club=ala.club, name="Ala Nowa", federation_id="PSB-9").person_id == (
        ala.person_id
    )


# -------------------------------------------------------------------------- merging


@pytest.fixture
def two_rows(people):
    """One human being in club A's register and in club B's, not linked, and a director of
    both clubs."""
    keep = player_create(club=people.club_a, name="Anna Nowak", federation_id="PSB-1")
    other = player_create(club=people.club_b, name="Ania Nowak")
    both = UserFactory(username="director-ab")
    make_director(both, people.club_a)
    make_director(both, people.club_b)
    people.users["director_ab"] = both
    return keep, other


def test_a_merge_makes_one_person_keeps_both_rows_and_records_it_on_each_club(people, two_rows):
    keep, other = two_rows
    gone = other.person_id
    session = TableSessionFactory(players=[other, *PlayerFactory.create_batch(3)])
    seats = list(session.seats.values_list("seat", "player_id"))
    by = people.users["director_ab"]

    person = player_merge(keep=keep, other=other, by=by, reason="Same licence card")

    keep.refresh_from_db()
    other.refresh_from_db()
    assert keep.person_id == other.person_id == person.pk
    assert not Person.objects.filter(pk=gone).exists()
    # Both rows stay in their registers with their numbers; the table did not change.
    assert (keep.club_id, other.club_id) == (people.club_a.pk, people.club_b.pk)
    assert list(session.seats.values_list("seat", "player_id")) == seats
    records = {r.club_id: r for r in ClubRecord.objects.filter(action="merged")}
    assert set(records) == {people.club_a.pk, people.club_b.pk}
    for record in records.values():
        assert record.user == by
        assert record.detail["keep"]["id"] == keep.pk
        assert record.detail["keep"]["name"] == "Anna Nowak"
        assert record.detail["other"]["id"] == other.pk
        assert record.detail["other"]["name"] == "Ania Nowak"
        assert record.detail["reason"] == "Same licence card"
        assert record.detail["rows_moved"] == [other.pk]


def test_the_licence_of_the_merged_person_passes_to_the_kept_one(people, two_rows):
    keep, other = two_rows
    Person.objects.filter(pk=keep.person_id).update(federation_id="")
    Person.objects.filter(pk=other.person_id).update(federation_id="PSB-2")
    person = player_merge(keep=keep, other=other, by=None, reason="x")
    person.refresh_from_db()
    assert person.federation_id == "PSB-2"


def refused_and_unchanged(call, message):
    before = database_state()
    with pytest.raises(MergeError, match=message):
        call()
    assert database_state() == before


def test_a_merge_is_refused_with_a_reason_and_nothing_written(people, two_rows):
    keep, other = two_rows
    refused_and_unchanged(
        lambda: player_merge(keep=keep, other=keep, by=None, reason="x"), "with itself"
    )
    refused_and_unchanged(lambda: player_merge(keep=keep, other=other, by=None, reason=" "), "why")
    Person.objects.filter(pk=other.person_id).update(federation_id="PSB-2")
    refused_and_unchanged(
        lambda: player_merge(keep=keep, other=other, by=None, reason="x"), "different federation"
    )


def test_two_rows_of_one_club_that_sat_at_one_table_are_not_one_person(people):
    jan, jan_again = (player_create(club=people.club_a, name="Jan Kos") for _ in range(2))
    TableSessionFactory(players=[jan, jan_again, *PlayerFactory.create_batch(2)])
    refused_and_unchanged(
        lambda: player_merge(keep=jan, other=jan_again, by=None, reason="x"), "one table"
    )


def test_rows_entered_in_one_tournament_are_not_merged(people):
    jan, jan_again = (player_create(club=people.club_a, name="Jan Kos") for _ in range(2))
    entry = RegistrationFactory(player=jan)
    RegistrationFactory(player=jan_again, tournament=entry.tournament)
    refused_and_unchanged(
        lambda: player_merge(keep=jan, other=jan_again, by=None, reason="x"), "one tournament"
    )


def test_rows_already_one_person_are_not_merged_again(people, two_rows):
    keep, other = two_rows
    player_merge(keep=keep, other=other, by=None, reason="x")
    refused_and_unchanged(
        lambda: player_merge(keep=keep, other=other, by=None, reason="x"), "one person already"
    )


def test_a_split_gives_the_row_a_person_of_its_own_again_recorded(people, two_rows):
    keep, other = two_rows
    person = player_merge(keep=keep, other=other, by=None, reason="x")
    by = people.users["director_b"]  # directs the split row's club
    new = player_split(player=other, by=by, reason="Two Annas after all")
    other.refresh_from_db()
    keep.refresh_from_db()
    assert other.person_id == new.pk != keep.person_id == person.pk
    assert Person.objects.get(pk=person.pk).federation_id == "PSB-1"  # stays with the kept row
    records = ClubRecord.objects.filter(action="split")
    assert {r.club_id for r in records} == {people.club_a.pk, people.club_b.pk}
    assert {r.detail["reason"] for r in records} == {"Two Annas after all"}
    # The person's only row is not split.
    refused_and_unchanged(lambda: player_split(player=other, by=None, reason="x"), "only one")


# ------------------------------------------------------------------- who may, pages


def test_nothing_is_merged_by_a_get_and_the_page_shows_both_rows_counts(people, two_rows):
    keep, other = two_rows
    TableSessionFactory(players=[other, *PlayerFactory.create_batch(3)])
    client = people.client("director_ab")
    search = client.get(reverse("tournaments:player_merge_search", args=[keep.pk]), {"q": "nowak"})
    assert [f["player"] for f in search.context["found"]] == [other]
    url = reverse("tournaments:player_merge_confirm", args=[keep.pk, other.pk])
    before = database_state()
    page = client.get(url)
    assert page.status_code == 200 and database_state() == before
    assert page.context["keep"]["counts"] == {"sessions": 0, "entries": 0, "rated_games": 0}
    assert page.context["other"]["counts"]["sessions"] == 1

    response = client.post(url, {"reason": "Same licence card"})
    assert response.status_code == 302
    other.refresh_from_db()
    assert other.person_id == keep.person_id
    # The kept row's page offers to split either row off again.
    page = client.get(response["Location"]).content.decode()
    for row in (keep, other):
        assert reverse("tournaments:player_split", args=[row.pk]) in page


@pytest.mark.parametrize("who", ["director_a", "director_b", "director_c", "scorer_a", "no_role"])
def test_only_a_director_of_both_clubs_merges(people, two_rows, who):
    keep, other = two_rows
    third = ClubFactory(name="Klub C")
    people.users["director_c"] = UserFactory(username="director-c")
    make_director(people.users["director_c"], third)
    url = reverse("tournaments:player_merge_confirm", args=[keep.pk, other.pk])
    client = people.client(who)  # (signing in writes the last login)
    before = database_state()
    response = client.post(url, {"reason": "mine now"})
    assert response.status_code == 403
    assert database_state() == before
    with pytest.raises(PermissionDenied, match="both rows"):
        player_merge(keep=keep, other=other, by=people.users[who], reason="x")
    assert database_state() == before


def test_anonymous_goes_to_the_login_page_and_merges_nothing(people, two_rows):
    keep, other = two_rows
    url = reverse("tournaments:player_merge_confirm", args=[keep.pk, other.pk])
    before = database_state()
    response = people.client("anonymous").post(url, {"reason": "x"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert database_state() == before


# ------------------------------------------------------- ratings and pages follow the person

# Worked by hand (openskill's Plackett-Luce, its defaults: μ 25, σ 25/3, β 25/6, τ 25/300;
# a won cicha is four sides, the soloist first, the three defenders sharing second):
#
# First deal, everyone at the prior. σ'² = σ² + τ² = 69.4444 + 0.0069 = 69.4514;
# c² = 4 (σ'² + β²) = 4 (69.4514 + 17.3611) = 347.25, c = 18.6346. Equal μ: the soloist's
# share x = 1/4, so Ω = (1 − 1/4) σ'²/c = 0.75 · 3.72700 = 2.79525 and
# Δ = x(1 − x) σ'²/c² · σ'/c = 0.1875 · 0.2 · 0.44721 = 0.0167705:
# μ₁ = 25 + 2.79525 = 27.79525, σ₁ = 8.33375 · √(1 − 0.0167705) = 8.26357.
#
# Second deal, the soloist at (μ₁, σ₁), three newcomers at the prior:
# σ'² = 8.26357² + τ² = 68.2935; c² = (68.2935 + 17.3611) + 3 · 86.8125 = 346.0922,
# c = 18.60355; x = e^(μ₁/c) / (e^(μ₁/c) + 3 e^(25/c)) = 1 / (1 + 3 e^(−2.79525/c))
# = 1 / (1 + 3 · 0.86048) = 0.279215; Ω = 0.720785 · 68.2935 / 18.60355 = 2.64600;
# Δ = 0.279215 · 0.720785 · 68.2935 / 346.0922 · √68.2935 / 18.60355 = 0.017642:
# μ₂ = 27.79525 + 2.64600 = 30.44125, σ₂ = 8.26399 · √(1 − 0.017642) = 8.19077.
ONE_WIN = (27.79525, 8.26357)
TWO_WINS = (30.44125, 8.19077)


def rating_of(player):
    return RatingState.objects.get(person_id=Player.objects.get(pk=player.pk).person_id)


def club_evening_won_by(player):
    """A club evening of one deal: ``player`` (seat 1) wins a cicha against three newcomers."""
    session = TableSessionFactory(
        players=[player, *PlayerFactory.create_batch(3)], planned_deals=1, title="Evening"
    )
    KopDealFactory(session=session)
    acceptance.session_accept(session=session, actor=DIRECTOR, reason="checked")
    return session


def test_a_merged_persons_rating_is_the_rating_of_both_rows_games(
    people, two_rows, django_capture_on_commit_callbacks
):
    keep, other = two_rows
    first = club_evening_won_by(keep)
    second = club_evening_won_by(other)
    ratings.ratings_update(game="kop")
    for row in (keep, other):  # each row its own person: one win each from the prior
        state = rating_of(row)
        assert (state.mu, state.sigma) == pytest.approx(ONE_WIN, abs=1e-4)
        assert state.games == 1

    with django_capture_on_commit_callbacks(execute=True):
        player_merge(keep=keep, other=other, by=None, reason="one person")
    state = rating_of(keep)
    assert (state.mu, state.sigma) == pytest.approx(TWO_WINS, abs=1e-4)
    assert (state.games, state.tables) == (2, 2)
    assert rating_of(other) == state
    assert RatingEvent.objects.filter(person_id=state.person_id).count() == 2

    # Both register rows' pages show the person's whole history, with the rows named.
    for row in (keep, other):
        page = people.client("anonymous").get(reverse("tournaments:player_page", args=[row.pk]))
        assert {s["session_id"] for s in page.context["sessions"]} == {first.pk, second.pk}
        assert {r["player"] for r in page.context["rows"]} == {keep, other}
        body = page.content.decode()
        assert "Klub A #" in body and "Klub B #" in body
        (kop,) = page.context["ratings"]
        assert [h["row"] for h in kop["history"]] == [
            f"Klub A #{keep.number}",
            f"Klub B #{other.number}",
        ]
    # One line on the leaderboard, with both clubs.
    (line,) = [
        r for r in ratings.rating_leaderboard(game="kop", min_games=0) if r["player_id"] == keep.pk
    ]
    assert line["club"] == "Klub A, Klub B" and line["games"] == 2

    # Split again: each row back to its one win.
    with django_capture_on_commit_callbacks(execute=True):
        player_split(player=other, by=None, reason="two people")
    for row in (keep, other):
        state = rating_of(row)
        assert (state.mu, state.sigma, state.games) == pytest.approx((*ONE_WIN, 1), abs=1e-4)
