"""Every deal can be corrected or voided from the sheet and the history, by whoever may
write at the table; readers see no such links."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services
from tests.factories import TableSessionFactory

pytestmark = pytest.mark.django_db

NORMAL = {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60}


@pytest.fixture
def played(kop_session):
    actor = services.Actor(label="sam", is_director=False)
    for _ in range(18):
        services.deal_record(session=kop_session, facts=NORMAL, actor=actor)
    services.deal_correct(
        session=kop_session,
        slot=services.Slot(0, 2),
        facts={**NORMAL, "declarer_points": 70},
        actor=actor,
        reason="misread",
    )
    return kop_session


@pytest.mark.parametrize("page", ["scoring:sheet", "scoring:history"])
def test_a_scorer_finds_the_edit_link_of_deal_2_of_18(scorer_client, played, page):
    html = scorer_client.get(reverse(page, args=[played.pk])).content.decode()
    assert reverse("scoring:deal_edit", args=[played.pk, 2]) in html
    if page == "scoring:sheet":
        assert reverse("scoring:deal_edit", args=[played.pk, 18]) in html


@pytest.mark.parametrize("page", ["scoring:sheet", "scoring:history"])
def test_a_reader_sees_no_edit_links(played, page):
    html = Client().get(reverse(page, args=[played.pk])).content.decode()
    assert reverse("scoring:deal_edit", args=[played.pk, 2]) not in html


def test_the_vint_sheet_links_every_deal(scorer_client, profiles, four_players, scorer):
    vint_session = TableSessionFactory(
        game="vint", players=four_players, title="Vint", created_by=scorer
    )
    actor = services.Actor(label="sam", is_director=False)
    services.deal_record(
        session=vint_session,
        facts={"contract": "pass", "tricks": {"NS": 5, "EW": 8}},
        actor=actor,
        extra={"rubber": 1, "first_dealer": "N"},
    )
    html = scorer_client.get(reverse("scoring:sheet", args=[vint_session.pk])).content.decode()
    assert reverse("scoring:deal_edit", args=[vint_session.pk, "1.1"]) in html
