"""A 16-player Kop tournament of 5 rounds, entered through the table links.

A real Celery worker over Redis recomputes the standings in PostgreSQL after
each accepted table; the final standings must equal a recomputation from
scratch, and again after a director corrects a deal of round 2.
"""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from scoring.engines.simulate import random_kop_deals
from scoring.games.kop.models import KopDeal
from tests.actors import open_table_link
from tests.factories import ClubFactory, TournamentFactory
from tests.integration.conftest import wait_for
from tournaments import services
from tournaments.models import StandingsSnapshot, Tournament
from tournaments.standings import standings_compute

pytestmark = pytest.mark.django_db(transaction=True)
DEALS = 4


def _deal_post(deal):
    return {
        "contract": deal.contract,
        "declarers": [str(s) for s in deal.declarers],
        "doublings": str(deal.doublings),
        "declarer_points": str(deal.declarer_points),
        "confirm": "on",
    }


def _latest(tournament):
    return (
        StandingsSnapshot.objects.filter(tournament=tournament).order_by("-results_version").first()
    )


def _caught_up(tournament):
    tournament.refresh_from_db()
    snap = _latest(tournament)
    return snap if snap and snap.results_version == tournament.results_version else None


def test_kop_tournament_through_table_links_with_a_real_worker(worker, director_client):

    tournament = TournamentFactory(
        name="Integration Cup",
        rounds=5,
        deals_per_round=DEALS,
        club=ClubFactory(),
        seed=11,
        field=[f"P{i + 1:02d}" for i in range(16)],
    )
    rng = random.Random(5)
    for _round in range(5):
        rnd = services.round_generate(tournament=tournament)
        for table in rnd.tables.select_related("session"):
            # A player's phone: no account, only the table link, at seat 1.
            scorer = open_table_link(Client(), table.session, seat=1)
            add = reverse("scoring:deal_add", kwargs={"pk": table.session_id})
            for deal in random_kop_deals(rng, DEALS):
                assert scorer.post(add, _deal_post(deal)).status_code == 302
            accept = reverse(
                "tournaments:table_accept", kwargs={"slug": tournament.slug, "table_id": table.pk}
            )
            # Another player checks on their own phone and accepts as seat 2.
            checker = open_table_link(Client(), table.session, seat=2)
            assert checker.post(accept).status_code == 302
            table.refresh_from_db()
            assert (table.accepted_seat, table.accepted_at is not None) == (2, True)
    assert KopDeal.objects.count() == 5 * 4 * DEALS

    snapshot = wait_for(lambda: _caught_up(tournament), timeout=60)
    tournament = Tournament.objects.get(pk=tournament.pk)
    # one per deal entered at a table of a round (deal_changed), and one per acceptance
    assert tournament.results_version == 20 * (DEALS + 1)
    assert snapshot.data == standings_compute(tournament=tournament)
    assert len(snapshot.data["individual"]) == 16

    # The director corrects a deal of round 2; the worker recomputes.
    table = tournament.rounds.get(number=2).tables.first()
    deal = KopDeal.objects.filter(session=table.session).order_by("number").first()
    edit = reverse("scoring:deal_edit", kwargs={"pk": table.session_id, "slot": deal.number})
    corrected = {
        "contract": "zolo",
        "declarers": ["1"],
        "doublings": "0",
        "declarer_points": "104",
        "reason": "zolo was misrecorded",
        "confirm": "on",
    }
    # An accepted table is locked for everyone: the director unlocks it, corrects the
    # deal and accepts it again, each with a reason.
    lock = reverse("scoring:session_lock", kwargs={"pk": table.session_id})
    assert director_client.post(edit, corrected).status_code == 403
    unlock = {"unlock": "1", "reason": "zolo was misrecorded"}
    assert director_client.post(lock, unlock).status_code == 302
    assert director_client.post(edit, corrected).status_code == 302
    accept = reverse(
        "tournaments:table_accept", kwargs={"slug": tournament.slug, "table_id": table.pk}
    )
    assert director_client.post(accept, {"reason": "corrected"}).status_code == 302
    after = wait_for(lambda: _caught_up(tournament), timeout=60)
    # three versions: the unlock, the correction, the acceptance again
    assert after.results_version == 20 * (DEALS + 1) + 3
    assert after.data == standings_compute(tournament=Tournament.objects.get(pk=tournament.pk))
    assert after.data != snapshot.data

    response = Client().get(reverse("tournaments:standings", kwargs={"slug": tournament.slug}))
    assert response.status_code == 200
    assert 'id="standings-current"' in response.content.decode()
