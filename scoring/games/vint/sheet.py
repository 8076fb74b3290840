"""A Vint session's scoresheet: the sheet page's board, the history in words, the JSON and
CSV exports, and a scoresheet read for import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from config.csvexport import Coded, heading, seat_heading, voided_cell
from scoring.engines import vint
from scoring.engines.shapes import VintSheetJson
from scoring.engines.vint_sheet import SheetRubber, read_vint_sheet, vint_sheet_from_session
from scoring.games.interface import HistoryEntry, Imported, Slot
from scoring.games.vint.board import vint_scoreboard
from scoring.games.vint.deals import SEAT_SIDE, deal_from_facts, seating_of, stored_facts
from scoring.games.vint.labels import contract_label, doubling_label, facts_summary
from scoring.selectors import deal_history

if TYPE_CHECKING:
    from scoring.models import TableSession


def _snapshot_summary(snap: Mapping[str, Any] | None) -> str:
    if not snap:
        return ""
    text = facts_summary(snap.get("facts") or {})
    above, below = snap.get("above"), snap.get("below")
    if above and below and not snap.get("voided"):
        text += f" → NS {above['NS']} + {below['NS']}, EW {above['EW']} + {below['EW']}"
    if snap.get("voided"):
        text += " (" + _("voided") + ")"
    return text


def vint_sheet_json(*, session: TableSession) -> VintSheetJson:
    """The session as a Vint scoresheet (``shared/formats/scoresheet-json.md``).

    Every started rubber with its seating, first dealer and deals, a voided one in its
    place with ``"voided": true``; a session with no deal yet gives rubber 1 with no
    deals, because the format names the players only in ``seats``.
    """
    board = vint_scoreboard(session=session)
    names = {seat: p.name for seat, p in enumerate(board.players, 1)}
    rubbers = board.started or board.rubbers[:1]
    return vint_sheet_from_session(
        board.rules,
        [
            SheetRubber(
                seating=seating_of(r.seats, names),
                first_dealer=r.first_dealer,  # type: ignore[arg-type]
                deals=tuple(deal_from_facts(deal.facts) for deal in r.deals),
                voided=frozenset(n for n, deal in enumerate(r.deals, 1) if deal.voided),
            )
            for r in rubbers
        ],
    )


def vint_csv_rows(*, session: TableSession) -> list[list[Any]]:
    """One row per deal (voided ones marked), then each player's total and net."""
    board = vint_scoreboard(session=session)
    seats = range(1, len(board.players) + 1)
    header = [
        *map(
            heading,
            (
                "rubber",
                "deal",
                "phase",
                "dealer",
                "contract",
                "declarer",
                "doubling",
                "declarer_tricks",
                "tricks NS",
                "tricks EW",
                "NS above",
                "NS below",
                "EW above",
                "EW below",
                "games NS",
                "games EW",
            ),
        ),
        *[seat_heading("total", n, p.name) for n, p in zip(seats, board.players, strict=True)],
        heading("voided"),
    ]
    out: list[list[Any]] = [header]
    for rubber in board.started:
        side_of = {rubber.seats[s]: SEAT_SIDE[s] for s in vint.SEATS}
        before = {
            n: sum(r.player_totals[n] for r in board.started[: rubber.number - 1]) for n in seats
        }
        for row in rubber.rows:
            f = row.deal.facts
            tricks = f.get("tricks", {})
            # In words for a person ("extra deal 2 of 4", "4♥", "doubled"), codes for a
            # program (``?format=raw``: "extra 2", "4H", 1).
            phase: Coded | str = "" if row.deal.voided else Coded(row.phase, row.phase_label)
            if row.extra_deal and not row.deal.voided:
                phase = Coded(f"extra {row.extra_deal}", row.phase_label)
            doubling = f.get("doubling", "")
            # A voided deal wrote nothing: blank entry cells (a spreadsheet's sum stays
            # right) and the running totals carry on unchanged.
            if row.deal.voided:
                entries: list[Any] = [""] * 6
            else:
                entries = [
                    row.above["NS"],
                    row.below["NS"],
                    row.above["EW"],
                    row.below["EW"],
                    row.games.get("NS", ""),
                    row.games.get("EW", ""),
                ]
            out.append(
                [
                    rubber.number,
                    row.deal.number,
                    phase,
                    row.dealer,
                    Coded(f["contract"], contract_label(f["contract"])),
                    f.get("declarer", ""),
                    Coded(doubling, doubling_label(doubling)) if doubling != "" else "",
                    f.get("declarer_tricks", ""),
                    tricks.get("NS", ""),
                    tricks.get("EW", ""),
                    *entries,
                    *[before[n] + row.running[side_of[n]] for n in seats],
                    voided_cell(row.deal.voided),
                ]
            )
    totals = {s.seat: s for s in board.standings}
    blank = [""] * (len(header) - len(seats) - 2)
    out.append([heading("total"), *blank, *[totals[n].total for n in seats], ""])
    out.append([heading("net"), *blank, *[totals[n].net for n in seats], ""])
    return out


class VintSheet:
    sheet_template = "scoring/vint/sheet.html"
    page_class = "vint-sheet-page"  # a wide page: three rubbers side by side

    def sheet_context(self, session: TableSession) -> dict[str, Any]:
        return {"board": vint_scoreboard(session=session)}

    def history(self, session: TableSession, slot: Slot | None = None) -> list[HistoryEntry]:
        """History of the session (newest first), or of the deal at ``slot``."""
        return [
            HistoryEntry(
                row=h,
                slot=Slot(h.rubber, h.deal_number) if h.deal_number else None,
                before=_snapshot_summary(h.old) if h.deal_number else "",
                after=_snapshot_summary(h.new) if h.deal_number else "",
            )
            # deal number 0: a row about the whole table (lock, acceptance, link)
            for h in deal_history(session=session, slot=slot)
        ]

    def sheet_json(self, session: TableSession) -> VintSheetJson:
        return vint_sheet_json(session=session)

    def csv_rows(self, session: TableSession) -> list[list[Any]]:
        return vint_csv_rows(session=session)

    def read(self, data: Mapping[str, Any]) -> Imported:
        """A Vint scoresheet for import: all of it, or ``SheetError``.

        Players A..D are rubber 1's N, E, S, W; each rubber keeps its own seating and
        first dealer. The profile's ``session_structure`` decides how many rubbers a
        session holds and whether a partnership may repeat (``read_vint_sheet`` checks).
        """
        sheet = read_vint_sheet(dict(data))  # every problem at once; nothing written yet
        first = sheet.rubbers[0].seating
        number_of = {name: i for i, name in enumerate(first.players, 1)}
        return Imported(
            names=list(first.players),
            rules=data.get("rules", {}),
            planned_deals=None,
            deals=[
                (Slot(r, n), stored_facts(deal, voided=n in rubber.voided), n in rubber.voided)
                for r, rubber in enumerate(sheet.rubbers, 1)
                for n, deal in enumerate(rubber.deals, 1)
            ],
            parts=[
                {
                    "seats": {s: number_of[name] for s, name in rubber.seating.as_dict().items()},
                    "first_dealer": rubber.first_dealer,
                }
                for rubber in sheet.rubbers
            ],
        )
