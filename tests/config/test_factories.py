"""The test factories (``tests/factories.py``) make rows through the services that keep
their invariants, so a row a test starts from is one the site could have made: a
tournament's slug and its profile's game, an entry's start number, a seated round and
its tables' sessions, a session's seats and tally, a deal's history row and tally."""

from __future__ import annotations

import pytest

from scoring.errors import DealRejected
from scoring.games import game_of
from scoring.models import DealHistory
from tests.factories import (
    KopDealFactory,
    RegistrationFactory,
    RoundTableFactory,
    RuleProfileVersionFactory,
    TableSessionFactory,
    TournamentFactory,
    VintDealFactory,
    builtin_version,
)
from tournaments.errors import TournamentError

pytestmark = pytest.mark.django_db


def test_a_tournament_is_made_by_tournament_create(club):
    first = TournamentFactory(name="Puchar Kościana", club=club)
    second = TournamentFactory(name="Puchar Kościana", game="vint")
    assert (first.slug, second.slug) == ("puchar-kosciana", "puchar-kosciana-2")
    assert first.profile_version == builtin_version("kop-koscian")
    assert second.profile_version == builtin_version("vint")
    assert TournamentFactory(profile="kop-pagat").profile_version.profile.slug == "kop-pagat"
    with pytest.raises(TournamentError):  # the profile is for another game
        TournamentFactory(game="vint", profile="kop-pagat")


def test_a_field_is_registered_and_checked_in_in_its_order(club):
    tournament = TournamentFactory(club=club, field=["Anna", "Boris", "Carl"])
    entries = list(tournament.entries.order_by("number").select_related("player"))
    assert [(e.number, e.player.name, e.checked_in) for e in entries] == [
        (1, "Anna", True),
        (2, "Boris", True),
        (3, "Carl", True),
    ]
    assert {e.player.club for e in entries} == {club}
    late = RegistrationFactory(tournament=tournament, checked_in=False)
    assert (late.number, late.checked_in, late.player.club) == (4, False, club)


def test_a_round_table_is_seated_by_round_generate():
    table = RoundTableFactory()
    tournament = table.round.tournament
    assert table.round.number == 1 and table.round.inputs["order_from"] == "seed"
    assert tournament.entries.filter(checked_in=True).count() == 4
    assert table.session.seats.count() == 4
    assert table.session.planned_deals == tournament.deals_per_round
    second = RoundTableFactory(round__tournament=TournamentFactory(field=8), number=2)
    assert second.number == 2 and second.round.tables.count() == 2


def test_a_session_is_made_by_session_create():
    session = TableSessionFactory(game="vint")
    assert session.seats.count() == 4
    assert session.tally == dict(game_of(session).ledger.tally_new())
    with pytest.raises(DealRejected):  # the profile is for another game
        TableSessionFactory(game="vint", profile="kop-pagat")
    house = RuleProfileVersionFactory(profile__game="vint", options={"session_structure": "free"})
    assert TableSessionFactory(game="vint", profile_version=house).profile_version == house
    assert (house.version, RuleProfileVersionFactory(profile=house.profile).version) == (1, 2)


@pytest.mark.parametrize("factory", [KopDealFactory, VintDealFactory])
def test_a_deal_goes_through_the_write_path(factory):
    deal = factory()
    session = deal.session
    session.refresh_from_db()
    assert session.tally == dict(game_of(session).ledger.tally_compute(session))
    assert session.revision == 1
    assert DealHistory.objects.filter(session=session, action="created").count() == 1
    again = factory(session=session)
    assert again.session_id == session.pk and again.pk != deal.pk
