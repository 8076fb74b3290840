"""Writes for table sessions and deals (``<entity>_<action>``, keyword-only).

One write path for every game: ``deal_record``, ``deal_correct`` and ``deal_void``
lock the session row first and read with it what the deal depends on (the session's
``tally``: the last number, the seat totals, the rubber so far), ask the session's game
(``scoring.games``) to score and store the deal, write a ``DealHistory`` row, store the
new tally, and announce the change with the ``deal_changed`` signal: a save is four
statements (lock-and-read, the deal, its history row, the tally). A pad's save comes
through ``deal_enter`` (``deal_record`` is its plain form): the view checks who writes
and reads its form from that same locked read, so a request reads the session once.
Whoever listens (tournaments: standings and ratings) does so in the same transaction, so
a change is never stored without being announced.

Idempotent entry: the pad's form carries the slot it expects to create and a
submission key made when it was rendered. The same key again returns the deal it
stored (``Stored.replayed``); a form whose slot another phone filled meanwhile is
answered with ``DealConflict`` (what is stored there, and where this deal would go).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Player
from scoring.engines.errors import SheetError
from scoring.engines.rules import validate_profile_options, validate_tournament
from scoring.engines.scoresheet import GAMES as SHEET_GAMES
from scoring.engines.scoresheet import game_unknown, not_an_object
from scoring.errors import (
    AcceptRefused,
    DealConflict,
    DealRejected,
    NeedsConfirmation,
    SessionLocked,
)
from scoring.games import Slot, game_for, game_of
from scoring.models import (
    DEAL_ACTIONS,
    DealHistory,
    RuleProfile,
    RuleProfileVersion,
    TableSeat,
    TableSession,
    new_token,
)
from scoring.profiles import json_plain, profiles_sync
from scoring.rows import row_insert, row_locked, rows_write
from scoring.selectors import seat_players_along
from scoring.signals import deal_changed

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


def _locked_session(
    session_id: int,
    actor: Actor | None,
    submission_key: str = "",
    *related: str,
    players: bool = False,
) -> TableSession:
    """Lock first, then read: a second phone waits here and then sees the first one's deal.

    With a ``submission_key`` the same statement looks for the slot that key stored
    (``replay_rubber``, ``replay_number``; None when not found). PostgreSQL reads that
    subquery in the statement's snapshot, taken before a wait for the lock, so "not found"
    after a wait is not final: ``deal_record`` then looks again before it answers with a
    conflict, and the history's unique key refuses a second store. ``related`` are more
    rows the same statement joins (the pad's: ``deal_enter``), and ``players`` brings the
    seats' players along for the answer (``sheet_players``); ``actor`` None leaves the
    lock check to the caller, who knows the actor only once the session is read."""
    extra: dict[str, str] = {}
    params: list[Any] = []
    if submission_key:
        history = connection.ops.quote_name(DealHistory._meta.db_table)
        earlier = f"FROM {history} h WHERE h.session_id = t.id AND h.submission_key = %s LIMIT 1"
        extra = {
            "replay_rubber": f"SELECT h.rubber {earlier}",
            "replay_number": f"SELECT h.deal_number {earlier}",
        }
        params = [submission_key, submission_key]
    session = row_locked(
        TableSession,
        session_id,
        related=("profile_version", *related),
        extra=extra,
        extra_params=params,
        along=seat_players_along() if players else None,
    )
    if actor is not None:
        _writable(session, actor)
    return session


def _writable(session: TableSession, actor: Actor) -> None:
    if session.locked and not actor.is_director:
        raise SessionLocked(_("This session is locked: only a director may change it."))


def _tally_store(session: TableSession, *inserts: Any) -> None:
    """Store the tally a write left and count the write (``TableSession.revision``); the
    session is locked, so the row read plus one is the stored count. ``inserts``: the
    write's new rows, stored with it (on PostgreSQL in the same statement)."""
    session.revision += 1
    rows_write(inserts=inserts, updates=[(session, ["tally", "revision"])])


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


def _announce(session: TableSession, action: str, slot: Slot | None) -> None:
    deal_changed.send(sender=TableSession, session=session, action=action, slot=slot)


def history_record(**fields: Any) -> None:
    """Keep who changed which deal, when, why and how (the fields of ``_history_row``)."""
    row_insert(_history_row(**fields))


def _history_row(
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
    """A history row: who (``actor``'s ids, never only a name), which deal, why, how."""
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
    """Keep a lock, unlock, acceptance or link reissue in the table's history."""
    history_record(
        session=session,
        slot=TABLE_EVENT,
        action=action,
        actor=actor,
        reason=reason_checked(reason),
        new=details or {},
    )


def wrote_deals(*, session: TableSession, actor: Actor) -> bool:
    """Did this account, this phone, or a phone at this seat enter or change a deal here?"""
    who = Q(pk__in=[])
    if actor.user_id is not None:
        who |= Q(user_id=actor.user_id)
    if actor.phone:
        who |= Q(phone=actor.phone)
    if actor.seat is not None:
        who |= Q(seat=actor.seat)
    return DealHistory.objects.filter(session=session, action__in=DEAL_ACTIONS).filter(who).exists()


def acceptance_check(
    *, session: TableSession, actor: Actor, reason: str = ""
) -> tuple[TableSeat | None, str]:
    """Who may accept a table's result -- the one rule for a tournament table
    (``tournaments.services.round_table_accept``) and a club session (``session_accept``):
    a director, always with a reason; or a phone bound to a seat of this table
    (``scoring.permissions``) that has entered or changed no deal here, from a seat that
    has not either: the player who checks is not the one who wrote. Returns the accepting
    seat (None for a director) and the reason as the history keeps it; ``AcceptRefused``
    says why not."""
    if actor.is_director:
        try:
            text = reason_checked(
                reason,
                required=_(
                    "A director accepts for the table only with a reason: it goes into the table's history."  # noqa: E501
                ),
            )
        except DealRejected as exc:
            raise AcceptRefused(" ".join(exc.errors["reason"])) from None
        return None, text
    seat = session.seats.filter(seat=actor.seat).first() if actor.seat else None
    if seat is None:
        raise AcceptRefused(
            _("Open the table link on your own phone and choose your seat to accept.")
        )
    if wrote_deals(session=session, actor=actor):
        raise AcceptRefused(
            _(
                "This phone or this seat entered deals at the table: another player checks the totals and accepts, on their own phone."  # noqa: E501
            )
        )
    return seat, ""


@transaction.atomic
def session_accept(*, session: TableSession, actor: Actor, reason: str = "") -> TableSession:
    """Accept a club session (one that is no tournament's table): the same who-may rule as
    a tournament table (``acceptance_check``), once the session has played its planned
    deals (a director may accept earlier). It locks the session; the club ratings rate it
    (``tournaments.ratings``). An unlock takes the acceptance back."""
    session = TableSession.objects.select_for_update(of=("self",)).get(pk=session.pk)
    if TableSession.objects.filter(pk=session.pk, round_table__isnull=False).exists():
        raise AcceptRefused(_("A tournament table is accepted from its round."))
    if session.accepted_at is not None:
        raise AcceptRefused(_("This table's result is already accepted."))
    seat, text = acceptance_check(session=session, actor=actor, reason=reason)
    progress = game_of(session).progress([session])[session.pk]
    details: dict[str, Any] = {"deals": progress.deals, "planned": progress.planned}
    if seat is None:
        details["override"] = True
    else:
        if not progress.deals or (progress.planned and not progress.finished):
            raise AcceptRefused(
                _(
                    "The table has %(deals)s of its %(planned)s deals: play them all, or ask the director to accept it with a reason."  # noqa: E501
                )
                % {"deals": progress.deals, "planned": progress.planned or "?"}
            )
        details.update(seat=seat.seat, player=seat.player_id)
    session.accepted_at = timezone.now()
    session.accepted_seat = seat.seat if seat else None
    session.save(update_fields=["accepted_at", "accepted_seat"])
    table_event_record(
        session=session, action="accepted", actor=actor, reason=text, details=details
    )
    if session.locked:
        _announce(session, "accepted", None)
    else:
        session_lock(session=session, actor=actor)
    return session


@transaction.atomic
def session_rating_exclude(
    *, session: TableSession, actor: Actor, reason: str, excluded: bool = True
) -> TableSession:
    """A director leaves a club session out of the ratings (or rates it again), saying
    why; the history keeps it and the ratings follow (``deal_changed``)."""
    if not actor.is_director:
        raise AcceptRefused(_("Only a director leaves a table out of the ratings."))
    try:
        text = reason_checked(
            reason, required=_("Say why the table is left out of the ratings or rated again.")
        )
    except DealRejected as exc:
        raise AcceptRefused(" ".join(exc.errors["reason"])) from None
    session = TableSession.objects.select_for_update(of=("self",)).get(pk=session.pk)
    session.rating_excluded_at = timezone.now() if excluded else None
    session.save(update_fields=["rating_excluded_at"])
    action = "excluded" if excluded else "included"
    table_event_record(session=session, action=action, actor=actor, reason=text)
    _announce(session, action, None)
    return session


def deal_record(
    *,
    session: TableSession,
    facts: Mapping[str, Any],
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


@dataclass(frozen=True)
class Entry:
    """A deal to append, as the pad's form gives it (``deal_enter``)."""

    facts: Mapping[str, Any]
    actor: Actor
    confirm_warnings: bool = False
    expected: Slot | None = None
    extra: Mapping[str, Any] | None = None


def deal_enter(
    *,
    session_id: int,
    submission_key: str,
    prepare: Callable[[TableSession], Entry | None],
    related: Sequence[str] = (),
) -> tuple[TableSession, Stored | None]:
    """A save from a table's pad, reading the session once: lock-and-read the session
    (with the ``related`` rows the answer shows, the seats' players, and the slot
    ``submission_key`` stored before), then ``prepare`` -- the view: who writes, the
    form's facts, under the lock -- says what to append (None: nothing, the form is not
    complete; raise to refuse), and it is appended as ``deal_record`` does. Returns the
    session as read and changed (its new tally) and what was stored. A deal's write
    costs the lock-and-read, the deal, its history row and the tally (and the listeners'
    statements: one for a tournament table)."""

    def attempt() -> tuple[TableSession, Stored | None]:
        with transaction.atomic():
            session = _locked_session(session_id, None, submission_key, *related, players=True)
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
    number = getattr(session, "replay_number", None)
    if number is not None:
        return Slot(session.replay_rubber, number)  # type: ignore[attr-defined]
    earlier = (
        DealHistory.objects.filter(session=session, submission_key=submission_key)
        .values_list("rubber", "deal_number")
        .first()
    )
    return Slot(*earlier) if earlier is not None else None


def _deal_append(session: TableSession, entry: Entry, submission_key: str) -> Stored:
    """Append ``entry`` to ``session``, locked and read in this transaction."""
    game = game_of(session)
    slot: Slot | None
    if submission_key and getattr(session, "replay_number", None) is not None:
        slot = Slot(session.replay_rubber, session.replay_number)  # type: ignore[attr-defined]
        return Stored(row=game.deal_at(session, slot), slot=slot, replayed=True)
    slot = game.next_slot(session)
    expected = entry.expected
    if expected is not None and expected != slot:
        # Rare: look for the key again outside the locked read's snapshot (see above).
        earlier = _replayed(session, submission_key) if submission_key else None
        if earlier is not None:
            return Stored(row=game.deal_at(session, earlier), slot=earlier, replayed=True)
        raise DealConflict(expected=expected, stored=game.deal_at(session, expected), offered=slot)
    if slot is None:
        raise DealRejected({"__all__": [game.closed_message(session, entry.extra or {})]})
    before = session.tally
    row = game.append(
        session,
        slot,
        entry.facts,
        entered_by=entry.actor.label,
        confirm_warnings=entry.confirm_warnings,
        extra=entry.extra or {},
    )
    slot = game.slot_of(row)
    history = _history_row(
        session=session,
        slot=slot,
        action="created",
        actor=entry.actor,
        new=game.snapshot(row),
        submission_key=submission_key,
    )
    # The deal, its history row and the tally at once.
    _tally_store(session, row, history)
    _announce(session, "created", slot)
    return Stored(row=row, slot=slot, before=before)


def _stored_deal(session: TableSession, slot: Slot) -> Any:
    row = game_of(session).deal_at(session, slot)
    if row is None:
        raise DealRejected({"__all__": [_("There is no deal %(n)s.") % {"n": slot.label}]})
    return row


@transaction.atomic
def deal_correct(
    *,
    session: TableSession,
    slot: Slot,
    facts: Mapping[str, Any],
    actor: Actor,
    reason: str,
    confirm_warnings: bool = False,
) -> Any:
    """Replace a deal's facts (and so its result); the old values go to the history."""
    text = _reason(reason, "edited")
    session = _locked_session(session.pk, actor)
    game = game_of(session)
    row = _stored_deal(session, slot)
    old = game.snapshot(row)
    game.correct(session, row, facts, confirm_warnings=confirm_warnings)
    _tally_store(session)
    history_record(
        session=session,
        slot=slot,
        action="edited",
        actor=actor,
        reason=text,
        old=old,
        new=game.snapshot(row),
    )
    _announce(session, "edited", slot)
    return row


@transaction.atomic
def deal_void(*, session: TableSession, slot: Slot, actor: Actor, reason: str) -> Any:
    """Strike a deal out: it stays on the sheet, crossed, and counts for nothing."""
    text = _reason(reason, "voided")
    session = _locked_session(session.pk, actor)
    game = game_of(session)
    row = _stored_deal(session, slot)
    old = game.snapshot(row)
    game.void(session, row)
    _tally_store(session)
    history_record(
        session=session,
        slot=slot,
        action="voided",
        actor=actor,
        reason=text,
        old=old,
        new=game.snapshot(row),
    )
    _announce(session, "voided", slot)
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
) -> TableSession:
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
        tally=dict(game_for(game).tally_new()),
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
    *, session: TableSession, actor: Actor, reason: str = "", announce: bool = True
) -> TableSession:
    """Lock the table (only directors change it from now on) and rotate its link, so no
    phone that held the old link writes again after an unlock. ``announce=False`` is for
    a listener's own bulk lock that announces its change once, its own way."""
    session = TableSession.objects.select_for_update(of=("self",)).get(pk=session.pk)
    session.locked_at = timezone.now()
    session.locked_by_id = actor.user_id
    _rotate_link(session)
    session.save(update_fields=["locked_at", "locked_by", "entry_token"])
    table_event_record(session=session, action="locked", actor=actor, reason=reason)
    if announce:
        _announce(session, "locked", None)
    return session


@transaction.atomic
def session_unlock(*, session: TableSession, actor: Actor, reason: str) -> TableSession:
    """Unlock the table, saying why; the history keeps who locked it before."""
    text = reason_checked(reason, required=_("Say why the table is unlocked."))
    session = TableSession.objects.select_for_update(of=("self",)).get(pk=session.pk)
    details = {"locked_by": session.locked_by_id, "locked_at": _iso(session.locked_at)}
    session.locked_at = None
    session.locked_by = None
    session.accepted_at = None  # a club session is accepted again after its changes
    session.accepted_seat = None
    session.save(update_fields=["locked_at", "locked_by", "accepted_at", "accepted_seat"])
    table_event_record(
        session=session, action="unlocked", actor=actor, reason=text, details=details
    )
    _announce(session, "unlocked", None)
    return session


@transaction.atomic
def session_link_reissue(*, session: TableSession, actor: Actor, reason: str = "") -> TableSession:
    """Revoke the table link (every phone it granted loses the table) and make a new one."""
    session = TableSession.objects.select_for_update(of=("self",)).get(pk=session.pk)
    _rotate_link(session)
    session.save(update_fields=["entry_token"])
    table_event_record(session=session, action="reissued", actor=actor, reason=reason)
    return session


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


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
) -> RuleProfileVersion:
    """Create a custom profile or save new options as its next version.

    Sessions point at a version, so deals already scored never change.
    """
    validate_profile_options(game, options)
    validate_tournament(tournament)
    if profile is None:
        base = slugify(name)[:40] or game
        profile = create_with_unique_slug(RuleProfile, base=base, name=name, game=game)
    elif profile.name != name:
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


@transaction.atomic
def session_import_sheet(*, data: Any, user: Any, title: str = "") -> TableSession:
    """Create a table session from a scoresheet: all of it, or nothing (``SheetError``)."""
    if not isinstance(data, dict):
        raise SheetError([not_an_object()])
    code = data.get("game")
    if code not in SHEET_GAMES:
        raise SheetError([game_unknown(code)])
    return game_for(code).import_sheet(data, user=user, title=title)
