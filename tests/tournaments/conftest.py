from __future__ import annotations

import pytest

from scoring import profile_services
from scoring.models import RuleProfile
from tests.actors import *  # noqa: F403
from tests.factories import ClubFactory, PlayerFactory
from tournaments import services


@pytest.fixture
def profiles(db):
    profile_services.profile_sync_builtin()
    return {p.slug: p for p in RuleProfile.objects.all()}


@pytest.fixture
def club(db):
    return ClubFactory(name="Klub Kopa")


@pytest.fixture
def kop_tournament(profiles, club, director):
    return services.tournament_create(
        name="Kościan Cup",
        game="kop",
        profile_version=profiles["kop-koscian"].current,
        rounds=5,
        deals_per_round=4,
        club=club,
        seed=7,
        created_by=director,
    )


@pytest.fixture
def sixteen(kop_tournament, club):
    """16 registered, checked-in players with start numbers 1..16."""
    entries = []
    for i in range(1, 17):
        player = PlayerFactory(club=club, name=f"Gracz {i:02d}", number=i)
        entry = services.registration_add(tournament=kop_tournament, player=player)
        services.registration_check_in(registration=entry)
        entries.append(entry)
    return entries


@pytest.fixture
def kop_table(kop_tournament, sixteen):
    """Round 1's first table (with its session) of the Kościan Cup."""
    round_ = services.round_generate(tournament=kop_tournament)
    return round_.tables.select_related("session").first()
