"""What a Polish reader sees: labels, not keys; one period; BA for no trumps; a club
table's pad counting its deals in Polish plural forms."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import services
from tests.factories import KopDealFactory, PlayerFactory, TableSessionFactory

pytestmark = pytest.mark.django_db

SCORER = services.Actor(label="sam", is_director=False)
NORMAL = {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60}
LEAKS = re.compile(r"zolo_du|grand_du|\{'|\[\d|__all__|\bNone\b|\bTrue\b|\bFalse\b|\.\. ")


def polish_text(client, url: str) -> str:
    """The page at ``url`` in Polish, as text (no tags, single spaces)."""
    client.cookies["django_language"] = "pl"
    text = re.sub(r"<[^>]+>", " ", client.get(url).content.decode())
    return re.sub(r"\s+", " ", text)


def play(session, deals: int) -> None:
    """``deals`` deals entered by a scorer (not a director)."""
    KopDealFactory.create_batch(deals, session=session, facts=NORMAL, actor=SCORER)


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
    session = TableSessionFactory(
        game="vint", players=four_players, title="Vint", created_by=scorer
    )
    html = polish(scorer_client, reverse("scoring:session", args=[session.pk]))
    assert ">4BA</label>" in html.replace("\n", "")
    assert "nierozpoczęty" in html


@pytest.fixture
def _english_afterwards():
    """A Polish request leaves Polish active in this thread: later tests read English."""
    yield
    translation.activate("en")


@pytest.mark.usefixtures("_english_afterwards")
@pytest.mark.parametrize(("played", "word"), [(1, "rozdanie"), (3, "rozdania"), (5, "rozdań")])
def test_a_club_table_s_pad_counts_deals_in_polish(
    scorer_client, scorer, profiles, club, played, word
):
    session = TableSessionFactory(
        profile="kop-pagat",
        players=[PlayerFactory(club=club, name=f"Gracz {i}") for i in range(1, 5)],
        title="Stół 1",
        created_by=scorer,
        planned_deals=None,
    )
    play(session, played)
    pad = polish_text(scorer_client, reverse("scoring:session", args=[session.pk]))
    assert f"rozegrano {played} {word}" in pad
