"""Site-wide pages: home and the health check."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import redis
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import WorkerHeartbeat


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


def _database_ok() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"; report, don't crash
        return False, type(exc).__name__
    return True, connection.vendor


def _broker_ok() -> tuple[bool, str]:
    if not settings.REDIS_URL:
        return True, "in-process"

    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2
        )
        client.ping()
    except Exception as exc:  # connection refused, timeout, auth: all "down"
        return False, type(exc).__name__
    return True, "redis"


def _last_heartbeat() -> datetime | None:
    try:
        beat = WorkerHeartbeat.objects.order_by("-beat_at").first()
    except Exception:  # table missing before migrate: report, don't crash
        return None
    return beat.beat_at if beat else None


def _worker_ok(last_beat: datetime | None) -> tuple[bool, str]:
    """In-process tasks need no worker; with a broker, a worker's heartbeat must be fresh."""
    if not settings.REDIS_URL:
        return True, "in-process"
    if last_beat is None:
        return False, "no heartbeat recorded"
    age = (timezone.now() - last_beat).total_seconds()
    if age > settings.HEARTBEAT_STALE_SECONDS:
        return False, f"heartbeat stale ({int(age)} s old)"
    return True, f"heartbeat {int(age)} s old"


def health(request: HttpRequest) -> JsonResponse:
    """200 when everything works; 503 "unavailable" when the database or Redis is down, and
    503 "degraded" when the worker is silent (pages work, standings wait)."""
    db_ok, db_detail = _database_ok()
    broker_ok, broker_detail = _broker_ok()
    last_beat = _last_heartbeat() if db_ok else None
    worker_ok, worker_detail = _worker_ok(last_beat)
    problems = []
    if not db_ok:
        problems.append(f"database unreachable ({db_detail})")
    if not broker_ok:
        problems.append(f"Redis unreachable ({broker_detail}): standings will update later")
    if not worker_ok:
        problems.append(f"Celery worker: {worker_detail}")
    status = "ok"
    if not worker_ok:
        status = "degraded"
    if not (db_ok and broker_ok):
        status = "unavailable"
    body = {
        "status": status,
        "problems": problems,
        "database": {"ok": db_ok, "detail": db_detail},
        "broker": {"ok": broker_ok, "detail": broker_detail},
        "worker": {
            "ok": worker_ok,
            "detail": worker_detail,
            "last_heartbeat": last_beat.isoformat() if last_beat else None,
        },
    }
    return JsonResponse(body, status=200 if status == "ok" else 503)
