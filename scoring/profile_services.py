"""Writes for rule profiles: the built-in ones kept in step with the rules documents, a
club's own created or given a new version (sessions point at a version, so deals already
scored never change)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from clubs.models import Club
from scoring.engines.rules import validate_profile_options, validate_tournament
from scoring.models import RuleProfile, RuleProfileVersion
from scoring.profiles import json_plain, profiles_sync


def profile_sync_builtin() -> None:
    """Create the built-in rule profiles; a changed built-in gets a new version."""
    with transaction.atomic():
        profiles_sync(RuleProfile, RuleProfileVersion)


def create_with_unique_slug(model: Any, *, base: str, **fields: Any) -> Any:
    """``model.objects.create(slug=..., **fields)`` with the first free slug from ``base``
    ("name", "name-2", ...). Safe when two requests pick the same slug at once: the loser's
    insert fails on the unique index inside a savepoint and it tries the next one. Any
    other ``IntegrityError`` is raised."""
    n = 1
    taken = set(model.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    while True:
        slug = base if n == 1 else f"{base}-{n}"
        n += 1
        if slug in taken:
            continue
        try:
            with transaction.atomic():
                return model.objects.create(slug=slug, **fields)
        except IntegrityError:
            # The next slug only when this one was taken meanwhile: a row refused for
            # anything else would be refused under every slug.
            if not model.objects.filter(slug=slug).exists():
                raise
            taken.add(slug)


@transaction.atomic
def profile_save(
    *,
    profile: RuleProfile | None,
    name: str,
    game: str,
    options: Mapping[str, Any],
    tournament: Mapping[str, Any],
    club: Club | None = None,
) -> RuleProfileVersion:
    """Create ``club``'s custom profile or save new options as its next version (two
    saves at once: one after the other, under the profile's row lock).

    Sessions point at a version, so deals already scored never change.
    """
    validate_profile_options(game, options)
    validate_tournament(tournament)
    if profile is None:
        base = slugify(name)[:40] or game
        profile = create_with_unique_slug(RuleProfile, base=base, name=name, game=game, club=club)
    else:
        profile = RuleProfile.objects.select_for_update().get(pk=profile.pk)
    if profile.name != name:
        profile.name = name
        profile.save(update_fields=["name"])
    return profile_version_add(profile=profile, options=options, tournament=tournament)


def profile_version_add(
    *, profile: RuleProfile, options: Mapping[str, Any], tournament: Mapping[str, Any]
) -> RuleProfileVersion:
    current = profile.versions.order_by("-version").first()
    return RuleProfileVersion.objects.create(
        profile=profile,
        version=(current.version + 1) if current else 1,
        options=json_plain(options),
        tournament=json_plain(tournament),
    )
