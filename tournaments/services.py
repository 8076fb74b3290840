"""Writes for clubs and players (``<entity>_<action>``, keyword-only)."""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from clubs.selectors import fold_name, names_alike
from clubs.services import player_create
from scoring.engines.sheet_checks import MAX_NAME_LENGTH, name_problem
from scoring.errors import AcceptRefused
from scoring.games import game_for
from scoring.services import (
    Actor,
    DealRejected,
    acceptance_check,
    create_with_unique_slug,
    reason_checked,
    session_create,
    session_lock,
    table_event_record,
)
from tournaments import adapters, tasks
from tournaments.bulk import json_text

# The refusals callers catch from here.
__all__ = ["EntriesRejected", "SeatingRejected", "TournamentError"]

from tournaments.errors import EntriesRejected, SeatingRejected, TournamentError
from tournaments.models import (
    Registration,
    Round,
    RoundTable,
    StandingsRow,
    StandingsSnapshot,
    Tournament,
)
from tournaments.outbox import enqueue_on_commit
from tournaments.selectors import next_round_ready, table_ready
from tournaments.sql import copy_rows
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


def _pasted_player(line: int, cells: list[str], club: Club, problems: list[str]) -> Any:
    """The player a pasted line names: by club number when given (checked against the
    name), else by name (a new player of ``club`` when nobody has it)."""
    name = " ".join(cells[0].split())
    if not name:
        problems.append(_("Line %(n)s: the name is missing.") % {"n": line})
        return None
    if name_problem(name) is not None:  # too long, a NUL, a lone surrogate
        problems.append(
            _("Line %(n)s: a name has at most %(max)s letters and no control characters.")
            % {"n": line, "max": MAX_NAME_LENGTH}
        )
        return None
    if len(cells) > 2:
        problems.append(
            _("Line %(n)s: expected a name, or a name and a club number.") % {"n": line}
        )
        return None
    number = cells[1].strip() if len(cells) == 2 else ""
    if number:
        if not number.isdigit():
            problems.append(
                _("Line %(n)s: %(value)s is not a club number.") % {"n": line, "value": number}
            )
            return None
        player = Player.objects.filter(club=club, number=int(number)).first()
        if player is None:
            problems.append(
                _("Line %(n)s: %(club)s has no player number %(number)s.")
                % {"n": line, "club": club.name, "number": number}
            )
        elif not names_alike(player.name, name):
            problems.append(
                _("Line %(n)s: club number %(number)s is %(player)s, not %(name)s.")
                % {"n": line, "number": number, "player": player.name, "name": name}
            )
            return None
        return player
    same = [p for p in Player.objects.all() if fold_name(p.name) == fold_name(name)]
    if len(same) > 1:
        problems.append(
            _("Line %(n)s: more than one player is called %(name)s: add the club number.")
            % {"n": line, "name": name}
        )
        return None
    return same[0] if same else name


@transaction.atomic
def registrations_paste(*, tournament: Tournament, text: str) -> list[Registration]:
    """Register a pasted list at once: one player a line, ``name`` or ``name,club number``
    (CSV, as a spreadsheet copies it). New names become players of the tournament's club.
    All or nothing: ``EntriesRejected`` lists every line's problem; players already
    registered are skipped."""
    club = tournament.club or Club.objects.order_by("pk").first()
    if club is None:
        club = Club.objects.create(name=_("Club"))
    problems: list[str] = []
    wanted: list[Any] = []
    try:
        rows = list(csv.reader(io.StringIO(text.strip())))
    except csv.Error:  # a cell over the csv module's limit (128 KiB), a stray NUL
        raise EntriesRejected([_("The list cannot be read: paste one player a line.")]) from None
    for line, cells in enumerate(rows, 1):
        if not cells or not "".join(cells).strip():
            continue
        if line == 1 and fold_name(cells[0]) in ("name", "nazwisko", "imie i nazwisko"):
            continue  # a spreadsheet's header row
        found = _pasted_player(line, cells, club, problems)
        if found is not None:
            wanted.append(found)
    if problems:
        raise EntriesRejected(problems)
    if not wanted:
        raise EntriesRejected([_("Paste one player a line.")])
    registered = set(tournament.entries.values_list("player_id", flat=True))
    added = []
    for found in wanted:
        player = found if isinstance(found, Player) else player_create(club=club, name=found)
        if player.pk in registered:
            continue
        registered.add(player.pk)
        added.append(registration_add(tournament=tournament, player=player))
    return added


@transaction.atomic
def registrations_check_in_all(*, tournament: Tournament) -> int:
    """Check in everyone registered and not withdrawn; how many were checked in now."""
    return tournament.entries.filter(withdrawn_after__isnull=True, checked_in=False).update(
        checked_in=True
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
    """After commit: the standings snapshot for this results version, then the club ratings
    (kept in the database outbox while the broker is down, so none is lost)."""
    enqueue_on_commit(
        tasks.standings_recompute,
        tournament.pk,
        tournament.results_version,
        tournament_id=tournament.pk,
    )
    enqueue_on_commit(tasks.ratings_update, tournament.pk, tournament_id=tournament.pk)


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
    the table is accepted already. The lock is announced by scoring's ``deal_changed``,
    which recomputes the standings."""
    table = (
        RoundTable.objects.select_for_update(of=("self",))
        .select_related("session", "round__tournament")
        .get(pk=table.pk)
    )
    if table.accepted_at is not None:
        raise TournamentError(_("This table's result is already accepted."))
    session = table.session
    progress = game_for(table.round.tournament.game).progress([session])[session.pk]
    details: dict[str, Any] = {"deals": progress.deals, "planned": progress.planned}
    try:
        seat, text = acceptance_check(session=session, actor=actor, reason=reason)
    except AcceptRefused as exc:
        raise TournamentError(str(exc)) from None
    if seat is None:
        details["override"] = True
    else:
        if not table_ready(table=table, finished=progress.finished):
            raise TournamentError(_not_ready_message(progress))
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


def _not_ready_message(progress: Any) -> str:
    if progress.planned:
        return _(
            "The table has %(deals)s of its %(planned)s deals: play them all, or ask the director to accept it with a reason."  # noqa: E501
        ) % {"deals": progress.deals, "planned": progress.planned}
    return _(
        "The table has not finished its play: finish it, or ask the director to accept it with a reason."  # noqa: E501
    )


def session_changed(*, session: Any, action: str, **kwargs: Any) -> None:
    """``deal_changed`` receiver: a change at a table of a round (accepted or not) counts as
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
    # In the deal save's transaction: one statement finds the table's tournament and
    # counts the new version (no row of it is read otherwise); none when the save's locked
    # read joined the session's tournament table and found that it has none.
    bumped = None if _no_round_table(session) else _results_version_bump(session_id=session.pk)
    if bumped is not None:
        tournament_id, version = bumped
        _enqueue_recomputes(Tournament(pk=tournament_id, results_version=version))
    elif action in CLUB_RATING_ACTIONS or getattr(session, "accepted_at", None) is not None:
        # A club session: accepted, left out, rated again, unlocked, or corrected after
        # its acceptance -- the club ratings of its game follow.
        enqueue_on_commit(tasks.ratings_update_game, session.game)


# What happens to a club session (no tournament's table) that its game's ratings follow.
CLUB_RATING_ACTIONS = ("accepted", "unlocked", "excluded", "included")


def _no_round_table(session: Any) -> bool:
    """Whether ``session`` was read with its tournament table (``select_related``) and is
    no tournament's table: a club session, with no results version to count."""
    relation = RoundTable.session.field.remote_field
    return bool(relation.is_cached(session) and relation.get_cached_value(session) is None)


def _results_version_bump(*, session_id: int) -> tuple[int, int] | None:
    """``results_changed`` for the tournament of a table session, in one statement: its
    (id, new results version), or None when the session is no tournament's table."""
    q = connection.ops.quote_name
    tournament, table, round_ = (m._meta.db_table for m in (Tournament, RoundTable, Round))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {q(tournament)} SET results_version = results_version + 1 "  # noqa: S608
            f"WHERE id = (SELECT r.tournament_id FROM {q(table)} t "
            f"JOIN {q(round_)} r ON r.id = t.round_id WHERE t.session_id = %s) "
            "RETURNING id, results_version",
            [session_id],
        )
        row = cursor.fetchone()
    return (row[0], row[1]) if row else None


def _active_numbers(tournament: Tournament, round_number: int) -> list[int]:
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
    active = _active_numbers(tournament, number)
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

    It takes no lock on the tournament (every acceptance and correction updates that
    row), so they go on while it runs: it reads the results version and the results from
    one database snapshot (REPEATABLE READ on PostgreSQL), and labels what it stores with
    that version. A change that commits meanwhile counts a newer version and enqueues its
    own recompute. A stale or repeated run, or one that lost a race to a newer one, stores
    nothing: it finds a snapshot as new when it comes to write, or the snapshots' unique
    (tournament, version) refuses a second store of its version. Two runs of different
    versions that write at the same moment may both store; pages read the newest, and a
    run deletes only the rows of older snapshots than its own.
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
    version = tournament.results_version
    try:
        with transaction.atomic():
            if _snapshot_version(tournament_id) >= version:
                return None
            snapshot = StandingsSnapshot.objects.create(
                tournament_id=tournament_id, results_version=version, data=data
            )
            standings_rows_store(snapshot=snapshot, data=data)
            # Pages read only the newest snapshot's rows: older snapshots' go (their JSON
            # stays); a newer one's, stored meanwhile by another run, stay.
            StandingsRow.objects.filter(
                snapshot__tournament_id=tournament_id, snapshot__results_version__lt=version
            ).delete()
            return snapshot
    except IntegrityError:
        if _snapshot_version(tournament_id) >= version:  # another run stored it first
            return None
        raise


# The kinds of rows a standings document lists, each stored as ``StandingsRow`` rows.
STANDINGS_KINDS = ("individual", "pairs", "teams")


def standings_rows_store(*, snapshot: StandingsSnapshot, data: Any) -> None:
    """Store a snapshot's rows (``standings_rows``) at once: COPY on PostgreSQL (a
    4,000-player snapshot's rows in a third of the time of an INSERT; no model instance a
    row), the ORM's bulk insert elsewhere."""
    if connection.vendor != "postgresql":
        StandingsRow.objects.bulk_create(standings_rows(snapshot=snapshot, data=data))
        return
    copy_rows(
        StandingsRow,
        ("snapshot", "kind", "position", "number", "folded", "data"),
        (
            (snapshot.pk, kind, position, row.get("number"), _folded(row), json_text(_plain(row)))
            for kind, position, row in _listed(data)
        ),
    )


def _listed(data: Any) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """A standings document's rows: (kind, position in the kind's order, row)."""
    for kind in STANDINGS_KINDS:
        for position, row in enumerate((data or {}).get(kind) or []):
            yield kind, position, row


def _folded(row: dict[str, Any]) -> str:
    return fold_name(str(row.get("name") or row.get("group") or ""))[:300]


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """What a standings table shows of a row: its plain values, not the rounds' detail
    (most of a Kop snapshot, read by the CSV and the round pages)."""
    return {k: v for k, v in row.items() if not isinstance(v, list | dict)}


def standings_rows(*, snapshot: StandingsSnapshot, data: Any) -> list[StandingsRow]:
    """A snapshot's rows, in its order, to store beside it (one bulk insert, in the
    snapshot's transaction): a player by start number and folded name, a pair or team
    by its folded name; each row's plain values (what the standings tables show)."""
    return [
        StandingsRow(
            snapshot=snapshot,
            kind=kind,
            position=position,
            number=row.get("number"),
            folded=_folded(row),
            data=_plain(row),
        )
        for kind, position, row in _listed(data)
    ]


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
    progress = game_for(rnd.tournament.game).progress([t.session for t in open_tables])
    now = timezone.now()
    for t in open_tables:
        p = progress[t.session_id]
        details = {"deals": p.deals, "planned": p.planned, "override": True, "round": True}
        table_event_record(
            session=t.session, action="accepted", actor=actor, reason=text, details=details
        )
        # One recompute below for the whole round, not one per table.
        session_lock(session=t.session, actor=actor, announce=False)
    RoundTable.objects.filter(pk__in=[t.pk for t in open_tables]).update(
        accepted_at=now, accepted_user_id=actor.user_id, reopened_at=None
    )
    results_changed(tournament=rnd.tournament)
    return len(open_tables)
