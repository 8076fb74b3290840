"""The tournament's pages: the lists, a tournament with its entries and rounds, a round
(and its table cards), the director's progress board, the public "find my table" and hall
display, a player's results and who met whom. The standings are ``views.standings``."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language

from clubs.http import HtmxHttpRequest
from clubs.roles import director_required, directs, owned_by_directed, require_director_of
from clubs.selectors import player_list
from tournaments import selectors
from tournaments.forms import (
    EntryForm,
)
from tournaments.models import Registration, Round, Tournament


def tournament_or_404(slug: str) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("profile_version__profile"), slug=slug
    )


def directed_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, for a director of its club (in a view wrapped in
    ``director_required``, which sends anonymous readers to the login page): anyone
    else gets 403, and nothing is written."""
    tournament = tournament_or_404(slug)
    require_director_of(request.user, tournament.club_id)
    return tournament


def words(request: HttpRequest) -> HttpResponse:
    """What the app's words mean (small and big points, byes, rubbers...), for players."""
    return render(request, "tournaments/words.html")


def player_index(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/players.html", {"players": player_list()})


def tournament_index(request: HttpRequest) -> HttpResponse:
    """Every tournament (public), and first the ones of the clubs the reader directs."""
    listed = Tournament.objects.select_related("club")
    yours = (
        list(owned_by_directed(listed, request.user)[:100]) if request.user.is_authenticated else []
    )
    return render(
        request,
        "tournaments/index.html",
        {"tournaments": listed[:100], "yours": yours},
    )


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    director = directs(request.user, tournament.club_id)
    entries = tournament.entries.select_related("player").order_by("number")
    rounds = tournament.rounds.prefetch_related("tables").order_by("number")
    context = {
        "tournament": tournament,
        "entries": entries,
        "rounds": rounds,
        "entry_form": EntryForm(tournament=tournament),
        "can_start_next": selectors.next_round_ready(tournament=tournament),
        "active_count": sum(1 for e in entries if e.withdrawn_after is None),
        "history": selectors.tournament_history(tournament=tournament) if director else [],
        "can_direct": director,
    }
    return render(request, "tournaments/detail.html", context)


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_or_404(slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    tables = selectors.round_tables(rnd=rnd)
    director = directs(request.user, tournament.club_id)
    context = {
        "tournament": tournament,
        "round": rnd,
        "tables": tables,
        "byes": selectors.round_byes(rnd=rnd),
        # The director's link to mend the round: the newest round only.
        "newest": director and not tournament.rounds.filter(number__gt=number).exists(),
        "can_direct": director,
    }
    view = selectors.standings_view(tournament=tournament, viewer_is_director=director)
    if request.GET.get("print"):
        # The round's results for the notice board (A4, the browser's print): the seats
        # of every table, with their points once accepted, unless the standings are
        # hidden from this reader.
        shown = (view["data"] or {}) if view["visible"] else None
        notice = selectors.round_notice(rnd=rnd, data=shown, tables=tables)
        context.update(notice, visible=view["visible"])
        return render(request, "tournaments/round_print.html", context)
    if view["visible"] and view["data"]:
        context["results_table"] = selectors.round_results_table(
            tournament=tournament, data=view["data"], round_number=number, request=request
        )
    if request.GET.get("cards"):
        # The cards carry the tables' private links: the club's directors' only.
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        require_director_of(request.user, tournament.club_id)
        context["link_base"] = f"{request.scheme}://{request.get_host()}"
        return render(request, "tournaments/table_cards.html", context)
    return render(request, "tournaments/round.html", context)


@director_required
def progress_board(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = directed_tournament(request, slug)
    context = {"tournament": tournament, **selectors.progress(tournament=tournament)}
    context["projector"] = bool(request.GET.get("projector"))
    find = reverse("tournaments:find", kwargs={"slug": slug})
    context["find_url"] = f"{request.scheme}://{request.get_host()}{find}"
    if request.htmx:
        return render(request, "tournaments/board.html#board", context)
    return render(request, "tournaments/board.html", context)


def find_table(request: HttpRequest, slug: str) -> HttpResponse:
    """Public: a player finds their table and seat in the newest round by name or start
    number (``?q=``), or taps their start number (``?n=``)."""
    tournament = tournament_or_404(slug)
    raw = request.GET.get("n", "").strip()
    number = int(raw) if raw.isdigit() and len(raw) <= 6 else None
    context = {
        "tournament": tournament,
        **selectors.find_seat(tournament=tournament, query=request.GET.get("q", ""), number=number),
    }
    return render(request, "tournaments/find.html", context)


def hall_display(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Public, for a projector or a TV: the page once, then its ``#display`` partial
    (``?part=1``) polled, answered 304 while ``selectors.display_version`` stands still."""
    version = selectors.display_version(slug=slug)
    if version is None:
        raise Http404
    etag = f'"display-{version}-{get_language()}"'
    if request.GET.get("part") and etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        tournament = tournament_or_404(slug)
        every = request.GET.get("every", "")
        context = {
            "tournament": tournament,
            "etag": etag,
            # Seconds between polls (``?every=``, 2 to 60): a slow hall network asks less.
            "every": min(60, max(2, int(every))) if every.isdigit() and len(every) < 4 else 10,
            **selectors.hall_display(tournament=tournament),
        }
        template = "tournaments/display.html"
        response = render(
            request, f"{template}#display" if request.GET.get("part") else template, context
        )
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def player_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_or_404(slug)
    entry = get_object_or_404(
        Registration.objects.select_related("player"), tournament=tournament, number=number
    )
    view = selectors.standings_view(
        tournament=tournament, viewer_is_director=directs(request.user, tournament.club_id)
    )
    context = {"tournament": tournament, "entry": entry, **view}
    if view["visible"]:
        context.update(selectors.player_card(tournament=tournament, entry=entry, data=view["data"]))
    return render(request, "tournaments/player_results.html", context)


def meetings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    return render(
        request,
        "tournaments/meetings.html",
        {"tournament": tournament, **selectors.meetings(tournament=tournament)},
    )
