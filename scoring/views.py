"""Table sessions: the scorer's pad, the sheet, corrections, export and import.

One set of views for every game: each asks the session's game (``scoring.games``) for
its form, its pad and sheet context and its templates. One view, one template, named
partials: an htmx save gets only ``<session template>#pad``; without JavaScript the
same forms post and redirect.

A save answers with the header ``X-Deal-Outcome``: ``saved``, ``replayed`` (the same
form came twice: nothing new stored), ``conflict`` (another phone stored the deal this
form expected to create: the pad shows it and offers this one as the next deal) or
``rejected``; for saved and replayed ``X-Deal-Number`` is the deal's slot ("7", "2.7").
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.validators import slug_re
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.http import HtmxHttpRequest
from clubs.roles import director_required, is_director, is_scorer
from clubs.selectors import club_number_label, several_clubs
from clubs.services import player_create
from config.csvexport import csv_response
from scoring import selectors, services
from scoring.engines import kop
from scoring.engines.errors import SheetError
from scoring.engines.scoresheet import MAX_SHEET_BYTES, load_sheet
from scoring.errors import AcceptRefused
from scoring.forms import (
    EntryKeys,
    ProfileForm,
    ReasonForm,
    SessionForm,
    SheetUploadForm,
    new_submission_key,
)
from scoring.games import Game, Slot, game_for, game_of
from scoring.games.kop import contract_label
from scoring.models import RuleProfile, TableSession
from scoring.permissions import can_write, entry_actor, grant_link, link_grant
from scoring.problems import problem_text
from scoring.visibility import results_hidden


def _session_or_404(pk: int) -> TableSession:
    try:
        return selectors.session_get(pk=pk)
    except TableSession.DoesNotExist:
        raise Http404(_("No such table session.")) from None


def session_index(request: HttpRequest) -> HttpResponse:
    sessions = selectors.session_list()[:100]
    return render(request, "scoring/session_index.html", {"sessions": sessions})


@login_required
def session_new(request: HttpRequest) -> HttpResponse:
    if not is_scorer(request.user):
        raise PermissionDenied(_("Only directors and scorers start table sessions."))
    form = SessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        profile = form.cleaned_data["profile"]
        with transaction.atomic():
            registered = {
                seat: player_create(club=form.cleaned_data["club"], name=name)
                for seat, name in form.newcomers().items()
            }
            session = services.session_create(
                game=profile.game,
                profile_version=profile.current,
                players=form.players(registered),
                title=form.cleaned_data["title"],
                created_by=request.user,
                planned_deals=form.cleaned_data["planned_deals"],
            )
        return redirect("scoring:session", pk=session.pk)
    return render(request, "scoring/session_new.html", {"form": form})


def table_link(request: HttpRequest, token: str) -> HttpResponse:
    """The QR card's link: the phone says which seat it is, then enters deals there
    (``scoring.permissions`` explains the grant)."""
    session = selectors.session_by_token(token=token)
    if session is None:
        raise Http404(_("This table link is not valid."))
    if link_grant(request, session) is not None:
        return redirect("scoring:session", pk=session.pk)
    seats = list(enumerate(selectors.sheet_players(session), 1))
    error = ""
    if request.method == "POST":
        seat = request.POST.get("seat", "")
        if seat.isdigit() and int(seat) in dict(seats):
            grant_link(request, session, seat=int(seat))
            return redirect("scoring:session", pk=session.pk)
        error = _("Choose your seat at this table.")
    return render(
        request,
        "scoring/table_link.html",
        {"session": session, "seat_players": seats, "token": token, "error": error},
    )


def edit_url(session: TableSession, slot: Slot) -> str:
    if slot.rubber:
        return reverse("scoring:vint_deal_edit", args=[session.pk, slot.rubber, slot.number])
    return reverse("scoring:deal_edit", args=[session.pk, slot.number])


def _pad_context(
    request: HttpRequest,
    session: TableSession,
    game: Game,
    form: Any = None,
    *,
    actor: services.Actor | None,
    editing: Any = None,
) -> dict[str, Any]:
    """What the pad shows (the ``#pad`` partial a save answers with): the game's pad,
    the seats, and whether this actor may write."""
    context = game.pad_context(request, session, form, editing=editing)
    form = context["form"]
    key = form["submission_key"].value() if form.is_bound else None
    players = selectors.sheet_players(session)
    context.update(
        session=session,
        game=game,
        actor=actor,
        can_write=can_write(actor, session),
        players=players,
        seat_players=list(enumerate(players, 1)),
        submission_key=key or new_submission_key(),
    )
    return context


def _context(
    request: HttpRequest,
    session: TableSession,
    game: Game,
    form: Any = None,
    *,
    editing: Any = None,
) -> dict[str, Any]:
    """What every page of a table shows: the pad plus the page around it (the round's
    clock, the aside: who sits where, who may accept)."""
    actor = entry_actor(request, session)
    context = _pad_context(request, session, game, form, actor=actor, editing=editing)
    players = context["players"]
    context.update(
        actor_wrote=actor is not None
        and actor.seat is not None
        and services.wrote_deals(session=session, actor=actor),
        is_director=is_director(request.user),
        round_table=selectors.round_table_of(session),
        # Only the page's aside shows them (a callable: the template calls it when it
        # does).
        seat_labels=lambda: _seat_labels(players),
    )
    return context


def _results_visible(request: HttpRequest, session: TableSession) -> bool:
    """Hidden results (``scoring.visibility``) are for directors and the table's own
    people: its link holders and its scorer accounts."""
    return (
        not results_hidden(session)
        or is_director(request.user)
        or entry_actor(request, session) is not None
    )


def _visible_session_or_404(request: HttpRequest, pk: int) -> TableSession:
    """A session whose sheet this request may read; a hidden one is "no such session" to
    anyone else, so a guessed id tells nothing."""
    session = _session_or_404(pk)
    if not _results_visible(request, session):
        raise Http404(_("No such table session."))
    return session


def _seat_labels(players: list[Any]) -> list[tuple[int, Any, str]]:
    """(seat, player, club number) for the aside; the club is named where several are."""
    several = several_clubs()
    return [
        (seat, player, club_number_label(player, several=several))
        for seat, player in enumerate(players, 1)
    ]


def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    if not _results_visible(request, session):
        return render(request, "scoring/session_hidden.html", {"session": session})
    game = game_of(session)
    return render(request, game.session_template, _context(request, session, game))


def _require_writer(request: HttpRequest, session: TableSession) -> services.Actor:
    actor = entry_actor(request, session)
    if actor is None:
        raise PermissionDenied(_("You may not enter deals at this table."))
    if not can_write(actor, session):
        raise PermissionDenied(_("This session is locked: only a director may change it."))
    return actor


@require_POST
def deal_preview(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session_or_404(pk)
    _require_writer(request, session)
    game = game_of(session)
    form = game.form(session, request.POST)
    context = {"session": session, **game.preview_context(request, session, form)}
    return render(request, game.preview_template, context)


def _saved_message(slot: Slot, *, replayed: bool) -> str:
    names = {"r": slot.rubber, "n": slot.number}
    if replayed:
        if slot.rubber:
            return _("Rubber %(r)s, deal %(n)s was already saved (sent twice).") % names
        return _("Deal %(n)s was already saved (sent twice).") % names
    if slot.rubber:
        return _("Rubber %(r)s, deal %(n)s saved.") % names
    return _("Deal %(n)s saved.") % names


@require_POST
def deal_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Save the pad's deal. One locked read of the session serves the permission check,
    the form (the session's rules), the save and the answer (``services.deal_enter``); an
    htmx save is answered with the pad alone, rendered after the commit."""
    seen: dict[str, Any] = {}

    def prepare(session: TableSession) -> services.Entry | None:
        actor = _require_writer(request, session)
        game = game_of(session)
        form = game.form(session, request.POST)
        seen.update(session=session, actor=actor, game=game, form=form)
        facts = game.form_facts(form)
        if facts is None:
            return None
        expected, _key = form.entry_keys()
        return services.Entry(
            facts=facts,
            actor=actor,
            confirm_warnings=bool(form.cleaned_data.get("confirm")),
            expected=expected,
            extra=game.form_extra(form),
        )

    outcome, conflict, stored = "rejected", None, None
    # The phone's grant is read before the lock (its django session), not while holding it.
    request.user.is_authenticated  # noqa: B018
    try:
        session, stored = services.deal_enter(
            session_id=pk,
            # The locked read looks up what this key stored before.
            submission_key=EntryKeys.posted_key(request.POST),
            prepare=prepare,
            # Whether it is a tournament's table (scoring reads the reverse accessor the
            # tournaments app declares): a club session's save then tells no tournament.
            related=("round_table",),
        )
    except TableSession.DoesNotExist:
        raise Http404(_("No such table session.")) from None
    except services.DealRejected as exc:
        seen["form"].add_engine_errors(exc.errors)
    except services.NeedsConfirmation as exc:
        seen["form"].warnings = exc.warnings
    except services.DealConflict as exc:
        outcome, conflict = "conflict", exc
    except services.SessionLocked as exc:
        raise PermissionDenied(str(exc)) from None
    # The session as read under the lock (and, after a save, with its new tally): the
    # table as it is now, whoever saved meanwhile.
    session, game, form = seen["session"], seen["game"], seen["form"]
    if stored is not None:
        saved = _saved_message(stored.slot, replayed=stored.replayed)
        if not request.htmx:
            messages.success(request, saved)
            return redirect("scoring:session", pk=session.pk)
        response = _saved_answer(request, session, game, seen["actor"], stored, saved)
        response["X-Deal-Outcome"] = "replayed" if stored.replayed else "saved"
        response["X-Deal-Number"] = stored.slot.label
        return response
    if request.htmx:
        context = _pad_context(request, session, game, form, actor=seen["actor"])
    else:  # the whole page again, as a visit reads it
        session = _session_or_404(pk)
        context = _context(request, session, game, form)
    if conflict is not None:
        context["conflict"] = {
            "expected": conflict.expected.label,
            "stored": game.summary(conflict.stored) if conflict.stored is not None else "",
            "offered": conflict.offered.label if conflict.offered is not None else "",
        }
    template = game.session_template
    response = render(request, f"{template}#pad" if request.htmx else template, context)
    response["X-Deal-Outcome"] = outcome
    return response


def _saved_answer(
    request: HttpRequest,
    session: TableSession,
    game: Game,
    actor: services.Actor,
    stored: services.Stored,
    saved: str,
) -> HttpResponse:
    """An htmx save's answer. A pad whose form was drawn empty asks for the short one
    (``_short_answer.html``): the parts the new deal changes, swapped in by id, while the
    form stays and is emptied in the phone (``saved.js``). Otherwise, or when the game
    must draw the pad again (``Game.saved_context``), or when anything else was written
    since the phone drew its pad (another phone's deal, a director's correction: the
    session's ``revision``), or for a form sent twice, the whole pad for the next deal,
    from the tally and the newest rows."""
    short = (
        request.POST.get("pad_answer") == "short"
        and not stored.replayed
        # Nothing but this deal was written since the phone drew its pad.
        and request.POST.get("pad_revision") == str(session.revision - 1)
    )
    context = game.saved_context(request, session, stored.row, stored.before) if short else None
    if context is None:
        context = _pad_context(request, session, game, actor=actor)
        context["saved"] = saved
        return render(request, f"{game.session_template}#pad", context)
    context.update(
        session=session,
        actor=actor,
        can_write=can_write(actor, session),
        submission_key=new_submission_key(),
        saved=saved,
    )
    # Nothing in these parts needs the request's context processors.
    response = HttpResponse(render_to_string(f"{game.session_template}#saved", context))
    response["HX-Reswap"] = "none"  # the answer is its out-of-band parts only
    response["X-Pad-Answer"] = "short"
    return response


def _corrected(slot: Slot) -> str:
    if slot.rubber:
        return _("Rubber %(r)s, deal %(n)s corrected.") % {"r": slot.rubber, "n": slot.number}
    return _("Deal %(n)s corrected.") % {"n": slot.number}


def _voided(slot: Slot) -> str:
    if slot.rubber:
        return _("Rubber %(r)s, deal %(n)s voided.") % {"r": slot.rubber, "n": slot.number}
    return _("Deal %(n)s voided.") % {"n": slot.number}


def _deal_or_404(session: TableSession, slot: Slot) -> Any:
    row = game_of(session).deal_at(session, slot)
    if row is None:
        raise Http404(_("No such deal."))
    return row


def deal_edit(request: HttpRequest, pk: int, number: int, rubber: int = 0) -> HttpResponse:
    session = _session_or_404(pk)
    actor = _require_writer(request, session)
    game = game_of(session)
    slot = Slot(rubber, number)
    row = _deal_or_404(session, slot)
    if request.method == "POST":
        form = game.form(session, request.POST)
        facts = game.form_facts(form)
        if facts is not None:
            try:
                services.deal_correct(
                    session=session,
                    slot=slot,
                    facts=facts,
                    actor=actor,
                    reason=form.cleaned_data.get("reason") or "",
                    confirm_warnings=bool(form.cleaned_data.get("confirm")),
                )
            except services.DealRejected as exc:
                form.add_engine_errors(exc.errors)
            except services.NeedsConfirmation as exc:
                form.warnings = exc.warnings
            except services.SessionLocked as exc:
                raise PermissionDenied(str(exc)) from None
            else:
                messages.success(request, _corrected(slot))
                return redirect("scoring:session", pk=session.pk)
    else:
        form = game.form_for_deal(session, row)
    context = _context(request, session, game, form, editing=row)
    if request.method == "GET":
        getattr(form, "slot_errors", {}).pop("reason", None)
    context.update(
        history=game.history(session, slot),
        editing_label=game.summary(row),
        void_url=reverse(
            "scoring:vint_deal_void" if slot.rubber else "scoring:deal_void",
            args=[session.pk, *([slot.rubber] if slot.rubber else []), slot.number],
        ),
    )
    return render(request, game.edit_template, context)


@require_POST
def deal_void(request: HttpRequest, pk: int, number: int, rubber: int = 0) -> HttpResponse:
    session = _session_or_404(pk)
    actor = _require_writer(request, session)
    slot = Slot(rubber, number)
    _deal_or_404(session, slot)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why the deal is voided."))
        return redirect(edit_url(session, slot))
    try:
        services.deal_void(
            session=session, slot=slot, actor=actor, reason=form.cleaned_data["reason"]
        )
    except services.DealRejected as exc:
        for msgs in exc.errors.values():
            for m in msgs:
                messages.error(request, m)
        return redirect(edit_url(session, slot))
    except services.SessionLocked as exc:
        raise PermissionDenied(str(exc)) from None
    messages.success(request, _voided(slot))
    return redirect("scoring:session", pk=pk)


def _director_actor(request: HttpRequest) -> services.Actor:
    user = request.user
    return services.Actor(label=user.get_username(), is_director=True, user_id=user.pk)


def _reason_errors(exc: services.DealRejected, request: HttpRequest) -> None:
    for msgs in exc.errors.values():
        for m in msgs:
            messages.error(request, m)


@require_POST
@director_required
def session_lock(request: HttpRequest, pk: int) -> HttpResponse:
    """Lock or (saying why) unlock; both go to the table's history."""
    session = _session_or_404(pk)
    actor, reason = _director_actor(request), request.POST.get("reason", "")
    try:
        if request.POST.get("unlock"):
            services.session_unlock(session=session, actor=actor, reason=reason)
            messages.success(request, _("Session unlocked."))
        else:
            services.session_lock(session=session, actor=actor, reason=reason)
            messages.success(request, _("Session locked: only directors can change it now."))
    except services.DealRejected as exc:
        _reason_errors(exc, request)
    return redirect("scoring:session", pk=pk)


@require_POST
def session_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """A club session's result accepted by a phone bound to another seat than the one(s)
    that entered deals, or a director with a reason (``services.session_accept``)."""
    session = _session_or_404(pk)
    actor = entry_actor(request, session)
    if actor is None:
        raise PermissionDenied(_("Only the table (through its link) or a director may accept."))
    try:
        services.session_accept(session=session, actor=actor, reason=request.POST.get("reason", ""))
    except AcceptRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Result accepted. Thank you!"))
    return redirect("scoring:session", pk=pk)


@require_POST
@director_required
def session_rating_exclude(request: HttpRequest, pk: int) -> HttpResponse:
    """A director leaves a club session out of the ratings, or rates it again, with a reason."""
    session = _session_or_404(pk)
    try:
        services.session_rating_exclude(
            session=session,
            actor=_director_actor(request),
            reason=request.POST.get("reason", ""),
            excluded=not request.POST.get("include"),
        )
    except AcceptRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Saved: the ratings follow in a moment."))
    return redirect("scoring:session", pk=pk)


@require_POST
@director_required
def session_link_reissue(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke the table link (every phone holding it loses the table) and make a new one."""
    session = _session_or_404(pk)
    try:
        services.session_link_reissue(
            session=session, actor=_director_actor(request), reason=request.POST.get("reason", "")
        )
    except services.DealRejected as exc:
        _reason_errors(exc, request)
    else:
        messages.success(request, _("The old table link no longer works: here is the new one."))
    return redirect("scoring:session", pk=pk)


def session_history(request: HttpRequest, pk: int) -> HttpResponse:
    session = _visible_session_or_404(request, pk)
    game = game_of(session)
    writable = can_write(entry_actor(request, session), session)
    return render(
        request,
        game.history_template,
        {"session": session, "history": game.history(session), "can_write": writable},
    )


def session_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    session = _visible_session_or_404(request, pk)
    game = game_of(session)
    writable = can_write(entry_actor(request, session), session)
    return render(
        request,
        game.sheet_template,
        {"session": session, "can_write": writable, **game.sheet_context(session)},
    )


def score_pad(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """The printable Kop/Baśka paper pad, blank or with a session's players; it lists the
    contracts of the session's game (a blank pad: ``?game=baska``, Kop by default)."""
    session = _session_or_404(pk) if pk is not None else None
    if session is not None:
        if not game_of(session).paper_pad:
            raise Http404(_("This game has no paper pad."))
        code = session.game
    else:
        code = request.GET.get("game", "kop")
        if code not in kop.GAMES:
            code = "kop"
    players = selectors.sheet_players(session) if session else []
    rows = range(1, (session.planned_deals if session and session.planned_deals else 32) + 1)
    return render(
        request,
        "scoring/kop_pad.html",
        {
            "session": session,
            "game_label": game_for(code).label,
            "players": players,
            "rows": [(n, kop.dealer_for_deal(n)) for n in rows],
            # A session's pad lists only what its profile allows (rules/kop.md §7.1).
            "contracts": [
                contract_label(c.name)
                for c in (
                    kop.contracts_for(code, game_of(session).rules(session))
                    if session
                    else kop.contracts_for(code)
                )
            ],
        },
    )


def session_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    session = _visible_session_or_404(request, pk)
    sheet = game_of(session).sheet_json(session)
    response = JsonResponse(sheet, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="session-{pk}.json"'
    return response


def session_export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    session = _visible_session_or_404(request, pk)
    return csv_response(game_of(session).csv_rows(session), filename=f"session-{pk}.csv")


@director_required
def session_import(request: HttpRequest) -> HttpResponse:
    form = SheetUploadForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            data = load_sheet(form.cleaned_data["sheet"].read(MAX_SHEET_BYTES + 1))
            session = services.session_import_sheet(
                data=data, title=form.cleaned_data["title"], user=request.user
            )
        except SheetError as exc:
            problems = [problem_text(p) for p in exc.coded]
        else:
            messages.success(request, _("Scoresheet imported."))
            return redirect(reverse("scoring:session", kwargs={"pk": session.pk}))
    return render(request, "scoring/session_import.html", {"form": form, "problems": problems})


def profile_index(request: HttpRequest) -> HttpResponse:
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
    elif copy := request.GET.get("copy"):
        if not slug_re.match(copy):  # a NUL or worse never reaches the database
            raise Http404(_("No such rule profile."))
        source = get_object_or_404(RuleProfile, slug=copy)
        initial = {
            "name": f"{source.display_name} ({_('copy')})",
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
