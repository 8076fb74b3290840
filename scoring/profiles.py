"""Built-in rule profiles as rows: made by a migration and after every ``migrate``.

A request never writes them (GET never writes); a built-in whose options changed in
``scoring.engines.rules`` gets a new version, so sessions already started keep theirs.
The models are passed in so that a data migration can use its historical models.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engines.rules import BUILTIN_PROFILES


def json_plain(value: Any) -> Any:
    """Mappings and sequences from the engines as plain JSON-ready dicts and lists."""
    if isinstance(value, Mapping):
        return {str(k): json_plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_plain(v) for v in value]
    return value


def profiles_sync(profile_model: Any, version_model: Any) -> None:
    """Create the built-in profiles; a changed built-in gets a new version."""
    for spec in BUILTIN_PROFILES.values():
        profile, _created = profile_model.objects.get_or_create(
            slug=spec.slug,
            defaults={"name": spec.name, "game": spec.game, "builtin": True},
        )
        current = version_model.objects.filter(profile=profile).order_by("-version").first()
        options, tournament = json_plain(spec.options), json_plain(spec.tournament)
        if current is None or current.options != options or current.tournament != tournament:
            version_model.objects.create(
                profile=profile,
                version=(current.version + 1) if current else 1,
                options=options,
                tournament=tournament,
            )
