from __future__ import annotations

import pytest

from scoring import profile_services, services
from scoring.models import RuleProfile
from tests.actors import *  # noqa: F403
from tests.factories import ClubFactory, PlayerFactory


@pytest.fixture
def profiles(db):
    profile_services.profile_sync_builtin()
    return {p.slug: p for p in RuleProfile.objects.all()}


@pytest.fixture
def four_players(db):
    club = ClubFactory()
    names = ["Ala", "Bartek", "Celina", "Darek"]
    return [PlayerFactory(club=club, name=n, number=i) for i, n in enumerate(names, 1)]


@pytest.fixture
def kop_session(profiles, four_players, scorer):
    session = services.session_create(
        game="kop",
        profile_version=profiles["kop-pagat"].current,
        players=four_players,
        title="Table 1",
        created_by=scorer,
        planned_deals=32,
    )
    return session


@pytest.fixture
def baska_session(profiles, four_players, scorer):
    return services.session_create(
        game="baska",
        profile_version=profiles["baska"].current,
        players=four_players,
        created_by=scorer,
    )


@pytest.fixture
def vint_players(db):
    """Anna, Boris, Carl, Dina (numbers 1-4): a Vint table's players."""
    club = ClubFactory()
    return [
        PlayerFactory(club=club, name=n, number=i)
        for i, n in enumerate(["Anna", "Boris", "Carl", "Dina"], 1)
    ]


@pytest.fixture
def vint_session(profiles, vint_players, scorer):
    return services.session_create(
        game="vint",
        profile_version=profiles["vint"].current,
        players=vint_players,
        title="Vint table",
        created_by=scorer,
    )
