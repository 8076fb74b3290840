"""Login throttling's parts: who is asking (the client address it keys on) and its answer
to a locked-out login."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language

from config.cache import digest, keep_page_copy, page_copy


def client_ip(request: HttpRequest) -> str | None:
    """The peer's address; behind a declared proxy (``DJANGO_BEHIND_PROXY``), the address
    the proxy appended last to X-Forwarded-For (the earlier entries are the client's word)."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META.get("REMOTE_ADDR")


# How long a process keeps the locked-out page it drew (``lockout_response``).
LOCKED_OUT_PAGE_SECONDS = 600


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """django-axes' answer to a locked-out login: a page in the visitor's language, 429.

    A flood of guesses is answered with this page over and over, on the workers that deal
    entry needs: for a visitor who is not signed in it is drawn once per language and
    login page and then kept (``config.cache.page_copy``), so a refusal costs the lockout's
    lookup and not a page drawn. That copy names no one and carries no CSRF token, as the
    shared standings page (its language switch takes none)."""
    limit, minutes = settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_MINUTES
    user = getattr(request, "user", None)
    shared = (
        not (user is not None and user.is_authenticated)
        and not len(messages.get_messages(request))
        # An address with a query is drawn for its request: no copy a stranger's queries
        # could multiply (a few languages and login pages are all there is to keep).
        and not request.META.get("QUERY_STRING")
    )
    key = f"locked-out:{digest([get_language() or '', str(limit), str(minutes), request.path])}"
    html = page_copy(key) if shared else None
    if html is None:
        context = {"failure_limit": limit, "cooloff_minutes": minutes, "shared_page": shared}
        html = render_to_string("registration/locked_out.html", context, request).encode()
        if shared:
            keep_page_copy(key, html, LOCKED_OUT_PAGE_SECONDS)
    return HttpResponse(html, status=429)
