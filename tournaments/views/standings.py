"""The standings: the page (shared by every reader not signed in, one copy per results
version, ``config.cache``), its status line polled by htmx (304 while nothing moved), and
the CSV."""

from __future__ import annotations

import copy
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.http import HtmxHttpRequest
from clubs.roles import directs
from config.cache import digest, keep_page_copy, page_copy
from config.csvexport import csv_response
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.views.pages import tournament_or_404

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
    # A director of the tournament's club reads its hidden standings (no other club's).
    director = directs(request.user, tournament.club_id)
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
                # How far the standings have got, the rules for byes and walkouts, who
                # withdrew: three small reads, only when a page is drawn.
                context.update(selectors.standings_words(tournament=tournament))
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
                    request,
                    tournament,
                    view["snapshot"],
                    page=page,
                    highlight=jump,
                    withdrawn=context["withdrawn"],
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
    version, the rounds planned and the rule profile, a recompute waiting in the outbox,
    whether the standings are visible (the tournament finished), the reader (signed in as
    whom, a director or not), the language, the address and the query. None (never a 304,
    never a shared copy) while a message waits to be shown."""
    if len(messages.get_messages(request)):
        return None
    snapshot = context["snapshot"]
    return [
        f"{snapshot.pk}.{snapshot.results_version}" if snapshot else "none",
        str(tournament.results_version),
        tournament.name,
        # What the standings say of the rounds planned and the bye's score (an edit of the
        # tournament may change them without a new result).
        f"{tournament.rounds_planned}.{tournament.profile_version_id}",
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
    withdrawn: dict[int, int] | None = None,
) -> str:
    """The standings tables of ``snapshot`` as HTML: one page of the individual rows
    (``selectors.standings_tables``), cached per snapshot, language, sorting and page: a
    new results version is a new snapshot row, hence a new key, so a page never serves an
    older version's tables. The tables are rendered with only ``STANDINGS_PARAMS`` of the
    query, so their links do not carry whatever else a request added to the cached copy.
    ``page``: the page shown instead of the one asked for (a jump to a player, the start
    number ``highlight``, whose row is marked); such a page is rendered for the request,
    not cached (a search's answer). ``withdrawn``: who withdrew after which round, marked
    by their names (part of the key: a withdrawal changes no results version)."""
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
    marks = ",".join(f"{n}-{after}" for n, after in sorted((withdrawn or {}).items()))
    key = f"standings:{tournament.slug}:{version}:{get_language()}:{digest([marks])}:{query}"
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
            withdrawn=withdrawn,
        )
        html = render_to_string(
            "tournaments/standings.html#standings-tables", tables, request=clean
        )
        if cached:
            cache.set(key, html, STANDINGS_CACHE_SECONDS)
    return mark_safe(html)  # rendered by the template engine above, escaped there


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    view = selectors.standings_view(
        tournament=tournament, viewer_is_director=directs(request.user, tournament.club_id)
    )
    if not view["visible"]:
        raise PermissionDenied(_("The standings are hidden until the last round is finished."))
    rows = selectors.standings_csv_rows(tournament=tournament, data=view["data"])
    return csv_response(rows, filename=f"{slug}-standings.csv", request=request)
