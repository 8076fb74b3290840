"""Read-only queries for table sessions and their scoresheets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from scoring.engines import kop
from scoring.models import DealHistory, KopDeal, TableSession


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


def session_list() -> QuerySet[TableSession]:
    return TableSession.objects.select_related("profile_version__profile").prefetch_related(
        "seats__player"
    )


def session_get(*, pk: int) -> TableSession:
    return session_list().get(pk=pk)


def session_players(session: TableSession) -> list[Any]:
    return [s.player for s in sorted(session.seats.all(), key=lambda s: s.seat)]


def kop_scoreboard(*, session: TableSession) -> KopScoreboard:
    rules = kop.parse_rules(session.game, session.profile_version.options)
    rows: list[KopSheetRow] = []
    t = [0, 0, 0, 0]
    played = 0
    deals = list(KopDeal.objects.filter(session=session).order_by("number"))
    for deal in deals:
        if not deal.voided:
            played += 1
            for i, p in enumerate(deal.payments):
                t[i] += p
        contract = kop.CONTRACTS[deal.contract]
        rows.append(
            KopSheetRow(
                deal=deal,
                dealer=kop.dealer_for_deal(deal.number),
                contract_label=contract_label(contract.name),
                doubling_label=kop.doubling_name(deal.k, rules) if deal.k else "",
                running=(t[0], t[1], t[2], t[3]),
            )
        )
    next_number = (deals[-1].number + 1) if deals else 1
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
