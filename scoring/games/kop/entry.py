"""The Kop and Baśka pad: its form, what it shows, a save's short answer, the preview and
the printable paper pad."""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext as _

from scoring.engines import kop
from scoring.errors import DealRejected
from scoring.games.interface import (
    UPCOMING_DEALERS,
    OptionFields,
    PadTemplates,
    PaperPad,
    Slot,
    Tally,
)
from scoring.games.kop.deals import (
    contract_choices,
    contract_label,
    evaluate,
    kop_rules,
    warning_texts,
)
from scoring.games.kop.forms import KopDealForm
from scoring.games.kop.ledger import all_played, all_played_message, tally_of
from scoring.games.kop.models import KopDeal
from scoring.games.kop.sheet import scoreboard, sheet_row
from scoring.option_fields import DescribedOptions, rules_defaults
from scoring.selectors import sheet_players

if TYPE_CHECKING:
    from scoring.models import TableSession

RECENT_ROWS = 8  # deals shown under the pad
PAPER_PAD_ROWS = 32  # a blank paper pad's rows: a tournament round's deals


def declarer_hint(contract: str) -> str:
    hints = {
        "normal": gettext("Tap the two players who held the black queens (♣Q ♠Q)."),
        "wesele": gettext("Tap the wesele pair: the bidder and the holder of the called jack."),
        "cicha": gettext("Tap the player who held both black queens."),
    }
    return hints.get(contract, gettext("Tap the soloist."))


@functools.lru_cache(maxsize=256)
def _pad_choices(game: str, rules: kop.KopRules, cap: int | None, language: str) -> dict[str, Any]:
    """The pad's fixed choices for a game, rules and language: built once, not on every save.

    Only the contracts the rules allow are offered (``contracts``, rules/kop.md §7.1).
    """
    allowed = kop.contracts_for(game, rules)
    return {
        "contracts": [(c.name, contract_label(c.name), c.declarers) for c in allowed],
        "doubling_counts": [
            (k, kop.doubling_name(k, rules) if k else "0")
            for k in range(0, (cap if cap is not None else 6) + 1)
        ],
        "hints_json": json.dumps({c.name: declarer_hint(c.name) for c in allowed}),
    }


def _ints(values: Any) -> list[int]:
    out = []
    for v in values or []:
        try:
            out.append(int(v))
        except (TypeError, ValueError):
            continue
    return out


class KopPaperPad:
    template = "scoring/kop/paper_pad.html"

    def blank_label(self, code: str) -> str:
        if code == "baska":  # each game's name is declined in the sentence
            return _("Print a blank Baśka score pad")
        return _("Print a blank Kop score pad")

    def context(self, session: TableSession | None, code: str) -> dict[str, Any]:
        """The printable pad, blank or with a session's players; it lists the contracts of
        the game (a session's: only what its profile allows, rules/kop.md §7.1)."""
        planned = session.planned_deals if session is not None else None
        rules = kop_rules(session) if session is not None else None
        return {
            "players": sheet_players(session) if session is not None else [],
            "rows": [
                (n, kop.dealer_for_deal(n)) for n in range(1, (planned or PAPER_PAD_ROWS) + 1)
            ],
            "contracts": [contract_label(c.name) for c in kop.contracts_for(code, rules)],
        }


class KopEntry:
    templates = PadTemplates(
        pad="scoring/kop/pad.html#pad",
        saved="scoring/kop/pad.html#saved",
        preview="scoring/kop/_preview.html#preview",
        edit="scoring/kop/edit.html",
        aside="",
        script="js/pad.js",
        form_class="pad",
    )
    paper_pad: PaperPad | None = KopPaperPad()
    option_fields: OptionFields = DescribedOptions(
        defaults=lambda: rules_defaults(kop.default_rules("baska")),
        keys=lambda: contract_choices("baska"),
    )

    def form(self, session: TableSession, data: Any = None) -> KopDealForm:
        return KopDealForm(data, game=session.game, rules=kop_rules(session))

    def form_for_deal(self, session: TableSession, row: KopDeal) -> KopDealForm:
        initial: dict[str, Any] = {
            "contract": row.contract,
            "declarers": row.declarers,
            "declarer_points": row.declarer_points,
            "doublings": row.doublings or 0,
        }
        if row.doubling_seats is not None:
            initial["doubling_mode"] = "seats"
            initial["doubling_seats"] = " ".join(str(s) for s in row.doubling_seats)
        return KopDealForm(game=session.game, rules=kop_rules(session), initial=initial)

    def pad_context(
        self,
        session: TableSession,
        form: Any = None,
        *,
        editing: Any = None,
        whole_page: bool = True,
    ) -> dict[str, Any]:
        context = self._board_context(session, None)
        rules = kop_rules(session)
        if form is None:
            form = KopDealForm(
                game=session.game, rules=rules, initial={"contract": "normal", "doublings": 0}
            )
        contract = form["contract"].value() or "normal"
        cap = rules.doubling_cap.get(contract) if rules.doubling_cap else None
        points = form["declarer_points"].value()
        # The other side's share of the pack, only for a number that can be a share of
        # it: "610" is a typing slip, not "other side: -506".
        typed = str(points if points is not None else "")
        other_points: int | str = "—"
        if typed.isdigit() and len(typed) <= 3 and int(typed) <= kop.TOTAL_POINTS:
            other_points = kop.TOTAL_POINTS - int(typed)
        try:
            selected_doublings = int(form["doublings"].value() or 0)
        except (TypeError, ValueError):
            selected_doublings = 0
        context.update(
            selected_contract=contract,
            selected_declarers=_ints(form["declarers"].value()),
            selected_doublings=selected_doublings,
            selected_mode="seats" if form["doubling_mode"].value() == "seats" else "count",
            other_points=other_points,
            form=form,
            **_pad_choices(session.game, rules, cap, get_language()),
            hint=declarer_hint(contract),
            editing=editing,
        )
        return context

    def saved_context(
        self, session: TableSession, row: KopDeal, before: Tally | None
    ) -> dict[str, Any] | None:
        if all_played(session, tally_of(session)["counted"]):
            return None  # the whole pad: its form gives way to "all planned deals played"
        return self._board_context(session, row)

    def _board_context(self, session: TableSession, row: KopDeal | None) -> dict[str, Any]:
        """The pad's parts a new deal changes: totals, the next deal and its dealer, and the
        newest rows; after a save (``row``, the deal stored) only that deal's row, which
        the phone puts on top of the rows it shows (a Kop pad's fields stay as they are)."""
        if row is not None and row.number > 1:
            board = scoreboard(session=session, last=0)
            rows: dict[str, Any] = {"new_row": sheet_row(row, kop_rules(session), board.totals)}
        else:
            board = scoreboard(session=session, last=RECENT_ROWS)
            rows = {"last_rows": list(reversed(board.rows))}
        return {
            "totals_pairs": list(zip(board.players, board.totals, strict=True)),
            "next_dealer_name": board.players[board.next_dealer - 1].name,
            "upcoming_dealers": [
                (n, dealer, board.players[dealer - 1].name)
                for n in range(board.next_number + 1, board.next_number + UPCOMING_DEALERS + 1)
                for dealer in [kop.dealer_for_deal(n)]
            ],
            "next_slot": Slot(0, board.next_number),
            "all_played": (
                all_played_message(session.planned_deals or 0)
                if all_played(session, tally_of(session)["counted"])
                else ""
            ),
            "board": board,
            **rows,
            "recent_keep": RECENT_ROWS,
            "edit_url_prefix": reverse("scoring:deal_edit", args=[session.pk, "0"])[:-2],
        }

    def preview_context(
        self, session: TableSession, form: Any, editing: Slot | None
    ) -> dict[str, Any]:
        context: dict[str, Any] = {"preview_errors": [], "result": None, "form": form}
        if form.is_valid():
            try:
                _deal, result = evaluate(session, form.facts())
            except DealRejected as exc:
                context["preview_errors"] = [m for msgs in exc.errors.values() for m in msgs]
            else:
                context["result"] = result
                context["warnings"] = warning_texts(result)
                context["preview_pairs"] = list(
                    zip(sheet_players(session), result.payments, strict=True)
                )
        else:
            context["preview_errors"] = [
                m for field, msgs in form.errors.items() for m in msgs if field != "declarer_points"
            ] or [_("Waiting for the card points.")]
        return context
