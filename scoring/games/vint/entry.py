"""The Vint pad: its form, what it shows (the rubber being played, its contract grid and
holdings), a save's short answer and the preview of what a deal would write."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.engines import vint
from scoring.errors import DealRejected
from scoring.games.interface import (
    UPCOMING_DEALERS,
    OptionFields,
    PadTemplates,
    PaperPad,
    Slot,
    Tally,
)
from scoring.games.vint.board import (
    RubberView,
    deal_row,
    vint_pad_board,
    vint_scoreboard,
)
from scoring.games.vint.deals import SEAT_SIDE, deal_check, deal_from_facts, vint_rules_for
from scoring.games.vint.forms import (
    SUITS,
    VintDealForm,
    contract_kind,
    initial_from_facts,
)
from scoring.games.vint.labels import SUIT_SYMBOL, denomination_title, item_label
from scoring.games.vint.ledger import rubber_over, session_complete_message
from scoring.games.vint.models import VintDeal
from scoring.option_fields import DescribedOptions, rules_defaults

if TYPE_CHECKING:
    from scoring.models import TableSession

LENGTHS = [("", "—"), *[(str(n), str(n)) for n in range(3, 14)]]


TRICK_NUMBERS = [("", "—"), *[(str(n), str(n)) for n in range(1, 14)]]


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


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
        raise DealRejected({"__all__": [rubber_over(rubber, state.deals_played)]})
    _state, outcome = vint.rubber_apply(state, deal, rules)
    return outcome


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


class VintEntry:
    templates = PadTemplates(
        pad="scoring/vint/pad.html#pad",
        saved="scoring/vint/pad.html#saved",
        preview="scoring/vint/_preview.html#preview",
        edit="scoring/vint/edit.html",
        aside="scoring/vint/_aside.html",
        script="js/vint_pad.js",
        form_class="pad vint-pad",
    )
    paper_pad: PaperPad | None = None  # a Vint sheet is written as it is played
    option_fields: OptionFields = DescribedOptions(
        defaults=lambda: rules_defaults(vint.DEFAULT_RULES)
    )

    def form(self, session: TableSession, data: Any = None) -> VintDealForm:
        return VintDealForm(data)

    def form_for_deal(self, session: TableSession, row: VintDeal) -> VintDealForm:
        initial = {**initial_from_facts(row.facts), "rubber": row.rubber}
        # Bound to the stored values, so that the preview shows what the deal wrote.
        return VintDealForm({k: "" if v is None else v for k, v in initial.items()})

    def pad_context(
        self,
        session: TableSession,
        form: Any = None,
        *,
        editing: VintDeal | None = None,
        whole_page: bool = True,
    ) -> dict[str, Any]:
        rubber: RubberView | None
        if editing is not None:
            board = vint_scoreboard(session=session)
            rubber = board.rubber(editing.rubber)
        elif not whole_page:
            # The pad alone (a save's answer): the rubber being played, over the stored
            # totals of the rubbers before it; no finished rubber is scored again.
            board = vint_pad_board(session=session)
            rubber = board.current
        else:  # the whole page: its aside names every rubber's partners
            board = vint_scoreboard(session=session)
            rubber = board.current
        # A new rubber's pad first says how the one before ended (its columns are gone).
        last_rubber_line = ""
        if rubber is not None and editing is None and rubber.number > 1 and not rubber.counted:
            last_rubber_line = (
                vint_scoreboard(session=session).rubber(rubber.number - 1).result_line
            )
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
            "last_rubber_line": last_rubber_line,
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
            context["upcoming_dealers"] = _upcoming_dealers(rubber)
            context["choose_first_dealer"] = not rubber.counted and editing is None
            context["recent_rows"] = list(reversed(rubber.rows))
        if form.is_bound or editing is not None:
            before = editing.number if editing is not None else None
            context.update(_preview(session, form, rubber, before))
            context["errors"] = form.slot_errors
            context["show_extras"] = form.has_extras()
        return context

    def saved_context(
        self, session: TableSession, row: VintDeal, before: Tally | None
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
            "upcoming_dealers": _upcoming_dealers(rubber),
            "new_row": new_row,
        }

    def preview_context(
        self, session: TableSession, form: Any, editing: Slot | None
    ) -> dict[str, Any]:
        rubber: RubberView | None
        before: int | None = None
        if editing is not None:
            board = vint_scoreboard(session=session)
            if 1 <= editing.rubber <= len(board.rubbers):
                rubber, before = board.rubber(editing.rubber), editing.number
            else:
                rubber = board.current
        else:
            board = vint_pad_board(session=session)
            rubber, before = board.current, None
        return {"form": form, **_preview(session, form, rubber, before)}


def _upcoming_dealers(rubber: RubberView) -> list[tuple[int, str, str]]:
    """The dealers of the rubber's deals after the next one (``UPCOMING_DEALERS``), once
    its first dealer is known: the offline pad shows them as it queues deals."""
    if not rubber.counted:
        return []  # the first deal asks who deals first
    first = cast("vint.Seat", rubber.first_dealer)  # a seat the tally kept
    numbers = range(rubber.next_number + 1, rubber.next_number + UPCOMING_DEALERS + 1)
    return [(n, d, rubber.names[d]) for n in numbers for d in [vint.dealer_of(first, n)]]
