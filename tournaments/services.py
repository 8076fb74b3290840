"""Writes for clubs and players (``<entity>_<action>``, keyword-only)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from scoring.games import game_for
from scoring.models import TableSession
from scoring.services import create_with_unique_slug, session_create, session_lock
from tournaments import adapters, tasks

__all__ = ["SeatingRejected", "TournamentError"]  # refusals callers catch from here

from tournaments.errors import SeatingRejected, TournamentError
from tournaments.models import (
    Registration,
    Round,
    RoundTable,
    StandingsSnapshot,
    Tournament,
)
from tournaments.selectors import next_round_ready
from tournaments.standings import standings_compute

# ----------------------------------------------------------------------------- tournaments


def tournament_create(
    *,
    name: str,
    game: str,
    profile_version: Any,
    rounds: int = 5,
    deals_per_round: int = 32,
    club: Club | None = None,
    seed: int | None = None,
    hide_standings: bool = False,
    round_minutes: int | None = None,
    created_by: Any = None,
) -> Tournament:
    if profile_version.profile.game != game:
        raise TournamentError(_("The rule profile is for another game."))
    return create_with_unique_slug(
        Tournament,
        base=slugify(name)[:40] or "tournament",
        name=name,
        game=game,
        profile_version=profile_version,
        rounds_planned=rounds,
        deals_per_round=deals_per_round,
        club=club,
        seed=seed if seed is not None else secrets.randbelow(2**31),
        hide_standings=hide_standings,
        round_minutes=round_minutes,
        created_by=created_by,
    )


@transaction.atomic
def registration_add(
    *, tournament: Tournament, player: Player, pair: str = "", team: str = ""
) -> Registration:
    """Enter a player; after round r has been seated they join from round r+1 (late arrival)."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if tournament.entries.filter(player=player).exists():
        raise TournamentError(f"{player.name} is already registered.")
    last = tournament.entries.aggregate(m=Max("number"))["m"] or 0
    seated = tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    return Registration.objects.create(
        tournament=tournament,
        player=player,
        number=last + 1,
        first_round=seated + 1,
        checked_in=seated > 0,
        pair=pair,
        team=team,
    )


def registration_check_in(*, registration: Registration, present: bool = True) -> Registration:
    registration.checked_in = present
    registration.save(update_fields=["checked_in"])
    return registration


def registration_withdraw(*, registration: Registration) -> Registration:
    """Withdraw between rounds: the player keeps the rounds played and sits out the rest."""
    seated = registration.tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    registration.withdrawn_after = seated
    registration.save(update_fields=["withdrawn_after"])
    return registration


def _enqueue_recomputes(tournament: Tournament) -> None:
    """After commit: the standings snapshot for this results version, then the club ratings."""
    tasks.standings_recompute.delay_on_commit(tournament.pk, tournament.results_version)
    tasks.ratings_update.delay_on_commit(tournament.pk)


@transaction.atomic
def results_changed(*, tournament: Tournament) -> int:
    """A result was accepted or corrected: count a new version and recompute standings."""
    Tournament.objects.filter(pk=tournament.pk).update(results_version=F("results_version") + 1)
    tournament.refresh_from_db(fields=["results_version"])
    _enqueue_recomputes(tournament)
    return tournament.results_version


@transaction.atomic
def round_table_accept(*, table: RoundTable, accepted_by: str, user: Any = None) -> RoundTable:
    """Accept a table's result: lock its session (only directors change it from now on).

    The lock is announced by scoring's ``deal_changed``, which recomputes the standings."""
    table = (
        RoundTable.objects.select_for_update().select_related("session", "round").get(pk=table.pk)
    )
    if table.accepted_at is not None:
        raise TournamentError(_("This table's result is already accepted."))
    if not accepted_by.strip():
        raise TournamentError(_("Say who accepts the result."))
    table.accepted_at = timezone.now()
    table.accepted_by = accepted_by.strip()[:150]
    table.save(update_fields=["accepted_at", "accepted_by"])
    session_lock(session=table.session, user=user)
    return table


def session_changed(*, session: Any, action: str, **kwargs: Any) -> None:
    """``deal_changed`` receiver: a change at a table of a round (accepted or not) counts as
    a new results version, so the standings page says "updating" until the snapshot of
    that version is stored, and the ratings see it."""
    tournament_id = (
        RoundTable.objects.filter(session_id=session.pk)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        results_changed(tournament=Tournament(pk=tournament_id))


def _active_numbers(tournament: Tournament, round_number: int) -> list[int]:
    return sorted(
        e.number for e in tournament.entries.all() if e.plays_in(round_number) and e.checked_in
    )


@transaction.atomic
def round_generate(*, tournament: Tournament) -> Round:
    """Seat the next round. Rounds already seated are never changed."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    last = tournament.rounds.order_by("-number").first()
    number = (last.number + 1) if last else 1
    if number > tournament.rounds_planned:
        raise TournamentError("All planned rounds have been seated.")
    if not next_round_ready(tournament=tournament):
        open_tables = last.tables.filter(accepted_at__isnull=True).count() if last else 0
        raise TournamentError(
            f"Round {number - 1} is not finished: {open_tables} table(s) still to accept."
        )
    active = _active_numbers(tournament, number)
    if len(active) < 4:
        raise TournamentError("Check in at least four players before seating a round.")
    history = adapters.played_rounds(tournament)
    if tournament.seating_plan and number <= len(tournament.seating_plan):
        plan = adapters.imported_round(tournament.seating_plan[number - 1], active)
        source, algorithm = "imported", "club table"
    else:
        plan = adapters.seat_round(tournament=tournament, active=active, round_number=number)
        source, algorithm = "generated", plan.algorithm
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        source=source,
        seed=tournament.seed,
        algorithm=algorithm,
        inputs={"active": active, "rounds_before": len(history)},
        byes=list(plan.byes),
    )
    entries = adapters.registrations_by_number(tournament)
    for t, table in enumerate(plan.tables, 1):
        session = session_create(
            game=tournament.game,
            profile_version=tournament.profile_version,
            players=[entries[n].player for n in table],
            title=f"{tournament.name}: round {number}, table {t}",
            created_by=tournament.created_by,
            planned_deals=game_for(tournament.game).planned_deals(tournament.deals_per_round),
        )
        RoundTable.objects.create(round=rnd, number=t, session=session)
    return rnd


@transaction.atomic
def rounds_import(*, tournament: Tournament, text: str) -> list[list[tuple[int, ...]]]:
    """Store the club's own seating table; refused (with every problem) once play started."""
    if tournament.rounds.exists():
        raise SeatingRejected(["A round has already been seated: import before the start."])
    registered = [e.number for e in tournament.entries.filter(withdrawn_after__isnull=True)]
    plan = adapters.parse_plan(text, registered, adapters.registrations_by_number(tournament))
    tournament.seating_plan = [[list(t) for t in rnd] for rnd in plan]
    tournament.rounds_planned = max(tournament.rounds_planned, len(plan))
    tournament.save(update_fields=["seating_plan", "rounds_planned"])
    return plan


def standings_recompute(*, tournament_id: int, version: int) -> StandingsSnapshot | None:
    """Compute and store standings; nothing to do if a snapshot that new already exists.

    The computing holds no lock, so acceptances and corrections go on while it runs: it
    reads the results version and the results from one database snapshot (REPEATABLE
    READ on PostgreSQL), and labels what it stores with that version. A change that
    commits meanwhile counts a newer version and enqueues its own recompute. Only the
    write takes the tournament's row lock, to check that no snapshot as new is stored
    yet: a stale or repeated run, or one that lost a race to a newer one, stores nothing.
    """
    with _consistent_read():
        tournament = (
            Tournament.objects.select_related("profile_version").filter(pk=tournament_id).first()
        )
        if tournament is None or _snapshot_version(tournament_id) >= max(
            version, tournament.results_version
        ):
            return None
        data = standings_compute(tournament=tournament)
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament_id).values_list("pk").first()
        if _snapshot_version(tournament_id) >= tournament.results_version:
            return None
        return StandingsSnapshot.objects.create(
            tournament_id=tournament_id, results_version=tournament.results_version, data=data
        )


def _snapshot_version(tournament_id: int) -> int:
    """The newest stored snapshot's results version (-1 for none): one indexed read."""
    newest = (
        StandingsSnapshot.objects.filter(tournament_id=tournament_id)
        .order_by("-results_version")
        .values_list("results_version", flat=True)
        .first()
    )
    return -1 if newest is None else newest


@contextmanager
def _consistent_read() -> Iterator[None]:
    """A read-only transaction that sees one database snapshot and takes no row locks
    (REPEATABLE READ on PostgreSQL; SQLite's transactions see one snapshot anyway). Inside
    an outer transaction (tests, eager tasks) it is just a savepoint of that one."""
    outer = connection.in_atomic_block
    with transaction.atomic():
        if not outer and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


@transaction.atomic
def round_accept_all(*, rnd: Round, accepted_by: str, user: Any = None) -> int:
    """The director accepts every open table of a round at once; one standings recompute."""
    open_tables = list(rnd.tables.filter(accepted_at__isnull=True))
    if not open_tables:
        return 0
    now = timezone.now()
    TableSession.objects.filter(pk__in=[t.session_id for t in open_tables]).update(
        locked_at=now, locked_by=user if getattr(user, "pk", None) else None
    )
    RoundTable.objects.filter(pk__in=[t.pk for t in open_tables]).update(
        accepted_at=now, accepted_by=accepted_by[:150]
    )
    results_changed(tournament=rnd.tournament)
    return len(open_tables)
