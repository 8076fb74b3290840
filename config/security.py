"""Who is asking: the client address that login throttling keys on."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def client_ip(request: HttpRequest) -> str | None:
    """The peer's address; behind a declared proxy (``DJANGO_BEHIND_PROXY``), the address
    the proxy appended last to X-Forwarded-For (the earlier entries are the client's word)."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META.get("REMOTE_ADDR")


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """django-axes' answer to a locked-out login: a page in the visitor's language, 429."""
    return render(
        request,
        "registration/locked_out.html",
        {
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "cooloff_minutes": settings.AXES_COOLOFF_MINUTES,
        },
        status=429,
    )
