"""A scoresheet imported as a new table session, whatever its game: its rule profile, its
players (registered if new), and its deals through the write path (``deals_import``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from clubs.models import Club, Player
from clubs.selectors import fold_name
from clubs.services import player_create
from scoring.engines.errors import RuleError, SheetError, sheet_problem
from scoring.engines.rules import validate_profile_options
from scoring.engines.scoresheet import game_unknown, not_an_object
from scoring.games import game_codes, game_for
from scoring.models import RuleProfile, RuleProfileVersion, TableSession
from scoring.profile_services import profile_sync_builtin
from scoring.services import Actor, deals_import, session_create


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


@transaction.atomic
def session_import_sheet(*, data: Any, user: Any, title: str = "") -> TableSession:
    """Create a table session from a scoresheet: all of it, or nothing (``SheetError``)."""
    if not isinstance(data, dict):
        raise SheetError([not_an_object()])
    code = data.get("game")
    if code not in game_codes():
        raise SheetError([game_unknown(code)])
    sheet = game_for(code).sheet.read(data)  # every problem at once; nothing written yet
    session = _session_for(
        game=code,
        rules=sheet.rules,
        names=sheet.names,
        user=user,
        title=title,
        planned_deals=sheet.planned_deals,
    )
    label = user.get_username() if user else "import"
    actor = Actor(label=label, user_id=user.pk if user else None)
    deals_import(session=session, sheet=sheet, actor=actor)
    return session


def _session_for(
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
