"""Rounds: seat the next round (from the stored seed, the director's start order or the
club's own seating table) and import that table before the start."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.services import session_create
from tournaments import adapters
from tournaments.errors import SeatingRejected, TournamentError
from tournaments.families import results_of
from tournaments.models import Round, RoundTable, Tournament
from tournaments.selectors import next_round_ready


def active_numbers(tournament: Tournament, round_number: int) -> list[int]:
    return sorted(
        e.number for e in tournament.entries.all() if e.plays_in(round_number) and e.checked_in
    )


def _check_start_order(order: list[int], active: list[int]) -> None:
    """The director's start order must list every checked-in start number once."""
    problems = []
    twice = sorted({n for n in order if order.count(n) > 1})
    unknown = sorted(set(order) - set(active))
    missing = sorted(set(active) - set(order))
    if twice:
        problems.append(
            _("Listed more than once: %(numbers)s.") % {"numbers": ", ".join(map(str, twice))}
        )
    if unknown:
        problems.append(
            _("Not checked in for round 1: %(numbers)s.")
            % {"numbers": ", ".join(map(str, unknown))}
        )
    if missing:
        problems.append(
            _("Missing from the order: %(numbers)s.") % {"numbers": ", ".join(map(str, missing))}
        )
    if problems:
        raise TournamentError(
            " ".join(
                [_("The seeding order must list every checked-in start number once."), *problems]
            )
        )


def parse_start_order(text: str) -> list[int]:
    """Start numbers typed as the director likes: "5 12 3", "5, 12, 3" or one per line."""
    words = text.replace(",", " ").replace(";", " ").split()
    try:
        return [int(w) for w in words]
    except ValueError:
        raise TournamentError(
            _("The seeding order holds start numbers only, e.g. 5 12 3 1.")
        ) from None


@transaction.atomic
def round_generate(*, tournament: Tournament, order: list[int] | None = None) -> Round:
    """Seat the next round. Rounds already seated are never changed.

    Round 1 gives the schedule's positions to start numbers in the director's ``order``
    (every checked-in start number once) or, without one, in an order drawn from the
    tournament's seed; the order is stored in the round's ``inputs`` and later rounds
    keep it."""
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
    active = active_numbers(tournament, number)
    if len(active) < 4:
        raise TournamentError("Check in at least four players before seating a round.")
    if order and number != 1:
        raise TournamentError(_("A seeding order can be given only for round 1."))
    if order:
        _check_start_order(order, active)
    history = adapters.played_rounds(tournament)
    if tournament.seating_plan and number <= len(tournament.seating_plan):
        plan = adapters.imported_round(tournament.seating_plan[number - 1], active)
        source, algorithm = "imported", "club table"
    else:
        plan = adapters.seat_round(
            tournament=tournament, active=active, round_number=number, order=order
        )
        source, algorithm = "generated", plan.algorithm
    inputs: dict[str, Any] = {"active": active, "rounds_before": len(history)}
    if plan.order:
        inputs["order"] = list(plan.order)
        if number == 1:
            inputs["order_from"] = "director" if order else "seed"
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        source=source,
        seed=tournament.seed,
        algorithm=algorithm,
        inputs=inputs,
        byes=list(plan.byes),
    )
    entries = adapters.registrations_by_number(tournament)
    for t, table in enumerate(plan.tables, 1):
        session = session_create(
            game=tournament.game,
            profile_version=tournament.profile_version,
            players=[entries[n].player for n in table],
            title="",  # named at display time, in the reader's language (session_title)
            created_by=tournament.created_by,
            planned_deals=results_of(tournament.game).planned_deals(tournament.deals_per_round),
            club=tournament.club,
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
