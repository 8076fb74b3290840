"""Rows to plain data for the pure seating and ranking packages, and back.

The only module that knows both the ORM and ``tournaments.seating`` /
``tournaments.ranking``; the pure packages never see a model.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Sum

from scoring.models import KopDeal, TableSeat
from tournaments.models import Registration, RoundTable, Tournament


def kop_table_results(tournament: Tournament) -> dict[int, list[dict[int, int]]]:
    """Accepted tables by round: each a mapping start number -> small points (net payments)."""
    tables = list(
        RoundTable.objects.filter(round__tournament=tournament, accepted_at__isnull=False)
        .select_related("round")
        .order_by("round__number", "number")
    )
    session_ids = [t.session_id for t in tables]
    sums = {
        row["session_id"]: row
        for row in KopDeal.objects.filter(session_id__in=session_ids, voided=False)
        .values("session_id")
        .annotate(
            p1=Sum("payment_1"), p2=Sum("payment_2"), p3=Sum("payment_3"), p4=Sum("payment_4")
        )
    }
    numbers = dict(
        Registration.objects.filter(tournament=tournament).values_list("player_id", "number")
    )
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for seat in TableSeat.objects.filter(session_id__in=session_ids).values(
        "session_id", "seat", "player_id"
    ):
        seats[seat["session_id"]][seat["seat"]] = numbers[seat["player_id"]]
    by_round: dict[int, list[dict[int, int]]] = defaultdict(list)
    for table in tables:
        row = sums.get(table.session_id, {})
        by_round[table.round.number].append(
            {seats[table.session_id][s]: row.get(f"p{s}") or 0 for s in range(1, 5)}
        )
    return dict(by_round)


def registrations_by_number(tournament: Tournament) -> dict[int, Registration]:
    return {
        r.number: r
        for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }


def played_rounds(tournament: Tournament) -> list[list[tuple[int, ...]]]:
    """Every seated round's tables as tuples of start numbers in seat order."""
    numbers = dict(
        Registration.objects.filter(tournament=tournament).values_list("player_id", "number")
    )
    rounds: dict[int, dict[int, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
    for seat in TableSeat.objects.filter(session__round_table__round__tournament=tournament).values(
        "session__round_table__round__number", "session__round_table__number", "seat", "player_id"
    ):
        r = seat["session__round_table__round__number"]
        t = seat["session__round_table__number"]
        rounds[r][t].append((seat["seat"], numbers[seat["player_id"]]))
    return [
        [tuple(n for _s, n in sorted(rounds[r][t])) for t in sorted(rounds[r])]
        for r in sorted(rounds)
    ]


def group_of(tournament: Tournament, kind: str) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = defaultdict(list)
    for number, label in Registration.objects.filter(tournament=tournament).values_list(
        "number", kind
    ):
        if label:
            groups[label].append(number)
    return dict(groups)


def json_ready(value: Any) -> Any:
    """Fractions (shared big points) as floats rounded to 2 places, for JSON snapshots."""
    from fractions import Fraction

    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 2)
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value
