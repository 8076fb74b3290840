"""The director's competition tools, from forms: the tournament's competition rules
(byes, walkouts, classes, teams), adjustments, and a round's walkouts and short tables.
Each calls a service of ``tournaments.services.competition`` (kept in the tournament's
history); a refusal shows the form again with what was typed and the reason, nothing
written."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.roles import director_required
from tournaments import selectors, services
from tournaments.families import family_for
from tournaments.forms import AdjustmentForm, CompetitionForm, SituationForm
from tournaments.models import Adjustment, Round, RoundTable, Tournament
from tournaments.views.pages import directed_tournament


def _options(tournament: Tournament) -> Any:
    return family_for(tournament.game).competition.options(tournament)


@director_required
def competition(request: HttpRequest, slug: str) -> HttpResponse:
    """The competition rules (``action=options``), an adjustment added (``adjust``) or
    removed (``unadjust``), and what the rules make of the teams and classes."""
    tournament = directed_tournament(request, slug)
    vint = not family_for(tournament.game).competition.walkouts  # classes and nets only
    action = request.POST.get("action") if request.method == "POST" else None
    options = _options(tournament)
    rounds = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    form = CompetitionForm(
        request.POST if action == "options" else None, tournament=tournament, options=options
    )
    adjust = AdjustmentForm(request.POST if action == "adjust" else None, rounds=rounds, vint=vint)
    unadjust_error = ""
    if action == "options" and form.is_valid():
        try:
            services.competition_set(
                tournament=tournament,
                user=request.user,
                options=form.options(),
                reason=form.cleaned_data["reason"],
            )
        except services.CompetitionRejected as exc:
            form.add_problems(exc.problems)
        except services.TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The competition rules are saved."))
            return redirect("tournaments:competition", slug=slug)
    elif action == "adjust" and adjust.is_valid():
        data = adjust.cleaned_data
        try:
            services.adjustment_add(
                tournament=tournament,
                user=request.user,
                number=data["number"],
                round_number=data["round"],
                big=data.get("big", ""),
                small=data.get("small", ""),
                net=data.get("net", ""),
                reason=data["reason"],
            )
        except services.TournamentError as exc:
            adjust.add_error(None, str(exc))
        else:
            messages.success(request, _("The adjustment is added: the standings are recomputed."))
            return redirect("tournaments:competition", slug=slug)
    elif action == "unadjust":
        raw = request.POST.get("adjustment", "")
        found = (
            Adjustment.objects.filter(tournament=tournament, pk=int(raw)).first()
            if raw.isdigit() and len(raw) < 12
            else None
        )
        try:
            if found is None:
                raise services.TournamentError(_("This adjustment was already removed."))
            services.adjustment_remove(
                adjustment=found, user=request.user, reason=request.POST.get("reason", "")
            )
        except services.TournamentError as exc:
            unadjust_error = str(exc)
        else:
            messages.success(request, _("The adjustment is removed: the standings are recomputed."))
            return redirect("tournaments:competition", slug=slug)
    size_min = getattr(options, "team_size_min", 1)
    size_max = getattr(options, "team_size_max", 1)
    context: dict[str, Any] = {
        "tournament": tournament,
        "vint": vint,
        "form": form,
        "adjust": adjust,
        "unadjust_error": unadjust_error,
        "unadjust_id": request.POST.get("adjustment", "") if unadjust_error else "",
        "classes": list(options.classes),
        "size_min": size_min,
        "size_max": size_max,
        **selectors.competition_page(tournament=tournament, size_min=size_min, size_max=size_max),
    }
    return render(request, "tournaments/competition.html", context)


def _seat_value(table: RoundTable, seat: int) -> str:
    return f"{table.pk}-{seat}"


@director_required
def round_situations(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's walkouts and short tables: record one (``action=record``: the seat as
    its player, after which deal) or clear one (``normal``: the table)."""
    tournament = directed_tournament(request, slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    tables = selectors.round_situations(rnd=rnd)
    choices = [
        (
            _seat_value(t["table"], seat),
            _("Table %(table)s, seat %(seat)s: %(name)s (no. %(n)s)")
            % {"table": t["table"].number, "seat": seat, "name": name, "n": n},
        )
        for t in tables
        for seat, n, name in t["seats"]
    ]
    action = request.POST.get("action") if request.method == "POST" else None
    form = SituationForm(request.POST if action == "record" else None, seats=choices)
    normal_error, normal_table = "", ""
    if action == "record" and form.is_valid():
        data = form.cleaned_data
        table_id, _dash, seat = data["seat"].partition("-")
        table = get_object_or_404(RoundTable, pk=int(table_id), round=rnd)
        try:
            if data["what"] == "walkout":
                services.table_walkout(
                    table=table,
                    user=request.user,
                    seat=int(seat),
                    after=data["after"],
                    reason=data["reason"],
                )
                done = _("The walkout is recorded: the standings are recomputed.")
            else:
                services.table_short(
                    table=table, user=request.user, seat=int(seat), reason=data["reason"]
                )
                done = _("The short table is recorded: the standings are recomputed.")
        except services.TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, done)
            return redirect("tournaments:round_situations", slug=slug, number=number)
    elif action == "normal":
        normal_table = request.POST.get("table", "")
        cleared = (
            RoundTable.objects.filter(pk=int(normal_table), round=rnd).first()
            if normal_table.isdigit() and len(normal_table) < 12
            else None
        )
        try:
            if cleared is None:
                raise services.TournamentError(_("Choose a table of this round."))
            services.table_normal(
                table=cleared, user=request.user, reason=request.POST.get("reason", "")
            )
        except services.TournamentError as exc:
            normal_error = str(exc)
        else:
            messages.success(request, _("The table counts as played in full again."))
            return redirect("tournaments:round_situations", slug=slug, number=number)
    context = {
        "tournament": tournament,
        "round": rnd,
        "tables": tables,
        "form": form,
        "normal_error": normal_error,
        "normal_table": normal_table,
        "normal_reason": request.POST.get("reason", "") if normal_error else "",
        "vint": not family_for(tournament.game).competition.walkouts,
    }
    return render(request, "tournaments/round_situations.html", context)
