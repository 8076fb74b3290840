"""Site-wide middleware: the Permissions-Policy header, the 503 page, early login lockout.

Django's own middleware sends the Content-Security-Policy (``SECURE_CSP``); browsers
also need to be told which device features the site never uses.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse

from config.security import lockout_response

log = logging.getLogger(__name__)


class PermissionsPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = getattr(settings, "PERMISSIONS_POLICY", "")
        if policy:
            response.headers.setdefault("Permissions-Policy", policy)
        return response


class ServiceUnavailableMiddleware:
    """A database that cannot be reached answers the static 503 page ("try again in a
    moment"), not a 500: nothing is wrong with the request, and it will work again."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if settings.DEBUG or not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.error("database unavailable: %s", exception)
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = "10"
        return response


class LoginLockoutMiddleware:
    """Refuse a locked-out login POST before CSRF, the form and the password hasher run.

    django-axes' own backend refuses it before hashing too, but only once the request has
    gone through the whole stack; a flood of locked-out guesses then still occupies the
    workers that deal entry needs. Here the refusal is one indexed lookup."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.method == "POST"
            and getattr(settings, "AXES_ENABLED", True)  # axes' own default
            and request.path_info == reverse(settings.LOGIN_URL)
        ):
            credentials = {"username": request.POST.get("username", "")}
            if AxesProxyHandler.is_locked(request, credentials):
                if not hasattr(request, "user"):
                    request.user = AnonymousUser()
                return lockout_response(request, None, credentials)
        return self.get_response(request)
