"""A scoresheet imported as a new table session of a club, whatever its game: its rule
profile (a built-in one, or the club's own), its players (found by name in the club's
register, registered there if new), and its deals through the write path
(``deals_import``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q

from clubs.models import Club, Player
from clubs.selectors import fold_name
from clubs.services import player_create
from scoring.actors import IMPORT_LABEL
from scoring.engines.errors import RuleError, SheetError, sheet_problem
from scoring.engines.rules import validate_profile_options
from scoring.engines.scoresheet import game_unknown, not_an_object
from scoring.games import game_codes, game_for
from scoring.models import RuleProfile, RuleProfileVersion, TableSession
from scoring.profile_services import profile_sync_builtin
from scoring.services import Actor, deals_import, session_create


def profile_version_for(
    game: str, options: Mapping[str, Any], club: Club | None = None
) -> RuleProfileVersion:
    """A current profile version of ``game`` whose rules are these options' rules (the
    built-in one for the defaults, however the options are spelled), among the built-ins
    and ``club``'s own profiles (another club's are not its to use); made if none is,
    as ``club``'s."""
    rules = validate_profile_options(game, options)
    profile_sync_builtin()
    usable = Q(profile__builtin=True) | (
        Q(profile__club=club) if club is not None else Q(profile__club__isnull=True)
    )
    candidates = RuleProfileVersion.objects.filter(usable, profile__game=game)
    for version in candidates.select_related("profile"):
        if version != version.profile.current:
            continue
        try:
            if validate_profile_options(game, version.options) == rules:
                return version
        except RuleError:
            continue
    wanted = dict(options)
    digest = hashlib.sha1(json.dumps(wanted, sort_keys=True).encode()).hexdigest()[:8]
    owner = f"{club.pk}-" if club is not None else ""
    profile, _created = RuleProfile.objects.get_or_create(
        slug=f"{game}-imported-{owner}{digest}",
        defaults={
            "name": f"{game.capitalize()} (imported rules {digest})",
            "game": game,
            "club": club,
        },
    )
    return profile.current or RuleProfileVersion.objects.create(
        profile=profile, version=1, options=wanted, tournament={}
    )


def players_by_name(names: Sequence[str], club: Club) -> list[Player]:
    """``club``'s players with these names (folded), registering the ones not yet known
    there (a name says nothing of which club's namesake it is)."""
    known = {fold_name(p.name): p for p in Player.objects.filter(club=club)}
    players = []
    for name in names:
        player = known.get(fold_name(name)) or player_create(club=club, name=name)
        known[fold_name(name)] = player
        players.append(player)
    return players


@transaction.atomic
def session_import_sheet(*, data: Any, user: Any, club: Club, title: str = "") -> TableSession:
    """Create a table session of ``club`` from a scoresheet: all of it, or nothing
    (``SheetError``)."""
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
        club=club,
        title=title,
        planned_deals=sheet.planned_deals,
    )
    label = user.get_username() if user else IMPORT_LABEL
    actor = Actor(label=label, user_id=user.pk if user else None)
    deals_import(session=session, sheet=sheet, actor=actor)
    return session


def _session_for(
    *,
    game: str,
    rules: Mapping[str, Any],
    names: Sequence[str],
    user: Any,
    club: Club,
    title: str,
    planned_deals: int | None = None,
) -> TableSession:
    players = players_by_name(names, club)
    if len({p.pk for p in players}) != 4:
        text = "the four players must be different people"
        raise SheetError([sheet_problem("sheet.players_same_person", text, "players")])
    return session_create(
        game=game,
        profile_version=profile_version_for(game, rules, club),
        players=players,
        title=title or "Imported scoresheet",
        created_by=user,
        planned_deals=planned_deals,
        club=club,
    )
