"""Table sessions: the scorer's pad, the sheet, corrections, export and import.

One view, one template, named partials: an htmx request gets only the partial
it targets (``scoring/kop_session.html#entry``); without JavaScript the same
forms post and redirect.
"""

from __future__ import annotations

import csv
import functools
import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.roles import director_required, is_director, is_scorer
from scoring import selectors, services
from scoring.engines import kop
from scoring.engines.errors import SheetError
from scoring.forms import KopDealForm, ProfileForm, ReasonForm, SessionForm, SheetUploadForm
from scoring.models import KopDeal, RuleProfile, TableSession
from scoring.permissions import can_write, entry_actor, grant_link

RECENT_ROWS = 8  # deals shown under the pad


def declarer_hint(contract: str) -> str:
    from django.utils.translation import gettext

    hints = {
        "normal": gettext("Tap the two players who held the black queens (♣Q ♠Q)."),
        "wesele": gettext("Tap the wesele pair: the bidder and the holder of the called jack."),
        "cicha": gettext("Tap the player who held both black queens."),
    }
    return hints.get(contract, gettext("Tap the soloist."))


def _session_or_404(pk: int) -> TableSession:
    try:
        return selectors.session_get(pk=pk)
    except TableSession.DoesNotExist:
        raise Http404(_("No such table session.")) from None


def _kop_session_or_404(pk: int) -> TableSession:
    """A Kop or Baśka session: the Kop entry URLs do not exist for a Vint session."""
    session = _session_or_404(pk)
    if session.game not in ("kop", "baska"):
        raise Http404(_("No such Kop or Baśka table session."))
    return session


def session_index(request: HttpRequest) -> HttpResponse:
    sessions = selectors.session_list()[:100]
    return render(request, "scoring/session_index.html", {"sessions": sessions})


@login_required
def session_new(request: HttpRequest) -> HttpResponse:
    if not is_scorer(request.user):
        raise PermissionDenied(_("Only directors and scorers start table sessions."))
    services.profile_sync_builtin()
    form = SessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        profile = form.cleaned_data["profile"]
        session = services.session_create(
            game=profile.game,
            profile_version=profile.current,
            players=form.players(),
            title=form.cleaned_data["title"],
            created_by=request.user,
            planned_deals=form.cleaned_data["planned_deals"],
        )
        return redirect("scoring:session", pk=session.pk)
    return render(request, "scoring/session_new.html", {"form": form})


def table_link(request: HttpRequest, token: str) -> HttpResponse:
    session = TableSession.objects.filter(entry_token=token).first()
    if session is None:
        raise Http404(_("This table link is not valid."))
    grant_link(request, session)
    return redirect("scoring:session", pk=session.pk)


def _kop_context(
    request: HttpRequest, session: TableSession, form: KopDealForm | None = None
) -> dict[str, Any]:
    board = selectors.kop_scoreboard(session=session, last=RECENT_ROWS)
    actor = entry_actor(request, session)
    rules = selectors.kop_rules(session)
    if form is None:
        form = KopDealForm(game=session.game, initial={"contract": "normal", "doublings": 0})
    contract = form["contract"].value() or "normal"
    cap = rules.doubling_cap.get(contract) if rules.doubling_cap else None
    points = form["declarer_points"].value()
    try:
        other_points: int | str = 104 - int(points) if points not in (None, "") else "—"
    except (TypeError, ValueError):
        other_points = "—"
    try:
        selected_doublings = int(form["doublings"].value() or 0)
    except (TypeError, ValueError):
        selected_doublings = 0
    seat_players = list(zip(range(1, 5), board.players, strict=True))
    return {
        "selected_contract": contract,
        "selected_declarers": _ints(form["declarers"].value()),
        "selected_doublings": selected_doublings,
        "selected_mode": "seats" if form["doubling_mode"].value() == "seats" else "count",
        "other_points": other_points,
        "totals_pairs": list(zip(board.players, board.totals, strict=True)),
        "next_dealer_name": board.players[board.next_dealer - 1].name,
        "session": session,
        "board": board,
        "form": form,
        "actor": actor,
        "can_write": can_write(actor, session),
        "is_director": is_director(request.user),
        **_pad_choices(session.game, rules, cap, get_language()),
        "hint": declarer_hint(contract),
        "last_rows": list(reversed(board.rows)),
        "edit_url_prefix": reverse("scoring:deal_edit", args=[session.pk, 0])[:-2],
        "seat_players": seat_players,
        "round_table": _round_table(session),
    }


@functools.lru_cache(maxsize=256)
def _pad_choices(game: str, rules: kop.KopRules, cap: int | None, language: str) -> dict[str, Any]:
    """The pad's fixed choices for a game, rules and language: built once, not on every save."""
    return {
        "contracts": [
            (c.name, selectors.contract_label(c.name), c.declarers) for c in kop.contracts_for(game)
        ],
        "doubling_counts": [
            (k, kop.doubling_name(k, rules) if k else "0")
            for k in range(0, (cap if cap is not None else 6) + 1)
        ],
        "hints_json": json.dumps({c.name: declarer_hint(c.name) for c in kop.contracts_for(game)}),
    }


def _round_table(session: TableSession) -> Any:
    """The tournament table this session is (session_get fetched it along), or None."""
    from tournaments.models import RoundTable

    try:
        return session.round_table
    except RoundTable.DoesNotExist:
        return None


def _ints(values: Any) -> list[int]:
    out = []
    for v in values or []:
        try:
            out.append(int(v))
        except (TypeError, ValueError):
            continue
    return out


def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    if session.game == "vint":
        from scoring.vint_views import vint_session_detail

        return vint_session_detail(request, session)
    return render(request, "scoring/kop_session.html", _kop_context(request, session))


def _require_writer(request: HttpRequest, session: TableSession) -> services.Actor:
    actor = entry_actor(request, session)
    if actor is None:
        raise PermissionDenied(_("You may not enter deals at this table."))
    if not can_write(actor, session):
        raise PermissionDenied(_("This session is locked: only a director may change it."))
    return actor


@require_POST
def kop_preview(request: HttpRequest, pk: int) -> HttpResponse:
    session = _kop_session_or_404(pk)
    _require_writer(request, session)
    form = KopDealForm(request.POST, game=session.game)
    context: dict[str, Any] = {"session": session, "preview_errors": [], "result": None}
    if form.is_valid():
        try:
            _deal, result = services.kop_deal_evaluate(session=session, facts=form.facts())
            context["result"] = result
            context["preview_pairs"] = list(
                zip(selectors.session_players(session), result.payments, strict=True)
            )
        except services.DealRejected as exc:
            context["preview_errors"] = [m for msgs in exc.errors.values() for m in msgs]
    else:
        context["preview_errors"] = [
            m for field, msgs in form.errors.items() for m in msgs if field != "declarer_points"
        ] or [_("Waiting for the card points.")]
    return render(request, "scoring/_kop_preview.html", context)


@require_POST
def kop_deal_add(request: HttpRequest, pk: int) -> HttpResponse:
    session = _kop_session_or_404(pk)
    actor = _require_writer(request, session)
    form = KopDealForm(request.POST, game=session.game)
    if form.is_valid():
        try:
            deal = services.kop_deal_record(
                session=session,
                facts=form.facts(),
                actor=actor,
                confirm_warnings=form.cleaned_data["confirm"],
            )
        except services.DealRejected as exc:
            form.add_engine_errors(exc.errors)
        except services.NeedsConfirmation as exc:
            form.warnings = exc.warnings
        except services.SessionLocked as exc:
            raise PermissionDenied(str(exc)) from None
        else:
            if not request.htmx:
                messages.success(request, _("Deal %(n)s saved.") % {"n": deal.number})
                return redirect("scoring:session", pk=session.pk)
            context = _kop_context(request, session)  # a fresh pad for the next deal
            context["saved_number"] = deal.number
            return render(request, "scoring/kop_session.html#pad", context)
    context = _kop_context(request, session, form)
    if request.htmx:
        return render(request, "scoring/kop_session.html#pad", context)
    return render(request, "scoring/kop_session.html", context)


def _deal_or_404(session: TableSession, number: int) -> KopDeal:
    return get_object_or_404(KopDeal, session=session, number=number)


def kop_deal_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session = _kop_session_or_404(pk)
    actor = _require_writer(request, session)
    deal = _deal_or_404(session, number)
    if request.method == "POST":
        form = KopDealForm(request.POST, game=session.game)
        if form.is_valid():
            try:
                services.kop_deal_correct(
                    deal=deal,
                    facts=form.facts(),
                    actor=actor,
                    reason=form.cleaned_data.get("reason") or "",
                    confirm_warnings=form.cleaned_data["confirm"],
                )
            except services.DealRejected as exc:
                form.add_engine_errors(exc.errors)
            except services.NeedsConfirmation as exc:
                form.warnings = exc.warnings
            else:
                messages.success(request, _("Deal %(n)s corrected.") % {"n": number})
                return redirect("scoring:session", pk=session.pk)
    else:
        initial: dict[str, Any] = {
            "contract": deal.contract,
            "declarers": deal.declarers,
            "declarer_points": deal.declarer_points,
            "doublings": deal.doublings or 0,
        }
        if deal.doubling_seats is not None:
            initial["doubling_mode"] = "seats"
            initial["doubling_seats"] = " ".join(str(s) for s in deal.doubling_seats)
        form = KopDealForm(game=session.game, initial=initial)
    context = _kop_context(request, session, form)
    context.update(
        editing=deal,
        history=selectors.deal_history(session=session, number=number),
    )
    return render(request, "scoring/kop_deal_edit.html", context)


@require_POST
def kop_deal_void(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session = _kop_session_or_404(pk)
    actor = _require_writer(request, session)
    deal = _deal_or_404(session, number)
    form = ReasonForm(request.POST)
    if form.is_valid():
        services.kop_deal_void(deal=deal, actor=actor, reason=form.cleaned_data["reason"])
        messages.success(request, _("Deal %(n)s voided.") % {"n": number})
    else:
        messages.error(request, _("Say why the deal is voided."))
        return redirect("scoring:deal_edit", pk=pk, number=number)
    return redirect("scoring:session", pk=pk)


@require_POST
@director_required
def session_lock(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    if request.POST.get("unlock"):
        services.session_unlock(session=session)
        messages.success(request, _("Session unlocked."))
    else:
        services.session_lock(session=session, user=request.user)
        messages.success(request, _("Session locked: only directors can change it now."))
    return redirect("scoring:session", pk=pk)


def session_history(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    if session.game == "vint":
        return redirect("scoring:vint_history", pk=pk)
    return render(
        request,
        "scoring/history.html",
        {"session": session, "history": selectors.deal_history(session=session)},
    )


def session_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    if session.game == "vint":
        from scoring.vint_views import vint_session_sheet

        return vint_session_sheet(request, session)
    board = selectors.kop_scoreboard(session=session)
    return render(request, "scoring/kop_sheet.html", {"session": session, "board": board})


def score_pad(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    session = _session_or_404(pk) if pk is not None else None
    players = selectors.session_players(session) if session else []
    rows = range(1, (session.planned_deals if session and session.planned_deals else 32) + 1)
    return render(
        request,
        "scoring/kop_pad.html",
        {
            "session": session,
            "players": players,
            "rows": [(n, kop.dealer_for_deal(n)) for n in rows],
            "contracts": [selectors.contract_label(c.name) for c in kop.contracts_for("baska")],
        },
    )


def session_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    sheet = selectors.session_sheet_json(session=session)
    response = JsonResponse(sheet, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="session-{pk}.json"'
    return response


def session_export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="session-{pk}.csv"'
    writer = csv.writer(response)
    for row in selectors.session_csv_rows(session=session):
        writer.writerow(row)
    return response


@director_required
def session_import(request: HttpRequest) -> HttpResponse:
    form = SheetUploadForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        raw = form.cleaned_data["sheet"].read()
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            problems = [_("The file is not JSON: %(error)s") % {"error": exc}]
        else:
            try:
                session = services.session_import_sheet(
                    data=data, title=form.cleaned_data["title"], user=request.user
                )
            except SheetError as exc:
                problems = exc.problems
            else:
                messages.success(request, _("Scoresheet imported."))
                return redirect(reverse("scoring:session", kwargs={"pk": session.pk}))
    return render(request, "scoring/session_import.html", {"form": form, "problems": problems})


def profile_index(request: HttpRequest) -> HttpResponse:
    services.profile_sync_builtin()
    profiles = RuleProfile.objects.prefetch_related("versions").all()
    return render(request, "scoring/profiles.html", {"profiles": profiles})


@director_required
def profile_edit(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    profile = get_object_or_404(RuleProfile, slug=slug) if slug else None
    if profile and profile.builtin:
        raise PermissionDenied(_("Built-in profiles follow the rules documents; copy one instead."))
    initial: dict[str, Any] = {}
    if profile:
        current = profile.current
        initial = {
            "name": profile.name,
            "game": profile.game,
            "options": current.options,
            "tournament": current.tournament,
        }
    elif request.GET.get("copy"):
        source = get_object_or_404(RuleProfile, slug=request.GET["copy"])
        initial = {
            "name": f"{source.name} ({_('copy')})",
            "game": source.game,
            "options": source.current.options,
            "tournament": source.current.tournament,
        }
    form = ProfileForm(request.POST or None, initial=initial)
    if profile:
        form.fields["game"].disabled = True
    if request.method == "POST" and form.is_valid():
        version = services.profile_save(
            profile=profile,
            name=form.cleaned_data["name"],
            game=form.cleaned_data["game"],
            options=form.cleaned_data["options"],
            tournament=form.cleaned_data["tournament"],
        )
        messages.success(
            request,
            _("Saved as version %(v)s. Sessions already started keep their version.")
            % {"v": version.version},
        )
        return redirect("scoring:profiles")
    return render(request, "scoring/profile_edit.html", {"form": form, "profile": profile})
