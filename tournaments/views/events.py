"""A tournament as an event file: its download, and the director's import of one
(upload, then a preview of whom it matches and registers, then confirm)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubs.roles import director_required, directs
from scoring.engines.errors import SheetError
from scoring.problems import problem_text
from tournaments import selectors
from tournaments.forms import EventConfirmForm, EventUploadForm
from tournaments.selectors.events import event_document, event_exportable
from tournaments.services.events import event_import, event_players, event_read
from tournaments.views.pages import tournament_or_404


def event_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The event file: the director's only while the standings are hidden."""
    tournament = tournament_or_404(slug)
    view = selectors.standings_view(
        tournament=tournament,
        viewer_is_director=directs(request.user, tournament.club_id),
        with_data=False,
    )
    if not view["visible"]:
        raise PermissionDenied(_("The standings are hidden until the last round is finished."))
    if not event_exportable(tournament):
        raise Http404(_("No table is accepted yet: the event file has nothing to hold."))
    body = json.dumps(event_document(tournament), ensure_ascii=False, indent=2)
    response = HttpResponse(body + "\n", content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}-event.json"'
    return response


def _lines(error: SheetError) -> list[str]:
    return [problem_text(p) for p in error.coded]


@director_required
def event_upload(request: HttpRequest) -> HttpResponse:
    """Step 1 (upload) shows the preview; step 2 (confirm, the file's text kept in the
    page) imports. Every refusal lists the problems and writes nothing."""
    problems: list[str] = []
    preview = None
    confirm = None
    upload = EventUploadForm(user=request.user)
    if request.method == "POST" and "event_text" in request.POST:
        confirm = EventConfirmForm(request.POST, user=request.user)
        if confirm.is_valid():
            club = confirm.cleaned_data["club"]
            try:
                tournament, _matches = event_import(
                    raw=confirm.cleaned_data["event_text"], club=club, user=request.user
                )
            except SheetError as exc:
                problems = _lines(exc)
            else:
                messages.success(request, _("The event file was imported."))
                return redirect("tournaments:detail", slug=tournament.slug)
        elif "club" in confirm.errors:
            problems = [_("Choose a club you direct: the tournament will be its.")]
        else:
            problems = [_("The file was lost on the way: upload it again.")]
        confirm = None
    elif request.method == "POST":
        upload = EventUploadForm(request.POST, request.FILES, user=request.user)
        if upload.is_valid():
            raw = upload.cleaned_data["event_file"].read()
            try:
                read = event_read(raw)
            except SheetError as exc:
                problems = _lines(exc)
            else:
                club = upload.cleaned_data["club"]
                preview = event_players(data=read.data, club=club)
                confirm = EventConfirmForm(
                    initial={"event_text": raw.decode("utf-8-sig"), "club": club.pk},
                    user=request.user,
                )
                upload = EventUploadForm(initial={"club": club.pk}, user=request.user)
    return render(
        request,
        "tournaments/event_import.html",
        {
            "form": upload,
            "confirm": confirm,
            "preview": preview,
            "created": [m for m in preview or () if m.player is None],
            "matched": [m for m in preview or () if m.player is not None],
            "problems": problems,
        },
    )
