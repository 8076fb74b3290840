"""Two phones accept one table at the same moment, on PostgreSQL with real threads:
one acceptance, one lock, one link rotation; the other phone is told the table is
accepted already, and neither answer is a server error."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import DealHistory, RuleProfile
from scoring.profile_services import profile_sync_builtin
from tests.factories import ClubFactory, PlayerFactory
from tests.integration.pads import Phone, kop_deal, run_together, server_errors
from tournaments import services
from tournaments.models import RoundTable
from tournaments.services import acceptance

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_phones_accept_at_once_one_acceptance(monkeypatch):
    # No worker runs here: keep the standings tasks out of the shared broker.
    monkeypatch.setattr(acceptance, "enqueue_on_commit", lambda *a, **k: None)
    profile_sync_builtin()
    club = ClubFactory()
    tournament = services.tournament_create(
        name="Race Cup",
        game="kop",
        profile_version=RuleProfile.objects.get(slug="kop-koscian").current,
        rounds=1,
        deals_per_round=2,
        club=club,
        seed=3,
    )
    for _ in range(4):
        entry = services.registration_add(tournament=tournament, player=PlayerFactory(club=club))
        services.registration_check_in(registration=entry)
    table = services.round_generate(tournament=tournament).tables.get()
    scorer = Phone(table.session, seat=1)
    for points in (60, 70):
        assert (
            scorer.post(kop_deal(points), expected_number=None, submission_key=None).status == 200
        )
    checkers = [Phone(table.session, seat=seat) for seat in (2, 3)]
    accept = reverse(
        "tournaments:table_accept", kwargs={"slug": tournament.slug, "table_id": table.pk}
    )
    with server_errors() as errors:
        answers = run_together(*[lambda c=c: c.client.post(accept) for c in checkers])
    assert errors == [] and [a.status_code for a in answers] == [302, 302]
    table = RoundTable.objects.select_related("session").get(pk=table.pk)
    assert table.accepted_seat in (2, 3) and table.session.locked
    rows = DealHistory.objects.filter(session=table.session)
    assert rows.filter(action="accepted").count() == 1
    assert rows.filter(action="locked").count() == 1
