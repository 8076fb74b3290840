"""Rule profiles are data: named, versioned; editing never rescoring deals already played."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from scoring import profile_services, services
from scoring.games.kop.models import KopDeal
from scoring.models import RuleProfile
from tests.actors import home_club
from tests.factories import KOSCIAN, TableSessionFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_builtin_profiles_exist_with_their_options(profiles):
    assert {"kop-pagat", "kop-koscian", "kop-wolsztyn", "baska", "vint"} <= set(profiles)
    koscian = profiles["kop-koscian"].current
    assert koscian.options["doubling_cap"]["zolo"] == 3
    assert koscian.tournament["big_points"] == [5, 3, 1, 0]
    assert profiles["kop-wolsztyn"].current.tournament["big_points"] == [4, 3, 2, 1]


def test_sync_is_idempotent(profiles):
    profile_services.profile_sync_builtin()
    assert all(p.versions.count() == 1 for p in RuleProfile.objects.all())


def test_director_creates_a_custom_profile(director_client, profiles):
    response = director_client.post(
        reverse("scoring:profile_new"),
        {
            "name": "Our club",
            "game": "kop",
            "bez_wyjscia_max__declarers": "26",
            "bez_wyjscia_max__defenders": "26",
            **KOSCIAN,
            "club": home_club().pk,
        },
    )
    assert response.status_code == 302
    profile = RuleProfile.objects.get(name="Our club")
    assert profile.current.options == {"bez_wyjscia_max": 26}
    assert profile.current.tournament["big_points"] == [5, 3, 1, 0]


def test_unknown_option_is_refused_beside_the_field(director_client, profiles):
    response = director_client.post(
        reverse("scoring:profile_new"),
        {"name": "Typo", "game": "kop", "bez_wyjscia_max__declarers": "53", **KOSCIAN},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "52" in html and "error" in html
    assert not RuleProfile.objects.filter(name="Typo").exists()


def test_editing_a_profile_never_changes_deals_already_scored(
    director_client, profiles, four_players
):
    director_client.post(
        reverse("scoring:profile_new"),
        {"name": "Club", "game": "kop", **KOSCIAN, "club": home_club().pk},
    )
    profile = RuleProfile.objects.get(name="Club")
    session = TableSessionFactory(profile_version=profile.current, players=four_players)
    actor = services.Actor(label="t", is_director=True)
    # Old lose with 26: z wyjściem under the default (bez_wyjscia_max 25) -> V 1 (kop.md E6)
    facts = {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 26}
    services.deal_record(session=session, facts=facts, actor=actor)
    response = director_client.post(
        reverse("scoring:profile_edit", kwargs={"slug": profile.slug}),
        {
            "name": "Club",
            "bez_wyjscia_max__declarers": "26",
            "bez_wyjscia_max__defenders": "26",
            **KOSCIAN,
        },
    )
    assert response.status_code == 302
    assert profile.versions.count() == 2
    session.refresh_from_db()
    assert session.profile_version.version == 1
    assert KopDeal.objects.get().value == 1
    services.deal_record(session=session, facts=facts, actor=actor)
    assert KopDeal.objects.get(number=2).value == 1  # the session keeps version 1
    newer = TableSessionFactory(profile_version=profile.current, players=four_players)
    deal = services.deal_record(session=newer, facts=facts, actor=actor).row
    assert deal.value == 2  # under version 2, 26 is bez wyjścia


def test_builtin_profiles_cannot_be_edited(director_client, profiles):
    url = reverse("scoring:profile_edit", kwargs={"slug": "kop-pagat"})
    assert director_client.get(url).status_code == 403


def test_only_directors_edit_profiles(scorer_client, profiles):
    assert scorer_client.get(reverse("scoring:profile_new")).status_code == 403


def test_a_slug_moves_on_only_when_taken_and_any_other_refusal_is_raised(profiles):
    """``create_with_unique_slug``: a second profile of one name gets the next slug; a row
    the database refuses for anything but its slug (here a negative count under a CHECK)
    is an ``IntegrityError`` at once, not a search through every slug after it."""
    first = profile_services.create_with_unique_slug(
        RuleProfile, base="club-rules", name="A", game="kop"
    )
    second = profile_services.create_with_unique_slug(
        RuleProfile, base="club-rules", name="B", game="kop"
    )
    assert (first.slug, second.slug) == ("club-rules", "club-rules-2")
    version = profiles["kop-koscian"].current
    with pytest.raises(IntegrityError), transaction.atomic():
        profile_services.create_with_unique_slug(
            Tournament,
            base="cup",
            name="Cup",
            game="kop",
            profile_version=version,
            rounds_planned=-1,
        )
    assert not Tournament.objects.filter(slug__startswith="cup").exists()
