"""Table sessions: the scorer's pad, the sheet, corrections, export and import.

One set of views and one page template per view for every game: each asks the session's
game (``scoring.games``) for the part it shows -- the entry's form, pad and partials, the
sheet's context and history, the ledger's deals -- and never tests the game. Deals are
named by their slot ("7", "2.7": ``scoring.urls.SlotConverter``). One view, one template,
named partials: an htmx save gets only ``scoring/session.html#pad``; without JavaScript
the same forms post and redirect.

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
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.http import HtmxHttpRequest
from clubs.roles import director_required, directs, is_scorer, scored_club_ids
from clubs.selectors import club_number_label, several_clubs
from clubs.services import player_create
from config.csvexport import csv_response
from scoring import acceptance, selectors, services
from scoring.engines.errors import SheetError
from scoring.engines.scoresheet import MAX_SHEET_BYTES, load_sheet
from scoring.forms import (
    EntryKeys,
    ReasonForm,
    SessionForm,
    SheetUploadForm,
    new_submission_key,
)
from scoring.games import all_games, game_for, game_of
from scoring.games.interface import DealForm, Game, Slot
from scoring.imports import session_import_sheet
from scoring.models import TableSession
from scoring.permissions import can_write, entry_actor, grant_link, link_grant
from scoring.problems import problem_text
from scoring.visibility import results_hidden

SESSION_PAGE = "scoring/session.html"  # the table page, for every game


def session_or_404(pk: int) -> TableSession:
    try:
        return selectors.session_get(pk=pk)
    except TableSession.DoesNotExist:
        raise Http404(_("No such table session.")) from None


def session_index(request: HttpRequest) -> HttpResponse:
    """The newest tables: every club's for the public and a site administrator; a director
    or a scorer sees his own clubs' (``?all=1``: every club's, as the public does)."""
    own = scored_club_ids(request.user)
    every_club = not own or bool(request.GET.get("all"))
    sessions = selectors.session_list(club_ids=None if every_club else own)[:100]
    blank_pads = [
        (g.code, g.entry.paper_pad.blank_label(g.code)) for g in all_games() if g.entry.paper_pad
    ]
    context = {
        "sessions": sessions,
        "blank_pads": blank_pads,
        # A role holder may switch between his clubs' tables and every club's.
        "own_clubs": bool(own),
        "every_club": every_club,
    }
    return render(request, "scoring/session_index.html", context)


@login_required
def session_new(request: HttpRequest) -> HttpResponse:
    if not is_scorer(request.user):
        raise PermissionDenied(_("Only directors and scorers start table sessions."))
    form = SessionForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        profile, club = form.cleaned_data["profile"], form.cleaned_data["club"]
        with transaction.atomic():
            registered = {
                seat: player_create(club=club, name=name) for seat, name in form.newcomers().items()
            }
            session = services.session_create(
                game=profile.game,
                profile_version=profile.current,
                players=form.players(registered),
                title=form.cleaned_data["title"],
                created_by=request.user,
                planned_deals=form.cleaned_data["planned_deals"],
                club=club,
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
        # Compared as text: int() of thousands of digits refuses (a 500), a seat never has.
        if seat in {str(n) for n, _player in seats}:
            grant_link(request, session, seat=int(seat))
            return redirect("scoring:session", pk=session.pk)
        error = _("Choose your seat at this table.")
    return render(
        request,
        "scoring/table_link.html",
        {"session": session, "seat_players": seats, "token": token, "error": error},
    )


def _pad_context(
    session: TableSession,
    game: Game,
    form: DealForm | None = None,
    *,
    actor: services.Actor | None,
    editing: Any = None,
    whole_page: bool = True,
) -> dict[str, Any]:
    """What the pad shows (the ``#pad`` partial a save answers with): the game's pad,
    the seats, and whether this actor may write."""
    context = game.entry.pad_context(session, form, editing=editing, whole_page=whole_page)
    form = context["form"]
    key = form["submission_key"].value() if form.is_bound else None
    players = selectors.sheet_players(session)
    context.update(
        session=session,
        game=game,
        pad_templates=game.entry.templates,
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
    form: DealForm | None = None,
    *,
    editing: Any = None,
) -> dict[str, Any]:
    """What every page of a table shows: the pad plus the page around it (the round's
    clock, the aside: who sits where, who may accept)."""
    actor = entry_actor(request, session)
    context = _pad_context(session, game, form, actor=actor, editing=editing)
    players = context["players"]
    is_director = directs(request.user, session.club_id)
    context.update(
        # Nothing to accept before the first deal: no phone is offered the button yet.
        has_deals=bool(game.results.counted_deals([session.pk]).get(session.pk)),
        actor_wrote=actor is not None
        and actor.seat is not None
        and acceptance.wrote_deals(session=session, actor=actor),
        # On a table's pages "director" is a director of the table's club: the director's
        # box (the table link, lock, planned deals), the ratings box, the round's cards.
        is_director=is_director,
        # The table's link and QR code, to hand to another player: for whoever may manage
        # the table -- its club's directors and the scorer accounts of the table (an actor
        # with no seat) -- while the table is open.
        may_hand_link=not session.locked
        and (is_director or (actor is not None and actor.seat is None)),
        round_table=selectors.round_table_of(session),
        # Only the page's aside shows them (a callable: the template calls it when it
        # does).
        seat_labels=lambda: _seat_labels(players),
    )
    return context


def _results_visible(request: HttpRequest, session: TableSession) -> bool:
    """Hidden results (``scoring.visibility``) are for the directors of the table's club
    and the table's own people: its link holders and its scorer accounts."""
    return (
        not results_hidden(session)
        or directs(request.user, session.club_id)
        or entry_actor(request, session) is not None
    )


def _visiblesession_or_404(request: HttpRequest, pk: int) -> TableSession:
    """A session whose sheet this request may read; a hidden one is "no such session" to
    anyone else, so a guessed id tells nothing."""
    session = session_or_404(pk)
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
    session = session_or_404(pk)
    if not _results_visible(request, session):
        return render(request, "scoring/session_hidden.html", {"session": session})
    return render(request, SESSION_PAGE, _context(request, session, game_of(session)))


def _require_writer(request: HttpRequest, session: TableSession) -> services.Actor:
    actor = entry_actor(request, session)
    if actor is None:
        raise PermissionDenied(_("You may not enter deals at this table."))
    if not can_write(actor, session):
        raise PermissionDenied(
            _("This table is locked: nothing changes until the director unlocks it, with a reason.")
        )
    return actor


def _slot_posted(text: str | None) -> Slot | None:
    """The slot a correction page's preview names (``editing``), if it names one."""
    try:
        return Slot.parse(text) if text else None
    except ValueError:
        return None


@require_POST
def deal_preview(request: HttpRequest, pk: int) -> HttpResponse:
    session = session_or_404(pk)
    _require_writer(request, session)
    game = game_of(session)
    form = game.entry.form(session, request.POST)
    editing = _slot_posted(request.POST.get("editing"))
    context = {"session": session, **game.entry.preview_context(session, form, editing)}
    return render(request, game.entry.templates.preview, context)


def _slot_message(slot: Slot, kop_like: str, with_rubber: str) -> str:
    """A sentence about the deal at ``slot``: ``kop_like`` names its number, ``with_rubber``
    its rubber too (a slot with a rubber)."""
    if slot.rubber:
        return with_rubber % {"r": slot.rubber, "n": slot.number}
    return kop_like % {"n": slot.number}


def _saved_message(slot: Slot, *, replayed: bool) -> str:
    if replayed:
        return _slot_message(
            slot,
            _("Deal %(n)s was already saved (sent twice)."),
            _("Rubber %(r)s, deal %(n)s was already saved (sent twice)."),
        )
    return _slot_message(slot, _("Deal %(n)s saved."), _("Rubber %(r)s, deal %(n)s saved."))


@require_POST
def deal_add(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Save the pad's deal. One locked read of the session serves the permission check,
    the form (the session's rules), the save and the answer (``services.deal_enter``); an
    htmx save is answered with the pad alone, rendered after the commit."""
    seen: dict[str, Any] = {}

    def prepare(session: TableSession) -> services.Entry | None:
        actor = _require_writer(request, session)
        game = game_of(session)
        form = game.entry.form(session, request.POST)
        seen.update(session=session, actor=actor, game=game, form=form)
        facts = form.deal_facts()
        if facts is None:
            return None
        expected, _key = form.entry_keys()
        return services.Entry(
            facts=facts,
            actor=actor,
            confirm_warnings=form.confirmed(),
            expected=expected,
            extra=form.deal_extra(),
        )

    outcome, conflict, stored = "rejected", None, None
    # The phone's grant is read before the lock (its django session), not while holding it.
    request.user.is_authenticated  # noqa: B018
    try:
        session, stored = services.deal_enter(
            session_id=pk,
            submission_key=EntryKeys.posted_key(request.POST),
            prepare=prepare,
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
        context = _pad_context(session, game, form, actor=seen["actor"], whole_page=False)
    else:  # the whole page again, as a visit reads it
        session = session_or_404(pk)
        context = _context(request, session, game, form)
    if conflict is not None:
        context["conflict"] = {
            "expected": conflict.expected.label,
            "stored": game.ledger.summary(conflict.stored) if conflict.stored is not None else "",
            "offered": conflict.offered.label if conflict.offered is not None else "",
        }
    response = render(request, f"{SESSION_PAGE}#pad" if request.htmx else SESSION_PAGE, context)
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
    must draw the pad again (``Entry.saved_context``), or when anything else was written
    since the phone drew its pad (another phone's deal, a director's correction: the
    session's ``revision``), or for a form sent twice, the whole pad for the next deal,
    from the tally and the newest rows."""
    short = (
        request.POST.get("pad_answer") == "short"
        and not stored.replayed
        # Nothing but this deal was written since the phone drew its pad.
        and request.POST.get("pad_revision") == str(session.revision - 1)
    )
    context = game.entry.saved_context(session, stored.row, stored.before) if short else None
    if context is None:
        context = _pad_context(session, game, actor=actor, whole_page=False)
        context["saved"] = saved
        return render(request, f"{SESSION_PAGE}#pad", context)
    context.update(
        session=session,
        pad_templates=game.entry.templates,
        actor=actor,
        can_write=can_write(actor, session),
        submission_key=new_submission_key(),
        saved=saved,
    )
    # Nothing in these parts needs the request's context processors.
    response = HttpResponse(render_to_string(f"{SESSION_PAGE}#saved", context))
    response["HX-Reswap"] = "none"  # the answer is its out-of-band parts only
    response["X-Pad-Answer"] = "short"
    return response


def _deal_or_404(session: TableSession, slot: Slot) -> Any:
    row = game_of(session).ledger.deal_at(session, slot)
    if row is None:
        raise Http404(_("No such deal."))
    return row


def deal_edit(request: HttpRequest, pk: int, slot: Slot) -> HttpResponse:
    session = session_or_404(pk)
    actor = _require_writer(request, session)
    game = game_of(session)
    row = _deal_or_404(session, slot)
    if request.method == "POST":
        form = game.entry.form(session, request.POST)
        facts = form.deal_facts()
        if facts is not None:
            try:
                services.deal_correct(
                    session=session,
                    slot=slot,
                    facts=facts,
                    actor=actor,
                    reason=form.reason_given(),
                    confirm_warnings=form.confirmed(),
                )
            except services.DealRejected as exc:
                form.add_engine_errors(exc.errors)
            except services.NeedsConfirmation as exc:
                form.warnings = exc.warnings
            except services.SessionLocked as exc:
                raise PermissionDenied(str(exc)) from None
            else:
                messages.success(
                    request,
                    _slot_message(
                        slot, _("Deal %(n)s corrected."), _("Rubber %(r)s, deal %(n)s corrected.")
                    ),
                )
                return redirect("scoring:session", pk=session.pk)
        reason_errors = form.field_errors("reason")
    else:
        form = game.entry.form_for_deal(session, row)
        reason_errors = []
    context = _context(request, session, game, form, editing=row)
    context.update(
        history=game.sheet.history(session, slot),
        editing_label=game.ledger.summary(row),
        editing_title=_slot_message(
            slot, _("Correct deal %(n)s"), _("Correct rubber %(r)s, deal %(n)s")
        ),
        reason_errors=reason_errors,
    )
    return render(request, "scoring/deal_edit.html", context)


@require_POST
def deal_void(request: HttpRequest, pk: int, slot: Slot) -> HttpResponse:
    session = session_or_404(pk)
    actor = _require_writer(request, session)
    _deal_or_404(session, slot)
    form = ReasonForm(request.POST)
    edit = reverse("scoring:deal_edit", args=[session.pk, slot])
    if not form.is_valid():
        messages.error(request, _("Say why the deal is voided."))
        return redirect(edit)
    try:
        services.deal_void(
            session=session, slot=slot, actor=actor, reason=form.cleaned_data["reason"]
        )
    except services.DealRejected as exc:
        for msgs in exc.errors.values():
            for m in msgs:
                messages.error(request, m)
        return redirect(edit)
    except services.SessionLocked as exc:
        raise PermissionDenied(str(exc)) from None
    messages.success(
        request, _slot_message(slot, _("Deal %(n)s voided."), _("Rubber %(r)s, deal %(n)s voided."))
    )
    return redirect("scoring:session", pk=pk)


def session_history(request: HttpRequest, pk: int) -> HttpResponse:
    session = _visiblesession_or_404(request, pk)
    writable = can_write(entry_actor(request, session), session)
    return render(
        request,
        "scoring/history.html",
        {
            "session": session,
            "history": game_of(session).sheet.history(session),
            "can_write": writable,
        },
    )


def session_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    session = _visiblesession_or_404(request, pk)
    sheet = game_of(session).sheet
    writable = can_write(entry_actor(request, session), session)
    return render(
        request,
        "scoring/sheet.html",
        {
            "session": session,
            "can_write": writable,
            "sheet_template": sheet.sheet_template,
            "sheet_class": sheet.page_class,
            **sheet.sheet_context(session),
        },
    )


def score_pad(request: HttpRequest, pk: int | None = None, game: str = "") -> HttpResponse:
    """The printable paper pad of a game that has one, blank (``game``) or with a
    session's players (only what the session's profile allows)."""
    session = session_or_404(pk) if pk is not None else None
    code = session.game if session is not None else game
    try:
        paper = game_for(code).entry.paper_pad
    except KeyError:
        paper = None
    if paper is None:
        raise Http404(_("This game has no paper pad."))
    context = {"session": session, "game_label": game_for(code).label}
    return render(request, paper.template, {**context, **paper.context(session, code)})


def session_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    session = _visiblesession_or_404(request, pk)
    sheet = game_of(session).sheet.sheet_json(session)
    response = JsonResponse(sheet, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="session-{pk}.json"'
    return response


def session_export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    session = _visiblesession_or_404(request, pk)
    return csv_response(
        game_of(session).sheet.csv_rows(session), filename=f"session-{pk}.csv", request=request
    )


@director_required
def session_import(request: HttpRequest) -> HttpResponse:
    form = SheetUploadForm(request.POST or None, request.FILES or None, user=request.user)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            data = load_sheet(form.cleaned_data["sheet"].read(MAX_SHEET_BYTES + 1))
            session = session_import_sheet(
                data=data,
                title=form.cleaned_data["title"],
                user=request.user,
                club=form.cleaned_data["club"],
            )
        except SheetError as exc:
            problems = [problem_text(p) for p in exc.coded]
        else:
            messages.success(request, _("Scoresheet imported."))
            return redirect(reverse("scoring:session", kwargs={"pk": session.pk}))
    return render(request, "scoring/session_import.html", {"form": form, "problems": problems})
