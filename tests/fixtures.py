"""The rows most tests start from, one definition each for every tier that loads Django
(``tests/conftest.py`` registers this module, and ``tests/actors.py``, only there: the
unit tier runs without Django).

Each is built by ``tests/factories.py``, so through the services that keep the rows'
invariants; a test that needs something else asks the factories itself.
"""

from __future__ import annotations

import pytest

from scoring import profile_services
from scoring.models import RuleProfile
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    RoundTableFactory,
    TableSessionFactory,
    TournamentFactory,
)


@pytest.fixture
def profiles(db):
    """Every rule profile by slug, the built-ins synced."""
    profile_services.profile_sync_builtin()
    return {p.slug: p for p in RuleProfile.objects.all()}


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """``with commit(): ...`` runs what a service enqueued after commit (a test's
    transaction never commits): the standings and ratings tasks, in-process."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def club(db):
    return ClubFactory(name="Klub Kopa")


def _named(names: list[str]):
    club = ClubFactory()
    return [PlayerFactory(club=club, name=n, number=i) for i, n in enumerate(names, 1)]


@pytest.fixture
def four_players(db):
    """Ala, Bartek, Celina, Darek (numbers 1-4): a Kop table's players."""
    return _named(["Ala", "Bartek", "Celina", "Darek"])


@pytest.fixture
def vint_players(db):
    """Anna, Boris, Carl, Dina (numbers 1-4): a Vint table's players."""
    return _named(["Anna", "Boris", "Carl", "Dina"])


# ------------------------------------------------------------------ club tables


@pytest.fixture
def kop_session(profiles, four_players, scorer):
    """A scorer's Kop table on pagat's rules, 32 deals planned."""
    return TableSessionFactory(
        profile="kop-pagat",
        players=four_players,
        title="Table 1",
        created_by=scorer,
        planned_deals=32,
    )


@pytest.fixture
def baska_session(profiles, four_players, scorer):
    return TableSessionFactory(game="baska", players=four_players, created_by=scorer)


@pytest.fixture
def vint_session(profiles, vint_players, scorer):
    return TableSessionFactory(
        game="vint", players=vint_players, title="Vint table", created_by=scorer
    )


# ------------------------------------------------------------------ tournaments


@pytest.fixture
def kop_tournament(profiles, club, director):
    """The Kościan Cup: Kościan's rules, 5 rounds of 4 deals, seed 7, nobody registered."""
    return TournamentFactory(
        name="Kościan Cup",
        rounds=5,
        deals_per_round=4,
        club=club,
        seed=7,
        created_by=director,
    )


@pytest.fixture
def sixteen(kop_tournament, club):
    """16 registered, checked-in players with start numbers 1..16 ("Gracz 01".."Gracz 16")."""
    return [
        RegistrationFactory(
            tournament=kop_tournament,
            player=PlayerFactory(club=club, name=f"Gracz {i:02d}", number=i),
        )
        for i in range(1, 17)
    ]


@pytest.fixture
def second_tournament(profiles, club, director, sixteen):
    """The Wolsztyn Open: a later tournament on Kościan's rules, 3 rounds of 4 deals, seed
    11, with the first eight of the sixteen checked in (start numbers in that order)."""
    return TournamentFactory(
        name="Wolsztyn Open",
        rounds=3,
        deals_per_round=4,
        club=club,
        seed=11,
        created_by=director,
        field=[entry.player for entry in sixteen[:8]],
    )


@pytest.fixture
def kop_table(kop_tournament, sixteen):
    """Round 1's first table (with its session) of the Kościan Cup."""
    return RoundTableFactory(round__tournament=kop_tournament)


@pytest.fixture
def vint_table(profiles, club, director):
    """The one table (with its session) of a Vint night's only round, four players."""
    tournament = TournamentFactory(
        name="Vint night", game="vint", rounds=1, club=club, seed=3, created_by=director
    )
    return RoundTableFactory(round__tournament=tournament)
