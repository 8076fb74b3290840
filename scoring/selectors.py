"""Read-only queries for table sessions, whatever their game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Count, Prefetch, Q, QuerySet

from clubs.roles import directed_club_ids
from scoring.games.interface import Slot
from scoring.models import DealHistory, RuleProfile, TableSeat, TableSession


def _seats_with_players() -> Prefetch[Any]:
    """The seats with their players, in seat order, as ``session.seat_rows``
    (``sheet_players`` reads them)."""
    return Prefetch(
        "seats", queryset=TableSeat.objects.select_related("player"), to_attr="seat_rows"
    )


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
    """The four players in seat order (1..4): the seats prefetched with the session
    (``seat_rows``), else read once for this session object (a request asks for them
    several times)."""
    rows: list[TableSeat] | None = getattr(session, "seat_rows", None)
    if rows is None:
        rows = list(session.seats.select_related("player").order_by("seat"))
        session.seat_rows = rows  # type: ignore[attr-defined]
    return [s.player for s in rows]


def round_table_of(session: TableSession) -> Any:
    """The tournament table this session is (``session_get`` fetched it along), or None.

    Scoring does not know tournaments: this is the reverse accessor the tournaments app
    declares, read without importing it.
    """
    try:
        return session.round_table
    except (ObjectDoesNotExist, AttributeError):
        return None


def counted_deals(deals: QuerySet[Any], session_ids: Sequence[int]) -> dict[int, int]:
    """Per session, its ``deals`` (a game's deal rows) that count, not voided: one
    grouped query."""
    return dict(
        deals.filter(session_id__in=session_ids, voided=False)
        .values("session_id")
        .annotate(n=Count("pk"))
        .values_list("session_id", "n")
    )


def deal_history(*, session: TableSession, slot: Slot | None = None) -> QuerySet[DealHistory]:
    qs = DealHistory.objects.filter(session=session)
    if slot is not None:
        qs = qs.filter(rubber=slot.rubber, deal_number=slot.number)
    return qs


#: The profile new tables and tournaments start from: the Kościan tournament rules,
#: Kop as a Greater Poland club plays it (else the first Kop profile there is).
DEFAULT_PROFILE = "kop-koscian"


def default_profile() -> RuleProfile | None:
    """The rule profile the new-table and new-tournament forms offer first."""
    return (
        RuleProfile.objects.filter(slug=DEFAULT_PROFILE).first()
        or RuleProfile.objects.filter(game="kop").order_by("name", "pk").first()
    )


def usable_profiles(user: Any) -> QuerySet[RuleProfile]:
    """The rule profiles ``user`` may choose for a table or a tournament: the built-ins
    (shared by every club) and the custom profiles of the clubs he directs."""
    ids = directed_club_ids(user)
    qs = RuleProfile.objects.all()
    return qs if ids is None else qs.filter(Q(builtin=True) | Q(club_id__in=ids))
