"""Login throttling's parts: who is asking (the client address it keys on), the two counts
that lock a login out (django-axes' per user name and address, and this module's per
address), its answer to a locked-out login, and the login forms' user name field, which
refuses a name no account can have before anyone authenticates."""

from __future__ import annotations

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UsernameField
from django.core.exceptions import ValidationError
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

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


def address_failures(request: HttpRequest) -> int:
    """Failed logins from the request's address within the cool-off, whatever user names
    they tried (django-axes' records, one per name and address, summed over the address).
    Needs the request's ``axes_*`` attributes (``AxesProxyHandler.update_request``)."""
    attempts = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address,  # type: ignore[attr-defined]
        attempt_time__gte=get_cool_off_threshold(request),
    )
    return int(attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0)


def address_locked(request: HttpRequest) -> bool:
    return address_failures(request) >= settings.AXES_ADDRESS_FAILURE_LIMIT


class AddressThrottledHandler(AxesDatabaseHandler):
    """django-axes' database handler, locking an address as well as a user name at it.

    django-axes compares every count it keeps with one limit; the address needs a higher
    one (``AXES_ADDRESS_FAILURE_LIMIT``: a hall's phones share an address), so its count
    is asked here. A locked address is refused wherever django-axes asks (its backend,
    before ModelBackend hashes; ``config.middleware.LoginLockoutMiddleware``, before the
    request reaches the form) and the failure that reaches the limit gets the lockout
    page, as the user name's own limit does."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        return address_locked(request) or bool(super().is_locked(request, credentials))

    def user_login_failed(
        self,
        sender: Any,
        credentials: dict[str, Any],
        request: Any = None,  # an HttpRequest with django-axes' attributes
        **kwargs: Any,
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or request.axes_locked_out or not address_locked(request):
            return
        request.axes_locked_out = True
        request.axes_credentials = credentials
        user_locked_out.send(
            "axes",
            request=request,
            username=get_client_username(request, credentials),
            ip_address=request.axes_ip_address,
        )


class LoginNameField(UsernameField):
    """The user name of a login form. A name no account can have is refused here, so the
    form never authenticates with it and django-axes never records it (its records could
    hold neither): a NUL (PostgreSQL stores none) or more characters than the column
    holds (Django's login form sets the field's ``max_length`` but checks no length)."""

    default_error_messages = {
        "null_characters_not_allowed": _("This user name cannot be used: type it again."),
        "too_long": _("This user name is too long: type it again."),
    }

    def validate(self, value: Any) -> None:
        super().validate(value)
        if self.max_length is not None and len(value) > self.max_length:
            raise ValidationError(self.error_messages["too_long"], code="too_long")

    def prepare_value(self, value: Any) -> Any:
        """The name is typed into the form again only when it is printable and short."""
        too_long = self.max_length is not None and len(str(value)) > self.max_length
        if isinstance(value, str) and (too_long or not value.isprintable()):
            return ""
        return value


class LoginForm(AuthenticationForm):
    username = LoginNameField(widget=forms.TextInput(attrs={"autofocus": True}))


class AdminLoginForm(LoginForm, AdminAuthenticationForm):
    """The admin site's login form (Django's, which also asks for staff), with the same user
    name field."""


def login_name_refused(username: str) -> bool:
    """Whether the login form refuses this user name itself, without authenticating."""
    try:
        LoginForm().fields["username"].clean(username)
    except ValidationError:
        return True
    return False
