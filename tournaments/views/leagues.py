"""League pages: public tables (after each event, CSV, an A4 print), and the pages of the
organiser's directors (a new league, its events, licences, rosters, line-ups).

Every director page checks the league's organiser (``require_director_of``: 403 for a
director of another club, and nothing written). A refusal of a service is shown on the
form it came from, in the reader's language."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.roles import director_required, directs, require_director_of
from config.csvexport import csv_response
from tournaments.forms_leagues import (
    EventAddForm,
    LeagueForm,
    LicenceConfirmForm,
    LicenceUploadForm,
    PlayersForm,
    TeamForm,
)
from tournaments.models import League, LeagueEvent, LeagueTeam, Licence, LineUp, RosterMember
from tournaments.selectors.leagues import league_csv_rows, league_page
from tournaments.services import leagues
from tournaments.services.leagues import LeagueRejected


def _after(request: HttpRequest) -> int | None:
    value = request.GET.get("after", "")
    return int(value) if value.isdigit() and len(value) <= 4 else None


def league_index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/leagues/index.html",
        {"leagues": League.objects.select_related("organiser")[:300]},
    )


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("organiser"), slug=slug)
    page = league_page(league=league, after=_after(request))
    template = (
        "tournaments/leagues/print.html"
        if request.GET.get("print")
        else "tournaments/leagues/detail.html"
    )
    return render(
        request,
        template,
        {"page": page, "league": league, "manages": directs(request.user, league.organiser)},
    )


def league_csv(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    page = league_page(league=league, after=_after(request))
    suffix = "final" if page.is_final or page.chosen is None else f"after-{page.chosen.after_event}"
    return csv_response(
        league_csv_rows(page), filename=f"{league.slug}-{suffix}.csv", request=request
    )


# ------------------------------------------------------------------------ director pages


def _managed(request: HttpRequest, slug: str) -> League:
    league = get_object_or_404(League.objects.select_related("organiser"), slug=slug)
    require_director_of(request.user, league.organiser)
    return league


def _refused(form: Any, exc: LeagueRejected) -> None:
    for problem in exc.problems:
        form.add_error(None, problem)


@director_required
def league_new(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        require_director_of(request.user, data["organiser"])
        try:
            league = leagues.league_create(
                organiser=data["organiser"],
                name=data["name"],
                game=data["game"],
                season=data["season"],
                counting=data["counting"],
                points_table=data["points_table"],
                licences_required=data["licences_required"],
                team_size_min=data["team_size_min"],
                team_size_max=data["team_size_max"],
                team_counting=data["team_counting"],
                created_by=request.user,
            )
        except LeagueRejected as exc:
            _refused(form, exc)
        else:
            return redirect("tournaments:league_manage", slug=league.slug)
    return render(request, "tournaments/leagues/new.html", {"form": form})


@director_required
def league_manage(request: HttpRequest, slug: str) -> HttpResponse:
    league = _managed(request, slug)
    event_form = EventAddForm(request.POST if "add_event" in request.POST else None, league=league)
    team_form = TeamForm(request.POST if "add_team" in request.POST else None)
    if request.method == "POST":
        try:
            if "add_event" in request.POST and event_form.is_valid():
                leagues.event_add(league=league, tournament=event_form.cleaned_data["tournament"])
                messages.success(request, _("Event added."))
                return redirect("tournaments:league_manage", slug=slug)
            if "add_team" in request.POST and team_form.is_valid():
                team = leagues.team_create(league=league, name=team_form.cleaned_data["name"])
                return redirect("tournaments:league_roster", slug=slug, pk=team.pk)
        except LeagueRejected as exc:
            _refused(event_form if "add_event" in request.POST else team_form, exc)
    events = sorted(
        LeagueEvent.objects.filter(league=league).select_related("tournament"),
        key=lambda e: (leagues.event_day(e.tournament), e.tournament_id),
    )
    teams = LeagueTeam.objects.filter(league=league).prefetch_related("members__player")
    return render(
        request,
        "tournaments/leagues/manage.html",
        {
            "league": league,
            "events": events,
            "teams": teams,
            "event_form": event_form,
            "team_form": team_form,
            "licences": Licence.objects.filter(organiser=league.organiser).count(),
        },
    )


@director_required
def league_licences(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload the organiser's licence list -> a preview (nothing written) -> confirm."""
    league = _managed(request, slug)
    upload = LicenceUploadForm(
        request.POST if "upload" in request.POST else None,
        request.FILES if "upload" in request.POST else None,
    )
    context: dict[str, Any] = {"league": league, "form": upload}
    if request.method == "POST" and "upload" in request.POST and upload.is_valid():
        text = upload.cleaned_data["file"]
        preview = leagues.licences_preview(organiser=league.organiser, text=text)
        context.update(preview=preview, confirm=LicenceConfirmForm(initial={"text": text}))
        if preview.problems:
            for problem in preview.problems:
                upload.add_error(None, problem)
            context.pop("confirm")
    elif request.method == "POST" and "confirm" in request.POST:
        confirm = LicenceConfirmForm(request.POST)
        if confirm.is_valid():
            try:
                done = leagues.licences_import(
                    organiser=league.organiser, text=confirm.cleaned_data["text"], by=request.user
                )
            except LeagueRejected as exc:
                _refused(upload, exc)
            else:
                messages.success(
                    request,
                    _("Licences imported: %(new)s new, %(changed)s changed, %(same)s unchanged.")
                    % {
                        "new": done.count("new"),
                        "changed": done.count("changed"),
                        "same": done.count("same"),
                    },
                )
                return redirect("tournaments:league_licences", slug=slug)
        else:
            upload.add_error(None, _("The licence list was lost: upload it again."))
    context["licences"] = Licence.objects.filter(organiser=league.organiser).select_related(
        "player__club"
    )[:2000]
    return render(request, "tournaments/leagues/licences.html", context)


def _team(league: League, pk: int) -> LeagueTeam:
    return get_object_or_404(LeagueTeam, league=league, pk=pk)


@director_required
def league_roster(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league = _managed(request, slug)
    chosen = _team(league, pk)
    initial = {
        "players": list(
            RosterMember.objects.filter(team=chosen).values_list("player_id", flat=True)
        )
    }
    form = PlayersForm(request.POST or None, league=league, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            leagues.roster_set(team=chosen, players=list(form.cleaned_data["players"]))
        except LeagueRejected as exc:
            _refused(form, exc)
        else:
            messages.success(request, _("Roster saved."))
            return redirect("tournaments:league_manage", slug=slug)
    return render(
        request, "tournaments/leagues/roster.html", {"league": league, "team": chosen, "form": form}
    )


@director_required
def league_lineups(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Each team's line-up at one event (one form a team; the roster until one is named)."""
    league = _managed(request, slug)
    chosen = get_object_or_404(
        LeagueEvent.objects.select_related("tournament"), league=league, pk=pk
    )
    teams = list(LeagueTeam.objects.filter(league=league))
    posted = request.POST.get("team", "")
    forms = []
    for team in teams:
        named = list(
            LineUp.objects.filter(team=team, event=chosen).values_list("player_id", flat=True)
        )
        if not named:
            named = list(RosterMember.objects.filter(team=team).values_list("player_id", flat=True))
        data = request.POST if posted == str(team.pk) else None
        form = PlayersForm(
            data, league=league, initial={"players": named}, prefix=f"team-{team.pk}"
        )
        if data is not None and form.is_valid():
            try:
                leagues.lineup_set(
                    team=team, event=chosen, players=list(form.cleaned_data["players"])
                )
            except LeagueRejected as exc:
                _refused(form, exc)
            else:
                messages.success(request, _("Line-up of %(team)s saved.") % {"team": team.name})
                return redirect("tournaments:league_lineups", slug=slug, pk=chosen.pk)
        forms.append((team, form))
    if request.method == "POST" and not any(str(t.pk) == posted for t in teams):
        raise PermissionDenied("No such team in this league.")
    return render(
        request,
        "tournaments/leagues/lineups.html",
        {"league": league, "event": chosen, "forms": forms},
    )


@director_required
@require_POST
def league_recompute(request: HttpRequest, slug: str) -> HttpResponse:
    league = _managed(request, slug)
    leagues.league_recompute(league=league)
    messages.success(request, _("League tables recomputed."))
    return redirect("tournaments:league_manage", slug=slug)
