"""Planned deals (issue 25): a Kop or Baśka table takes no deal beyond its planned ones
(the pad says they are all played), the director may change the number with a reason
(the history keeps it), the players accept only a table that played exactly its planned
deals, and the board flags an accepted table that did not."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import acceptance
from scoring import services as scoring_services
from scoring.errors import AcceptRefused
from scoring.games.kop.models import KopDeal
from scoring.models import DealHistory, TableSession
from tests.factories import KopDealFactory, TableSessionFactory

pytestmark = pytest.mark.django_db

WRITER = scoring_services.Actor(label="table link, seat 1", phone="phone-a", seat=1)
CHECKER = scoring_services.Actor(label="table link, seat 3", phone="phone-c", seat=3)
DIRECTOR = scoring_services.Actor(label="dora", is_director=True)
DEAL = {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60}
POSTED = {"contract": "normal", "declarers": ["1", "3"], "doublings": "0", "declarer_points": "60"}


def url(name, session):
    return reverse(f"scoring:{name}", kwargs={"pk": session.pk})


@pytest.fixture
def two_deal_table(profiles, four_players, scorer):
    session = TableSessionFactory(
        profile="kop-koscian", players=four_players, planned_deals=2, created_by=scorer
    )
    for _ in range(2):
        KopDealFactory(session=session, facts=DEAL, actor=WRITER)
    return session


def test_no_deal_is_stored_beyond_the_planned_ones(scorer_client, two_deal_table):
    page = scorer_client.get(url("session", two_deal_table)).content.decode()
    assert "All 2 planned deals are played" in page
    assert 'id="deal-form"' not in page
    response = scorer_client.post(url("deal_add", two_deal_table), POSTED)
    assert response.status_code == 200  # the pad again, saying why
    assert "All 2 planned deals are played" in response.content.decode()
    with pytest.raises(scoring_services.DealRejected):
        scoring_services.deals_record(session=two_deal_table, deals=[DEAL], actor=DIRECTOR)
    assert KopDeal.objects.filter(session=two_deal_table).count() == 2


def test_the_save_of_the_last_planned_deal_answers_with_the_whole_pad(
    scorer_client, profiles, four_players, scorer
):
    session = TableSessionFactory(
        profile="kop-koscian", players=four_players, planned_deals=1, created_by=scorer
    )
    form = scorer_client.get(url("session", session)).content.decode()
    assert 'id="deal-form"' in form
    response = scorer_client.post(
        url("deal_add", session), {**POSTED, "pad_answer": "short"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response["X-Deal-Outcome"] == "saved"
    assert "X-Pad-Answer" not in response  # not the short answer: the form must go
    assert "Deal 1 saved." in html and "All 1 planned deals are played" in html
    assert 'id="deal-form"' not in html


def test_the_director_allows_more_deals_with_a_reason(
    scorer_client, director_client, two_deal_table
):
    change = url("session_planned", two_deal_table)
    assert scorer_client.post(change, {"planned_deals": "3", "reason": "x"}).status_code == 403
    director_client.post(change, {"planned_deals": "3", "reason": ""})
    director_client.post(change, {"planned_deals": "abc", "reason": "one more"})
    director_client.post(change, {"planned_deals": "0", "reason": "one more"})
    assert TableSession.objects.get(pk=two_deal_table.pk).planned_deals == 2
    assert not DealHistory.objects.filter(session=two_deal_table, action="planned").exists()

    director_client.post(change, {"planned_deals": "3", "reason": "a misdeal was replayed"})
    row = DealHistory.objects.get(session=two_deal_table, action="planned")
    assert (row.reason, row.new, row.actor) == (
        "a misdeal was replayed",
        {"before": 2, "after": 3},
        "dora-director",
    )
    assert scorer_client.post(url("deal_add", two_deal_table), POSTED).status_code == 302
    assert KopDeal.objects.filter(session=two_deal_table).count() == 3
    history = director_client.get(reverse("scoring:history", kwargs={"pk": two_deal_table.pk}))
    assert "planned deals changed" in history.content.decode()


def test_players_accept_only_the_planned_number_of_deals(two_deal_table):
    # fewer than planned: refused (E: 1 of 2 is not enough)
    scoring_services.session_planned_change(
        session=two_deal_table, actor=DIRECTOR, planned=3, reason="one more"
    )
    with pytest.raises(AcceptRefused, match="2 of its 3 deals"):
        acceptance.session_accept(session=two_deal_table, actor=CHECKER)
    # more than planned (the director planned fewer afterwards): refused too
    scoring_services.session_planned_change(
        session=two_deal_table, actor=DIRECTOR, planned=1, reason="time is up"
    )
    with pytest.raises(AcceptRefused, match="2 deals and 1 were planned"):
        acceptance.session_accept(session=two_deal_table, actor=CHECKER)
    scoring_services.session_planned_change(
        session=two_deal_table, actor=DIRECTOR, planned=2, reason="as played"
    )
    acceptance.session_accept(session=two_deal_table, actor=CHECKER)
    assert TableSession.objects.get(pk=two_deal_table.pk).accepted_at is not None


def test_a_locked_table_keeps_its_planned_deals(two_deal_table):
    scoring_services.session_lock(session=two_deal_table, actor=DIRECTOR)
    with pytest.raises(scoring_services.SessionLocked):
        scoring_services.session_planned_change(
            session=two_deal_table, actor=DIRECTOR, planned=4, reason="more"
        )
    assert TableSession.objects.get(pk=two_deal_table.pk).planned_deals == 2
