"""A club session's result accepted (``scoring.acceptance``): by a phone at another seat
that entered no deal there, once its planned deals are played, or by a director with a
reason; a forged acceptance (the phone or seat that entered) is refused. (A tournament's
table is accepted through its round: ``tests/tournaments/test_acceptance.py``; a club
evening in the ratings: ``tests/tournaments/test_club_evenings.py``.)"""

from __future__ import annotations

import pytest

from scoring import acceptance
from scoring import services as scoring_services
from scoring.errors import AcceptRefused
from scoring.models import DealHistory
from tests.factories import KopDealFactory, TableSessionFactory

pytestmark = pytest.mark.django_db

WRITER = scoring_services.Actor(label="table link, seat 1", phone="phone-a", seat=1)
CHECKER = scoring_services.Actor(label="table link, seat 3", phone="phone-c", seat=3)
DIRECTOR = scoring_services.Actor(label="dora", is_director=True)
FACTS = [
    {"contract": "normal", "declarers": [1, 2], "doublings": 0, "declarer_points": 64},
    {"contract": "normal", "declarers": [3, 4], "doublings": 0, "declarer_points": 44},
    {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 74},
    {"contract": "normal", "declarers": [2, 4], "doublings": 0, "declarer_points": 84},
]


def evening(players, title="Tuesday evening"):
    """A club session on Kościan's rules whose planned deals (FACTS) seat 1's phone entered."""
    session = TableSessionFactory(
        profile="kop-koscian", players=players, title=title, planned_deals=len(FACTS)
    )
    for facts in FACTS:
        KopDealFactory(session=session, facts=facts, actor=WRITER)
    return session


def test_a_forged_acceptance_is_refused(profiles, four_players):
    session = evening(four_players)
    same_phone_other_seat = scoring_services.Actor(label="x", phone="phone-a", seat=2)
    other_phone_same_seat = scoring_services.Actor(label="x", phone="phone-z", seat=1)
    no_seat = scoring_services.Actor(label="x", phone="phone-q")
    for actor in (WRITER, same_phone_other_seat, other_phone_same_seat, no_seat):
        with pytest.raises(AcceptRefused):
            acceptance.session_accept(session=session, actor=actor)
    with pytest.raises(AcceptRefused):  # a director, only with a reason
        acceptance.session_accept(session=session, actor=DIRECTOR)
    session.refresh_from_db()
    assert session.accepted_at is None and not session.locked
    assert not DealHistory.objects.filter(session=session, action="accepted").exists()


def test_a_session_is_accepted_only_when_it_played_its_deals(profiles, four_players):
    session = TableSessionFactory(profile="kop-koscian", players=four_players, planned_deals=8)
    KopDealFactory(session=session, facts=FACTS[0], actor=WRITER)
    with pytest.raises(AcceptRefused):
        acceptance.session_accept(session=session, actor=CHECKER)
    acceptance.session_accept(session=session, actor=DIRECTOR, reason="stopped early")
    entry = DealHistory.objects.get(session=session, action="accepted")
    assert entry.reason == "stopped early" and entry.new["override"] is True


def test_a_tournament_table_is_not_accepted_as_a_club_session(kop_table):
    table = kop_table
    with pytest.raises(AcceptRefused):
        acceptance.session_accept(session=table.session, actor=DIRECTOR, reason="x")
