"""Acceptance and results versions: a table's result accepted (by a phone at the table or
a director), a round's at once, and what follows every change at a tournament's table --
a new results version, whose standings and ratings are recomputed in the background.

The background work is enqueued by task name (``ops.outbox``), once the transaction
commits: ``tournaments.tasks`` calls these services, so they do not import it.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models import F, Max
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from ops.outbox import enqueue, enqueue_on_commit, outbox_tournaments
from scoring.acceptance import acceptance_check, not_ready_message
from scoring.errors import AcceptRefused
from scoring.services import (
    Actor,
    DealRejected,
    reason_checked,
    session_lock,
    table_event_record,
)
from tournaments.errors import TournamentError
from tournaments.families import results_of
from tournaments.models import Round, RoundTable, Tournament
from tournaments.selectors import table_ready
from tournaments.sql import results_version_bump

# The Celery tasks a change enqueues (``tournaments.tasks`` registers them under these
# names).
STANDINGS_RECOMPUTE = "tournaments.tasks.standings_recompute"
RATINGS_UPDATE = "tournaments.tasks.ratings_update"
RATINGS_UPDATE_GAME = "tournaments.tasks.ratings_update_game"


def _enqueue_recomputes(tournament: Tournament) -> None:
    """After commit: the standings snapshot for this results version, then the club ratings
    (kept in the database outbox while the broker is down, so none is lost)."""
    enqueue_on_commit(
        STANDINGS_RECOMPUTE,
        tournament.pk,
        tournament.results_version,
        tournament_id=tournament.pk,
    )
    enqueue_on_commit(RATINGS_UPDATE, tournament.pk, tournament_id=tournament.pk)


def standings_catch_up(**kwargs: Any) -> list[int]:
    """``ops.signals.heartbeat`` receiver: queue the recompute again of every tournament
    whose newest standings are older than its results -- its recompute was lost with the
    worker (or the in-process server) that died running it -- unless its recompute waits
    in the outbox (the heartbeat sends that next). A recompute still on its way is queued
    twice, which changes nothing (it is idempotent). Returns the tournaments' ids."""
    stale = list(
        Tournament.objects.filter(results_version__gt=0)
        .exclude(pk__in=outbox_tournaments(task=STANDINGS_RECOMPUTE))
        .annotate(newest=Coalesce(Max("snapshots__results_version"), -1))
        .filter(newest__lt=F("results_version"))
        .values_list("pk", "results_version")
    )
    for tournament_id, version in stale:
        enqueue(STANDINGS_RECOMPUTE, tournament_id, version, tournament_id=tournament_id)
    return [tournament_id for tournament_id, _version in stale]


@transaction.atomic
def results_changed(*, tournament: Tournament) -> int:
    """A result was accepted or corrected: count a new version and recompute standings."""
    Tournament.objects.filter(pk=tournament.pk).update(results_version=F("results_version") + 1)
    tournament.refresh_from_db(fields=["results_version"])
    _enqueue_recomputes(tournament)
    return tournament.results_version


def _director_reason(reason: str) -> str:
    try:
        return reason_checked(
            reason,
            required=_(
                "A director accepts for the table only with a reason: it goes into the table's history."  # noqa: E501
            ),
        )
    except DealRejected as exc:
        raise TournamentError(" ".join(exc.errors["reason"])) from None


@transaction.atomic
def round_table_accept(*, table: RoundTable, actor: Actor, reason: str = "") -> RoundTable:
    """Accept a table's result: lock its session (only directors change it from now on)
    and rotate its link (``scoring.services.session_lock``).

    Who may: ``scoring.services.acceptance_check`` (the rule club sessions share): a
    phone bound to a seat of this table that has entered or changed no deal here, from a
    seat that has not either, once the table has played its planned deals (or its round's
    time is up); a director, any table, always with a reason.
    Everything goes into the table's history; two phones at once: the second is told
    the table is accepted already. The lock is announced by scoring's ``table_changed``,
    which recomputes the standings."""
    table = (
        RoundTable.objects.select_for_update(of=("self",))
        .select_related("session", "round__tournament")
        .get(pk=table.pk)
    )
    if table.accepted_at is not None:
        raise TournamentError(_("This table's result is already accepted."))
    session = table.session
    progress = results_of(table.round.tournament.game).progress([session])[session.pk]
    details: dict[str, Any] = {"deals": progress.deals, "planned": progress.planned}
    try:
        seat, text = acceptance_check(session=session, actor=actor, reason=reason)
    except AcceptRefused as exc:
        raise TournamentError(str(exc)) from None
    if seat is None:
        details["override"] = True
    else:
        # Fewer deals than planned once the round's time is up (the profile's rule), never
        # more: a deal beyond the plan changes the result, so the director decides.
        if progress.over or not table_ready(table=table, finished=progress.finished):
            raise TournamentError(not_ready_message(progress))
        details.update(seat=seat.seat, player=seat.player_id)
    table.accepted_at = timezone.now()
    table.accepted_seat = seat.seat if seat else None
    table.accepted_player_id = seat.player_id if seat else None
    table.accepted_user_id = actor.user_id if actor.is_director else None
    table.reopened_at = None
    table.save(
        update_fields=[
            "accepted_at",
            "accepted_seat",
            "accepted_player",
            "accepted_user",
            "reopened_at",
        ]
    )
    table_event_record(
        session=session, action="accepted", actor=actor, reason=text, details=details
    )
    session_lock(session=session, actor=actor)
    return table


def session_changed(*, session: Any, action: str, **kwargs: Any) -> None:
    """``table_changed`` receiver: a change at a table of a round (accepted or not) counts as
    a new results version, so the standings page says "updating" until the snapshot of
    that version is stored, and the ratings see it. An unlock takes the acceptance back:
    the table has to be accepted again."""
    if action == "unlocked":
        RoundTable.objects.filter(session_id=session.pk, accepted_at__isnull=False).update(
            accepted_at=None,
            accepted_seat=None,
            accepted_player=None,
            accepted_user=None,
            reopened_at=timezone.now(),
        )
    # In the deal save's transaction: the save's locked read joined the session's
    # tournament table (a club session has none: nothing to count), and one statement
    # counts its tournament's new version (no row of it is read otherwise).
    try:
        table = session.round_table
    except ObjectDoesNotExist:
        table = None
    bumped = None if table is None else results_version_bump(session_id=session.pk)
    if bumped is not None:
        tournament_id, version = bumped
        _enqueue_recomputes(Tournament(pk=tournament_id, results_version=version))
    elif action in CLUB_RATING_ACTIONS or getattr(session, "accepted_at", None) is not None:
        # A club session: accepted, left out, rated again, unlocked, or corrected after
        # its acceptance -- the club ratings of its game follow.
        enqueue_on_commit(RATINGS_UPDATE_GAME, session.game)


# What happens to a club session (no tournament's table) that its game's ratings follow.
CLUB_RATING_ACTIONS = ("accepted", "unlocked", "excluded", "included")


@transaction.atomic
def round_accept_all(*, rnd: Round, actor: Actor, reason: str) -> int:
    """The director accepts every open table of a round at once, with one reason (in each
    table's history); each table is locked and its link rotated; one standings
    recompute for them all."""
    text = _director_reason(reason)
    open_tables = list(
        rnd.tables.select_for_update(of=("self",))
        .filter(accepted_at__isnull=True)
        .select_related("session")
    )
    if not open_tables:
        return 0
    progress = results_of(rnd.tournament.game).progress([t.session for t in open_tables])
    now = timezone.now()
    for t in open_tables:
        p = progress[t.session_id]
        details = {"deals": p.deals, "planned": p.planned, "override": True, "round": True}
        table_event_record(
            session=t.session, action="accepted", actor=actor, reason=text, details=details
        )
        # One recompute below for the whole round, not one per table.
        session_lock(session=t.session, actor=actor, announced=False)
    RoundTable.objects.filter(pk__in=[t.pk for t in open_tables]).update(
        accepted_at=now, accepted_user_id=actor.user_id, reopened_at=None
    )
    results_changed(tournament=rnd.tournament)
    return len(open_tables)
