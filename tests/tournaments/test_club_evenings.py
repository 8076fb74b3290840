"""Club evenings in the ratings: a club session (no tournament's table) accepted by a phone
at another seat is rated like a tournament table (incrementally, equal to a full rebuild);
a director leaves one out with a reason kept in its history; the player page and the
leaderboard name the evening. (Who may accept a club session:
``tests/scoring/test_acceptance.py``.)"""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from scoring import acceptance
from scoring import services as scoring_services
from scoring.errors import AcceptRefused
from scoring.models import DealHistory
from tests.factories import TableSessionFactory, amend_accepted, play_round, ratings_snapshot
from tests.scoring.test_acceptance import CHECKER, DIRECTOR, evening
from tournaments import ratings
from tournaments.models import RatingEvent, RatingSource

pytestmark = pytest.mark.django_db
CLUB_TASK = "tournaments.tasks.ratings_update_game"


@pytest.fixture(autouse=True)
def english():
    """The sentences compared here are the English ones (another test may leave Polish on)."""
    with translation.override("en"):
        yield


def run_club_rating(callbacks):
    """Run the club ratings task each on-commit callback enqueued (and check there was one)."""
    # ops.outbox.PendingTask: the name of the task it sends.
    tasks = [c for c in callbacks if getattr(c, "task", None) == CLUB_TASK]
    assert tasks
    for cb in tasks:
        cb()


@pytest.fixture
def rated_before(kop_tournament, sixteen, django_capture_on_commit_callbacks):
    """A tournament round already rated, so the evening lands on a history."""
    play_round(kop_tournament, random.Random(5), django_capture_on_commit_callbacks)


def test_a_club_session_accepted_by_another_seat_is_rated_and_equals_a_rebuild(
    profiles, sixteen, rated_before, django_capture_on_commit_callbacks
):
    players = [e.player for e in sixteen[:4]]
    session = evening(players)
    with django_capture_on_commit_callbacks() as callbacks:
        acceptance.session_accept(session=session, actor=CHECKER)
    session.refresh_from_db()
    assert session.locked and session.accepted_seat == 3
    run_club_rating(callbacks)

    source = RatingSource.objects.get(session=session)
    assert source.table is None and source.at == session.accepted_at
    assert RatingEvent.objects.filter(source=source).count() == 4
    incremental = ratings_snapshot()
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == incremental

    # The player page and the leaderboard say which evening was rated.
    label = ratings.club_evening_label(session)
    profile = ratings.player_profile(player=players[0])
    line = next(s for s in profile["sessions"] if s["session_id"] == session.pk)
    assert line["rated"] and line["evening"] == "rated"
    history = profile["ratings"][0]["history"]
    assert history[-1]["club_evening"] and history[-1]["cause"] == label
    row = next(
        r
        for r in ratings.rating_leaderboard(game="kop", min_games=0)
        if r["player_id"] == players[0].pk
    )
    assert row["club_evening"] and row["cause"] == label

    # A director's correction after the acceptance is rated again, still equal to a rebuild.
    deal = session.kop_deals.order_by("number").first()

    with django_capture_on_commit_callbacks() as callbacks:
        amend_accepted(
            session=session,
            change=lambda: scoring_services.deal_void(
                session=session, slot=deal.slot, actor=DIRECTOR, reason="x"
            ),
        )
    run_club_rating(callbacks)
    corrected = ratings_snapshot()
    assert corrected != incremental
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == corrected


def test_an_excluded_session_is_not_rated_and_its_exclusion_is_in_the_history(
    profiles, sixteen, rated_before, django_capture_on_commit_callbacks
):
    players = [e.player for e in sixteen[4:8]]
    session = evening(players, title="Friday")
    with django_capture_on_commit_callbacks() as callbacks:
        acceptance.session_accept(session=session, actor=CHECKER)
    run_club_rating(callbacks)
    assert RatingSource.objects.filter(session=session).exists()

    with pytest.raises(AcceptRefused):  # a player may not
        acceptance.session_rating_exclude(session=session, actor=CHECKER, reason="x")
    with pytest.raises(AcceptRefused):  # a director says why
        acceptance.session_rating_exclude(session=session, actor=DIRECTOR, reason=" ")
    with django_capture_on_commit_callbacks() as callbacks:
        acceptance.session_rating_exclude(
            session=session, actor=DIRECTOR, reason="played with a missing card"
        )
    run_club_rating(callbacks)
    assert not RatingSource.objects.filter(session=session).exists()
    assert not RatingEvent.objects.filter(source__session=session).exists()
    entry = DealHistory.objects.get(session=session, action="excluded")
    assert entry.reason == "played with a missing card" and entry.actor == "dora"
    incremental = ratings_snapshot()
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == incremental
    line = next(
        s
        for s in ratings.player_profile(player=players[0])["sessions"]
        if s["session_id"] == session.pk
    )
    assert not line["rated"] and line["evening"] == "left out of the ratings"

    # Rated again, with a reason: back in.
    with django_capture_on_commit_callbacks() as callbacks:
        acceptance.session_rating_exclude(
            session=session, actor=DIRECTOR, reason="the card was found", excluded=False
        )
    run_club_rating(callbacks)
    assert RatingSource.objects.filter(session=session).exists()
    assert DealHistory.objects.filter(session=session, action="included").exists()


def test_phones_accept_a_club_evening_and_the_pages_name_it(
    profiles, sixteen, director_client, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    from tests.actors import phone

    players = [e.player for e in sixteen[:4]]
    session = TableSessionFactory(
        profile="kop-koscian", players=players, title="Club night", planned_deals=2
    )
    deal = {"contract": "normal", "declarers": ["1", "3"], "doublings": "0"}
    scorer = phone(session, seat=1)
    for points in ("60", "70"):
        add = reverse("scoring:deal_add", kwargs={"pk": session.pk})
        assert scorer.post(add, {**deal, "declarer_points": points}).status_code == 302
    accept = reverse("scoring:session_accept", kwargs={"pk": session.pk})
    page = scorer.post(accept, follow=True).content.decode()
    assert "This phone or this seat entered deals" in page
    checker = phone(session, seat=2)
    with django_capture_on_commit_callbacks() as callbacks:
        page = checker.post(accept, follow=True).content.decode()
    assert "Result accepted by seat 2" in page
    run_club_rating(callbacks)

    board = director_client.get(
        reverse("tournaments:rating_leaderboard", kwargs={"game": "kop"})
    ).content
    label = ratings.club_evening_label(session)
    assert "Rated club evenings" in board.decode() and label in board.decode()
    player_page = director_client.get(
        reverse("tournaments:player_page", kwargs={"pk": players[0].pk})
    )
    assert label in player_page.content.decode()

    exclude = reverse("scoring:session_rating_exclude", kwargs={"pk": session.pk})
    with django_capture_on_commit_callbacks() as callbacks:
        page = director_client.post(exclude, {"reason": "practice"}, follow=True)
    assert "Left out of the ratings by the director" in page.content.decode()
    run_club_rating(callbacks)
    assert not RatingSource.objects.filter(session=session).exists()
