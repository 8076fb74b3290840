"""Acceptance that means something: who may accept a table, when, and what follows.

A phone that opens a table link says which seat it is (``scoring.permissions``). The
result is accepted by a phone at another seat that wrote nothing at the table, once its
planned deals are played; a director accepts any table, with a reason. Accepting locks
the table and rotates its link; an unlock takes the acceptance back. (How long a phone's
grant lasts: ``tests/scoring/test_table_link.py``.)
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.games.kop.models import KopDeal
from scoring.models import DealHistory
from tests.actors import DIRECTOR_ACCEPTS, open_table_link, phone, phone_of
from tournaments import services
from tournaments.models import Round, RoundTable

DEAL = {"contract": "normal", "declarers": ["1", "3"], "doublings": "0", "declarer_points": "60"}


@pytest.fixture
def table(kop_tournament, sixteen):
    """Table 1 of round 1 (4 planned deals)."""
    return services.round_generate(tournament=kop_tournament).tables.get(number=1)


def add_url(table):
    return reverse("scoring:deal_add", kwargs={"pk": table.session_id})


def accept_url(table):
    return reverse(
        "tournaments:table_accept",
        kwargs={"slug": table.round.tournament.slug, "table_id": table.pk},
    )


def session_url(table):
    return reverse("scoring:session", kwargs={"pk": table.session_id})


def play(client, table, deals=4):
    for _ in range(deals):
        assert client.post(add_url(table), DEAL).status_code == 302
    assert KopDeal.objects.filter(session=table.session_id).count() >= deals


def accept(client, table, **data):
    return client.post(accept_url(table), data, follow=True).content.decode()


def fresh(table):
    return RoundTable.objects.select_related("session").get(pk=table.pk)


def test_director_named_in_a_forged_form_cannot_accept_a_table_with_no_deals(table):
    """The issue's case: a link holder posted accepted_by=Director on a 0-deal table."""
    page = accept(phone(table.session, seat=2), table, accepted_by="Director")
    assert "The table has 0 of its 4 deals" in page
    table = fresh(table)
    assert table.accepted_at is None and not table.session.locked


def test_the_scorer_cannot_accept_their_own_table(table):
    scorer = phone(table.session, seat=1)
    play(scorer, table)
    page = accept(scorer, table)
    assert "This phone or this seat entered deals at the table" in page
    assert fresh(table).accepted_at is None
    # The scorer's phone shows no accept button, only where the others accept.
    assert 'id="accept-other-phone"' in scorer.get(session_url(table)).content.decode()
    # A second browser claiming the scorer's seat is refused too.
    assert "this seat entered deals" in accept(phone(table.session, seat=1), table)
    assert fresh(table).accepted_at is None


def test_a_scorer_account_that_entered_the_deals_cannot_accept_either(table, scorer, scorer_client):
    table.session.scorers.add(scorer)
    play(scorer_client, table)
    page = accept(scorer_client, table)
    assert "choose your seat to accept" in page
    open_table_link(scorer_client, table.session, seat=3)  # the same account, now at a seat
    assert "This phone or this seat entered deals" in accept(scorer_client, table)
    assert fresh(table).accepted_at is None


def test_another_seat_accepts_and_the_link_rotates(table):
    scorer = phone(table.session, seat=1)
    play(scorer, table)
    old_token = fresh(table).session.entry_token
    checker = phone(table.session, seat=2)
    page = accept(checker, table)
    assert "Result accepted. Thank you!" in page
    table = fresh(table)
    seat_2 = table.session.seats.get(seat=2)
    assert table.accepted_at is not None and table.session.locked
    assert (table.accepted_seat, table.accepted_player_id) == (2, seat_2.player_id)
    assert f"Result accepted by seat 2 ({seat_2.player.name})" in page
    # Who accepted is kept by seat and phone id, then the lock.
    row = DealHistory.objects.get(session=table.session, action="accepted")
    assert (row.deal_number, row.seat, row.user_id) == (0, 2, None)
    assert row.phone == phone_of(checker) != ""
    assert row.new["player"] == seat_2.player_id and "override" not in row.new
    assert DealHistory.objects.filter(session=table.session, action="locked").count() == 1
    # The link rotated: the old card opens nothing, and no grant from it holds.
    assert table.session.entry_token != old_token
    assert (
        Client().get(reverse("scoring:table_link", kwargs={"token": old_token})).status_code == 404
    )
    assert accept(phone(table.session, seat=3), table).count("already accepted") == 1


def test_a_director_accepts_an_unfinished_table_only_with_a_reason(
    table, director, director_client
):
    play(phone(table.session, seat=1), table, deals=2)
    assert "only with a reason" in accept(director_client, table)
    assert fresh(table).accepted_at is None
    assert "under 500 characters" in accept(director_client, table, reason="x" * 501)
    page = accept(director_client, table, reason="Players left; the sheet is signed on paper")
    assert "Result accepted by the director" in page
    table = fresh(table)
    assert table.accepted_user_id == director.pk and table.accepted_seat is None
    row = DealHistory.objects.get(session=table.session, action="accepted")
    assert row.reason == "Players left; the sheet is signed on paper"
    assert (row.user_id, row.new["override"], row.new["deals"], row.new["planned"]) == (
        director.pk,
        True,
        2,
        4,
    )
    history = director_client.get(reverse("scoring:history", kwargs={"pk": table.session_id}))
    assert "Players left; the sheet is signed on paper" in history.content.decode()


def test_a_vint_or_kop_table_may_be_accepted_unfinished_once_the_round_time_is_up(table):
    tournament = table.round.tournament
    tournament.round_minutes = 60
    tournament.save()
    play(phone(table.session, seat=1), table, deals=1)
    checker = phone(table.session, seat=2)
    assert "1 of its 4 deals" in accept(checker, table)
    # The round started two hours ago: its hour is up.
    Round.objects.filter(pk=table.round_id).update(created_at=timezone.now() - timedelta(hours=2))
    assert "Result accepted" in accept(checker, table)


def test_an_unlock_takes_the_acceptance_back_and_the_board_says_so(table, director_client):
    scorer = phone(table.session, seat=1)
    play(scorer, table)
    accept(phone(table.session, seat=2), table)
    lock = reverse("scoring:session_lock", kwargs={"pk": table.session_id})
    director_client.post(lock, {"unlock": "1"})  # no reason: refused
    assert fresh(table).session.locked
    director_client.post(lock, {"unlock": "1", "reason": "Deal 3 was entered twice"})
    table = fresh(table)
    assert not table.session.locked and table.accepted_at is None
    assert table.accepted_seat is None and table.reopened_at is not None
    row = DealHistory.objects.get(session=table.session, action="unlocked")
    assert row.reason == "Deal 3 was entered twice" and row.new["locked_at"]
    board = director_client.get(
        reverse("tournaments:board", kwargs={"slug": table.round.tournament.slug})
    ).content.decode()
    row_html = board.split('data-table="1"')[1].split("</tr>")[0]
    assert "to accept again" in row_html
    # The phones of before the acceptance cannot write again: their link rotated.
    assert scorer.post(add_url(table), DEAL).status_code == 403
    # A fresh scan of the new link, at another seat, accepts again.
    checker = phone(table.session, seat=4)
    assert 'id="accept-again"' in checker.get(session_url(table)).content.decode()
    assert "Result accepted" in accept(checker, table)
    assert fresh(table).reopened_at is None


def test_a_director_revokes_and_reissues_a_tables_link(table, director_client):
    scorer = phone(table.session, seat=1)
    play(scorer, table, deals=1)
    old = table.session.entry_token
    reissue = reverse("scoring:link_reissue", kwargs={"pk": table.session_id})
    assert Client().post(reissue).status_code == 302  # to the login page
    assert fresh(table).session.entry_token == old
    director_client.post(reissue)
    new = fresh(table).session.entry_token
    assert new != old
    assert scorer.post(add_url(table), DEAL).status_code == 403  # its grant ended
    assert Client().get(reverse("scoring:table_link", kwargs={"token": old})).status_code == 404
    assert phone(fresh(table).session, seat=1).post(add_url(table), DEAL).status_code == 302
    assert DealHistory.objects.filter(session=table.session, action="reissued").count() == 1
    # The new QR is on the round's table card.
    cards = director_client.get(
        reverse("tournaments:round", kwargs={"slug": table.round.tournament.slug, "number": 1})
        + "?cards=1"
    ).content.decode()
    assert new in cards and old not in cards


def test_grants_end_when_the_round_closes(table, director_client):
    """Every table accepted: even a table unlocked afterwards takes no deal from a phone
    of the round (the acceptance rotated every link)."""
    other = table.round.tables.get(number=2)
    phones = [phone(t.session, seat=1) for t in (table, other)]
    services.round_accept_all(rnd=table.round, actor=DIRECTOR_ACCEPTS, reason="time")
    other = fresh(other)
    lock = reverse("scoring:session_lock", kwargs={"pk": other.session_id})
    director_client.post(lock, {"unlock": "1", "reason": "a late correction"})
    assert not fresh(other).session.locked
    assert phones[1].post(add_url(other), DEAL).status_code == 403
    assert DealHistory.objects.filter(session=other.session, action="accepted").get().reason == (
        "time"
    )


def test_accept_all_needs_a_reason(table):
    with pytest.raises(services.TournamentError, match="only with a reason"):
        services.round_accept_all(rnd=table.round, actor=DIRECTOR_ACCEPTS, reason=" ")
    assert not RoundTable.objects.filter(accepted_at__isnull=False).exists()


def test_the_end_of_the_planned_deals_and_a_table_accepted_off_plan(table, director_client):
    scorer = phone(table.session, seat=1)
    play(scorer, table)  # the 4 planned deals
    assert scorer.post(add_url(table), DEAL).status_code == 200  # a 5th: refused, the pad says why
    assert KopDeal.objects.filter(session=table.session_id).count() == 4
    assert "All 4 planned deals are played" in scorer.get(session_url(table)).content.decode()
    # The director allows a 5th (a misdeal replayed), it is played, and the players may
    # no longer accept alone once the plan is back at 4 (five deals, four planned).
    planned = reverse("scoring:session_planned", kwargs={"pk": table.session_id})
    director_client.post(planned, {"planned_deals": "5", "reason": "misdeal replayed"})
    play(scorer, table, deals=1)
    director_client.post(planned, {"planned_deals": "4", "reason": "the misdeal counts not"})
    checker = phone(table.session, seat=2)
    assert "5 deals and 4 were planned" in accept(checker, table)
    assert fresh(table).accepted_at is None
    accept(director_client, table, reason="five deals: the sheet says so")
    board = director_client.get(
        reverse("tournaments:board", kwargs={"slug": table.round.tournament.slug})
    ).content.decode()
    row_html = board.split('data-table="1"')[1].split("</tr>")[0]
    assert "accepted, deals not as planned" in row_html
    assert "5 of 4 deals" in row_html


def test_a_logout_does_not_make_the_phone_that_entered_the_deals_another_phone(table):
    """Issue 25: the phone that entered the four deals logs out, opens the table link
    again, claims seat 4 and tries to accept: refused, its phone id is the same."""
    scorer = phone(table.session, seat=1)
    play(scorer, table)
    entered_by = phone_of(scorer)
    scorer.post(reverse("logout"))
    open_table_link(scorer, table.session, seat=4)
    assert phone_of(scorer) == entered_by
    page = accept(scorer, table)
    assert "This phone or this seat entered deals at the table" in page
    assert fresh(table).accepted_at is None
    # A forged cookie is no phone id: the browser gets a new one, which the history shows.
    scorer.post(reverse("logout"))
    scorer.cookies["tablescore_phone"] = "0123456789abcdef"
    open_table_link(scorer, table.session, seat=3)
    assert phone_of(scorer) not in (entered_by, "0123456789abcdef")
    # Only a second device accepts (the README says so), and the history names it.
    checker = phone(table.session, seat=2)
    assert "Result accepted" in accept(checker, table)
    row = DealHistory.objects.get(session=table.session, action="accepted")
    assert row.phone == phone_of(checker) != entered_by
