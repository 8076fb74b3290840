"""A Kop or Baśka session's scoresheet: the board the pad and the sheet show, the
history in words, the JSON and CSV exports, and a scoresheet read for import.

The **board** (``KopScoreboard``) is the players, the deals as sheet rows with the running
totals after each, the totals, the deals played and the next deal and its dealer. The pad
shows only the newest rows, so it reads the totals from the tally and the last rows only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from config.csvexport import Coded, heading, seat_heading, voided_cell, won_or_lost
from scoring.engines import kop
from scoring.engines.kop_sheet import read_kop_sheet
from scoring.engines.shapes import KopSheetJson
from scoring.games.interface import HistoryEntry, Imported, Slot
from scoring.games.kop.deals import contract_label, facts_from_deal, kop_rules, sheet_deal
from scoring.games.kop.ledger import tally_of
from scoring.games.kop.models import KopDeal
from scoring.selectors import deal_history, sheet_players

if TYPE_CHECKING:
    from scoring.models import TableSession


@dataclass(frozen=True)
class KopSheetRow:
    deal: KopDeal
    dealer: int
    contract_label: str
    doubling_label: str
    running: tuple[int, int, int, int]

    @property
    def payment_cells(self) -> tuple[int | str, ...]:
        """The four payments as the pad's list shows them: a dash for a voided deal."""
        return ("—",) * 4 if self.deal.voided else self.deal.payments


@dataclass(frozen=True)
class KopScoreboard:
    session: TableSession
    players: list[Any]
    rows: list[KopSheetRow]
    totals: tuple[int, int, int, int]
    deals_played: int
    next_number: int
    next_dealer: int


def sheet_row(deal: KopDeal, rules: kop.KopRules, running: Sequence[int]) -> KopSheetRow:
    return KopSheetRow(
        deal=deal,
        dealer=kop.dealer_for_deal(deal.number),
        contract_label=contract_label(deal.contract),
        doubling_label=kop.doubling_name(deal.k, rules) if deal.k else "",
        running=(running[0], running[1], running[2], running[3]),
    )


def scoreboard(*, session: TableSession, last: int | None = None) -> KopScoreboard:
    """Totals and sheet rows; with ``last``, rows only for the newest ``last`` deals.

    The pad shows the newest deals only, so it takes the sums from the tally and asks
    the database for the last rows instead of reading a whole 32-deal round on every
    save.
    """
    rules = kop_rules(session)
    rows: list[KopSheetRow] = []
    if last is None:
        t = [0, 0, 0, 0]
        played = 0
        deals = list(KopDeal.objects.filter(session=session).order_by("number"))
        for deal in deals:
            if not deal.voided:
                played += 1
                t = [a + b for a, b in zip(t, deal.payments, strict=True)]
            rows.append(sheet_row(deal, rules, t))
        top = deals[-1].number if deals else 0
    else:
        tally = tally_of(session)  # kept by every write: no sums over the session's rows
        t, played = tally["totals"], tally["counted"]
        newest = KopDeal.objects.filter(session=session).order_by("-number")[:last] if last else []
        running = list(t)
        for deal in newest:  # newest first: undo each deal to get the totals before it
            rows.append(sheet_row(deal, rules, running))
            if not deal.voided:
                running = [a - b for a, b in zip(running, deal.payments, strict=True)]
        rows.reverse()
        top = tally["last"]
    next_number = top + 1
    return KopScoreboard(
        session=session,
        players=sheet_players(session),
        rows=rows,
        totals=(t[0], t[1], t[2], t[3]),
        deals_played=played,
        next_number=next_number,
        next_dealer=kop.dealer_for_deal(next_number),
    )


def _snapshot_text(snap: Mapping[str, Any] | None, *, after: bool) -> str:
    """A deal as the history shows it: "zolo 3, 70 pts, -5 / -5 / 15 / -5"."""
    if not snap:
        return ""
    text = "{} {}, {} {}, {}".format(
        contract_label(snap["contract"]) if snap.get("contract") else "",
        "+".join(str(s) for s in snap.get("declarers") or []),
        snap.get("declarer_points"),
        _("pts"),
        " / ".join(str(p) for p in snap.get("payments") or []),
    )
    if after and snap.get("voided"):
        text += " (" + _("voided") + ")"
    return text


class KopSheet:
    sheet_template = "scoring/kop/sheet.html"
    page_class = ""

    def sheet_context(self, session: TableSession) -> dict[str, Any]:
        return {"board": scoreboard(session=session)}

    def history(self, session: TableSession, slot: Slot | None = None) -> list[HistoryEntry]:
        return [
            HistoryEntry(
                row=h,
                slot=Slot(0, h.deal_number) if h.deal_number else None,
                before=_snapshot_text(h.old, after=False) if h.deal_number else "",
                after=_snapshot_text(h.new, after=True) if h.deal_number else "",
            )
            for h in deal_history(session=session, slot=slot)
        ]

    def sheet_json(self, session: TableSession) -> KopSheetJson:
        """The session as a scoresheet (``shared/formats/scoresheet-json.md``) that re-imports."""
        sheet: KopSheetJson = {
            "game": session.game,
            # Every option spelled out: the sheet means the same whatever profile an
            # import finds for it, and exports again byte for byte.
            "rules": kop.rules_to_options(kop_rules(session)),
            "players": [p.name for p in sheet_players(session)],
            "deals": [
                sheet_deal(d) for d in KopDeal.objects.filter(session=session).order_by("number")
            ],
        }
        read_kop_sheet(sheet)  # what would not re-import fails here, not at the import
        return sheet

    def csv_rows(self, session: TableSession) -> list[list[Any]]:
        """One row per deal (voided ones marked), then the totals. Columns by seat."""
        board = scoreboard(session=session)
        seats = list(enumerate(board.players, 1))
        rows: list[list[Any]] = [
            [
                *map(
                    heading,
                    (
                        "deal",
                        "dealer",
                        "contract",
                        "declarers",
                        "doublings",
                        "declarer_points",
                        "value",
                        "declarers_won",
                    ),
                ),
                *[seat_heading("payment", n, p.name) for n, p in seats],
                *[seat_heading("total", n, p.name) for n, p in seats],
                heading("voided"),
            ]
        ]
        for r in board.rows:
            d = r.deal
            # A voided deal keeps its facts but pays nothing: blank result cells, so a
            # spreadsheet's sum is right, and the running totals carry on unchanged.
            if d.voided:
                result: list[Any] = ["", "", "", "", "", ""]
            else:
                result = [d.value, won_or_lost(d.declarers_won), *d.payments]
            rows.append(
                [
                    d.number,
                    r.dealer,
                    Coded(d.contract, contract_label(d.contract)),
                    " ".join(str(s) for s in d.declarers),
                    d.k,
                    d.declarer_points,
                    *result,
                    *r.running,
                    voided_cell(d.voided),
                ]
            )
        rows.append(
            [heading("total"), "", "", "", "", "", "", "", *board.totals, *board.totals, ""]
        )
        return rows

    def read(self, data: Mapping[str, Any]) -> Imported:
        """A Kop or Baśka scoresheet for import: all of it, or ``SheetError``."""
        sheet = read_kop_sheet(dict(data))  # every problem at once; nothing written yet
        return Imported(
            names=list(data["players"]),
            rules=data.get("rules", {}),
            planned_deals=len(sheet.counted) or None,
            deals=[
                (Slot(0, n), facts_from_deal(deal), n in sheet.voided)
                for n, deal in enumerate(sheet.deals, 1)
            ],
        )
