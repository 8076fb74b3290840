"""Site-wide pages: home and the health check."""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from tournaments.models import WorkerHeartbeat


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {})


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
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
        client.ping()
    except Exception as exc:  # connection refused, timeout, auth: all "down"
        return False, type(exc).__name__
    return True, "redis"


def _last_heartbeat() -> str | None:
    try:
        beat = WorkerHeartbeat.objects.order_by("-beat_at").first()
    except Exception:  # table missing before migrate: report, don't crash
        return None
    return beat.beat_at.isoformat() if beat else None


def health(request: HttpRequest) -> JsonResponse:
    db_ok, db_detail = _database_ok()
    broker_ok, broker_detail = _broker_ok()
    ok = db_ok and broker_ok
    last_beat = _last_heartbeat() if db_ok else None
    body = {
        "status": "ok" if ok else "unavailable",
        "database": {"ok": db_ok, "detail": db_detail},
        "broker": {"ok": broker_ok, "detail": broker_detail},
        "worker": {"last_heartbeat": last_beat},
    }
    return JsonResponse(body, status=200 if ok else 503)
