"""Who accepts a table's result, and a club session accepted or left out of the ratings.

The one rule for a tournament table (``tournaments`` asks ``acceptance_check``) and a club
session (``session_accept``): a director, always with a reason; or a phone bound to a seat
of the table that entered or changed no deal there, from a seat that did not either -- the
player who checks is not the one who wrote.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import AcceptRefused, DealRejected
from scoring.games import game_of
from scoring.games.interface import TableProgress
from scoring.models import DEAL_ACTIONS, DealHistory, TableSeat, TableSession
from scoring.selectors import round_table_of
from scoring.services import (
    Actor,
    announce,
    reason_checked,
    session_lock,
    session_locked,
    table_event_record,
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


def not_ready_message(progress: TableProgress) -> str:
    """Why the players may not accept a table yet (only a director may, with a reason)."""
    if progress.over:
        return _(
            "The table has %(deals)s deals and %(planned)s were planned: only the director can accept it, with a reason."  # noqa: E501
        ) % {"deals": progress.deals, "planned": progress.planned}
    if progress.planned:
        return _(
            "The table has %(deals)s of its %(planned)s deals: play them all, or ask the director to accept it with a reason."  # noqa: E501
        ) % {"deals": progress.deals, "planned": progress.planned}
    return _(
        "The table has not finished its play: finish it, or ask the director to accept it with a reason."  # noqa: E501
    )


@transaction.atomic
def session_accept(*, session: TableSession, actor: Actor, reason: str = "") -> TableSession:
    """Accept a club session (one that is no tournament's table): the same who-may rule as
    a tournament table (``acceptance_check``), once the session has played its planned
    deals (a director may accept earlier). It locks the session; the club ratings rate it
    (``tournaments.ratings``). An unlock takes the acceptance back."""
    session = session_locked(session.pk)
    if round_table_of(session) is not None:  # joined by the locked read
        raise AcceptRefused(_("A tournament table is accepted from its round."))
    if session.accepted_at is not None:
        raise AcceptRefused(_("This table's result is already accepted."))
    seat, text = acceptance_check(session=session, actor=actor, reason=reason)
    progress = game_of(session).results.progress([session])[session.pk]
    details: dict[str, Any] = {"deals": progress.deals, "planned": progress.planned}
    if seat is None:
        details["override"] = True
    else:
        if not progress.deals or progress.off_plan:
            raise AcceptRefused(not_ready_message(progress))
        details.update(seat=seat.seat, player=seat.player_id)
    session.accepted_at = timezone.now()
    session.accepted_seat = seat.seat if seat else None
    session.save(update_fields=["accepted_at", "accepted_seat"])
    table_event_record(
        session=session, action="accepted", actor=actor, reason=text, details=details
    )
    if session.locked:
        announce(session, "accepted", None)
    else:
        session_lock(session=session, actor=actor)
    return session


@transaction.atomic
def session_rating_exclude(
    *, session: TableSession, actor: Actor, reason: str, excluded: bool = True
) -> TableSession:
    """A director leaves a club session out of the ratings (or rates it again), saying
    why; the history keeps it and the ratings follow (``table_changed``)."""
    if not actor.is_director:
        raise AcceptRefused(_("Only a director leaves a table out of the ratings."))
    try:
        text = reason_checked(
            reason, required=_("Say why the table is left out of the ratings or rated again.")
        )
    except DealRejected as exc:
        raise AcceptRefused(" ".join(exc.errors["reason"])) from None
    session = session_locked(session.pk)
    session.rating_excluded_at = timezone.now() if excluded else None
    session.save(update_fields=["rating_excluded_at"])
    action = "excluded" if excluded else "included"
    table_event_record(session=session, action=action, actor=actor, reason=text)
    announce(session, action, None)
    return session
