"""A director mends a tournament, and each mend is kept as a ``TournamentAction`` written
in the same transaction (who, when, why, the rows touched by ids and start numbers):

- ``tournament_edit``: name, rounds, deals per round, hidden standings, and the rule
  profile (until the first deal is stored, or later with a recompute the director
  confirms);
- ``registration_withdraw`` / ``registration_reinstate`` (in ``registration``);
- ``round_reseat``: seat the newest round again while none of its tables has a deal;
- ``seats_swap``: two players of the newest round change tables before either table's
  first deal;
- ``seat_substitute``: a player (registered, from the club register, or new) takes the
  seat of a no-show before the table's first deal; the no-show is absent that round.

Every refusal is a ``TournamentError`` in plain words, raised before anything is written.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.services import club_or_first, player_create
from scoring.models import TableSeat, TableSession
from scoring.services import DealRejected, reason_checked
from tournaments.errors import TournamentError
from tournaments.families import results_of
from tournaments.models import (
    Registration,
    Round,
    RoundTable,
    Tournament,
    TournamentAction,
)
from tournaments.services.acceptance import results_changed
from tournaments.services.rounds import active_numbers, round_generate


def action_record(
    *,
    tournament: Tournament,
    user: Any,
    action: str,
    reason: str = "",
    details: dict[str, Any] | None = None,
) -> TournamentAction:
    """Keep one mend in the tournament's history (call it inside the mend's transaction)."""
    return TournamentAction.objects.create(
        tournament=tournament,
        user=user if getattr(user, "pk", None) else None,
        action=action,
        reason=reason,
        details=details or {},
    )


def mend_reason(reason: str, *, required: bool = True) -> str:
    """The reason as the history keeps it; a mend says why."""
    try:
        return reason_checked(
            reason,
            required=_("Say why: the reason goes into the tournament's history.")
            if required
            else "",
        )
    except DealRejected as exc:
        raise TournamentError(" ".join(exc.errors["reason"])) from None


def tournament_locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked. Locks are taken in the order a deal's save takes
    them (its table session, then its tournament, to count a results version): the
    sessions a mend changes first, then the tournament, so the two never wait on each
    other in a circle."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _sessions_with_deals(tournament: Tournament) -> Any:
    """The tournament's table sessions where anything was written (a deal entered, voided
    or imported from a paper sheet: each write counts a revision)."""
    return TableSession.objects.filter(round_table__round__tournament=tournament, revision__gt=0)


# ------------------------------------------------------------------------------ edit

# What the edit page changes, in the history's order.
EDITED_FIELDS = ("name", "rounds_planned", "deals_per_round", "hide_standings", "profile_version")


@transaction.atomic
def tournament_edit(
    *,
    tournament: Tournament,
    user: Any,
    name: str,
    rounds: int,
    deals_per_round: int,
    hide_standings: bool,
    profile_version: Any,
    reason: str = "",
    recompute: bool = False,
) -> Tournament:
    """Change what the director set at creation. Once a round is seated a reason is
    required; the rounds cannot fall below the rounds seated, nor the deals per round
    below the most deals a table has played. The rule profile changes results: after the
    first stored deal only with ``recompute`` (the standings are then recomputed from
    every accepted table; deals already entered keep the game rules they were scored
    by, tables without a deal take the new profile)."""
    sessions = list(
        TableSession.objects.select_for_update(of=("self",))
        .filter(round_table__round__tournament=tournament)
        .order_by("pk")
        .values_list("pk", "revision")
    )
    tournament = tournament_locked(tournament)
    seated = tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    text = mend_reason(reason, required=seated > 0)
    if profile_version.profile.game != tournament.game:
        raise TournamentError(_("The rule profile is for another game."))
    if rounds < seated:
        raise TournamentError(
            _("%(n)s rounds are already seated: the tournament cannot have fewer rounds.")
            % {"n": seated}
        )
    written = [pk for pk, revision in sessions if revision > 0]
    played = max(results_of(tournament.game).counted_deals(written).values(), default=0)
    if deals_per_round < played:
        raise TournamentError(
            _("A table has already played %(n)s deals: the deals per round cannot be fewer.")
            % {"n": played}
        )
    new = {
        "name": " ".join(name.split()),
        "rounds_planned": rounds,
        "deals_per_round": deals_per_round,
        "hide_standings": hide_standings,
        "profile_version": profile_version.pk,
    }
    old = {
        f: getattr(tournament, f if f != "profile_version" else "profile_version_id") for f in new
    }
    changed = {f: [old[f], new[f]] for f in EDITED_FIELDS if old[f] != new[f]}
    if not changed:
        raise TournamentError(_("Nothing was changed."))
    profile_changed = "profile_version" in changed
    if profile_changed and written and not recompute:
        raise TournamentError(
            _(
                "Deals are already stored: a new rule profile changes the results. Tick the confirmation that the standings will be recomputed, or keep the profile."  # noqa: E501
            )
        )
    tournament.name = new["name"]
    tournament.rounds_planned = rounds
    tournament.deals_per_round = deals_per_round
    tournament.hide_standings = hide_standings
    tournament.profile_version = profile_version
    tournament.save(update_fields=[*EDITED_FIELDS])
    unwritten = [pk for pk, revision in sessions if revision == 0]
    if profile_changed and unwritten:
        TableSession.objects.filter(pk__in=unwritten).update(profile_version=profile_version)
    if "deals_per_round" in changed:
        # The tables still open plan the new number of deals.
        TableSession.objects.filter(
            round_table__round__tournament=tournament, round_table__accepted_at__isnull=True
        ).update(planned_deals=results_of(tournament.game).planned_deals(deals_per_round))
    details: dict[str, Any] = {"changed": changed}
    if profile_changed and written:
        details["recomputed"] = True
    action_record(tournament=tournament, user=user, action="edited", reason=text, details=details)
    if profile_changed and seated:
        # Big points and tie-breaks follow the tournament's profile: every accepted
        # table's standings are computed again (a new results version).
        results_changed(tournament=tournament)
    return tournament


# --------------------------------------------------------------------------- seating


def _open_newest_round(tournament: Tournament, rnd: Round) -> Round:
    """``rnd``, locked, if it is the newest round of ``tournament``: only the round being
    played is mended; a played round never changes."""
    newest = tournament.rounds.aggregate(m=Max("number"))["m"]
    if rnd.tournament_id != tournament.pk or rnd.number != newest:
        raise TournamentError(_("Only the newest round can be changed: a played round stays."))
    return Round.objects.select_for_update().get(pk=rnd.pk)


def _untouched(tables: list[RoundTable]) -> None:
    """Refuse when one of ``tables`` has a deal (or a paper result) or is accepted or locked."""
    for t in tables:
        session = t.session
        if session.revision > 0 or t.accepted_at is not None or session.locked_at is not None:
            raise TournamentError(
                _("Table %(n)s has already started: it has a deal or a result.") % {"n": t.number}
            )


def _round_tables(rnd: Round) -> list[RoundTable]:
    return list(
        RoundTable.objects.select_for_update(of=("self", "session"))
        .select_related("session")
        .filter(round=rnd)
        .order_by("number")
    )


def _locked_round(rnd: Round) -> tuple[Tournament, Round, list[RoundTable]]:
    """The round's tables with their sessions, the tournament and the round, locked in
    that order (``tournament_locked``); refused unless it is the newest round."""
    tables = _round_tables(rnd)
    tournament = tournament_locked(rnd.tournament)
    return tournament, _open_newest_round(tournament, rnd), tables


def _seating(rnd: Round) -> list[list[int]]:
    """The round's tables as start numbers in seat order."""
    numbers = dict(rnd.tournament.entries.values_list("player_id", "number"))
    tables: dict[int, list[tuple[int, int]]] = {}
    for t_number, seat, player_id in TableSeat.objects.filter(
        session__round_table__round=rnd
    ).values_list("session__round_table__number", "seat", "player_id"):
        tables.setdefault(t_number, []).append((seat, numbers[player_id]))
    return [[n for _s, n in sorted(tables[t])] for t in sorted(tables)]


@transaction.atomic
def round_reseat(*, rnd: Round, user: Any, reason: str, order: list[int] | None = None) -> Round:
    """Seat the newest round again, with today's check-ins and the seating code that
    seated it (``round_generate``), while none of its tables has a deal or a result:
    its tables and their links are replaced (print the new table cards). Round 1 seated
    from the director's start order keeps that order (without those no longer checked
    in, newcomers after it by start number); ``order`` gives another. Players registered
    since the round was seated play it (their first round becomes this one)."""
    text = mend_reason(reason)
    tournament, rnd, tables = _locked_round(rnd)
    _untouched(tables)
    before = {"tables": _seating(rnd), "byes": list(rnd.byes)}
    number = rnd.number
    # Registered after this round was seated (from the next one, as a late arrival):
    # they play the round seated again.
    late = tournament.entries.filter(first_round=number + 1)
    joined = sorted(late.values_list("number", flat=True))
    late.update(first_round=number)
    if order is None and number == 1 and rnd.inputs.get("order_from") == "director":
        active = active_numbers(tournament, 1)
        kept = [n for n in rnd.inputs.get("order", []) if n in active]
        order = kept + [n for n in active if n not in kept]
    session_ids = [t.session_id for t in tables]
    RoundTable.objects.filter(pk__in=[t.pk for t in tables]).delete()
    TableSession.objects.filter(pk__in=session_ids).delete()
    rnd.delete()
    new = round_generate(tournament=tournament, order=order)
    if new.number != number:  # cannot happen: the round deleted was the newest
        raise TournamentError(_("Only the newest round can be changed: a played round stays."))
    after = {"tables": _seating(new), "byes": list(new.byes)}
    action_record(
        tournament=tournament,
        user=user,
        action="reseated",
        reason=text,
        details={"round": number, "before": before, "after": after, "joined": joined},
    )
    return new


def _seat_of(rnd: Round, registration: Registration) -> TableSeat | None:
    return (
        TableSeat.objects.select_related("session__round_table")
        .filter(session__round_table__round=rnd, player_id=registration.player_id)
        .first()
    )


def entry_by_number(tournament: Tournament, number: int) -> Registration:
    """The tournament's entry with start ``number`` (refused in words if none)."""
    entry = (
        Registration.objects.select_related("player")
        .filter(tournament=tournament, number=number)
        .first()
    )
    if entry is None:
        raise TournamentError(_("No player has start number %(n)s.") % {"n": number})
    return entry


@transaction.atomic
def seats_swap(*, rnd: Round, user: Any, first: int, second: int, reason: str) -> None:
    """Players ``first`` and ``second`` (start numbers) of the newest round change seats
    between their two tables, before either table's first deal."""
    text = mend_reason(reason)
    tournament, rnd, tables = _locked_round(rnd)
    if first == second:
        raise TournamentError(_("Choose two different players."))
    a, b = entry_by_number(tournament, first), entry_by_number(tournament, second)
    seat_a, seat_b = _seat_of(rnd, a), _seat_of(rnd, b)
    for entry, seat in ((a, seat_a), (b, seat_b)):
        if seat is None:
            raise TournamentError(
                _("%(name)s (no. %(n)s) has no seat in this round.")
                % {"name": entry.player.name, "n": entry.number}
            )
    assert seat_a is not None and seat_b is not None
    if seat_a.session_id == seat_b.session_id:
        raise TournamentError(_("They sit at the same table: choose players of two tables."))
    tables = [t for t in tables if t.session_id in (seat_a.session_id, seat_b.session_id)]
    _untouched(tables)
    table_a = seat_a.session.round_table.number
    table_b = seat_b.session.round_table.number
    TableSeat.objects.filter(pk=seat_a.pk).update(player_id=b.player_id)
    TableSeat.objects.filter(pk=seat_b.pk).update(player_id=a.player_id)
    action_record(
        tournament=tournament,
        user=user,
        action="swapped",
        reason=text,
        details={
            "round": rnd.number,
            "players": [a.number, b.number],
            "tables": [table_a, table_b],
            "seats": [seat_a.seat, seat_b.seat],
        },
    )


@transaction.atomic
def seat_substitute(
    *,
    rnd: Round,
    user: Any,
    absent: int,
    reason: str,
    player: Player | None = None,
    new_name: str = "",
) -> Registration:
    """``player`` (or a new player called ``new_name``) takes the seat of start number
    ``absent`` at a table of the newest round before its first deal. A player who is
    not registered is entered from this round; one who was sitting out leaves the bye.
    The no-show is marked absent (not checked in): he scores nothing this round and is
    not seated again until checked in."""
    text = mend_reason(reason)
    tournament, rnd, tables = _locked_round(rnd)
    out = entry_by_number(tournament, absent)
    seat = _seat_of(rnd, out)
    if seat is None:
        raise TournamentError(
            _("%(name)s (no. %(n)s) has no seat in this round.")
            % {"name": out.player.name, "n": out.number}
        )
    table = next(t for t in tables if t.session_id == seat.session_id)
    _untouched([table])
    created = False
    if player is None:
        name = " ".join(new_name.split())
        if not name:
            raise TournamentError(_("Choose a registered player or type a new name."))
        player = player_create(club=club_or_first(tournament.club), name=name)
    entry = (
        Registration.objects.select_for_update()
        .filter(tournament=tournament, player=player)
        .first()
    )
    if entry is None:
        last = tournament.entries.aggregate(m=Max("number"))["m"] or 0
        entry = Registration.objects.create(
            tournament=tournament,
            player=player,
            number=last + 1,
            first_round=rnd.number,
            checked_in=True,
        )
        created = True
    else:
        if entry.pk == out.pk:
            raise TournamentError(_("Choose someone other than the player who is missing."))
        if _seat_of(rnd, entry) is not None:
            raise TournamentError(
                _("%(name)s (no. %(n)s) already has a seat in this round: swap them instead.")
                % {"name": player.name, "n": entry.number}
            )
        if entry.withdrawn_after is not None:
            raise TournamentError(
                _("%(name)s (no. %(n)s) has withdrawn: reinstate them first.")
                % {"name": player.name, "n": entry.number}
            )
        entry.checked_in = True
        entry.first_round = min(entry.first_round, rnd.number)
        entry.save(update_fields=["checked_in", "first_round"])
    if entry.number in rnd.byes:
        rnd.byes = [n for n in rnd.byes if n != entry.number]
        rnd.save(update_fields=["byes"])
    TableSeat.objects.filter(pk=seat.pk).update(player_id=player.pk)
    out.checked_in = False
    out.save(update_fields=["checked_in"])
    action_record(
        tournament=tournament,
        user=user,
        action="substituted",
        reason=text,
        details={
            "round": rnd.number,
            "table": table.number,
            "seat": seat.seat,
            "out": out.number,
            "in": entry.number,
            "registered": created,
        },
    )
    return entry
