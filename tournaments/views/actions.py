"""What changes a tournament, from forms: players and tournaments made, entries added
(one, or a pasted list), checked in or marked absent (a withdrawal has its own
confirmation page, ``views.mend``), rounds seated or imported, and a
table's result accepted (by a phone at the table or a director); each calls a service
(``tournaments.services``) and redirects."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.roles import director_required
from clubs.services import club_or_first, player_create
from scoring.permissions import entry_actor
from tournaments import services
from tournaments.forms import (
    AcceptForm,
    EntryForm,
    PlayerForm,
    SeatingImportForm,
    TournamentForm,
)
from tournaments.models import Registration, RoundTable
from tournaments.views.pages import directed_tournament, tournament_or_404


@director_required
def player_add(request: HttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        player = player_create(
            club=form.cleaned_data["club"],
            name=form.cleaned_data["name"],
            federation_id=form.cleaned_data["federation_id"],
        )
        messages.success(
            request,
            _("%(name)s registered as number %(number)s.")
            % {
                "name": player.name,
                "number": player.number,
            },
        )
        return redirect("tournaments:players")
    return render(request, "tournaments/player_add.html", {"form": form})


@director_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        profile = data["profile"]
        tournament = services.tournament_create(
            name=data["name"],
            game=profile.game,
            profile_version=profile.current,
            rounds=data["rounds"],
            deals_per_round=data["deals_per_round"],
            round_minutes=data["round_minutes"],
            seed=data["seed"],
            hide_standings=data["hide_standings"],
            club=data["club"],
            created_by=request.user,
        )
        return redirect("tournaments:detail", slug=tournament.slug)
    return render(request, "tournaments/new.html", {"form": form})


@require_POST
@director_required
def entry_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = directed_tournament(request, slug)
    form = EntryForm(request.POST, tournament=tournament)
    if form.is_valid():
        player = form.cleaned_data["player"]
        if player is None:
            # A new name joins the register of the tournament's club.
            club = club_or_first(tournament.club)
            player = player_create(club=club, name=form.cleaned_data["new_name"])
        try:
            entry = services.registration_add(
                tournament=tournament,
                player=player,
                pair=form.cleaned_data["pair"],
                team=form.cleaned_data["team"],
            )
        except services.TournamentError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _("%(name)s has start number %(n)s.") % {"name": player.name, "n": entry.number},
            )
    else:
        for error in form.non_field_errors():
            messages.error(request, str(error))
    return redirect("tournaments:detail", slug=slug)


@require_POST
@director_required
def entries_paste(request: HttpRequest, slug: str) -> HttpResponse:
    """Register a pasted list of players (one a line: a name, or a name and a club number)."""
    tournament = directed_tournament(request, slug)
    try:
        added = services.registrations_paste(
            tournament=tournament, text=request.POST.get("players", "")
        )
    except services.EntriesRejected as exc:
        messages.error(request, _("Nobody was registered: correct the list and paste it again."))
        for problem in exc.problems:
            messages.error(request, problem)
    else:
        messages.success(
            request,
            ngettext("%(n)s player registered.", "%(n)s players registered.", len(added))
            % {"n": len(added)},
        )
    return redirect("tournaments:detail", slug=slug)


@require_POST
@director_required
def entries_check_in_all(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = directed_tournament(request, slug)
    count = services.registrations_check_in_all(tournament=tournament)
    messages.success(
        request,
        ngettext("%(n)s player checked in.", "%(n)s players checked in.", count) % {"n": count},
    )
    return redirect("tournaments:detail", slug=slug)


@require_POST
@director_required
def entry_update(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = directed_tournament(request, slug)
    entry = get_object_or_404(Registration, tournament=tournament, number=number)
    action = request.POST.get("action")
    if action == "check_in":
        services.registration_check_in(registration=entry, present=True)
    elif action == "absent":
        services.registration_check_in(registration=entry, present=False)
    elif action == "classes":
        try:
            services.registration_classes(
                registration=entry, user=request.user, codes=request.POST.getlist("classes")
            )
        except services.TournamentError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Classes saved for no. %(n)s.") % {"n": entry.number})
        return redirect(f"{reverse('tournaments:competition', args=[slug])}#classes")
    return redirect("tournaments:detail", slug=slug)


@require_POST
@director_required
def round_next(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = directed_tournament(request, slug)
    try:
        order = services.parse_start_order(request.POST.get("seeding_order", ""))
        rnd = services.round_generate(tournament=tournament, order=order or None)
    except services.TournamentError as exc:
        messages.error(request, str(exc))
        return redirect("tournaments:detail", slug=slug)
    messages.success(request, _("Round %(n)s seated.") % {"n": rnd.number})
    return redirect("tournaments:round", slug=slug, number=rnd.number)


@director_required
def round_import(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = directed_tournament(request, slug)
    form = SeatingImportForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            text = form.cleaned_data["csv_file"].read().decode("utf-8-sig")
        except UnicodeDecodeError:
            problems = [_("The file is not UTF-8 text.")]
        else:
            try:
                created = services.rounds_import(tournament=tournament, text=text)
            except services.SeatingRejected as exc:
                problems = exc.problems
            else:
                messages.success(request, _("%(n)s rounds imported.") % {"n": len(created)})
                return redirect("tournaments:detail", slug=slug)
    return render(
        request,
        "tournaments/round_import.html",
        {"tournament": tournament, "form": form, "problems": problems},
    )


@require_POST
def table_accept(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """A player's phone (bound to its seat by the table link) or a director, with a
    reason, accepts; ``services.round_table_accept`` says who may and when."""
    tournament = tournament_or_404(slug)
    table = get_object_or_404(RoundTable, pk=table_id, round__tournament=tournament)
    actor = entry_actor(request, table.session)
    if actor is None:
        if RoundTable.objects.filter(pk=table.pk, accepted_at__isnull=False).exists():
            # Another phone accepted first (which ended this phone's link): say so.
            messages.info(request, _("This table's result is already accepted."))
            return redirect("scoring:session", pk=table.session_id)
        raise PermissionDenied(_("Only the table (through its link) or a director may accept."))
    form = AcceptForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Keep the reason under 500 characters."))
    else:
        try:
            services.round_table_accept(
                table=table, actor=actor, reason=form.cleaned_data["reason"]
            )
        except services.TournamentError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Result accepted. Thank you!"))
    return redirect("scoring:session", pk=table.session_id)
