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
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from config.security import address_locked, lockout_response, login_name_refused

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


class BadInputMiddleware:
    """Refuse, with a page that says why, what no view could take, before anything reads
    it: an upload larger than ``UPLOAD_MAX_BYTES`` (413, its body never read: the CSRF
    check would otherwise read it whole to find its token) and an address whose query
    holds a NUL character (400: PostgreSQL stores none, so a search would end in a 500)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if request.method == "POST" and length > settings.UPLOAD_MAX_BYTES:
            megabytes = settings.UPLOAD_MAX_BYTES / 1_000_000
            message = _("This is too large to send: at most %(mb)s MB.") % {
                "mb": number_format(megabytes, 1)
            }
            return _refusal(message, 413)
        if any("\x00" in k or any("\x00" in v for v in vs) for k, vs in request.GET.lists()):
            return _refusal(_("The address holds a character that cannot be used."), 400)
        return self.get_response(request)


def _refusal(message: str, status: int) -> HttpResponse:
    html = render_to_string("bad_request.html", {"message": message, "status": status})
    return HttpResponse(html, status=status)


class LoginLockoutMiddleware:
    """Refuse a locked-out login POST before CSRF, the form and the password hasher run.

    django-axes' own backend refuses it before hashing too, but only once the request has
    gone through the whole stack; a flood of locked-out guesses then still occupies the
    workers that deal entry needs. Here the refusal is a lookup or two: the address's
    failures (a flood of made-up names locks it: ``config.security.AddressThrottledHandler``),
    then the user name's at that address."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.method == "POST"
            and getattr(settings, "AXES_ENABLED", True)  # axes' own default
            and request.path_info == reverse(settings.LOGIN_URL)
        ):
            username = request.POST.get("username", "")
            credentials = {"username": username}
            AxesProxyHandler.update_request(request)
            if login_name_refused(username):
                # The form answers it with its error and never authenticates, and the
                # lockout's records could not hold it (a NUL, or past the column): only
                # the address is asked.
                locked = address_locked(request)
            else:
                locked = AxesProxyHandler.is_locked(request, credentials)
            if locked:
                if not hasattr(request, "user"):
                    request.user = AnonymousUser()
                return lockout_response(request, None, credentials)
        return self.get_response(request)
