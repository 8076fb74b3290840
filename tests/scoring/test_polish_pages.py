"""What a Polish reader sees: labels, not keys; one period; BA for no trumps."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services

pytestmark = pytest.mark.django_db

LEAKS = re.compile(r"zolo_du|grand_du|\{'|\[\d|__all__|\bNone\b|\bTrue\b|\bFalse\b|\.\. ")


def polish(client, url):
    client.cookies["django_language"] = "pl"
    return client.get(url).content.decode()


def test_the_history_shows_contract_labels_and_one_period(scorer_client, kop_session):
    actor = services.Actor(label="sam", is_director=False)
    facts = {"contract": "zolo_du", "declarers": [2], "doublings": 0, "declarer_points": 70}
    services.deal_record(session=kop_session, facts=facts, actor=actor)
    services.deal_correct(
        session=kop_session,
        slot=services.Slot(0, 1),
        facts={**facts, "declarer_points": 80},
        actor=actor,
        reason="źle policzone",
    )
    html = polish(scorer_client, reverse("scoring:history", args=[kop_session.pk]))
    assert "zolo du" in html
    assert not LEAKS.search(html), LEAKS.search(html)


def test_the_vint_pad_says_ba_for_no_trumps(scorer_client, profiles, four_players, scorer):
    session = services.session_create(
        game="vint",
        profile_version=profiles["vint"].current,
        players=four_players,
        title="Vint",
        created_by=scorer,
    )
    html = polish(scorer_client, reverse("scoring:session", args=[session.pk]))
    assert ">4BA</label>" in html.replace("\n", "")
    assert "nierozpoczęty" in html
