from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.roles import director_required, is_director
from clubs.selectors import player_list
from clubs.services import player_create
from config.csvexport import csv_response
from scoring.permissions import entry_actor
from tournaments import selectors, services
from tournaments.forms import (
    AcceptForm,
    EntryForm,
    PlayerForm,
    SeatingImportForm,
    TournamentForm,
)
from tournaments.models import Registration, Round, RoundTable, Tournament


def player_index(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/players.html", {"players": player_list()})


@director_required
def player_add(request: HttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None)
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


# ----------------------------------------------------------------------------- tournaments


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("profile_version__profile"), slug=slug
    )


def tournament_index(request: HttpRequest) -> HttpResponse:
    return render(
        request, "tournaments/index.html", {"tournaments": Tournament.objects.all()[:100]}
    )


@director_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
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
            created_by=request.user,
        )
        return redirect("tournaments:detail", slug=tournament.slug)
    return render(request, "tournaments/new.html", {"form": form})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    entries = tournament.entries.select_related("player").order_by("number")
    rounds = tournament.rounds.prefetch_related("tables").order_by("number")
    context = {
        "tournament": tournament,
        "entries": entries,
        "rounds": rounds,
        "entry_form": EntryForm(tournament=tournament),
        "can_start_next": selectors.next_round_ready(tournament=tournament),
        "active_count": sum(1 for e in entries if e.withdrawn_after is None),
    }
    return render(request, "tournaments/detail.html", context)


@require_POST
@director_required
def entry_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    form = EntryForm(request.POST, tournament=tournament)
    if form.is_valid():
        player = form.cleaned_data["player"]
        if player is None:
            club = tournament.club or Club.objects.order_by("pk").first()
            if club is None:
                club = Club.objects.create(name=_("Club"))
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
            messages.error(request, error)
    return redirect("tournaments:detail", slug=slug)


@require_POST
@director_required
def entry_update(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    entry = get_object_or_404(Registration, tournament=tournament, number=number)
    action = request.POST.get("action")
    if action == "check_in":
        services.registration_check_in(registration=entry, present=True)
    elif action == "absent":
        services.registration_check_in(registration=entry, present=False)
    elif action == "withdraw":
        services.registration_withdraw(registration=entry)
        messages.success(
            request,
            _("%(name)s withdrawn: they sit out the remaining rounds.")
            % {"name": entry.player.name},
        )
    return redirect("tournaments:detail", slug=slug)


@require_POST
@director_required
def round_next(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    try:
        rnd = services.round_generate(tournament=tournament)
    except services.TournamentError as exc:
        messages.error(request, str(exc))
        return redirect("tournaments:detail", slug=slug)
    messages.success(request, _("Round %(n)s seated.") % {"n": rnd.number})
    return redirect("tournaments:round", slug=slug, number=rnd.number)


@director_required
def round_import(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
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


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    tables = selectors.round_tables(rnd=rnd)
    context = {
        "tournament": tournament,
        "round": rnd,
        "tables": tables,
        "byes": selectors.round_byes(rnd=rnd),
    }
    view = selectors.standings_view(
        tournament=tournament, viewer_is_director=is_director(request.user)
    )
    if view["visible"] and view["data"]:
        context["results_table"] = selectors.round_results_table(
            tournament=tournament, data=view["data"], round_number=number, request=request
        )
    if request.GET.get("cards"):
        if not is_director(request.user):
            return redirect_to_login(request.get_full_path())
        context["link_base"] = f"{request.scheme}://{request.get_host()}"
        return render(request, "tournaments/table_cards.html", context)
    return render(request, "tournaments/round.html", context)


@director_required
def progress_board(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    context = {"tournament": tournament, **selectors.progress(tournament=tournament)}
    if request.htmx:
        return render(request, "tournaments/board.html#board", context)
    return render(request, "tournaments/board.html", context)


@require_POST
def table_accept(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    tournament = _tournament(slug)
    table = get_object_or_404(RoundTable, pk=table_id, round__tournament=tournament)
    actor = entry_actor(request, table.session)
    if actor is None:
        raise PermissionDenied(_("Only the table (through its link) or a director may accept."))
    form = AcceptForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose who accepts the result."))
    else:
        try:
            services.round_table_accept(
                table=table, accepted_by=form.cleaned_data["accepted_by"], user=request.user
            )
        except services.TournamentError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Result accepted. Thank you!"))
    return redirect("scoring:session", pk=table.session_id)


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    view = selectors.standings_view(
        tournament=tournament, viewer_is_director=is_director(request.user)
    )
    context = {"tournament": tournament, **view}
    if view["visible"]:
        context.update(
            selectors.standings_tables(tournament=tournament, data=view["data"], request=request)
        )
    if request.htmx and request.GET.get("status"):
        return render(request, "tournaments/standings.html#standings-status", context)
    template = (
        "tournaments/standings_print.html"
        if request.GET.get("print")
        else ("tournaments/standings.html")
    )
    return render(request, template, context)


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    view = selectors.standings_view(
        tournament=tournament, viewer_is_director=is_director(request.user)
    )
    if not view["visible"]:
        raise PermissionDenied(_("The standings are hidden until the last round is finished."))
    rows = selectors.standings_csv_rows(tournament=tournament, data=view["data"])
    return csv_response(rows, filename=f"{slug}-standings.csv")


def player_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    entry = get_object_or_404(
        Registration.objects.select_related("player"), tournament=tournament, number=number
    )
    view = selectors.standings_view(
        tournament=tournament, viewer_is_director=is_director(request.user)
    )
    rows = selectors.player_rounds(tournament=tournament, entry=entry) if view["visible"] else []
    return render(
        request,
        "tournaments/player_results.html",
        {"tournament": tournament, "entry": entry, "rows": rows, **view},
    )


def meetings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    return render(
        request,
        "tournaments/meetings.html",
        {"tournament": tournament, **selectors.meetings(tournament=tournament)},
    )
