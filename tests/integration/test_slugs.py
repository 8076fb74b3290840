"""The one slug helper under concurrency: two directors naming things alike at once."""

from __future__ import annotations

from functools import partial

import pytest

from scoring import profile_services
from scoring.models import RuleProfile
from tests.integration.pads import run_together
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_tournaments_and_profiles_named_alike_at_once_get_distinct_slugs():
    version = RuleProfile.objects.get(slug="kop-koscian").current
    for _attempt in range(5):
        made = run_together(
            *(
                partial(
                    services.tournament_create,
                    name="Puchar Kościana",
                    game="kop",
                    profile_version=version,
                )
                for _ in range(4)
            )
        )
        assert len({t.slug for t in made}) == 4
    assert Tournament.objects.filter(slug__startswith="puchar-koscian").count() == 20
    profiles = run_together(
        *(
            partial(
                profile_services.profile_save,
                profile=None,
                name="Klub Kopa",
                game="kop",
                options={},
                tournament={"big_points": [5, 3, 1, 0], "tie_breaks": ["small_points"]},
            )
            for _ in range(4)
        )
    )
    assert len({v.profile.slug for v in profiles}) == 4
