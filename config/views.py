"""Site-wide pages: home, the service worker and the web manifest (the health check is
``ops.views.health``)."""

from __future__ import annotations

from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {})


def service_worker(request: HttpRequest) -> HttpResponse:
    """The pad's service worker, served from the site's root so that it may keep the
    table pages (a worker only controls pages below its own URL)."""
    found = finders.find("js/sw.js")
    source = Path(str(found)).read_text(encoding="utf-8") if found else ""
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def manifest(request: HttpRequest) -> JsonResponse:
    """The web manifest: the table pad can be added to a phone's home screen."""
    return JsonResponse(
        {
            "name": "tablescore",
            "short_name": "tablescore",
            "description": _("tablescore: scores for Kop, Baśka and Vint"),
            "start_url": reverse("scoring:sessions"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#1f5e3b",
            "icons": [{"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
        },
        content_type="application/manifest+json",
    )
