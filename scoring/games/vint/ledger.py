"""Where a Vint deal goes, and what appending, correcting or voiding one stores.

A session keeps the rubber being played (``TableSession.tally``, ``VintTally``): its
state, side sums and seats, and the seat totals of the rubbers before it. An appended deal
is played on it through the engine, so a save never reads a deal. A rubber's state after a
deal depends on every deal before it, so a correction or void scores its whole rubber again
(``_replayed``) and stores the new entries of each deal that changed; the tally then comes
from the board of the rows as they will be. A change that would leave a counted deal after
the rubber's fourth extra deal is refused and nothing is written. Every change comes back
as unsaved rows (``Writes``): the write path saves them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from django.utils.translation import gettext as _

from scoring.engines import vint
from scoring.engines.vint_sheet import deal_to_json
from scoring.errors import DealRejected
from scoring.games.interface import Facts, Imported, Slot, Writes
from scoring.games.vint.board import (
    VintBoard,
    board_of,
    seat_totals,
    tally_result,
    vint_scoreboard,
)
from scoring.games.vint.deals import (
    RUBBERS,
    deal_check,
    deal_from_facts,
    entries_json,
    snapshot,
    standard_seats,
    vint_rules_for,
)
from scoring.games.vint.labels import facts_summary
from scoring.games.vint.models import VintDeal, VintRubber
from scoring.shapes import VintDealSnapshot, VintTally

if TYPE_CHECKING:
    from scoring.models import TableSession

# What a correction or void writes of the deal itself.
CHANGED = ("facts", "entries", "voided", "updated_at")


def session_complete_message(board: VintBoard | None = None) -> str:
    """Why no rubber follows the third: under ``session_structure="rotated"`` (A31) a
    fourth would repeat a partnership, which the message names."""
    done = _("The session is complete: all three rubbers have been played.")
    if board is None:
        return done
    seats = standard_seats(RUBBERS + 1)
    names = {n: p.name for n, p in enumerate(board.players, 1)}
    again = _(
        "A fourth rubber would make %(partner)s and %(other_partner)s partners again; the rule profile allows each partnership once in a session."  # noqa: E501
    ) % {"partner": names[seats["N"]], "other_partner": names[seats["S"]]}
    return f"{done} {again}"


def rubber_over(rubber: int, last: int) -> str:
    over = _("Rubber %(rubber)s is over: its fourth extra deal was deal %(last)s.")
    no_more = _("No further deal can be added to it.")
    return f"{over % {'rubber': rubber, 'last': last}} {no_more}"


def _ends_early(rubber: int, last: int, number: int) -> str:
    end = _("With this change rubber %(rubber)s would end with its deal %(last)s.")
    after = _("Deal %(number)s was played after it: void the deals after the end first.")
    return f"{end % {'rubber': rubber, 'last': last}} {after % {'number': number}}"


def _check_seen_rubber(board: VintBoard, seen: int | None, current: int | None) -> None:
    """The rubber the scorer saw on the pad must be the one being played: a deal is never
    put in another rubber unseen (the seen one may have ended on another phone)."""
    if seen is None or seen == current:
        return
    if 1 <= seen <= len(board.rubbers) and board.rubber(seen).finished:
        message = rubber_over(seen, board.rubber(seen).counted)
        if current is not None:
            message += " " + _("The next deal belongs to rubber %(n)s.") % {"n": current}
        raise DealRejected({"__all__": [message]})
    raise DealRejected({"__all__": [_("Rubber %(n)s is not being played now.") % {"n": seen}]})


def _replayed(session: TableSession, deals: Sequence[VintDeal]) -> list[VintDeal]:
    """Score the deals of one rubber (in play order) again from its start: each gets its
    new entries; returns the ones whose entries changed.

    Raises ``DealRejected`` (nothing is written) when a counted deal comes after the
    rubber ended.
    """
    rules = vint_rules_for(session)
    state = vint.NEW_RUBBER
    changed: list[VintDeal] = []
    position = 0
    for row in deals:
        if row.voided:
            if row.entries:
                row.entries = {}
                changed.append(row)
            continue
        if state.finished:
            raise DealRejected({"__all__": [_ends_early(row.rubber, position, row.number)]})
        position += 1
        state, outcome = vint.rubber_apply(state, deal_from_facts(row.facts), rules)
        entries = entries_json(outcome)
        if entries != row.entries:
            row.entries = entries
            changed.append(row)
    return changed


# ------------------------------------------------------------------------- the tally


def _state_json(state: vint.RubberState) -> list[Any]:
    return [
        state.games_ns,
        state.games_ew,
        state.part_ns,
        state.part_ew,
        state.winner,
        state.extra_played,
        state.deals_played,
    ]


def _sums_json(sums: vint.RubberSums) -> list[int]:
    return [sums.above_ns, sums.above_ew, sums.below_ns, sums.below_ew]


def _fresh_rubber(number: int, first_dealer: str, done: list[dict[str, int]]) -> VintTally:
    return {
        "rubber": number,
        "next": 1,
        "started": False,
        "first_dealer": first_dealer,
        "state": _state_json(vint.NEW_RUBBER),
        "sums": _sums_json(vint.RubberSums()),
        "seats": standard_seats(number),
        "done": done,
    }


SESSION_OVER: VintTally = {
    "rubber": None,
    "next": 0,
    "started": True,
    "first_dealer": "",
    "state": [],
    "sums": [],
    "seats": {},
    "done": [],
}


def tally_of(session: TableSession) -> VintTally:
    """The session's stored tally ({} until its first deal: rubber 1, not started)."""
    t = session.tally
    if not t:
        return _fresh_rubber(1, "N", [])
    return cast(VintTally, dict(t))


def tally_after(
    tally: VintTally,
    number: int,
    first_dealer: str,
    state: vint.RubberState,
    sums: vint.RubberSums,
    rules: vint.VintRules,
) -> VintTally:
    """The tally once deal ``number`` of ``tally``'s rubber has left it at ``state`` and
    ``sums``; under ``session_structure="free"`` (A31) another rubber always follows a
    finished one, which joins ``done`` with its seat totals."""
    rubber = cast(int, tally["rubber"])
    played: VintTally = {
        "rubber": rubber,
        "next": number + 1,
        "started": True,
        "first_dealer": first_dealer,
        "state": _state_json(state),
        "sums": _sums_json(sums),
        "seats": tally["seats"],
        "done": tally["done"],
    }
    if not state.finished:
        return played
    if rubber >= RUBBERS and rules.session_structure != "free":
        return dict(SESSION_OVER)  # type: ignore[return-value]
    # Voided deals keep their places in the rotation: the deal just played was the
    # rubber's deal ``number`` (numbers count voided deals too), as the board counts.
    last_dealer = vint.dealer_of(first_dealer, number)  # type: ignore[arg-type]
    totals = seat_totals(tally["seats"], tally_result(played, rules))
    done = [*tally["done"], {str(seat): total for seat, total in totals.items()}]
    return _fresh_rubber(rubber + 1, vint.next_seat(last_dealer), done)


def tally_from_board(board: VintBoard) -> VintTally:
    """The tally from a board (built from the rows, from scratch)."""
    current = board.current
    if current is None:
        return dict(SESSION_OVER)  # type: ignore[return-value]
    return {
        "rubber": current.number,
        "next": current.next_number,
        "started": current.started,
        "first_dealer": current.first_dealer,
        "state": _state_json(current.state),
        "sums": _sums_json(current.result.sums),
        "seats": dict(current.seats),
        "done": [
            {str(seat): t for seat, t in r.player_totals.items()}
            for r in board.started
            if r is not current
        ],
    }


def _rubber_row(
    session: TableSession, number: int, seats: Mapping[str, int], first: str
) -> VintRubber:
    return VintRubber(
        session=session,
        number=number,
        north=seats["N"],
        east=seats["E"],
        south=seats["S"],
        west=seats["W"],
        first_dealer=first,
    )


class VintLedger:
    def tally_new(self) -> VintTally:
        return _fresh_rubber(1, "N", [])

    def tally_compute(self, session: TableSession) -> VintTally:
        return tally_from_board(vint_scoreboard(session=session))

    def next_slot(self, session: TableSession) -> Slot | None:
        tally = tally_of(session)
        rubber = tally["rubber"]
        return None if rubber is None else Slot(rubber, tally["next"])

    def closed_message(self, session: TableSession, extra: Mapping[str, Any]) -> str:
        board = vint_scoreboard(session=session)  # the session is over: a rare, full read
        _check_seen_rubber(board, extra.get("rubber"), None)
        return session_complete_message(board)

    def deal_at(self, session: TableSession, slot: Slot) -> VintDeal | None:
        return VintDeal.objects.filter(
            session=session, rubber=slot.rubber, number=slot.number
        ).first()

    def slot_of(self, row: VintDeal) -> Slot:
        return Slot(row.rubber, row.number)

    def append(
        self,
        session: TableSession,
        slot: Slot,
        facts: Facts,
        *,
        entered_by: str,
        confirm_warnings: bool,
        extra: Mapping[str, Any],
    ) -> Writes:
        """The next deal of the current rubber.

        ``extra["rubber"]`` is the rubber the scorer saw on the pad: if it is not the
        current one (it ended meanwhile), the deal is refused with a message rather than
        put in another rubber unseen. ``extra["first_dealer"]`` sets the rubber's first
        dealer with its first deal.
        """
        deal = deal_check(session, facts)
        seen = extra.get("rubber")
        if seen is not None and seen != slot.rubber:  # refused: the board says why
            _check_seen_rubber(vint_scoreboard(session=session), seen, slot.rubber)
        tally = tally_of(session)
        state = vint.RubberState(*tally["state"])
        first_dealer = extra.get("first_dealer")
        if first_dealer not in vint.SEATS:
            first_dealer = tally["first_dealer"]
        created: list[Any] = []
        changed: list[tuple[Any, tuple[str, ...]]] = []
        if not tally["started"]:  # the rubber's first deal makes its row
            created.append(_rubber_row(session, slot.rubber, tally["seats"], first_dealer))
        elif first_dealer != tally["first_dealer"] and not state.deals_played:
            # The first dealer can still be changed while the rubber has no counted deal.
            row = VintRubber.objects.get(session=session, number=slot.rubber)
            row.first_dealer = first_dealer
            changed.append((row, ("first_dealer",)))
        # An appended deal changes no earlier one: play it on the rubber's state so far.
        rules = vint_rules_for(session)
        state, outcome = vint.rubber_apply(state, deal, rules)
        sums = vint.RubberSums(*tally["sums"]).plus(outcome)
        return Writes(
            deal=VintDeal(
                session=session,
                rubber=slot.rubber,
                number=slot.number,
                facts=deal_to_json(deal),
                entries=entries_json(outcome),
                entered_by=entered_by,
            ),
            tally=tally_after(tally, slot.number, first_dealer, state, sums, rules),
            created=created,
            changed=changed,
        )

    def correct(
        self, session: TableSession, row: VintDeal, facts: Facts, *, confirm_warnings: bool
    ) -> Writes:
        row.facts = deal_to_json(deal_check(session, facts))
        row.voided = False
        return self._rescored(session, row)

    def void(self, session: TableSession, row: VintDeal) -> Writes:
        row.voided = True
        return self._rescored(session, row)

    def _rescored(self, session: TableSession, row: VintDeal) -> Writes:
        """``row`` changed: its rubber scored again, and the tally of the rows as they
        will be stored."""
        deals = [
            row if d.pk == row.pk else d
            for d in VintDeal.objects.filter(session=session).order_by("rubber", "number")
        ]
        changed = _replayed(session, [d for d in deals if d.rubber == row.rubber])
        board = board_of(session, VintRubber.objects.filter(session=session), deals)
        return Writes(
            deal=row,
            tally=tally_from_board(board),
            deal_fields=CHANGED,
            changed=[(d, ("entries",)) for d in changed if d is not row],
        )

    def imported(self, session: TableSession, sheet: Imported, *, entered_by: str) -> list[Writes]:
        """A Vint scoresheet's rubbers and deals as rows: each rubber with its own seating
        and first dealer (``sheet.parts``), its deals scored in order."""
        rubbers = [
            _rubber_row(session, number, part["seats"], part["first_dealer"])
            for number, part in enumerate(sheet.parts, 1)
        ]
        deals = [
            VintDeal(
                session=session,
                rubber=slot.rubber,
                number=slot.number,
                facts=dict(facts),
                entries={},
                voided=voided,
                entered_by=entered_by,
            )
            for slot, facts, voided in sheet.deals
        ]
        for number in range(1, len(rubbers) + 1):
            _replayed(session, [d for d in deals if d.rubber == number])
        tally = tally_from_board(board_of(session, rubbers, deals))
        writes = [Writes(deal=d, tally=tally) for d in deals] or [Writes(deal=None, tally=tally)]
        writes[0].created.extend(rubbers)
        return writes

    def snapshot(self, row: VintDeal) -> VintDealSnapshot:
        return snapshot(row)

    def summary(self, row: VintDeal) -> str:
        return facts_summary(row.facts)
