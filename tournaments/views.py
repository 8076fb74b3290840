from __future__ import annotations

import copy
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.http import HtmxHttpRequest
from clubs.models import Club
from clubs.roles import director_required, is_director
from clubs.selectors import player_list
from clubs.services import player_create
from config.cache import digest, keep_page_copy, page_copy
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
            messages.error(request, str(error))
    return redirect("tournaments:detail", slug=slug)


@require_POST
@director_required
def entries_paste(request: HttpRequest, slug: str) -> HttpResponse:
    """Register a pasted list of players (one a line: a name, or a name and a club number)."""
    tournament = _tournament(slug)
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
    tournament = _tournament(slug)
    count = services.registrations_check_in_all(tournament=tournament)
    messages.success(
        request,
        ngettext("%(n)s player checked in.", "%(n)s players checked in.", count) % {"n": count},
    )
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
        order = services.parse_start_order(request.POST.get("seeding_order", ""))
        rnd = services.round_generate(tournament=tournament, order=order or None)
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
def progress_board(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
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
    tournament = _tournament(slug)
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
        tournament = _tournament(slug)
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


@require_POST
def table_accept(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """A player's phone (bound to its seat by the table link) or a director, with a
    reason, accepts; ``services.round_table_accept`` says who may and when."""
    tournament = _tournament(slug)
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


# The query parameters that change the standings tables (their sorting, page, the print page):
# the cache keys on these and the tables are rendered with these only.
STANDINGS_PARAMS = ("ind-sort", "ind-page", "pairs-sort", "teams-sort", "print")
STANDINGS_CACHE_SECONDS = 3600


def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    if request.htmx and request.GET.get("status"):
        return _standings_status(request, slug)
    # The tournament's row and its standings' state in one statement written out: every
    # reader's request reads it (the shared copy's key is made of it).
    found = selectors.standings_page_state(slug=slug)
    if found is None:
        raise Http404
    tournament, state = found
    director = is_director(request.user)
    view = selectors.standings_view(
        tournament=tournament, viewer_is_director=director, with_data=False, state=state
    )
    # ``deferred``: the broker was down when a result changed, the recompute waits in
    # the outbox.
    context = {"tournament": tournament, **view}
    parts = _standings_page_parts(request, tournament, context, director)
    etag = _standings_page_etag(request, parts)
    if etag and etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        # Anonymous readers (the hall's phones) share one copy per results version, drawn
        # once and without a CSRF token (``shared_page``): a token is each reader's own,
        # and the page's one form, the language switch, takes none (``config.urls``).
        key = _standings_page_key(request, tournament, parts)
        html = page_copy(key) if key else None
        if html is None:
            if view["visible"] and view["snapshot"]:
                context.update(_standings_search(request, view["snapshot"]))
                if context["query"] and len(context["matches"]) == 1:
                    # One player found: their page, marked and scrolled to (a link to keep).
                    found = context["matches"][0]["number"]
                    return redirect(f"{request.path}?player={found}#standings-found")
                jump, page = context["jump"], None
                if jump is not None and not request.GET.get("print"):
                    page = selectors.standings_page_of(
                        snapshot=view["snapshot"],
                        number=jump,
                        per_page=selectors.STANDINGS_PAGE_SIZE,
                    )
                if jump is not None and page is None:
                    # No such player (or the print page, which has every row): drawn as
                    # asked, nothing marked, not kept.
                    key = jump = None
                context["tables_html"] = _standings_tables_html(
                    request, tournament, view["snapshot"], page=page, highlight=jump
                )
            template = (
                "tournaments/standings_print.html"
                if request.GET.get("print")
                else ("tournaments/standings.html")
            )
            context["shared_page"] = bool(key)
            html = render_to_string(template, context, request).encode()
            if key:
                keep_page_copy(key, html, STANDINGS_PAGE_SECONDS)
        response = HttpResponse(html)
    if etag:
        response["ETag"] = etag
        # A signed-in reader's page carries their name and CSRF token: the browser's own
        # cache only, asked again each time (then 304 while nothing on it has moved).
        response["Cache-Control"] = "private, no-cache"
    return response


STANDINGS_PAGE_SECONDS = 600  # a new results version is a new key anyway


def _standings_page_parts(
    request: HttpRequest, tournament: Tournament, context: dict[str, Any], director: bool
) -> list[str] | None:
    """What the standings page shows moves only with these: the snapshot, the results
    version, a recompute waiting in the outbox, whether the standings are visible (the
    tournament finished), the reader (signed in as whom, a director or not), the language,
    the address and the query. None (never a 304, never a shared copy) while a message
    waits to be shown."""
    if len(messages.get_messages(request)):
        return None
    snapshot = context["snapshot"]
    return [
        f"{snapshot.pk}.{snapshot.results_version}" if snapshot else "none",
        str(tournament.results_version),
        tournament.name,
        "hidden" if tournament.hide_standings else "",
        "deferred" if context["deferred"] else "",
        "finished" if context["finished"] else "",
        f"user{request.user.pk or 0}{'d' if director else ''}",
        get_language() or "",
        request.path,
        request.GET.urlencode(),
    ]


def _standings_page_etag(request: HttpRequest, parts: list[str] | None) -> str | None:
    """The page's ETag: its parts and the CSRF cookie its forms' token is made from (a
    new cookie, a new page)."""
    if parts is None:
        return None
    return (
        f'"standings-page-{digest([*parts, request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")])}"'
    )


def _standings_page_key(
    request: HttpRequest, tournament: Tournament, parts: list[str] | None
) -> str | None:
    """The shared copy's cache key, for a reader not signed in (a signed-in reader's page
    names them) asking for a page every reader may ask for (``_standings_shareable``).
    None otherwise: a search's answer, or an address with anything else in its query, is
    drawn for its request."""
    if (
        parts is None
        or request.user.is_authenticated
        or not _standings_shareable(request.GET, tournament)
    ):
        return None
    return f"standings-page:{digest(parts)}"


# The most pages of the individual standings kept as shared copies (50 rows a page: 10,000
# players); a page after it is drawn for its request.
STANDINGS_PAGES_KEPT = 200


def _standings_shareable(query: QueryDict, tournament: Tournament) -> bool:
    """Whether ``query`` asks for a page every reader may ask for, written as the page's
    own links write it: each parameter once, a sorting by one of the table's columns, a
    page number up to ``STANDINGS_PAGES_KEPT`` or a start number (not on the print page,
    which has every row), ``print=1``. Only such pages are kept (the shared copy, the
    tables' cache), so a stranger making up queries (a sorting by any text, page 999999)
    is drawn a page each time and cannot multiply the keys without end in the cache,
    which shares Redis with the task broker (the README's memory policy bounds the rest)."""
    printing = "print" in query  # every row: a page or a player means nothing there
    for name, values in query.lists():
        value = values[0] if len(values) == 1 else ""
        if name in ("ind-page", "player"):
            ok = not printing and value.isdigit() and value[0] != "0" and len(value) <= 6
            ok = ok and (name == "player" or int(value) <= STANDINGS_PAGES_KEPT)
        elif name == "print":
            ok = value == "1"
        elif name in STANDINGS_PARAMS:  # a sorting: a column, ascending or descending
            ok = value.removeprefix("-") in selectors.standings_sortable(tournament, name)
        else:
            ok = False
        if not ok:
            return False
    return True


def _standings_status(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The status line alone, for the page's poll: one small indexed read, and 304 Not
    Modified while nothing it shows has moved (the snapshot, the results version, a
    recompute waiting for the broker, the language). ``no-cache``: the browser asks
    again every time, with the ETag it holds.

    ``shown``: the snapshot version whose tables the polling page shows ("none"). Once a
    newer snapshot is stored the page reloads (``HX-Refresh``) to show it: its status
    line alone would say "up to date" above the older tables. The line it answers says
    so too, with a link, should the reload not happen."""
    status = selectors.standings_status(slug=slug)
    if status is None:
        raise Http404
    snapshot = status["snapshot"]
    shown = snapshot["results_version"] if snapshot else "none"
    page_behind = request.GET.get("shown", str(shown)) != str(shown)
    deferred = "-deferred" if status["deferred"] else ""
    etag = f'"standings-{shown}-{status["version"]}{deferred}-{get_language()}"'
    if etag in request.headers.get("If-None-Match", "") and not page_behind:
        response: HttpResponse = HttpResponseNotModified()
    else:
        context = {**status, "page_behind": page_behind}
        response = render(request, "tournaments/standings.html#standings-status", context)
        if page_behind:
            response["HX-Refresh"] = "true"
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _standings_search(request: HttpRequest, snapshot: Any) -> dict[str, Any]:
    """A standings search (``?q=``: a name or start number, folded) and a jump to a
    player (``?player=``: a start number, from a search's list): the players found, and
    the start number to open the page of and mark (``jump``)."""
    query = " ".join(request.GET.get("q", "").split())[: selectors.FIND_QUERY_MAX]
    matches = selectors.standings_search(snapshot=snapshot, query=query) if query else []
    raw = request.GET.get("player", "")
    jump = int(raw) if raw.isdigit() and len(raw) <= 6 else None
    return {"query": query, "matches": matches, "jump": jump}


def _standings_tables_html(
    request: HttpRequest,
    tournament: Tournament,
    snapshot: Any,
    *,
    page: int | None = None,
    highlight: int | None = None,
) -> str:
    """The standings tables of ``snapshot`` as HTML: one page of the individual rows
    (``selectors.standings_tables``), cached per snapshot, language, sorting and page: a
    new results version is a new snapshot row, hence a new key, so a page never serves an
    older version's tables. The tables are rendered with only ``STANDINGS_PARAMS`` of the
    query, so their links do not carry whatever else a request added to the cached copy.
    ``page``: the page shown instead of the one asked for (a jump to a player, the start
    number ``highlight``, whose row is marked); such a page is rendered for the request,
    not cached (a search's answer)."""
    printing = bool(request.GET.get("print"))
    kept = QueryDict(mutable=True)
    for name in STANDINGS_PARAMS:
        value = request.GET.get(name, "")
        if name == "ind-page" and not (value.isdigit() and len(value) < 7):
            continue
        if name in request.GET and not (page and name in ("ind-sort", "ind-page")):
            kept[name] = value
    query = kept.urlencode()
    version = f"{snapshot.pk}.{snapshot.results_version}.{snapshot.computed_at.timestamp()}"
    key = f"standings:{tournament.slug}:{version}:{get_language()}:{query}"
    cached = not page and _standings_shareable(kept, tournament)
    html = cache.get(key) if cached else None
    if html is None:
        clean = copy.copy(request)
        clean.GET = QueryDict(query)
        tables = selectors.standings_tables(
            tournament=tournament,
            snapshot=snapshot,
            request=clean,
            per_page=None if printing else selectors.STANDINGS_PAGE_SIZE,
            page=page,
            highlight=highlight,
        )
        html = render_to_string(
            "tournaments/standings.html#standings-tables", tables, request=clean
        )
        if cached:
            cache.set(key, html, STANDINGS_CACHE_SECONDS)
    return mark_safe(html)  # rendered by the template engine above, escaped there


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
