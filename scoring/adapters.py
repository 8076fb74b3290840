"""Map database rows to engine data and back: the only place that knows both.

Views and the ``score`` command never build engine objects themselves; they
call these functions, so the engines stay free of Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring.engines import kop
from scoring.models import KopDeal as KopDealRow
from scoring.models import TableSession


def kop_rules_for(session: TableSession) -> kop.KopRules:
    from scoring.selectors import kop_rules

    return kop_rules(session)


def kop_deal_from_facts(facts: Mapping[str, Any]) -> kop.KopDeal:
    seats = facts.get("doubling_seats")
    return kop.KopDeal(
        contract=facts["contract"],
        declarers=tuple(facts["declarers"]),
        doublings=facts.get("doublings"),
        doubling_seats=tuple(seats) if seats is not None else None,
        declarer_points=facts["declarer_points"],
    )


def kop_facts_of(row: KopDealRow) -> dict[str, Any]:
    """The facts of a stored deal, as in the scoresheet JSON format."""
    facts: dict[str, Any] = {"contract": row.contract, "declarers": list(row.declarers)}
    if row.doubling_seats is not None:
        facts["doubling_seats"] = list(row.doubling_seats)
    else:
        facts["doublings"] = row.doublings
    facts["declarer_points"] = row.declarer_points
    return facts


def kop_apply_result(row: KopDealRow, result: kop.KopResult) -> None:
    row.value = result.value
    row.declarers_won = result.declarers_won
    row.k = result.k
    row.payment_1, row.payment_2, row.payment_3, row.payment_4 = result.payments


def kop_totals(rows: Iterable[KopDealRow]) -> tuple[int, int, int, int]:
    t = [0, 0, 0, 0]
    for row in rows:
        if not row.voided:
            for i, p in enumerate(row.payments):
                t[i] += p
    return (t[0], t[1], t[2], t[3])
