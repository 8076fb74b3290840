"""Writes for table sessions and deals (``<entity>_<action>``, keyword-only).

One write path for every writer of deals: the pad (``deal_enter``, ``deal_record`` its
plain form), corrections and voids (``deal_correct``, ``deal_void``), many deals at once
(``deals_record``: demo data, a simulation) and an imported scoresheet (``deals_import``).
Each locks the session row first and reads its ``tally`` with it (the last number, the
seat totals, the rubber so far), asks the session's game's ledger (``scoring.games``) what
the change stores -- unsaved rows and the new tally -- and stores them in ``_store``: the
rows, a history row for each deal (``history_row``, the one place
they are built), the tally and the session's revision; then it announces the change once
with ``table_changed`` (``scoring.signals`` lists its actions). Whoever listens
(tournaments: standings and ratings) does so in the same transaction, so a change is never
stored without being announced.

Idempotent entry: the pad's form carries the slot it expects to create and a submission key
made when it was rendered. The same key again returns the deal it stored
(``Stored.replayed``); a form whose slot another phone filled meanwhile is answered with
``DealConflict`` (what is stored there, and where this deal would go).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from scoring.errors import (
    DealConflict,
    DealRejected,
    NeedsConfirmation,
    SessionLocked,
)
from scoring.games import game_for, game_of
from scoring.games.interface import Facts, Imported, Slot, Writes
from scoring.models import (
    DealHistory,
    RuleProfileVersion,
    TableSeat,
    TableSession,
    new_token,
)
from scoring.signals import table_changed

__all__ = [  # the entry errors are raised here, so callers catch them from here too
    "DealConflict",
    "DealRejected",
    "NeedsConfirmation",
    "SessionLocked",
]
REASON_MAX = 500  # characters of a correction's or void's reason


@dataclass(frozen=True)
class Actor:
    """Who is acting: a label for people, whether they direct, and the ids the history
    keeps (``scoring.permissions`` says where they come from): the account's ``user_id``;
    for a phone with the table link, its ``phone`` id and the ``seat`` it is bound to."""

    label: str
    is_director: bool = False
    user_id: int | None = None
    phone: str = ""
    seat: int | None = None


@dataclass(frozen=True)
class Stored:
    """A recorded deal: its row and slot; ``replayed`` when the submission was stored before."""

    row: Any
    slot: Slot
    replayed: bool = False
    before: Mapping[str, Any] | None = None  # the session's tally before the save


@dataclass(frozen=True)
class Entry:
    """A deal to append, as the pad's form gives it (``deal_enter``)."""

    facts: Facts
    actor: Actor
    confirm_warnings: bool = False
    expected: Slot | None = None
    extra: Mapping[str, Any] | None = None


def session_locked(session_id: int) -> TableSession:
    """Lock first, then read: a second phone waits here and then sees the first one's deal.
    The same statement joins the session's tournament table, if any (scoring reads the
    reverse accessor the tournaments app declares, without importing it): a listener of
    ``table_changed`` then knows whether the session is a tournament's table without a
    statement of its own. The rule profile is not joined: the games keep each version's
    parsed rules (``scoring.games.rules``)."""
    return (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("round_table")
        .get(pk=session_id)
    )


def _writable(session: TableSession, actor: Actor) -> None:
    """A locked table (accepted, or locked by its director) takes no change from anyone:
    its director unlocks it first, saying why (the history keeps both)."""
    if session.locked:
        raise SessionLocked(
            _("This table is locked: nothing changes until the director unlocks it, with a reason.")
        )


def _reason(reason: str, action: str) -> str:
    text = reason.strip()
    if not text:
        message = (
            _("Say why the deal is corrected.")
            if action == "edited"
            else _("Say why the deal is voided.")
        )
        raise DealRejected({"reason": [message]})
    return reason_checked(text)


def reason_checked(reason: str, *, required: str = "") -> str:
    """A reason as the history keeps it: stripped, at most ``REASON_MAX`` characters
    (``DealRejected`` beyond), and present when ``required`` (the sentence to show)."""
    text = reason.strip()
    if required and not text:
        raise DealRejected({"reason": [required]})
    if "\x00" in text:  # PostgreSQL stores no NUL in text
        raise DealRejected({"reason": [_("The reason holds a character that cannot be stored.")]})
    if len(text) > REASON_MAX:
        raise DealRejected(
            {"reason": [_("Keep the reason under %(n)s characters.") % {"n": REASON_MAX}]}
        )
    return text


def announce(session: TableSession, action: str, slot: Slot | None) -> None:
    table_changed.send(sender=TableSession, session=session, action=action, slot=slot)


def history_row(
    *,
    session: TableSession,
    slot: Slot,
    action: str,
    actor: Actor,
    new: Mapping[str, Any],
    old: Mapping[str, Any] | None = None,
    reason: str = "",
    submission_key: str = "",
) -> DealHistory:
    """A history row, unsaved: who (``actor``'s ids, never only a name), which deal (or,
    at ``TABLE_EVENT``, the whole table), why, and how it was before and after."""
    return DealHistory(
        session=session,
        rubber=slot.rubber,
        deal_number=slot.number,
        action=action,
        actor=actor.label,
        user_id=actor.user_id,
        phone=actor.phone,
        seat=actor.seat,
        reason=reason,
        old=old,
        new=new,
        submission_key=submission_key,
    )


TABLE_EVENT = Slot(0, 0)  # the history's slot for a row about the whole table


def table_event_record(
    *,
    session: TableSession,
    action: str,
    actor: Actor,
    reason: str = "",
    details: dict[str, Any] | None = None,
) -> None:
    """Keep a lock, unlock, acceptance, link reissue or change of the planned deals in the
    table's history."""
    history_row(
        session=session,
        slot=TABLE_EVENT,
        action=action,
        actor=actor,
        reason=reason_checked(reason),
        new=details or {},
    ).save()


def _store(
    session: TableSession,
    writes: Sequence[Writes],
    *,
    action: str,
    actor: Actor,
    reason: str = "",
    submission_key: str = "",
    old: Mapping[str, Any] | None = None,
) -> None:
    """Store what the ledger made (``Writes``): new rows, changed rows, a history row for
    each deal, and the session's new tally, counting the write (``TableSession.revision``;
    the session is locked, so the row read plus one is the stored count)."""
    ledger = game_of(session).ledger
    new_rows: dict[type[Model], list[Model]] = defaultdict(list)
    changed: dict[tuple[type[Model], tuple[str, ...]], list[Model]] = defaultdict(list)
    history = []
    for write in writes:
        for row in write.created:
            new_rows[type(row)].append(row)
        for row, fields in write.changed:
            changed[type(row), fields].append(row)
        deal = write.deal
        if deal is None:
            continue
        if write.deal_fields is None:
            new_rows[type(deal)].append(deal)
        else:
            deal.save(update_fields=write.deal_fields)
        history.append(
            history_row(
                session=session,
                slot=ledger.slot_of(deal),
                action=action,
                actor=actor,
                reason=reason,
                old=old,
                new=ledger.snapshot(deal),
                submission_key=submission_key,
            )
        )
    for model, rows in new_rows.items():
        model._default_manager.bulk_create(rows)
    for (model, fields), rows in changed.items():
        model._default_manager.bulk_update(rows, fields)
    DealHistory.objects.bulk_create(history)
    session.tally = dict(writes[-1].tally)
    session.revision += 1
    session.save(update_fields=["tally", "revision"])


def deal_record(
    *,
    session: TableSession,
    facts: Facts,
    actor: Actor,
    confirm_warnings: bool = False,
    expected: Slot | None = None,
    submission_key: str = "",
    extra: Mapping[str, Any] | None = None,
) -> Stored:
    """Append the session's next deal (see the module docstring for ``expected`` and
    ``submission_key``)."""
    entry = Entry(
        facts=facts,
        actor=actor,
        confirm_warnings=confirm_warnings,
        expected=expected,
        extra=extra or {},
    )
    _session, stored = deal_enter(
        session_id=session.pk, submission_key=submission_key, prepare=lambda _s: entry
    )
    assert stored is not None  # noqa: S101 -- ``prepare`` always gives the entry
    return stored


def deal_enter(
    *,
    session_id: int,
    submission_key: str,
    prepare: Callable[[TableSession], Entry | None],
) -> tuple[TableSession, Stored | None]:
    """A save from a table's pad, reading the session once: lock-and-read the session,
    then ``prepare`` -- the view: who writes, the form's facts, under the
    lock -- says what to append (None: nothing, the form is not complete; raise to
    refuse), and it is appended as ``deal_record`` does. Returns the session as read and
    changed (its new tally) and what was stored."""

    def attempt() -> tuple[TableSession, Stored | None]:
        with transaction.atomic():
            session = session_locked(session_id)
            entry = prepare(session)
            if entry is None:
                return session, None
            _writable(session, entry.actor)
            return session, _deal_append(session, entry, submission_key)

    if not submission_key or transaction.get_connection().in_atomic_block:
        return attempt()
    try:
        return attempt()
    except IntegrityError:
        # The same submission was stored while this one waited for the lock (its key is
        # taken): everything here rolled back, and a fresh read now finds it.
        return attempt()


def _replayed(session: TableSession, submission_key: str) -> Slot | None:
    """The slot ``submission_key`` stored, if any (read with the session locked: a save of
    the same form that got the lock first is seen)."""
    earlier = (
        DealHistory.objects.filter(session=session, submission_key=submission_key)
        .order_by()  # one row at most: the key is unique in the session
        .values_list("rubber", "deal_number")[:1]
    )
    return Slot(*earlier[0]) if earlier else None


def _deal_append(session: TableSession, entry: Entry, submission_key: str) -> Stored:
    """Append ``entry`` to ``session``, locked and read in this transaction."""
    ledger = game_of(session).ledger
    slot = ledger.next_slot(session)
    expected = entry.expected
    # A form sent before stored its deal at the slot it expected, so the table has moved on
    # since: only then is its key looked up (once the session is locked, a save of the same
    # form that got the lock first is seen). A form that names no slot is looked up at
    # once; and should a key be stored twice, the history's unique key refuses it
    # (``deal_enter`` then tries again).
    if submission_key and (expected is None or expected != slot):
        earlier = _replayed(session, submission_key)
        if earlier is not None:
            return Stored(row=ledger.deal_at(session, earlier), slot=earlier, replayed=True)
    if expected is not None and expected != slot:
        raise DealConflict(
            expected=expected, stored=ledger.deal_at(session, expected), offered=slot
        )
    if slot is None:
        raise DealRejected({"__all__": [ledger.closed_message(session, entry.extra or {})]})
    before = session.tally
    write = ledger.append(
        session,
        slot,
        entry.facts,
        entered_by=entry.actor.label,
        confirm_warnings=entry.confirm_warnings,
        extra=entry.extra or {},
    )
    _store(session, [write], action="created", actor=entry.actor, submission_key=submission_key)
    announce(session, "created", slot)
    return Stored(row=write.deal, slot=slot, before=before)


@transaction.atomic
def deals_record(*, session: TableSession, deals: Sequence[Facts], actor: Actor) -> list[Any]:
    """Append many deals at once (demo data, a simulation, a test's table): all or
    nothing. Warnings count as confirmed: the deals were played and written down."""
    session = session_locked(session.pk)
    _writable(session, actor)
    ledger = game_of(session).ledger
    writes = []
    for facts in deals:
        slot = ledger.next_slot(session)
        if slot is None:
            raise DealRejected({"__all__": [ledger.closed_message(session, {})]})
        write = ledger.append(
            session, slot, facts, entered_by=actor.label, confirm_warnings=True, extra={}
        )
        session.tally = write.tally  # the next deal is scored after this one
        writes.append(write)
    if writes:
        _store(session, writes, action="created", actor=actor)
        announce(session, "created", None)
    return [w.deal for w in writes]


@transaction.atomic
def deals_import(*, session: TableSession, sheet: Imported, actor: Actor) -> None:
    """Store an imported scoresheet's deals (``Sheet.read``) in a session made for them:
    all or nothing (``DealRejected``); each deal's history row says "import"."""
    session = session_locked(session.pk)
    writes = game_of(session).ledger.imported(session, sheet, entered_by=actor.label)
    _store(session, writes, action="created", actor=actor, reason="import")
    announce(session, "created", None)


def _stored_deal(session: TableSession, slot: Slot) -> Any:
    row = game_of(session).ledger.deal_at(session, slot)
    if row is None:
        raise DealRejected({"__all__": [_("There is no deal %(n)s.") % {"n": slot.label}]})
    return row


@transaction.atomic
def deal_correct(
    *,
    session: TableSession,
    slot: Slot,
    facts: Facts,
    actor: Actor,
    reason: str,
    confirm_warnings: bool = False,
) -> Any:
    """Replace a deal's facts (and so its result); the old values go to the history."""
    text = _reason(reason, "edited")
    session = session_locked(session.pk)
    _writable(session, actor)
    ledger = game_of(session).ledger
    row = _stored_deal(session, slot)
    old = ledger.snapshot(row)
    write = ledger.correct(session, row, facts, confirm_warnings=confirm_warnings)
    _store(session, [write], action="edited", actor=actor, reason=text, old=old)
    announce(session, "edited", slot)
    return row


@transaction.atomic
def deal_void(*, session: TableSession, slot: Slot, actor: Actor, reason: str) -> Any:
    """Strike a deal out: it stays on the sheet, crossed, and counts for nothing."""
    text = _reason(reason, "voided")
    session = session_locked(session.pk)
    _writable(session, actor)
    ledger = game_of(session).ledger
    row = _stored_deal(session, slot)
    old = ledger.snapshot(row)
    write = ledger.void(session, row)
    _store(session, [write], action="voided", actor=actor, reason=text, old=old)
    announce(session, "voided", slot)
    return row


@transaction.atomic
def session_create(
    *,
    game: str,
    profile_version: RuleProfileVersion,
    players: Sequence[Player],
    title: str = "",
    created_by: Any = None,
    planned_deals: int | None = None,
    club: Any = None,
) -> TableSession:
    """A new table of four ``players`` owned by ``club`` (a tournament's table: its
    tournament's club; else seat 1's player's club)."""
    if profile_version.profile.game != game:
        raise DealRejected({"profile": [_("The rule profile is for another game.")]})
    if len(players) != 4 or len({p.pk for p in players}) != 4:
        raise DealRejected({"players": [_("Choose four different players.")]})
    session = TableSession.objects.create(
        game=game,
        profile_version=profile_version,
        title=title,
        created_by=created_by,
        planned_deals=planned_deals,
        club_id=club.pk if club is not None else players[0].club_id,
        tally=dict(game_for(game).ledger.tally_new()),
    )
    TableSeat.objects.bulk_create(
        TableSeat(session=session, seat=i, player=p) for i, p in enumerate(players, 1)
    )
    return session


def _rotate_link(session: TableSession) -> None:
    # Every grant names the link it came from (``scoring.permissions``): a new token ends
    # them all, and the old QR card opens nothing.
    session.entry_token = new_token()


@transaction.atomic
def session_lock(
    *, session: TableSession, actor: Actor, reason: str = "", announced: bool = True
) -> TableSession:
    """Lock the table (nobody changes it until a director unlocks it) and rotate its link, so no
    phone that held the old link writes again after an unlock. ``announced=False`` is for
    a listener's own bulk lock that announces its change once, its own way."""
    session = session_locked(session.pk)
    session.locked_at = timezone.now()
    session.locked_by_id = actor.user_id
    _rotate_link(session)
    session.save(update_fields=["locked_at", "locked_by", "entry_token"])
    table_event_record(session=session, action="locked", actor=actor, reason=reason)
    if announced:
        announce(session, "locked", None)
    return session


@transaction.atomic
def session_unlock(*, session: TableSession, actor: Actor, reason: str) -> TableSession:
    """Unlock the table, saying why; the history keeps who locked it before."""
    text = reason_checked(reason, required=_("Say why the table is unlocked."))
    session = session_locked(session.pk)
    details = {"locked_by": session.locked_by_id, "locked_at": _iso(session.locked_at)}
    session.locked_at = None
    session.locked_by = None
    session.accepted_at = None  # a club session is accepted again after its changes
    session.accepted_seat = None
    session.save(update_fields=["locked_at", "locked_by", "accepted_at", "accepted_seat"])
    table_event_record(
        session=session, action="unlocked", actor=actor, reason=text, details=details
    )
    announce(session, "unlocked", None)
    return session


PLANNED_MAX = 400  # deals a table may plan (the new-table form's limit)


@transaction.atomic
def session_planned_change(
    *, session: TableSession, actor: Actor, planned: int, reason: str
) -> TableSession:
    """The director changes how many deals the table plays (more after its planned deals
    are all played, or fewer), saying why; the table's history keeps the number before and
    after. A locked table is unlocked first, like every other change."""
    if not actor.is_director:
        raise DealRejected({"planned_deals": [_("Only the director changes the planned deals.")]})
    text = reason_checked(reason, required=_("Say why the planned deals change."))
    if not 1 <= planned <= PLANNED_MAX:
        raise DealRejected(
            {"planned_deals": [_("Plan from 1 to %(n)s deals.") % {"n": PLANNED_MAX}]}
        )
    session = session_locked(session.pk)
    _writable(session, actor)
    before = session.planned_deals
    session.planned_deals = planned
    session.save(update_fields=["planned_deals"])
    table_event_record(
        session=session,
        action="planned",
        actor=actor,
        reason=text,
        details={"before": before, "after": planned},
    )
    announce(session, "planned", None)
    return session


@transaction.atomic
def session_link_reissue(*, session: TableSession, actor: Actor, reason: str = "") -> TableSession:
    """Revoke the table link (every phone it granted loses the table) and make a new one."""
    session = session_locked(session.pk)
    _rotate_link(session)
    session.save(update_fields=["entry_token"])
    table_event_record(session=session, action="reissued", actor=actor, reason=reason)
    return session


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None
