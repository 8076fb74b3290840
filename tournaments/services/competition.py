"""The director's competition tools (issue 25, competitions.md), each kept as a
``TournamentAction`` written in the same transaction:

- ``competition_set``: the tournament's competition options (bye and walkout score,
  classes, team sizes and counting; Vint: classes only), stored only when valid;
- ``table_walkout`` / ``table_short`` / ``table_normal``: a walkout at a table (who
  left, after which deal), a short table (the seat that never came), or neither again;
  the table is accepted by the director with the same reason if it was not yet;
- ``adjustment_add`` / ``adjustment_remove``: a penalty or award to one player;
- ``registration_classes``: the classes a player belongs to.

Every refusal is a ``TournamentError`` in plain words, raised before anything is written;
invalid options are a ``CompetitionRejected`` carrying the pure module's coded problems
(the page says each in the reader's language). A change that moves results calls
``results_changed``.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from scoring.models import TableSeat
from scoring.services import Actor
from tournaments.errors import TournamentError
from tournaments.families import Competition, family_for, results_of
from tournaments.models import Adjustment, Registration, RoundTable, Tournament
from tournaments.ranking.errors import RankingError, RankingProblem
from tournaments.services.acceptance import results_changed, round_table_accept
from tournaments.services.mend import (
    action_record,
    entry_by_number,
    mend_reason,
    tournament_locked,
)

# The most an adjustment may give or take (the columns hold a little more).
ADJUSTMENT_MAX = {"big": 10_000, "small": 100_000, "net": 100_000}


class CompetitionRejected(TournamentError):
    """Competition options the rules refuse; ``problems``: the coded problems."""

    def __init__(self, problems: list[RankingProblem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


def _shape(tournament: Tournament) -> Competition:
    """What the tournament's family holds beyond its tables (its options, amounts, and
    whether walkouts, short tables and teams apply)."""
    return family_for(tournament.game).competition


def _actor(user: Any) -> Actor:
    return Actor(label=user.get_username(), is_director=True, user_id=user.pk)


# ----------------------------------------------------------------------------- options


@transaction.atomic
def competition_set(
    *, tournament: Tournament, user: Any, options: dict[str, Any], reason: str = ""
) -> Tournament:
    """Store ``options`` (JSON as ``Tournament.competition`` keeps it) once the rules
    accept them. A reason is required once a round is seated; the standings are then
    computed again."""
    tournament = tournament_locked(tournament)
    seated = tournament.rounds.exists()
    text = mend_reason(reason, required=seated)
    shape = _shape(tournament)
    kept = shape.kept
    raw = {k: v for k, v in options.items() if k in kept}
    try:
        shape.read(raw)
    except RankingError as exc:
        raise CompetitionRejected(list(exc.coded)) from None
    old = dict(tournament.competition or {})
    changed = {k: [old.get(k), raw.get(k)] for k in kept if old.get(k) != raw.get(k)}
    if not changed:
        raise TournamentError(_("Nothing was changed."))
    tournament.competition = raw
    tournament.save(update_fields=["competition"])
    action_record(
        tournament=tournament,
        user=user,
        action="competition",
        reason=text,
        details={"changed": changed},
    )
    if seated:
        results_changed(tournament=tournament)
    return tournament


# ------------------------------------------------------------------------------ tables


def _locked_table(table: RoundTable) -> tuple[Tournament, RoundTable]:
    """The table with its session, then the tournament, locked in the order mends take
    them (as ``services.mend`` does)."""
    table = (
        RoundTable.objects.select_for_update(of=("self", "session"))
        .select_related("session", "round")
        .get(pk=table.pk)
    )
    tournament = tournament_locked(table.round.tournament)
    if not _shape(tournament).walkouts:
        raise TournamentError(_("Walkouts and short tables do not apply to Vint."))
    return tournament, table


def _seat_player(table: RoundTable, seat: int) -> int:
    """The start number of the player at ``seat`` of ``table``; refused if none sits there."""
    player_id = (
        TableSeat.objects.filter(session_id=table.session_id, seat=seat)
        .values_list("player_id", flat=True)
        .first()
    )
    if player_id is None:
        raise TournamentError(
            _("Table %(n)s has no seat %(seat)s.") % {"n": table.number, "seat": seat}
        )
    number = (
        Registration.objects.filter(tournament_id=table.round.tournament_id, player_id=player_id)
        .values_list("number", flat=True)
        .first()
    )
    return number or 0


def _table_done(
    *,
    tournament: Tournament,
    table: RoundTable,
    user: Any,
    action: str,
    text: str,
    details: dict[str, Any],
) -> None:
    details = {"round": table.round.number, "table": table.number, **details}
    action_record(tournament=tournament, user=user, action=action, reason=text, details=details)
    if table.accepted_at is None:
        round_table_accept(table=table, actor=_actor(user), reason=text)
    results_changed(tournament=tournament)


@transaction.atomic
def table_walkout(
    *, table: RoundTable, user: Any, seat: int, after: int, reason: str
) -> RoundTable:
    """The player at ``seat`` left ``table`` after ``after`` deals (0: before the first):
    the three who stay get the walkout score, he gets nothing (competitions.md §2.3)."""
    text = mend_reason(reason)
    tournament, table = _locked_table(table)
    number = _seat_player(table, seat)
    played = results_of(tournament.game).progress([table.session])[table.session_id].deals
    if not 0 <= after <= played:
        raise TournamentError(
            _("The walkout must come after a deal played: from 0 to %(n)s.") % {"n": played}
        )
    if table.walkout_seat == seat and table.walkout_after == after:
        raise TournamentError(_("Nothing was changed."))
    table.walkout_seat, table.walkout_after, table.missing_seat = seat, after, None
    table.save(update_fields=["walkout_seat", "walkout_after", "missing_seat"])
    details = {"seat": seat, "player": number, "after": after}
    _table_done(
        tournament=tournament, table=table, user=user, action="walkout", text=text, details=details
    )
    return table


@transaction.atomic
def table_short(*, table: RoundTable, user: Any, seat: int, reason: str) -> RoundTable:
    """The player of ``seat`` never came: the three get the walkout score, he is absent
    for the round (competitions.md §2.4)."""
    text = mend_reason(reason)
    tournament, table = _locked_table(table)
    number = _seat_player(table, seat)
    if table.session.revision > 0:
        raise TournamentError(
            _("Table %(n)s has deals: a table that played is not short. Record a walkout instead.")
            % {"n": table.number}
        )
    if table.missing_seat == seat:
        raise TournamentError(_("Nothing was changed."))
    table.missing_seat, table.walkout_seat, table.walkout_after = seat, None, None
    table.save(update_fields=["walkout_seat", "walkout_after", "missing_seat"])
    details = {"seat": seat, "player": number}
    _table_done(
        tournament=tournament, table=table, user=user, action="short", text=text, details=details
    )
    return table


@transaction.atomic
def table_normal(*, table: RoundTable, user: Any, reason: str) -> RoundTable:
    """Clear a walkout or a short table: the table counts as played in full again."""
    text = mend_reason(reason)
    tournament, table = _locked_table(table)
    if table.walkout_seat is None and table.missing_seat is None:
        raise TournamentError(
            _("Table %(n)s has no walkout and is not short.") % {"n": table.number}
        )
    before = {
        "walkout_seat": table.walkout_seat,
        "walkout_after": table.walkout_after,
        "missing_seat": table.missing_seat,
    }
    table.walkout_seat = table.walkout_after = table.missing_seat = None
    table.save(update_fields=["walkout_seat", "walkout_after", "missing_seat"])
    _table_done(
        tournament=tournament,
        table=table,
        user=user,
        action="table_normal",
        text=text,
        details={"before": before},
    )
    return table


# ------------------------------------------------------------------------- adjustments


def points_parsed(text: str, *, name: str) -> Decimal:
    """An adjustment's amount as typed: a whole number or an exact half ("-1", "10",
    "0.5", "1/2", "-1,5", "2½"); empty is 0. ``name``: the field, for the message."""
    raw = text.strip().replace(" ", "").replace("−", "-").replace(",", ".")
    if not raw:
        return Decimal(0)
    half = raw.endswith("½")
    if half:  # "2½", "-½"
        raw = raw[:-1]
        raw = f"{raw}0" if raw in ("", "-", "+") else raw
    value: Fraction | None
    try:
        value = Fraction(raw)
    except (ValueError, ZeroDivisionError):
        value = None
    if value is not None and half:
        value += Fraction(-1 if raw.startswith("-") else 1, 2)
    if value is None or (value * 2).denominator != 1:
        raise TournamentError(
            _("Type the points as a whole number or a half, such as -1, 10 or 1/2.")
        )
    if abs(value) > ADJUSTMENT_MAX[name]:
        raise TournamentError(
            _("An adjustment gives or takes at most %(n)s points.") % {"n": ADJUSTMENT_MAX[name]}
        )
    return Decimal(value.numerator) / Decimal(value.denominator)


@transaction.atomic
def adjustment_add(
    *,
    tournament: Tournament,
    user: Any,
    number: int,
    reason: str,
    round_number: int | None = None,
    big: str = "",
    small: str = "",
    net: str = "",
) -> Adjustment:
    """A penalty or award to the player of start ``number``: big and/or small points
    (Kop, Baśka) or a net (Vint), whole numbers or halves, about ``round_number`` or the
    whole event; the reason is shown under the standings (competitions.md §5)."""
    text = mend_reason(reason, required=True)
    tournament = tournament_locked(tournament)
    entry = entry_by_number(tournament, number)
    seated = tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    if round_number is not None and not 1 <= round_number <= seated:
        raise TournamentError(
            _("Round %(n)s is not seated: choose a seated round or none.") % {"n": round_number}
        )
    typed = {"big": big, "small": small, "net": net}
    amounts = {name: Decimal(0) for name in typed}
    for name in _shape(tournament).amounts:
        amounts[name] = points_parsed(typed[name], name=name)
    if not any(amounts.values()):
        raise TournamentError(_("Type the points to give or take."))
    adjustment = Adjustment.objects.create(
        tournament=tournament,
        entry=entry,
        round=round_number,
        reason=text,
        created_by=user if getattr(user, "pk", None) else None,
        **amounts,
    )
    action_record(
        tournament=tournament,
        user=user,
        action="adjusted",
        reason=text,
        details={
            "adjustment": adjustment.pk,
            "player": entry.number,
            "round": round_number,
            **{k: str(v) for k, v in amounts.items() if v},
        },
    )
    results_changed(tournament=tournament)
    return adjustment


@transaction.atomic
def adjustment_remove(*, adjustment: Adjustment, user: Any, reason: str) -> None:
    """Take an adjustment back, with a reason (the history keeps what it gave)."""
    text = mend_reason(reason)
    tournament = tournament_locked(adjustment.tournament)
    found = Adjustment.objects.select_related("entry").filter(pk=adjustment.pk).first()
    if found is None:
        raise TournamentError(_("This adjustment was already removed."))
    details = {
        "adjustment": found.pk,
        "player": found.entry.number,
        "round": found.round,
        "reason_given": found.reason,
        **{k: str(getattr(found, k)) for k in ("big", "small", "net") if getattr(found, k)},
    }
    found.delete()
    action_record(
        tournament=tournament, user=user, action="unadjusted", reason=text, details=details
    )
    results_changed(tournament=tournament)


# ----------------------------------------------------------------------------- classes


def class_codes(tournament: Tournament) -> list[str]:
    return [c.get("code", "") for c in (tournament.competition or {}).get("classes", [])]


@transaction.atomic
def registration_classes(
    *, registration: Registration, user: Any, codes: list[str]
) -> Registration:
    """The classes ``registration``'s player belongs to (codes of the tournament's
    classes, in the tournament's order)."""
    tournament = tournament_locked(registration.tournament)
    known = class_codes(tournament)
    unknown = [c for c in codes if c not in known]
    if unknown:
        raise TournamentError(
            _("The tournament has no class %(code)s.") % {"code": ", ".join(unknown)}
        )
    entry = Registration.objects.select_for_update().get(pk=registration.pk)
    new = [c for c in known if c in codes]
    if list(entry.classes or []) == new:
        raise TournamentError(_("Nothing was changed."))
    old = list(entry.classes or [])
    entry.classes = new
    entry.save(update_fields=["classes"])
    action_record(
        tournament=tournament,
        user=user,
        action="classes",
        details={"player": entry.number, "before": old, "after": new},
    )
    if tournament.rounds.exists():
        results_changed(tournament=tournament)
    return entry
