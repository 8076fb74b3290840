"""Writes for table sessions and deals (``<entity>_<action>``, keyword-only).

Every write that changes a deal also writes a ``DealHistory`` row, so a
director can see who entered, corrected or voided what, when and why.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from clubs.models import Player
from scoring import adapters
from scoring.engines import kop
from scoring.engines.errors import RuleError, SheetError
from scoring.models import (
    DealHistory,
    KopDeal,
    RuleProfile,
    RuleProfileVersion,
    TableSeat,
    TableSession,
)


class DealRejected(Exception):
    """The deal breaks the rules: ``errors`` maps a field name to its messages."""

    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        super().__init__("; ".join(m for msgs in errors.values() for m in msgs))
        self.errors = dict(errors)


class NeedsConfirmation(Exception):
    """The deal is possible but doubtful; the scorer must confirm ``warnings``."""

    def __init__(self, warnings: Sequence[str]) -> None:
        super().__init__("; ".join(warnings))
        self.warnings = list(warnings)


class SessionLocked(Exception):
    """Only a director may change deals of a locked session."""


@dataclass(frozen=True)
class Actor:
    """Who is acting: a label for the history, and whether they direct."""

    label: str
    is_director: bool = False


def _errors_by_field(problems: Sequence[RuleError]) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for p in problems:
        errors.setdefault(p.field or "__all__", []).append(p.message)
    return errors


def kop_deal_evaluate(
    *, session: TableSession, facts: Mapping[str, Any]
) -> tuple[kop.KopDeal, kop.KopResult]:
    """Score ``facts`` under the session's rules, or raise ``DealRejected``."""
    rules = adapters.kop_rules_for(session)
    try:
        deal = adapters.kop_deal_from_facts(facts)
    except (KeyError, TypeError) as exc:
        raise DealRejected({"__all__": [f"incomplete deal: {exc}"]}) from None
    problems = kop.check_deal(deal, rules)
    if problems:
        raise DealRejected(_errors_by_field(problems))
    try:
        result = kop.score_deal(deal, rules)
    except RuleError as exc:
        raise DealRejected(_errors_by_field([exc])) from None
    return deal, result


def _check_writable(session: TableSession, actor: Actor) -> None:
    if session.locked and not actor.is_director:
        raise SessionLocked("this session is locked: only a director may change it")


def history_record(
    *,
    session: TableSession,
    number: int,
    action: str,
    actor: Actor,
    new: dict[str, Any],
    old: dict[str, Any] | None = None,
    reason: str = "",
) -> None:
    """Keep who changed which deal, when, why and how. A change to an entered deal may
    change an accepted tournament table, whose standings are then recomputed."""
    DealHistory.objects.create(
        session=session,
        deal_number=number,
        action=action,
        actor=actor.label,
        reason=reason.strip(),
        old=old,
        new=new,
    )
    if action != "created":
        from tournaments.services import session_result_changed

        session_result_changed(session=session)


def _snapshot(row: KopDeal) -> dict[str, Any]:
    return {
        **adapters.kop_facts_of(row),
        "value": row.value,
        "payments": list(row.payments),
        "voided": row.voided,
    }


def _confirmed(result: kop.KopResult, confirm_warnings: bool) -> list[str]:
    if result.warnings and not confirm_warnings:
        raise NeedsConfirmation(result.warnings)
    return list(result.warnings)


@transaction.atomic
def kop_deal_record(
    *,
    session: TableSession,
    facts: Mapping[str, Any],
    actor: Actor,
    confirm_warnings: bool = False,
) -> KopDeal:
    """Append the next deal of the session."""
    # Lock the session row (deal numbers are allotted under it), re-read the lock flag and
    # the last deal number in the same round trip.
    last_number = KopDeal.objects.filter(session=OuterRef("pk")).order_by("-number")
    locked_at, last = (
        TableSession.objects.select_for_update(of=("self",))
        .filter(pk=session.pk)
        .annotate(last=Subquery(last_number.values("number")[:1]))
        .values_list("locked_at", "last")
        .get()
    )
    session.locked_at = locked_at
    _check_writable(session, actor)
    deal, result = kop_deal_evaluate(session=session, facts=facts)
    confirmed = _confirmed(result, confirm_warnings)
    last = last or 0
    row = KopDeal(
        session=session,
        number=last + 1,
        contract=deal.contract,
        declarers=list(deal.declarers),
        doublings=deal.doublings,
        doubling_seats=list(deal.doubling_seats) if deal.doubling_seats is not None else None,
        declarer_points=deal.declarer_points,
        warnings_confirmed=confirmed,
        entered_by=actor.label,
    )
    adapters.kop_apply_result(row, result)
    row.save()
    history_record(
        session=session, number=row.number, action="created", actor=actor, new=_snapshot(row)
    )
    return row


@transaction.atomic
def kop_deal_correct(
    *,
    deal: KopDeal,
    facts: Mapping[str, Any],
    actor: Actor,
    reason: str,
    confirm_warnings: bool = False,
) -> KopDeal:
    """Replace a deal's facts (and so its payments); the old values go to the history."""
    if not reason.strip():
        raise DealRejected({"reason": ["Say why the deal is corrected."]})
    deal = KopDeal.objects.select_for_update().select_related("session").get(pk=deal.pk)
    _check_writable(deal.session, actor)
    engine_deal, result = kop_deal_evaluate(session=deal.session, facts=facts)
    confirmed = _confirmed(result, confirm_warnings)
    old = _snapshot(deal)
    deal.contract = engine_deal.contract
    deal.declarers = list(engine_deal.declarers)
    deal.doublings = engine_deal.doublings
    deal.doubling_seats = (
        list(engine_deal.doubling_seats) if engine_deal.doubling_seats is not None else None
    )
    deal.declarer_points = engine_deal.declarer_points
    deal.warnings_confirmed = confirmed
    deal.voided = False
    adapters.kop_apply_result(deal, result)
    deal.save()
    history_record(
        session=deal.session,
        number=deal.number,
        action="edited",
        actor=actor,
        reason=reason,
        old=old,
        new=_snapshot(deal),
    )
    return deal


@transaction.atomic
def kop_deal_void(*, deal: KopDeal, actor: Actor, reason: str) -> KopDeal:
    """Strike a deal out (it stays on the sheet, crossed, and counts for nothing)."""
    if not reason.strip():
        raise DealRejected({"reason": ["Say why the deal is voided."]})
    deal = KopDeal.objects.select_for_update().select_related("session").get(pk=deal.pk)
    _check_writable(deal.session, actor)
    old = _snapshot(deal)
    deal.voided = True
    deal.save(update_fields=["voided", "updated_at"])
    history_record(
        session=deal.session,
        number=deal.number,
        action="voided",
        actor=actor,
        reason=reason,
        old=old,
        new=_snapshot(deal),
    )
    return deal


@transaction.atomic
def session_create(
    *,
    game: str,
    profile_version: RuleProfileVersion,
    players: Sequence[Player],
    title: str = "",
    created_by: Any = None,
    planned_deals: int | None = None,
) -> TableSession:
    if profile_version.profile.game != game:
        raise DealRejected({"profile": ["The rule profile is for another game."]})
    if len(players) != 4 or len({p.pk for p in players}) != 4:
        raise DealRejected({"players": ["Choose four different players."]})
    session = TableSession.objects.create(
        game=game,
        profile_version=profile_version,
        title=title,
        created_by=created_by,
        planned_deals=planned_deals,
    )
    TableSeat.objects.bulk_create(
        TableSeat(session=session, seat=i, player=p) for i, p in enumerate(players, 1)
    )
    return session


def session_lock(*, session: TableSession, user: Any) -> TableSession:
    session.locked_at = timezone.now()
    session.locked_by = user
    session.save(update_fields=["locked_at", "locked_by"])
    return session


def session_unlock(*, session: TableSession) -> TableSession:
    session.locked_at = None
    session.locked_by = None
    session.save(update_fields=["locked_at", "locked_by"])
    return session


def _json_plain(value: Any) -> Any:
    """Mappings and sequences from the engines as plain JSON-ready dicts and lists."""
    if isinstance(value, Mapping):
        return {str(k): _json_plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_plain(v) for v in value]
    return value


@transaction.atomic
def profile_sync_builtin() -> None:
    """Create the built-in rule profiles; a changed built-in gets a new version."""
    from scoring.engines.rules import BUILTIN_PROFILES

    for spec in BUILTIN_PROFILES.values():
        profile, _created = RuleProfile.objects.get_or_create(
            slug=spec.slug,
            defaults={"name": spec.name, "game": spec.game, "builtin": True},
        )
        current = profile.versions.order_by("-version").first()
        options, tournament = _json_plain(spec.options), _json_plain(spec.tournament)
        if current is None or current.options != options or current.tournament != tournament:
            RuleProfileVersion.objects.create(
                profile=profile,
                version=(current.version + 1) if current else 1,
                options=options,
                tournament=tournament,
            )


@transaction.atomic
def profile_save(
    *,
    profile: RuleProfile | None,
    name: str,
    game: str,
    options: Mapping[str, Any],
    tournament: Mapping[str, Any],
) -> RuleProfileVersion:
    """Create a custom profile or save new options as its next version.

    Sessions point at a version, so deals already scored never change.
    """
    from django.utils.text import slugify

    from scoring.engines.rules import validate_profile_options, validate_tournament

    validate_profile_options(game, options)
    validate_tournament(tournament)
    if profile is None:
        base = slugify(name)[:40] or game
        slug, n = base, 1
        while RuleProfile.objects.filter(slug=slug).exists():
            n += 1
            slug = f"{base}-{n}"
        profile = RuleProfile.objects.create(slug=slug, name=name, game=game)
    elif profile.name != name:
        profile.name = name
        profile.save(update_fields=["name"])
    current = profile.versions.order_by("-version").first()
    return RuleProfileVersion.objects.create(
        profile=profile,
        version=(current.version + 1) if current else 1,
        options=_json_plain(options),
        tournament=_json_plain(tournament),
    )


def _profile_version_for(game: str, options: Mapping[str, Any]) -> RuleProfileVersion:
    """A profile version with exactly these options, made if no profile has them."""
    import hashlib

    profile_sync_builtin()
    wanted = dict(options)
    for version in RuleProfileVersion.objects.filter(profile__game=game).select_related("profile"):
        if version.options == wanted and version == version.profile.current:
            return version
    digest = hashlib.sha1(json.dumps(wanted, sort_keys=True).encode()).hexdigest()[:8]
    profile, _created = RuleProfile.objects.get_or_create(
        slug=f"{game}-imported-{digest}",
        defaults={"name": f"{game.capitalize()} (imported rules {digest})", "game": game},
    )
    return profile.current or RuleProfileVersion.objects.create(
        profile=profile, version=1, options=wanted, tournament={}
    )


def _players_by_name(names: Sequence[str]) -> list[Player]:
    from clubs.models import Club
    from clubs.selectors import fold_name
    from clubs.services import player_create

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
    from scoring.engines.kop_sheet import score_kop_sheet

    game = data.get("game") if isinstance(data, dict) else None
    if game == "vint":
        from scoring.vint_services import vint_session_import_sheet

        return vint_session_import_sheet(data=data, user=user, title=title)
    score_kop_sheet(data)  # raises SheetError listing every problem; nothing written yet
    players = _players_by_name(data["players"])
    if len({p.pk for p in players}) != 4:
        raise SheetError(["players: the four players must be different people"])
    session = session_create(
        game=game,
        profile_version=_profile_version_for(game, data.get("rules", {})),
        players=players,
        title=title or "Imported scoresheet",
        created_by=user,
        planned_deals=len(data["deals"]) or None,
    )
    actor = Actor(label=user.get_username() if user else "import", is_director=True)
    for facts in data["deals"]:
        kop_deal_record(session=session, facts=facts, actor=actor, confirm_warnings=True)
    return session


@transaction.atomic
def kop_deals_bulk_record(
    *, session: TableSession, deals: Sequence[kop.KopDeal], actor: Actor
) -> list[KopDeal]:
    """Append many deals at once (a typed-in paper pad, a simulation); all or nothing."""
    rules = adapters.kop_rules_for(session)
    table = kop.score_table(deals, rules)  # RuleError "deal n: ..." rejects the whole batch
    last = session.kop_deals.order_by("-number").values_list("number", flat=True).first() or 0
    rows = []
    for n, (deal, result) in enumerate(zip(deals, table.results, strict=True), last + 1):
        row = KopDeal(
            session=session,
            number=n,
            contract=deal.contract,
            declarers=list(deal.declarers),
            doublings=deal.doublings,
            doubling_seats=list(deal.doubling_seats) if deal.doubling_seats is not None else None,
            declarer_points=deal.declarer_points,
            warnings_confirmed=list(result.warnings),
            entered_by=actor.label,
        )
        adapters.kop_apply_result(row, result)
        rows.append(row)
    KopDeal.objects.bulk_create(rows)
    DealHistory.objects.bulk_create(
        DealHistory(
            session=session,
            deal_number=r.number,
            action="created",
            actor=actor.label,
            new=_snapshot(r),
        )
        for r in rows
    )
    return rows
