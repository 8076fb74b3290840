"""Where a Kop or Baśka deal goes, and what appending, correcting or voiding one stores.

A session's tally (``KopTally``) keeps its seat totals, its count of counted deals and its
highest deal number: an appended deal adds its payments to them, a correction or void
moves them by the difference, so no write sums the session's deals again. Each change
comes back as unsaved rows (``Writes``): the write path saves them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from scoring.games.interface import Facts, Imported, Slot, Writes
from scoring.games.kop.deals import (
    confirmed,
    contract_label,
    deal_from_facts,
    evaluate,
    fill_row,
    kop_rules,
    snapshot,
    voided_result,
)
from scoring.games.kop.models import KopDeal
from scoring.shapes import KopDealSnapshot, KopTally

if TYPE_CHECKING:
    from scoring.models import TableSession

# What a correction writes of a deal: its facts, its result and that it counts again.
CORRECTED = (
    "contract",
    "declarers",
    "doublings",
    "doubling_seats",
    "declarer_points",
    "warnings_confirmed",
    "value",
    "declarers_won",
    "k",
    "payment_1",
    "payment_2",
    "payment_3",
    "payment_4",
    "voided",
    "updated_at",
)


def tally_new() -> KopTally:
    return {"totals": [0, 0, 0, 0], "counted": 0, "last": 0}


def tally_of(session: TableSession) -> KopTally:
    """The session's stored tally ({} until its first deal: nothing yet)."""
    t = session.tally
    if not t:
        return tally_new()
    return {"totals": list(t["totals"]), "counted": t["counted"], "last": t["last"]}


def tally_move(tally: KopTally, payments: Sequence[int], sign: int) -> None:
    """Count a deal's payments in (``sign`` 1) or out (-1)."""
    tally["totals"] = [t + sign * p for t, p in zip(tally["totals"], payments, strict=True)]
    tally["counted"] += sign


def all_played(session: TableSession, counted: int) -> bool:
    """Whether the session has counted all the deals it plans (a session that plans none
    takes deals until it is locked)."""
    return bool(session.planned_deals) and counted >= (session.planned_deals or 0)


def all_played_message(planned: int) -> str:
    return _(
        "All %(planned)s planned deals are played: check the totals and accept the table. Only the director can allow more deals, with a reason."  # noqa: E501
    ) % {"planned": planned}


class KopLedger:
    def tally_new(self) -> KopTally:
        return tally_new()

    def tally_compute(self, session: TableSession) -> KopTally:
        """The tally from the session's rows, from scratch (one query)."""
        tally = tally_new()
        for number, voided, *payments in KopDeal.objects.filter(session=session).values_list(
            "number", "voided", "payment_1", "payment_2", "payment_3", "payment_4"
        ):
            tally["last"] = max(tally["last"], number)
            if not voided:
                tally_move(tally, payments, 1)
        return tally

    def next_slot(self, session: TableSession) -> Slot | None:
        """The next deal's number; None once the planned deals are all counted (a deal
        beyond them would change the table's result: the director allows more first,
        with a reason, ``session_planned_change``)."""
        tally = tally_of(session)
        if all_played(session, tally["counted"]):
            return None
        return Slot(0, tally["last"] + 1)

    def closed_message(self, session: TableSession, extra: Mapping[str, Any]) -> str:
        return all_played_message(session.planned_deals or 0)

    def deal_at(self, session: TableSession, slot: Slot) -> KopDeal | None:
        if slot.rubber:
            return None
        return KopDeal.objects.filter(session=session, number=slot.number).first()

    def slot_of(self, row: KopDeal) -> Slot:
        return Slot(0, row.number)

    def append(
        self,
        session: TableSession,
        slot: Slot,
        facts: Facts,
        *,
        entered_by: str,
        confirm_warnings: bool,
        extra: Mapping[str, Any],
        voided: bool = False,
    ) -> Writes:
        row = KopDeal(session=session, number=slot.number, entered_by=entered_by)
        tally = tally_of(session)
        if voided:  # struck out on a sheet: it shows what it would have paid, counts nothing
            deal = deal_from_facts({"declarers": (), "declarer_points": None, **facts})
            fill_row(row, deal, voided_result(deal, kop_rules(session)), ())
            row.voided = True
        else:
            deal, result = evaluate(session, facts)
            fill_row(row, deal, result, confirmed(result, confirm_warnings))
            tally_move(tally, row.payments, 1)
        tally["last"] = max(tally["last"], row.number)
        return Writes(deal=row, tally=tally)

    def imported(self, session: TableSession, sheet: Imported, *, entered_by: str) -> list[Writes]:
        writes = []
        for slot, facts, voided in sheet.deals:
            done = self.append(
                session,
                slot,
                facts,
                entered_by=entered_by,
                confirm_warnings=True,
                extra={},
                voided=voided,
            )
            session.tally = done.tally  # the next deal is scored after this one
            writes.append(done)
        return writes or [Writes(deal=None, tally=tally_of(session))]

    def correct(
        self, session: TableSession, row: KopDeal, facts: Facts, *, confirm_warnings: bool
    ) -> Writes:
        deal, result = evaluate(session, facts)
        warnings = confirmed(result, confirm_warnings)
        tally = tally_of(session)
        if not row.voided:
            tally_move(tally, row.payments, -1)
        fill_row(row, deal, result, warnings)
        row.voided = False
        tally_move(tally, row.payments, 1)
        return Writes(deal=row, tally=tally, deal_fields=CORRECTED)

    def void(self, session: TableSession, row: KopDeal) -> Writes:
        tally = tally_of(session)
        if not row.voided:
            tally_move(tally, row.payments, -1)
        row.voided = True
        return Writes(deal=row, tally=tally, deal_fields=("voided", "updated_at"))

    def snapshot(self, row: KopDeal) -> KopDealSnapshot:
        return snapshot(row)

    def summary(self, row: KopDeal) -> str:
        seats = "+".join(str(s) for s in row.declarers)
        pays = " ".join(f"{p:+d}" for p in row.payments)
        return _("%(contract)s, seats %(seats)s, %(points)s points: %(payments)s") % {
            "contract": contract_label(row.contract),
            "seats": seats,
            "points": row.declarer_points,
            "payments": pays,
        }
