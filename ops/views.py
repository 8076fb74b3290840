"""The health check (``/health``): the database, the broker and the worker's heartbeat; and
the backups page, for site administrators."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import wraps

import redis
from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils import timezone

from ops.backup import backup_path, backups_list
from ops.models import WorkerHeartbeat


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


def superuser_required(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """Site administrators only: a backup holds every club's data (every account, every
    register, every deal), so a club's director may not read one. Anonymous: the login
    page; anyone else signed in: 403."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not (request.user.is_superuser and request.user.is_active):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


@superuser_required
def backups(request: HttpRequest) -> HttpResponse:
    """The backups in the data folder, newest first: date, size, kind and app version."""
    return render(
        request,
        "ops/backups.html",
        {"backups": backups_list(), "folder": settings.BACKUP_DIR},
    )


@superuser_required
def backup_download(request: HttpRequest, name: str) -> HttpResponseBase:
    """One backup file, downloaded; only a file the page lists (no other path)."""
    path = backup_path(name)
    if path is None:
        raise Http404
    return FileResponse(open(path, "rb"), as_attachment=True, filename=name)
