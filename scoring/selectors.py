"""Read-only queries for table sessions and their scoresheets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, QuerySet, Sum

from scoring.engines import kop
from scoring.models import DealHistory, KopDeal, TableSeat, TableSession


@dataclass(frozen=True)
class KopSheetRow:
    deal: KopDeal
    dealer: int
    contract_label: str
    doubling_label: str
    running: tuple[int, int, int, int]


@dataclass(frozen=True)
class KopScoreboard:
    session: TableSession
    players: list[Any]
    rows: list[KopSheetRow]
    totals: tuple[int, int, int, int]
    deals_played: int
    next_number: int
    next_dealer: int


def contract_label(name: str) -> str:
    """Clubs say "zolo", "cicha", "wesele" in any language; only "normal" is translated."""
    from django.utils.translation import gettext

    if name == "normal":
        return gettext("normal")
    return kop.CONTRACTS[name].label_pl


def _seats_with_players() -> Prefetch:
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


def session_players(session: TableSession) -> list[Any]:
    return [s.player for s in sorted(session.seats.all(), key=lambda s: s.seat)]


_RULES_CACHE: dict[int, kop.KopRules] = {}


def kop_rules(session: TableSession) -> kop.KopRules:
    """The session's rules, parsed once per profile version (versions never change)."""
    version = session.profile_version
    rules = _RULES_CACHE.get(version.pk)
    if rules is None:
        rules = _RULES_CACHE[version.pk] = kop.parse_rules(session.game, version.options)
    return rules


def _sheet_row(deal: KopDeal, rules: kop.KopRules, running: list[int]) -> KopSheetRow:
    return KopSheetRow(
        deal=deal,
        dealer=kop.dealer_for_deal(deal.number),
        contract_label=contract_label(deal.contract),
        doubling_label=kop.doubling_name(deal.k, rules) if deal.k else "",
        running=(running[0], running[1], running[2], running[3]),
    )


def kop_scoreboard(*, session: TableSession, last: int | None = None) -> KopScoreboard:
    """Totals and sheet rows; with ``last``, rows only for the newest ``last`` deals.

    The pad shows the newest deals only, so it asks the database for the sums
    and the last rows instead of reading a whole 32-deal round on every save.
    """
    rules = kop_rules(session)
    deals_qs = KopDeal.objects.filter(session=session)
    rows: list[KopSheetRow] = []
    if last is None:
        t = [0, 0, 0, 0]
        played = 0
        deals = list(deals_qs.order_by("number"))
        for deal in deals:
            if not deal.voided:
                played += 1
                t = [a + b for a, b in zip(t, deal.payments, strict=True)]
            rows.append(_sheet_row(deal, rules, t))
        top = deals[-1].number if deals else 0
    else:
        agg = deals_qs.filter(voided=False).aggregate(
            n=Count("pk"),
            p1=Sum("payment_1"),
            p2=Sum("payment_2"),
            p3=Sum("payment_3"),
            p4=Sum("payment_4"),
        )
        played = agg["n"]
        t = [agg[f"p{i}"] or 0 for i in range(1, 5)]
        newest = list(deals_qs.order_by("-number")[:last])
        running = list(t)
        for deal in newest:  # newest first: undo each deal to get the totals before it
            rows.append(_sheet_row(deal, rules, running))
            if not deal.voided:
                running = [a - b for a, b in zip(running, deal.payments, strict=True)]
        rows.reverse()
        top = newest[0].number if newest else 0
    next_number = top + 1
    return KopScoreboard(
        session=session,
        players=session_players(session),
        rows=rows,
        totals=(t[0], t[1], t[2], t[3]),
        deals_played=played,
        next_number=next_number,
        next_dealer=kop.dealer_for_deal(next_number),
    )


def deal_history(*, session: TableSession, number: int | None = None) -> QuerySet[DealHistory]:
    qs = DealHistory.objects.filter(session=session)
    return qs.filter(deal_number=number) if number is not None else qs


def session_sheet_json(*, session: TableSession) -> dict[str, Any]:
    """The session as a scoresheet (``shared/formats/scoresheet-json.md``) that re-imports."""
    from scoring.adapters import kop_facts_of

    if session.game == "vint":
        from scoring.vint_selectors import vint_sheet_json

        return vint_sheet_json(session=session)
    return {
        "game": session.game,
        "rules": dict(session.profile_version.options),
        "players": [p.name for p in session_players(session)],
        "deals": [
            kop_facts_of(d)
            for d in KopDeal.objects.filter(session=session, voided=False).order_by("number")
        ],
    }


def session_csv_rows(*, session: TableSession) -> list[list[Any]]:
    """One row per deal (voided ones marked), then the totals."""
    if session.game == "vint":
        from scoring.vint_selectors import vint_csv_rows

        return vint_csv_rows(session=session)
    board = kop_scoreboard(session=session)
    names = [p.name for p in board.players]
    rows: list[list[Any]] = [
        [
            "deal",
            "dealer",
            "contract",
            "declarers",
            "doublings",
            "declarer_points",
            "value",
            "declarers_won",
            *[f"payment {n}" for n in names],
            *[f"total {n}" for n in names],
            "voided",
        ]
    ]
    for r in board.rows:
        d = r.deal
        rows.append(
            [
                d.number,
                r.dealer,
                d.contract,
                " ".join(str(s) for s in d.declarers),
                d.k,
                d.declarer_points,
                d.value,
                d.declarers_won,
                *d.payments,
                *r.running,
                "voided" if d.voided else "",
            ]
        )
    rows.append(["total", "", "", "", "", "", "", "", *board.totals, *board.totals, ""])
    return rows
