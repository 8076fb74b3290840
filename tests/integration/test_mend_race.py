"""A director swaps two players at the moment a phone saves the first deal at one of
their tables, on PostgreSQL with real threads: the swap takes the table's session lock
before the tournament's, as the save does, so one waits for the other (never a deadlock,
never a server error); the deal is stored, and the swap is done only if it came first."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from clubs.roles import make_director
from scoring.models import DealHistory
from tests.factories import ClubFactory, TournamentFactory, UserFactory
from tests.integration.pads import Phone, kop_deal, run_together, server_errors
from tournaments import services
from tournaments.models import TournamentAction
from tournaments.services import acceptance

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_swap_and_a_first_deal_at_once(monkeypatch):
    monkeypatch.setattr(acceptance, "enqueue_on_commit", lambda *a, **k: None)
    tournament = TournamentFactory(
        name="Swap Cup", rounds=2, deals_per_round=4, club=ClubFactory(), seed=5, field=8
    )
    rnd = services.round_generate(tournament=tournament)
    first, second = rnd.tables.order_by("number").select_related("session")
    numbers = dict(tournament.entries.values_list("player_id", "number"))
    before = {
        t.pk: [numbers[s.player_id] for s in t.session.seats.order_by("seat")]
        for t in (first, second)
    }
    director = UserFactory(username="race-director")
    make_director(director, tournament.club)
    desk = Client(raise_request_exception=False)
    desk.force_login(director)
    phone = Phone(first.session, seat=1)
    url = reverse("tournaments:round_mend", args=[tournament.slug, 1])
    swap = {
        "action": "swap",
        "swap-first": before[first.pk][1],
        "swap-second": before[second.pk][1],
        "swap-reason": "Asked to.",
    }
    with server_errors() as errors:
        saved, swapped = run_together(
            lambda: phone.post(kop_deal(60), expected_number=None, submission_key=None),
            lambda: desk.post(url, swap),
        )
    assert errors == [] and saved.status == 200 and swapped.status_code in (200, 302)
    assert DealHistory.objects.filter(session=first.session, action="created").count() == 1
    after = {
        t.pk: [numbers[s.player_id] for s in t.session.seats.order_by("seat")]
        for t in (first, second)
    }
    if swapped.status_code == 302:  # the swap came first: the deal was saved after it
        assert TournamentAction.objects.filter(action="swapped").count() == 1
        assert after[first.pk][1] == before[second.pk][1]
    else:  # the deal came first: the swap was refused, nothing moved
        assert "already started" in swapped.content.decode()
        assert not TournamentAction.objects.exists() and after == before
