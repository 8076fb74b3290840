"""Writes for Vint sessions: record, correct and void deals; import a sheet.

A rubber's state after a deal depends on every deal before it (part-scores,
games, the rubber bonus, the extra deals), so every change to a deal replays
the whole rubber through the engine (``_rubber_replay``) and stores the new
entries of each of its deals, inside the same transaction. A change that
would leave a deal after the rubber's fourth extra deal is refused and
nothing is written. Each change to a deal writes a ``DealHistory`` row
(``deal_number`` is the number within the rubber; the snapshots name the
rubber).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.engines import vint
from scoring.engines.errors import RuleError, SheetError
from scoring.engines.vint_sheet import deal_to_json, read_vint_sheet
from scoring.models import (
    DealHistory,
    RuleProfileVersion,
    TableSession,
    VintDeal,
    VintRubber,
)
from scoring.services import Actor, DealRejected, SessionLocked, history_record
from scoring.vint_adapters import (
    deal_from_facts,
    entries_json,
    standard_seats,
    vint_rules_for,
)
from scoring.vint_selectors import RUBBERS, VintBoard, vint_scoreboard


def _problem_root(name: str) -> str:
    return name.split("[")[0].split(".")[0]


def vint_deal_check(*, session: TableSession, facts: Mapping[str, Any]) -> vint.VintDeal:
    """The engine deal for ``facts``, or ``DealRejected`` with every problem by field."""
    rules = vint_rules_for(session)
    try:
        deal = deal_from_facts(facts)
    except (RuleError, KeyError, TypeError, ValueError) as exc:
        field = getattr(exc, "field", None) or "__all__"
        raise DealRejected({field: [str(getattr(exc, "message", exc))]}) from None
    problems = vint.deal_problems(deal, rules)
    if problems:
        errors: dict[str, list[str]] = {}
        for p in problems:
            errors.setdefault(_problem_root(p.field), []).append(p.line)
        raise DealRejected(errors)
    return deal


def vint_deal_evaluate(
    *,
    session: TableSession,
    facts: Mapping[str, Any],
    rubber: int | None = None,
    before: int | None = None,
) -> tuple[vint.VintDeal, vint.DealOutcome]:
    """What ``facts`` would write, played after the counted deals of ``rubber``
    numbered below ``before`` (default: after all of them, in the current rubber).
    Writes nothing; raises ``DealRejected``."""
    deal = vint_deal_check(session=session, facts=facts)
    rules = vint_rules_for(session)
    if rubber is None:
        board = vint_scoreboard(session=session)
        if board.current is None:
            raise DealRejected({"__all__": [_session_complete()]})
        rubber = board.current.number
    qs = VintDeal.objects.filter(session=session, rubber=rubber, voided=False)
    if before is not None:
        qs = qs.filter(number__lt=before)
    state = vint.NEW_RUBBER
    for facts_before in qs.order_by("number").values_list("facts", flat=True):
        state, _outcome = vint.rubber_apply(state, deal_from_facts(facts_before), rules)
    if state.finished:
        raise DealRejected({"__all__": [_rubber_over(rubber, state.deals_played)]})
    _state, outcome = vint.rubber_apply(state, deal, rules)
    return deal, outcome


def _session_complete() -> str:
    return _("The session is complete: all three rubbers have been played.")


def _rubber_over(rubber: int, last: int) -> str:
    over = _("Rubber %(rubber)s is over: its fourth extra deal was deal %(last)s.")
    no_more = _("No further deal can be added to it.")
    return f"{over % {'rubber': rubber, 'last': last}} {no_more}"


def _ends_early(rubber: int, last: int, number: int) -> str:
    end = _("With this change rubber %(rubber)s would end with its deal %(last)s.")
    after = _("Deal %(number)s was played after it: void the deals after the end first.")
    return f"{end % {'rubber': rubber, 'last': last}} {after % {'number': number}}"


def _check_writable(session: TableSession, actor: Actor) -> None:
    if session.locked and not actor.is_director:
        raise SessionLocked(_("This session is locked: only a director may change it."))


def _rubber_replay(session: TableSession, rubber: int) -> None:
    """Score every deal of ``rubber`` again from the start and store the entries.

    Raises ``DealRejected`` (the caller's transaction then rolls back) when a
    counted deal comes after the rubber ended.
    """
    rules = vint_rules_for(session)
    state = vint.NEW_RUBBER
    changed: list[VintDeal] = []
    deals = list(VintDeal.objects.filter(session=session, rubber=rubber).order_by("number"))
    position = 0
    for row in deals:
        if row.voided:
            if row.entries:
                row.entries = {}
                changed.append(row)
            continue
        if state.finished:
            raise DealRejected({"__all__": [_ends_early(rubber, position, row.number)]})
        position += 1
        state, outcome = vint.rubber_apply(state, deal_from_facts(row.facts), rules)
        entries = entries_json(outcome)
        if entries != row.entries:
            row.entries = entries
            changed.append(row)
    if changed:
        VintDeal.objects.bulk_update(changed, ["entries"])


def _snapshot(row: VintDeal) -> dict[str, Any]:
    entries = row.entries or {}
    return {
        "rubber": row.rubber,
        "number": row.number,
        "facts": dict(row.facts),
        "above": entries.get("above"),
        "below": entries.get("below"),
        "voided": row.voided,
    }


def _ensure_rubber(
    session: TableSession, board: VintBoard, number: int, first_dealer: str | None
) -> VintRubber:
    view = board.rubber(number)
    row = VintRubber.objects.filter(session=session, number=number).first()
    dealer = first_dealer if first_dealer in vint.SEATS else view.first_dealer
    if row is None:
        seats = standard_seats(number)
        row = VintRubber.objects.create(
            session=session,
            number=number,
            north=seats["N"],
            east=seats["E"],
            south=seats["S"],
            west=seats["W"],
            first_dealer=dealer,
        )
    elif first_dealer in vint.SEATS and row.first_dealer != first_dealer and not view.counted:
        # The first dealer can still be changed while the rubber has no counted deal.
        row.first_dealer = first_dealer
        row.save(update_fields=["first_dealer"])
    return row


@transaction.atomic
def vint_deal_record(
    *,
    session: TableSession,
    facts: Mapping[str, Any],
    actor: Actor,
    rubber: int | None = None,
    first_dealer: str | None = None,
) -> VintDeal:
    """Add the next deal to the current rubber.

    ``rubber`` is the rubber the scorer saw on the pad: if it is not the
    current one (it ended meanwhile, e.g. on another phone), the deal is
    refused with a message rather than put in another rubber unseen.
    ``first_dealer`` sets the rubber's first dealer with its first deal.
    """
    session = (
        TableSession.objects.select_for_update()
        .select_related("profile_version")
        .get(pk=session.pk)
    )
    _check_writable(session, actor)
    deal = vint_deal_check(session=session, facts=facts)
    board = vint_scoreboard(session=session)
    current = board.current
    if rubber is not None and (current is None or current.number != rubber):
        if 1 <= rubber <= len(board.rubbers) and board.rubber(rubber).finished:
            view = board.rubber(rubber)
            message = _rubber_over(rubber, view.counted)
            if current is not None:
                message += " " + _("The next deal belongs to rubber %(n)s.") % {"n": current.number}
            raise DealRejected({"__all__": [message]})
        raise DealRejected(
            {"__all__": [_("Rubber %(n)s is not being played now.") % {"n": rubber}]}
        )
    if current is None:
        raise DealRejected({"__all__": [_session_complete()]})
    _ensure_rubber(session, board, current.number, first_dealer)
    # An appended deal changes no earlier one: play it on the rubber's state so far.
    _state, outcome = vint.rubber_apply(current.state, deal, board.rules)
    row = VintDeal.objects.create(
        session=session,
        rubber=current.number,
        number=current.next_number,
        facts=deal_to_json(deal),
        entries=entries_json(outcome),
        entered_by=actor.label,
    )
    history_record(
        session=session, number=row.number, action="created", actor=actor, new=_snapshot(row)
    )
    return row


@transaction.atomic
def vint_deal_correct(
    *, deal: VintDeal, facts: Mapping[str, Any], actor: Actor, reason: str
) -> VintDeal:
    """Replace a deal's facts; every later deal of its rubber is scored again."""
    if not reason.strip():
        raise DealRejected({"reason": [_("Say why the deal is corrected.")]})
    session = TableSession.objects.select_for_update().get(pk=deal.session_id)
    _check_writable(session, actor)
    deal = VintDeal.objects.get(pk=deal.pk)
    engine_deal = vint_deal_check(session=session, facts=facts)
    old = _snapshot(deal)
    deal.facts = deal_to_json(engine_deal)
    deal.voided = False
    deal.save(update_fields=["facts", "voided", "updated_at"])
    _rubber_replay(session, deal.rubber)
    deal.refresh_from_db()
    history_record(
        session=session,
        number=deal.number,
        action="edited",
        actor=actor,
        reason=reason,
        old=old,
        new=_snapshot(deal),
    )
    return deal


@transaction.atomic
def vint_deal_void(*, deal: VintDeal, actor: Actor, reason: str) -> VintDeal:
    """Strike a deal out: it stays on the sheet, crossed, and the rubber is scored without it."""
    if not reason.strip():
        raise DealRejected({"reason": [_("Say why the deal is voided.")]})
    session = TableSession.objects.select_for_update().get(pk=deal.session_id)
    _check_writable(session, actor)
    deal = VintDeal.objects.get(pk=deal.pk)
    old = _snapshot(deal)
    deal.voided = True
    deal.save(update_fields=["voided", "updated_at"])
    _rubber_replay(session, deal.rubber)
    deal.refresh_from_db()
    history_record(
        session=session,
        number=deal.number,
        action="voided",
        actor=actor,
        reason=reason,
        old=old,
        new=_snapshot(deal),
    )
    return deal


def _profile_version_for(rules: vint.VintRules, options: Mapping[str, Any]) -> RuleProfileVersion:
    """A current Vint profile version with these rules (the built-in one for the
    defaults, however the options are spelled), made if none has them."""
    from scoring.services import _profile_version_for as profile_version_with_options
    from scoring.services import profile_sync_builtin

    profile_sync_builtin()
    for version in RuleProfileVersion.objects.filter(profile__game="vint").select_related(
        "profile"
    ):
        if version != version.profile.current:
            continue
        try:
            if vint.parse_rules(version.options) == rules:
                return version
        except RuleError:
            continue
    return profile_version_with_options("vint", options)


@transaction.atomic
def vint_session_import_sheet(*, data: Any, user: Any, title: str = "") -> TableSession:
    """A Vint session from a scoresheet: all of it, or nothing (``SheetError``).

    Players A..D are rubber 1's N, E, S, W; each rubber keeps its own seating
    and first dealer. A session holds at most three rubbers.
    """
    from scoring.services import _players_by_name, session_create

    sheet = read_vint_sheet(data)  # every problem at once; nothing written yet
    if len(sheet.rubbers) > RUBBERS:
        raise SheetError(
            [
                f"rubbers: a Vint session has at most {RUBBERS} rubbers, "
                f"this sheet has {len(sheet.rubbers)}"
            ]
        )
    first = sheet.rubbers[0].seating
    players = _players_by_name(list(first.players))
    if len({p.pk for p in players}) != 4:
        raise SheetError(["rubbers: the four players must be different people"])
    session = session_create(
        game="vint",
        profile_version=_profile_version_for(sheet.rules, data.get("rules", {})),
        players=players,
        title=title or "Imported scoresheet",
        created_by=user,
    )
    number_of = {name: i for i, name in enumerate(first.players, 1)}
    label = user.get_username() if user else "import"
    for r, rubber in enumerate(sheet.rubbers, 1):
        seats = {seat: number_of[name] for seat, name in rubber.seating.as_dict().items()}
        VintRubber.objects.create(
            session=session,
            number=r,
            north=seats["N"],
            east=seats["E"],
            south=seats["S"],
            west=seats["W"],
            first_dealer=rubber.first_dealer,
        )
        VintDeal.objects.bulk_create(
            VintDeal(
                session=session,
                rubber=r,
                number=n,
                facts=deal_to_json(deal),
                entries={},
                entered_by=label,
            )
            for n, deal in enumerate(rubber.deals, 1)
        )
        _rubber_replay(session, r)
        for row in VintDeal.objects.filter(session=session, rubber=r).order_by("number"):
            DealHistory.objects.create(
                session=session,
                deal_number=row.number,
                action="created",
                actor=label,
                reason="import",
                new=_snapshot(row),
            )
    return session
