"""Read-only queries for table sessions, whatever their game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db import connection
from django.db.models import Prefetch, QuerySet

from scoring.games import Slot
from scoring.models import DealHistory, RuleProfile, TableSeat, TableSession
from scoring.problems import ProblemLike, problem_field, problem_text
from scoring.rows import Along, rows_where


def _seats_with_players() -> Prefetch[Any]:
    return Prefetch("seats", queryset=TableSeat.objects.select_related("player"))


def session_list() -> QuerySet[TableSession]:
    return TableSession.objects.select_related("profile_version__profile").prefetch_related(
        _seats_with_players()
    )


def session_get(*, pk: int) -> TableSession:
    """One session with its profile, seats, players and tournament table (if any) in two queries."""
    return (
        TableSession.objects.select_related(
            "profile_version__profile", "round_table__round__tournament"
        )
        .prefetch_related(_seats_with_players())
        .get(pk=pk)
    )


def session_by_token(*, token: str) -> TableSession | None:
    return TableSession.objects.filter(entry_token=token).first()


def sheet_players(session: TableSession) -> list[Any]:
    """The four players in seat order (1..4), from the prefetched seats when there are;
    else read once for this session object (a request asks for them several times)."""
    if "seats" in getattr(session, "_prefetched_objects_cache", {}):
        seats = sorted(session.seats.all(), key=lambda s: s.seat)
        return [s.player for s in seats]
    players: list[Any] | None = getattr(session, "_sheet_players", None)
    if players is None:  # (a save's locked read brings them along: ``seat_players_along``)
        players = session._sheet_players = _seat_players(session.pk)  # type: ignore[attr-defined]
    return list(players)


def _player() -> Any:
    return TableSeat._meta.get_field("player").related_model


def _seats_table() -> str:
    return connection.ops.quote_name(TableSeat._meta.db_table)


def _seat_players(session_id: int) -> list[Any]:
    """The players of a session's seats, 1..4, in one statement written out: every save's
    answer reads them, and building the same query through the ORM costs more than
    running it."""
    return rows_where(
        _player(),
        "s.session_id = %s ORDER BY s.seat",
        [session_id],
        join=f"JOIN {_seats_table()} s ON s.player_id = t.id",
    )


def seat_players_along() -> Along:
    """The seats' players as a locked read of the session brings them along (``Along``):
    a save's answer shows them, and ``sheet_players`` then reads nothing."""
    return Along(
        "_sheet_players",
        _player(),
        "s.session_id = t.id",
        join=f"JOIN {_seats_table()} s ON s.player_id = a.id",
        order="s.seat",
    )


def round_table_of(session: TableSession) -> Any:
    """The tournament table this session is (``session_get`` fetched it along), or None.

    Scoring does not know tournaments: this is the reverse accessor the tournaments app
    declares, read without importing it.
    """
    try:
        return session.round_table
    except (ObjectDoesNotExist, AttributeError):
        return None


def deal_history(*, session: TableSession, slot: Slot | None = None) -> QuerySet[DealHistory]:
    qs = DealHistory.objects.filter(session=session)
    if slot is not None:
        qs = qs.filter(rubber=slot.rubber, deal_number=slot.number)
    return qs


def errors_by_field(problems: Sequence[ProblemLike]) -> dict[str, list[str]]:
    """Engine problems as sentences for people (translated), by the form field their code
    names: never by reading the engine's text."""
    errors: dict[str, list[str]] = {}
    for p in problems:
        errors.setdefault(problem_field(p), []).append(problem_text(p))
    return errors


#: The profile new tables and tournaments start from: the Kościan tournament rules,
#: Kop as a Greater Poland club plays it (else the first Kop profile there is).
DEFAULT_PROFILE = "kop-koscian"


def default_profile() -> RuleProfile | None:
    """The rule profile the new-table and new-tournament forms offer first."""
    return (
        RuleProfile.objects.filter(slug=DEFAULT_PROFILE).first()
        or RuleProfile.objects.filter(game="kop").order_by("name", "pk").first()
    )
