"""Vint table sessions: the scorer's pad, corrections, the four-column sheet.

Mirrors the Kop pages (``scoring/views.py``): one view, one template, named
partials. An htmx save gets only ``scoring/vint_session.html#pad``; the
preview is ``_vint_preview.html``; without JavaScript the same forms post and
redirect. ``session_detail`` and ``session_sheet`` dispatch here for game
"vint".
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.roles import is_director
from scoring import services
from scoring.engines import vint
from scoring.forms import ReasonForm
from scoring.models import TableSession, VintDeal
from scoring.permissions import can_write, entry_actor
from scoring.selectors import session_get
from scoring.views import _round_table
from scoring.vint_forms import SUITS, VintDealForm, contract_kind, initial_from_facts
from scoring.vint_selectors import (
    SEAT_SIDE,
    SUIT_SYMBOL,
    RubberView,
    VintBoard,
    contract_label,
    item_label,
    vint_deal_history,
    vint_scoreboard,
)
from scoring.vint_services import (
    vint_deal_correct,
    vint_deal_evaluate,
    vint_deal_record,
    vint_deal_void,
)

DENOMINATION_TITLES = {
    "S": "♠",
    "C": "♣",
    "D": "♦",
    "H": "♥",
    "G": "G",
    "M": "M",
}


def _session_or_404(pk: int) -> TableSession:
    try:
        session = session_get(pk=pk)
    except TableSession.DoesNotExist:
        raise Http404(_("No such table session.")) from None
    if session.game != "vint":
        raise Http404(_("No such table session."))
    return session


def _require_writer(request: HttpRequest, session: TableSession) -> services.Actor:
    actor = entry_actor(request, session)
    if actor is None:
        raise PermissionDenied(_("You may not enter deals at this table."))
    if not can_write(actor, session):
        raise PermissionDenied(_("This session is locked: only a director may change it."))
    return actor


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


LENGTHS = [("", "—"), *[(str(n), str(n)) for n in range(3, 14)]]
TRICK_NUMBERS = [("", "—"), *[(str(n), str(n)) for n in range(1, 14)]]


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


def _contract_grid() -> list[tuple[int, list[tuple[str, str, str]]]]:
    """Levels 4..7 by ♠ ♣ ♦ ♥ G M: (value, label, kind) per cell."""
    order = ("S", "C", "D", "H", "G", "M")
    return [
        (
            level,
            [
                (f"{level}{d}", f"{level}{DENOMINATION_TITLES[d]}", contract_kind(f"{level}{d}"))
                for d in order
            ],
        )
        for level in range(4, 8)
    ]


def _preview(
    session: TableSession, form: VintDealForm, rubber: RubberView | None, before: int | None
) -> dict[str, Any]:
    """What the deal on the pad would write (or what is still missing)."""
    if not form.is_complete():
        return {"preview_waiting": [m for msgs in form.slot_errors.values() for m in msgs]}
    if rubber is None:
        return {
            "preview_waiting": [_("The session is complete: all three rubbers have been played.")]
        }
    try:
        _deal, outcome = vint_deal_evaluate(
            session=session, facts=form.facts(), rubber=rubber.number, before=before
        )
    except services.DealRejected as exc:
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


def _context(
    request: HttpRequest,
    session: TableSession,
    form: VintDealForm | None = None,
    *,
    board: VintBoard | None = None,
    editing: VintDeal | None = None,
) -> dict[str, Any]:
    board = board or vint_scoreboard(session=session)
    actor = entry_actor(request, session)
    rubber = board.rubber(editing.rubber) if editing is not None else board.current
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
        "session": session,
        "board": board,
        "rubber": rubber,
        "form": form,
        "actor": actor,
        "round_table": _round_table(session),
        "seat_players": list(enumerate(board.players, 1)),
        "can_write": can_write(actor, session),
        "is_director": is_director(request.user),
        "editing": editing,
        "grid": _contract_grid(),
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
        seat_names = [(s, short, SEAT_SIDE[s]) for s, short, _ in rubber.short_columns]
        seat_choices = [("", "—"), *[(s, f"{s} {short}") for s, short, _side in seat_names]]
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


def vint_session_detail(request: HttpRequest, session: TableSession) -> HttpResponse:
    return render(request, "scoring/vint_session.html", _context(request, session))


def _form_from_post(request: HttpRequest) -> VintDealForm:
    return VintDealForm(request.POST)


@require_POST
def vint_preview(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    _require_writer(request, session)
    form = _form_from_post(request)
    board = vint_scoreboard(session=session)
    rubber_no = _int(request.POST.get("editing_rubber"))
    before = _int(request.POST.get("editing_number"))
    if rubber_no is not None and 1 <= rubber_no <= len(board.rubbers):
        rubber: RubberView | None = board.rubber(rubber_no)
    else:
        rubber, before = board.current, None
    context = {"session": session, "form": form, **_preview(session, form, rubber, before)}
    return render(request, "scoring/_vint_preview.html#preview", context)


@require_POST
def vint_deal_add(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    actor = _require_writer(request, session)
    form = _form_from_post(request)
    if form.is_complete():
        try:
            deal = vint_deal_record(
                session=session,
                facts=form.facts(),
                actor=actor,
                rubber=form.cleaned_data.get("rubber"),
                first_dealer=form.cleaned_data.get("first_dealer") or None,
            )
        except services.DealRejected as exc:
            form.add_engine_errors(exc.errors)
        except services.SessionLocked as exc:
            raise PermissionDenied(str(exc)) from None
        else:
            saved = _("Rubber %(r)s, deal %(n)s saved.") % {"r": deal.rubber, "n": deal.number}
            if not request.htmx:
                messages.success(request, saved)
                return redirect("scoring:session", pk=session.pk)
            context = _context(request, session)  # a fresh pad for the next deal
            context["saved"] = saved
            return render(request, "scoring/vint_session.html#pad", context)
    # The pad comes back with what was typed, for the current rubber (if the
    # rubber on a stale pad ended meanwhile, the next save goes to the new one).
    context = _context(request, session, form)
    template = "scoring/vint_session.html"
    return render(request, f"{template}#pad" if request.htmx else template, context)


def _deal_or_404(session: TableSession, rubber: int, number: int) -> VintDeal:
    return get_object_or_404(VintDeal, session=session, rubber=rubber, number=number)


def vint_deal_edit(request: HttpRequest, pk: int, rubber: int, number: int) -> HttpResponse:
    session = _session_or_404(pk)
    actor = _require_writer(request, session)
    deal = _deal_or_404(session, rubber, number)
    if request.method == "POST":
        form = _form_from_post(request)
        if form.is_complete():
            try:
                vint_deal_correct(
                    deal=deal,
                    facts=form.facts(),
                    actor=actor,
                    reason=form.cleaned_data.get("reason") or "",
                )
            except services.DealRejected as exc:
                form.add_engine_errors(exc.errors)
            except services.SessionLocked as exc:
                raise PermissionDenied(str(exc)) from None
            else:
                messages.success(
                    request, _("Rubber %(r)s, deal %(n)s corrected.") % {"r": rubber, "n": number}
                )
                return redirect("scoring:session", pk=session.pk)
    else:
        form = VintDealForm(initial={**initial_from_facts(deal.facts), "rubber": rubber})
        # Bind to the stored values so the preview shows what the deal wrote.
        form = VintDealForm(
            {k: "" if v is None else v for k, v in form.initial.items()},
        )
    context = _context(request, session, form, editing=deal)
    if request.method == "GET":
        form.slot_errors.pop("reason", None)
    context.update(
        history=vint_deal_history(session=session, rubber=rubber, number=number),
        editing_label=contract_label(deal.facts["contract"]),
    )
    return render(request, "scoring/vint_deal_edit.html", context)


@require_POST
def vint_deal_void_view(request: HttpRequest, pk: int, rubber: int, number: int) -> HttpResponse:
    session = _session_or_404(pk)
    actor = _require_writer(request, session)
    deal = _deal_or_404(session, rubber, number)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why the deal is voided."))
        return redirect("scoring:vint_deal_edit", pk=pk, rubber=rubber, number=number)
    try:
        vint_deal_void(deal=deal, actor=actor, reason=form.cleaned_data["reason"])
    except services.DealRejected as exc:
        for msgs in exc.errors.values():
            for m in msgs:
                messages.error(request, m)
        return redirect("scoring:vint_deal_edit", pk=pk, rubber=rubber, number=number)
    except services.SessionLocked as exc:
        raise PermissionDenied(str(exc)) from None
    messages.success(request, _("Rubber %(r)s, deal %(n)s voided.") % {"r": rubber, "n": number})
    return redirect("scoring:session", pk=pk)


def vint_session_sheet(request: HttpRequest, session: TableSession) -> HttpResponse:
    board = vint_scoreboard(session=session)
    return render(request, "scoring/vint_sheet.html", {"session": session, "board": board})


def vint_history(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    return render(
        request,
        "scoring/vint_history.html",
        {"session": session, "history": vint_deal_history(session=session)},
    )
