"""What the tournaments read of a game's tables (``scoring.games.<game>.results``): the
seat results their standings rank."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from scoring.games import game_for
from tests.factories import CICHA_1, ZOLO_3, KopDealFactory, RoundFactory
from tournaments.models import RoundTable

pytestmark = pytest.mark.django_db

ACTOR = scoring_services.Actor(label="t", is_director=True)


def test_kop_seat_results_by_ids_or_by_subquery(kop_tournament, sixteen):
    """Seat results from a list of session ids or from a query of them are the same: the
    payments summed per seat over the counted deals (a voided one left out), and zero at
    a table without deals."""
    rnd = RoundFactory(tournament=kop_tournament)
    played, empty = rnd.tables.get(number=1), rnd.tables.get(number=2)
    for facts in (CICHA_1, ZOLO_3, CICHA_1):
        KopDealFactory(session=played.session, facts=facts, actor=ACTOR)
    scoring_services.deal_void(
        session=played.session,
        slot=played.session.kop_deals.order_by("number").last().slot,
        actor=ACTOR,
        reason="wrong table",
    )
    game = game_for("kop")
    by_ids = game.results.seat_results([played.session_id, empty.session_id])
    by_query = game.results.seat_results(
        RoundTable.objects.filter(pk__in=[played.pk, empty.pk]).values("session_id")
    )
    assert by_ids == by_query
    assert [r.points for r in by_ids[played.session_id]] == [12 - 5, -4 - 5, -4 + 15, -4 - 5]
    assert [r.points for r in by_ids[empty.session_id]] == [0, 0, 0, 0]
    assert [r.seat for r in by_ids[played.session_id]] == [1, 2, 3, 4]
    assert game.results.seat_results([]) == {}
