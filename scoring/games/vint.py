"""Vint behind the ``Game`` protocol.

A rubber's state after a deal depends on every deal before it (part-scores, games,
the rubber bonus, the extra deals), so an appended deal is scored against the rubber
so far, and a correction or void replays the whole rubber through the engine
(``_rubber_replay``) and stores the new entries of each of its deals, inside the
write path's transaction. A change that would leave a deal after the rubber's fourth
extra deal is refused and nothing is written. The sheet, the pad's board and the
exports are built in ``scoring.games.vint_board``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.db import transaction
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.engines import vint
from scoring.engines.errors import RuleError
from scoring.engines.shapes import VintDealJson, VintSheetJson
from scoring.engines.vint_sheet import deal_to_json, read_vint_sheet
from scoring.errors import DealRejected
from scoring.forms import SUITS, VintDealForm, contract_kind, initial_from_facts
from scoring.games import GameBase, SeatResult, SessionIds, Slot, TableProgress, register
from scoring.games.vint_board import (
    RUBBERS,
    SEAT_SIDE,
    SUIT_SYMBOL,
    RubberView,
    VintBoard,
    deal_from_facts,
    deal_row,
    entries_json,
    facts_summary,
    item_label,
    seat_totals,
    standard_seats,
    tally_result,
    vint_csv_rows,
    vint_deal_history,
    vint_pad_board,
    vint_rules_for,
    vint_scoreboard,
    vint_sheet_json,
)
from scoring.imports import import_session
from scoring.models import DealHistory, TableSession, VintDeal, VintRubber
from scoring.selectors import errors_by_field
from scoring.shapes import VintDealSnapshot, VintTally

DENOMINATION_TITLES = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "G": "G", "M": "M"}
LENGTHS = [("", "—"), *[(str(n), str(n)) for n in range(3, 14)]]
TRICK_NUMBERS = [("", "—"), *[(str(n), str(n)) for n in range(1, 14)]]


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def deal_check(session: TableSession, facts: Mapping[str, Any]) -> vint.VintDeal:
    """The engine deal for ``facts``, or ``DealRejected`` with every problem by field."""
    rules = vint_rules_for(session)
    try:
        deal = deal_from_facts(facts)
    except RuleError as exc:
        raise DealRejected(errors_by_field([exc])) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise DealRejected({"__all__": [_("Incomplete deal: %(what)s") % {"what": exc}]}) from None
    problems = vint.deal_problems(deal, rules)
    if problems:
        raise DealRejected(errors_by_field(problems))
    return deal


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


def _rubber_over(rubber: int, last: int) -> str:
    over = _("Rubber %(rubber)s is over: its fourth extra deal was deal %(last)s.")
    no_more = _("No further deal can be added to it.")
    return f"{over % {'rubber': rubber, 'last': last}} {no_more}"


def _ends_early(rubber: int, last: int, number: int) -> str:
    end = _("With this change rubber %(rubber)s would end with its deal %(last)s.")
    after = _("Deal %(number)s was played after it: void the deals after the end first.")
    return f"{end % {'rubber': rubber, 'last': last}} {after % {'number': number}}"


def outcome_before(
    session: TableSession, facts: Mapping[str, Any], rubber: int, before: int | None
) -> vint.DealOutcome:
    """What ``facts`` would write, played after the counted deals of ``rubber`` numbered
    below ``before`` (None: after all of them). Writes nothing; raises ``DealRejected``."""
    deal = deal_check(session, facts)
    rules = vint_rules_for(session)
    qs = VintDeal.objects.filter(session=session, rubber=rubber, voided=False)
    if before is not None:
        qs = qs.filter(number__lt=before)
    state = vint.NEW_RUBBER
    for facts_before in qs.order_by("number").values_list("facts", flat=True):
        state, _outcome = vint.rubber_apply(state, deal_from_facts(facts_before), rules)
    if state.finished:
        raise DealRejected({"__all__": [_rubber_over(rubber, state.deals_played)]})
    _state, outcome = vint.rubber_apply(state, deal, rules)
    return outcome


def _rubber_replay(session: TableSession, rubber: int) -> None:
    """Score every deal of ``rubber`` again from the start and store the entries.

    Raises ``DealRejected`` (the caller's transaction then rolls back) when a
    counted deal comes after the rubber ended.
    """
    rules = vint_rules_for(session)
    state = vint.NEW_RUBBER
    changed: list[VintDeal] = []
    position = 0
    for row in VintDeal.objects.filter(session=session, rubber=rubber).order_by("number"):
        if row.voided:
            if row.entries:
                row.entries = {}
                changed.append(row)
            continue
        if state.finished:
            raise DealRejected({"__all__": [_ends_early(rubber, position, row.number)]})
        position += 1
        state, outcome = vint.rubber_apply(state, deal_from_facts(row.facts), rules)
        entries = entries_json(outcome)
        if entries != row.entries:
            row.entries = entries
            changed.append(row)
    if changed:
        VintDeal.objects.bulk_update(changed, ["entries"])


def _stored_facts(deal: vint.VintDeal, *, voided: bool) -> VintDealJson:
    """A sheet's deal as a row keeps its facts (a voided one with only what it gave)."""
    facts = deal_to_json(deal, voided=voided)
    facts.pop("voided", None)
    return facts


# ------------------------------------------------------------------------- the tally
# A session keeps the rubber being played (``TableSession.tally``, ``VintTally``): its
# state, side sums and seats, and the seat totals of the rubbers before it. An appended
# deal is played on it through the engine and the new tally stored, so a save never
# reads a deal, and the pad's totals come from it (``vint_board.rubber_from_tally``).
# Corrections and voids replay their rubber anyway, and then take the tally from the
# rebuilt board.


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


def _sums_json(sums: vint.RubberSums) -> list[int]:
    return [sums.above_ns, sums.above_ew, sums.below_ns, sums.below_ew]


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
    """The tally from a board built from the stored rows (from scratch)."""
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


def snapshot(row: VintDeal) -> VintDealSnapshot:
    entries = row.entries or {}
    return {
        "rubber": row.rubber,
        "number": row.number,
        "facts": cast(VintDealJson, dict(row.facts)),  # as deal_to_json stored them
        "above": entries.get("above"),
        "below": entries.get("below"),
        "voided": row.voided,
    }


def _check_seen_rubber(board: VintBoard, seen: int | None, current: int | None) -> None:
    """The rubber the scorer saw on the pad must be the one being played: a deal is never
    put in another rubber unseen (the seen one may have ended on another phone)."""
    if seen is None or seen == current:
        return
    if 1 <= seen <= len(board.rubbers) and board.rubber(seen).finished:
        message = _rubber_over(seen, board.rubber(seen).counted)
        if current is not None:
            message += " " + _("The next deal belongs to rubber %(n)s.") % {"n": current}
        raise DealRejected({"__all__": [message]})
    raise DealRejected({"__all__": [_("Rubber %(n)s is not being played now.") % {"n": seen}]})


# ------------------------------------------------------------------------------ the pad


def _options(choices: list[tuple[str, str]], selected: Any) -> SafeString:
    """The <option>s of a select, the chosen one marked (built here: the pad has many)."""
    return _options_html(tuple(choices), "" if selected is None else str(selected))


@functools.lru_cache(maxsize=1024)
def _options_html(choices: tuple[tuple[str, str], ...], chosen: str) -> SafeString:
    # Seventeen selects per pad, mostly unset: the same few strings every save.
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((v, mark_safe(" selected") if v == chosen else "", label) for v, label in choices),
    )


def denomination_title(denom: str) -> str:
    """The grid's short name of a denomination: a suit symbol, or the players' own letters
    for grand and misère (Polish players say "BA", bez atu, for no trumps)."""
    if denom == "G":
        # Translators: grand (no trumps) on a contract button, "4G"; Polish players say BA.
        return _("G")
    return DENOMINATION_TITLES[denom]


@functools.cache
def _contract_grid(language: str = "") -> list[tuple[int, list[tuple[str, str, str]]]]:
    """Levels 4..7 by ♠ ♣ ♦ ♥ G M: (value, label, kind) per cell (built once per language)."""
    order = ("S", "C", "D", "H", "G", "M")
    return [
        (
            level,
            [
                (f"{level}{d}", f"{level}{denomination_title(d)}", contract_kind(f"{level}{d}"))
                for d in order
            ],
        )
        for level in range(4, 8)
    ]


@functools.lru_cache(maxsize=256)
def _contract_grid_html(language: str, chosen: str) -> SafeString:
    """The grid's 24 contract buttons, the chosen one checked: built here, once per
    language and choice (after a save, none is chosen), not node by node on every save."""
    return format_html_join(
        "\n",
        '<label class="btn{}" title="{}"><input type="radio" name="contract" value="{}" '
        'data-kind="{}"{}>{}</label>',
        (
            (
                " red" if value[-1] in "DH" else "",
                value,
                value,
                kind,
                mark_safe(" checked") if value == chosen else "",
                label,
            )
            for _level, cells in _contract_grid(language)
            for value, label, kind in cells
        ),
    )


def _preview(
    session: TableSession, form: VintDealForm, rubber: RubberView | None, before: int | None
) -> dict[str, Any]:
    """What the deal on the pad would write (or what is still missing)."""
    if not form.is_complete():
        return {"preview_waiting": [m for msgs in form.slot_errors.values() for m in msgs]}
    if rubber is None:
        board = vint_scoreboard(session=session)
        return {"preview_waiting": [session_complete_message(board)]}
    try:
        outcome = outcome_before(session, form.facts(), rubber.number, before)
    except DealRejected as exc:
        form.add_engine_errors(exc.errors)
        return {"preview_errors": [m for msgs in form.slot_errors.values() for m in msgs]}
    sides = []
    for side in vint.SIDES:
        items = [e for e in outcome.all_entries if e.side == side]
        sides.append(
            {
                "side": side,
                "partners": rubber.partners[side],
                "above": outcome.above(side),
                "below": outcome.below(side),
                "items": [
                    {
                        "points": e.points,
                        "where": e.where,
                        "label": item_label(
                            {"kind": e.kind, "count": e.count, "seat": e.seat, "suit": e.suit}
                        ),
                    }
                    for e in items
                ],
            }
        )
    notes = []
    for side in outcome.games_won:
        notes.append(
            _("%(side)s win game %(n)s: a line is drawn.")
            % {"side": side, "n": outcome.state.games(side)}
        )
    if outcome.phase == "extra":
        notes.append(_("Extra deal %(n)s of 4.") % {"n": outcome.extra_deal})
    if outcome.state.finished:
        notes.append(_("This deal ends the rubber."))
    return {"preview": {"sides": sides, "notes": notes}}


# ------------------------------------------------------------------------------ the game


class VintGame(GameBase):
    code = "vint"
    label = "Vint"
    family = "vint"
    deal_model = VintDeal
    session_template = "scoring/vint_session.html"
    sheet_template = "scoring/vint_sheet.html"
    history_template = "scoring/vint_history.html"
    edit_template = "scoring/vint_deal_edit.html"
    preview_template = "scoring/_vint_preview.html#preview"
    aside_template = "scoring/_vint_aside.html"
    paper_pad = False

    def rules(self, session: TableSession) -> vint.VintRules:
        return vint_rules_for(session)

    def planned_deals(self, deals_per_round: int) -> int | None:
        return None  # a session is three rubbers, however many deals they take

    # ----------------------------------------------------------------- entry

    def form(self, session: TableSession, data: Any = None, **kwargs: Any) -> VintDealForm:
        return VintDealForm(data, **kwargs)

    def form_facts(self, form: Any) -> dict[str, Any] | None:
        return form.facts() if form.is_complete() else None

    def form_extra(self, form: Any) -> dict[str, Any]:
        return {
            "rubber": form.cleaned_data.get("rubber"),
            "first_dealer": form.cleaned_data.get("first_dealer") or None,
        }

    def form_for_deal(self, session: TableSession, row: VintDeal) -> VintDealForm:
        initial = {**initial_from_facts(row.facts), "rubber": row.rubber}
        # Bound to the stored values, so that the preview shows what the deal wrote.
        return VintDealForm({k: "" if v is None else v for k, v in initial.items()})

    def pad_context(
        self,
        request: Any,
        session: TableSession,
        form: Any = None,
        *,
        editing: VintDeal | None = None,
    ) -> dict[str, Any]:
        rubber: RubberView | None
        if editing is not None:
            board = vint_scoreboard(session=session)
            rubber = board.rubber(editing.rubber)
        elif getattr(request, "htmx", False):
            # The pad alone (a save's answer): the rubber being played, over the stored
            # totals of the rubbers before it; no finished rubber is scored again.
            board = vint_pad_board(session=session)
            rubber = board.current
        else:  # the whole page: its aside names every rubber's partners
            board = vint_scoreboard(session=session)
            rubber = board.current
        if form is None:
            initial: dict[str, Any] = {"doubling": 0}
            if rubber is not None:
                initial.update(rubber=rubber.number, first_dealer=rubber.first_dealer)
            form = VintDealForm(initial=initial)
        value = form.__getitem__
        contract = value("contract").value() or ""
        tricks = _int(value("declarer_tricks").value())
        ns_tricks = _int(value("ns_tricks").value())
        context: dict[str, Any] = {
            "board": board,
            "rubber": rubber,
            "form": form,
            "editing": editing,
            "next_slot": Slot(rubber.number, rubber.next_number) if rubber is not None else None,
            "contract_grid": _contract_grid_html(get_language() or "", contract),
            "selected": {
                "contract": contract,
                "kind": contract_kind(contract),
                "declarer": value("declarer").value() or "",
                "doubling": _int(value("doubling").value()) or 0,
                "first_dealer": value("first_dealer").value()
                or (rubber.first_dealer if rubber is not None else ""),
                "honours_side": value("honours_side").value() or "",
                "honours_count": _int(value("honours_count").value()),
                "grand_aces_side": value("grand_aces_side").value() or "",
                "grand_aces_count": _int(value("grand_aces_count").value()),
                "hand_seat": value("hand_seat").value() or "",
                "hand_count": _int(value("hand_count").value()),
            },
            "tricks": "" if tricks is None else tricks,
            "other_tricks": "—" if tricks is None else 13 - tricks,
            "ns_tricks": "" if ns_tricks is None else ns_tricks,
            "ew_tricks": "—" if ns_tricks is None else 13 - ns_tricks,
            "errors": form.slot_errors,
            "show_extras": False,
        }
        if rubber is not None:
            # (seat, the name on its button, side, the full name for its title)
            seat_names = [(s, short, SEAT_SIDE[s], name) for s, short, name in rubber.short_columns]
            seat_choices = [("", "—"), *[(s, f"{s} {short}") for s, short, *_rest in seat_names]]
            context["seat_names"] = seat_names
            context["hand_seat_options"] = _options(seat_choices, value("hand_seat").value())
            context["runs"] = [
                (
                    suit,
                    SUIT_SYMBOL[suit],
                    _options(seat_choices, value(f"seq_{suit}_seat").value()),
                    _options(LENGTHS, value(f"seq_{suit}_length").value()),
                )
                for suit in SUITS
            ]
            context["dumps"] = [
                (
                    i,
                    _options(seat_choices, value(f"dump_{i}_seat").value()),
                    _options(TRICK_NUMBERS, value(f"dump_{i}_trick").value()),
                )
                for i in range(1, 5)
            ]
            context["next_dealer_name"] = rubber.names[rubber.next_dealer]
            context["choose_first_dealer"] = not rubber.counted and editing is None
            context["recent_rows"] = list(reversed(rubber.rows))
        if form.is_bound or editing is not None:
            before = editing.number if editing is not None else None
            context.update(_preview(session, form, rubber, before))
            context["errors"] = form.slot_errors
            context["show_extras"] = form.has_extras()
        return context

    def saved_context(
        self,
        request: Any,
        session: TableSession,
        row: VintDeal | None,
        before: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """The rubber being played after ``row``, a deal of it, was stored: its totals,
        the next deal and dealer, ``row``'s line (the phone puts it on top of the rubber's
        rows) and the session's totals, all from the tallies ``before`` and after the
        deal, with no deal read. None when the pad changes more than that: the rubber
        ended (the next one seats the players elsewhere, or the session is over) or
        ``row`` is its first deal (the pad drawn before it asked for the rubber's first
        dealer)."""
        tally = session.tally
        if (
            row is None
            or before is None
            or before.get("rubber") != row.rubber
            or tally.get("rubber") != row.rubber
            or tally["next"] != row.number + 1  # not the rubber's newest: the pad again
        ):
            return None
        board = vint_pad_board(session=session, rows=False)
        rubber = board.current
        if rubber is None or rubber.counted < 2:
            return None
        state = vint.RubberState(*before["state"])
        sums = vint.RubberSums(*before["sums"])
        new_row = deal_row(
            row,
            row.number,
            rubber.counted,
            rubber.names,
            rubber.first_dealer,
            board.rules,
            {"NS": state.part_ns, "EW": state.part_ew},
            {"NS": sums.above_ns + sums.below_ns, "EW": sums.above_ew + sums.below_ew},
        )
        return {
            "board": board,
            "rubber": rubber,
            "next_slot": Slot(rubber.number, rubber.next_number),
            "next_dealer_name": rubber.names[rubber.next_dealer],
            "new_row": new_row,
        }

    def preview_context(self, request: Any, session: TableSession, form: Any) -> dict[str, Any]:
        rubber_no = _int(request.POST.get("editing_rubber"))
        before = _int(request.POST.get("editing_number"))
        rubber: RubberView | None
        if rubber_no is not None:
            board = vint_scoreboard(session=session)
            if 1 <= rubber_no <= len(board.rubbers):
                rubber = board.rubber(rubber_no)
            else:
                rubber, before = board.current, None
        else:
            board = vint_pad_board(session=session)
            rubber, before = board.current, None
        return {"form": form, **_preview(session, form, rubber, before)}

    # ----------------------------------------------------------------- write

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
        facts: Mapping[str, Any],
        *,
        entered_by: str,
        confirm_warnings: bool,
        extra: Mapping[str, Any],
    ) -> VintDeal:
        """Add the next deal to the current rubber.

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
        if not tally["started"]:  # the rubber's first deal makes its row
            seats = tally["seats"]
            VintRubber.objects.create(
                session=session,
                number=slot.rubber,
                north=seats["N"],
                east=seats["E"],
                south=seats["S"],
                west=seats["W"],
                first_dealer=first_dealer,
            )
        elif first_dealer != tally["first_dealer"] and not state.deals_played:
            # The first dealer can still be changed while the rubber has no counted deal.
            VintRubber.objects.filter(session=session, number=slot.rubber).update(
                first_dealer=first_dealer
            )
        # An appended deal changes no earlier one: play it on the rubber's state so far.
        rules = vint_rules_for(session)
        state, outcome = vint.rubber_apply(state, deal, rules)
        sums = vint.RubberSums(*tally["sums"]).plus(outcome)
        session.tally = tally_after(tally, slot.number, first_dealer, state, sums, rules)
        return VintDeal(
            session=session,
            rubber=slot.rubber,
            number=slot.number,
            facts=deal_to_json(deal),
            entries=entries_json(outcome),
            entered_by=entered_by,
        )

    def correct(
        self,
        session: TableSession,
        row: VintDeal,
        facts: Mapping[str, Any],
        *,
        confirm_warnings: bool,
    ) -> None:
        deal = deal_check(session, facts)
        row.facts = deal_to_json(deal)
        row.voided = False
        row.save(update_fields=["facts", "voided", "updated_at"])
        _rubber_replay(session, row.rubber)
        row.refresh_from_db()
        session.tally = self.tally_compute(session)

    def void(self, session: TableSession, row: VintDeal) -> None:
        row.voided = True
        row.save(update_fields=["voided", "updated_at"])
        _rubber_replay(session, row.rubber)
        row.refresh_from_db()
        session.tally = self.tally_compute(session)

    def tally_compute(self, session: TableSession) -> VintTally:
        return tally_from_board(vint_scoreboard(session=session))

    def tally_new(self) -> VintTally:
        return _fresh_rubber(1, "N", [])

    def snapshot(self, row: VintDeal) -> VintDealSnapshot:
        return snapshot(row)

    def summary(self, row: VintDeal) -> str:
        return facts_summary(row.facts)

    # ------------------------------------------------------------------ read

    def seat_results(self, session_ids: SessionIds) -> dict[int, list[SeatResult]]:
        out: dict[int, list[SeatResult]] = {}
        for session in TableSession.objects.filter(pk__in=session_ids).select_related(
            "profile_version"
        ):
            board = vint_scoreboard(session=session)
            wins = dict.fromkeys(range(1, 5), 0)
            for rubber in board.started:
                winner = rubber.result.state.winner
                if winner:
                    for seat in ("N", "S") if winner == "NS" else ("E", "W"):
                        wins[rubber.seats[seat]] += 1
            out[session.pk] = sorted(
                (
                    SeatResult(
                        seat=s.seat,
                        player_id=s.player.pk,
                        points=s.total,
                        net=s.net,
                        wins=wins[s.seat],
                    )
                    for s in board.standings
                ),
                key=lambda r: r.seat,
            )
        return out

    def progress(self, sessions: Sequence[TableSession]) -> dict[int, TableProgress]:
        """A Vint table has finished when its three rubbers have (no planned deal count):
        its tally says so (no rubber left to play), so no rubber is played again here."""
        counted = self.counted_deals([s.pk for s in sessions])
        return {
            s.pk: TableProgress(counted.get(s.pk, 0), None, tally_of(s)["rubber"] is None)
            for s in sessions
        }

    def sheet_context(self, session: TableSession) -> dict[str, Any]:
        return {"board": vint_scoreboard(session=session)}

    def history(self, session: TableSession, slot: Slot | None = None) -> list[Any]:
        if slot is None:
            return vint_deal_history(session=session)
        return vint_deal_history(session=session, rubber=slot.rubber, number=slot.number)

    def sheet_json(self, session: TableSession) -> VintSheetJson:
        return vint_sheet_json(session=session)

    def csv_rows(self, session: TableSession) -> list[list[Any]]:
        return vint_csv_rows(session=session)

    @transaction.atomic
    def import_sheet(self, data: Mapping[str, Any], *, user: Any, title: str) -> TableSession:
        """A Vint session from a scoresheet: all of it, or nothing (``SheetError``).

        Players A..D are rubber 1's N, E, S, W; each rubber keeps its own seating and
        first dealer. The profile's ``session_structure`` decides how many rubbers a
        session holds and whether a partnership may repeat (``read_vint_sheet`` checks).
        """
        sheet = read_vint_sheet(dict(data))  # every problem at once; nothing written yet
        first = sheet.rubbers[0].seating
        session = import_session(
            game=self.code,
            rules=data.get("rules", {}),
            names=list(first.players),
            user=user,
            title=title,
        )
        number_of = {name: i for i, name in enumerate(first.players, 1)}
        label = user.get_username() if user else "import"
        for r, rubber in enumerate(sheet.rubbers, 1):
            seats = {seat: number_of[name] for seat, name in rubber.seating.as_dict().items()}
            VintRubber.objects.create(
                session=session,
                number=r,
                north=seats["N"],
                east=seats["E"],
                south=seats["S"],
                west=seats["W"],
                first_dealer=rubber.first_dealer,
            )
            VintDeal.objects.bulk_create(
                VintDeal(
                    session=session,
                    rubber=r,
                    number=n,
                    facts=_stored_facts(deal, voided=n in rubber.voided),
                    entries={},
                    voided=n in rubber.voided,
                    entered_by=label,
                )
                for n, deal in enumerate(rubber.deals, 1)
            )
            _rubber_replay(session, r)
            DealHistory.objects.bulk_create(
                DealHistory(
                    session=session,
                    rubber=r,
                    deal_number=row.number,
                    action="created",
                    actor=label,
                    reason="import",
                    new=snapshot(row),
                )
                for row in VintDeal.objects.filter(session=session, rubber=r).order_by("number")
            )
        session.tally = self.tally_compute(session)
        TableSession.objects.filter(pk=session.pk).update(tally=session.tally)
        return session


VINT = register(VintGame())
