"""What importing any game's scoresheet shares: its rule profile and its players."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from clubs.models import Club, Player
from clubs.selectors import fold_name
from clubs.services import player_create
from scoring.engines.errors import RuleError, SheetError, sheet_problem
from scoring.engines.rules import validate_profile_options
from scoring.models import RuleProfile, RuleProfileVersion, TableSession
from scoring.services import profile_sync_builtin, session_create


def profile_version_for(game: str, options: Mapping[str, Any]) -> RuleProfileVersion:
    """A current profile version of ``game`` whose rules are these options' rules (the
    built-in one for the defaults, however the options are spelled); made if none is."""
    rules = validate_profile_options(game, options)
    profile_sync_builtin()
    for version in RuleProfileVersion.objects.filter(profile__game=game).select_related("profile"):
        if version != version.profile.current:
            continue
        try:
            if validate_profile_options(game, version.options) == rules:
                return version
        except RuleError:
            continue
    wanted = dict(options)
    digest = hashlib.sha1(json.dumps(wanted, sort_keys=True).encode()).hexdigest()[:8]
    profile, _created = RuleProfile.objects.get_or_create(
        slug=f"{game}-imported-{digest}",
        defaults={"name": f"{game.capitalize()} (imported rules {digest})", "game": game},
    )
    return profile.current or RuleProfileVersion.objects.create(
        profile=profile, version=1, options=wanted, tournament={}
    )


def players_by_name(names: Sequence[str]) -> list[Player]:
    """The club's players with these names (folded), registering the ones not yet known."""
    known = {fold_name(p.name): p for p in Player.objects.all()}
    club = Club.objects.order_by("pk").first() or Club.objects.create(name="Club")
    players = []
    for name in names:
        player = known.get(fold_name(name)) or player_create(club=club, name=name)
        known[fold_name(name)] = player
        players.append(player)
    return players


def import_session(
    *,
    game: str,
    rules: Mapping[str, Any],
    names: Sequence[str],
    user: Any,
    title: str,
    planned_deals: int | None = None,
) -> TableSession:
    players = players_by_name(names)
    if len({p.pk for p in players}) != 4:
        text = "the four players must be different people"
        raise SheetError([sheet_problem("sheet.players_same_person", text, "players")])
    return session_create(
        game=game,
        profile_version=profile_version_for(game, rules),
        players=players,
        title=title or "Imported scoresheet",
        created_by=user,
        planned_deals=planned_deals,
    )
