"""Member accounts, for a club's directors: who holds which role in the clubs they
direct, giving and taking roles, a new account, and a new password for one who forgot."""

from __future__ import annotations

from typing import Any

from axes.models import AccessAttempt
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubs.forms import ApiTokenForm, RoleForm
from clubs.models import ApiToken, Club, Membership
from clubs.roles import directed_club_ids, directed_clubs, director_required
from clubs.services import (
    RoleError,
    api_token_create,
    api_token_revoke,
    manages_member,
    member_password_reset,
    outranks,
    password_generate,
    role_grant,
    role_revoke,
)


def _rows(user: Any) -> list[dict[str, Any]]:
    """Each account holding a role in a club ``user`` directs, with those roles."""
    ids = directed_club_ids(user)
    held = Membership.objects.select_related("user", "club").filter(user__is_active=True)
    if ids is not None:
        held = held.filter(club_id__in=ids)
    accounts: dict[int, dict[str, Any]] = {}
    for m in held.order_by("user__username", "club__name", "role"):
        row = accounts.setdefault(m.user_id, {"user": m.user, "roles": []})
        row["roles"].append(m)
    locked = set(
        AccessAttempt.objects.filter(failures_since_start__gt=0).values_list("username", flat=True)
    )
    for row in accounts.values():
        row["failed_logins"] = row["user"].get_username() in locked
        row["may_reset"] = not outranks(row["user"], user)
    return list(accounts.values())


def _page(request: HttpRequest, **context: Any) -> dict[str, Any]:
    """The members page's context: the accounts, the role form, the reader's API tokens."""
    return {
        "rows": _rows(request.user),
        "form": RoleForm(clubs=directed_clubs(request.user)),
        "token_form": ApiTokenForm(),
        "tokens": ApiToken.objects.filter(user_id=request.user.pk or 0),
        **context,
    }


@director_required
def members(request: HttpRequest) -> HttpResponse:
    return render(request, "clubs/members.html", _page(request))


@never_cache
@require_POST
@director_required
def member_grant(request: HttpRequest) -> HttpResponse:
    """Give a role in one of my clubs to an account (a new one, with a password shown
    once, when nobody holds that user name)."""
    form = RoleForm(request.POST, clubs=directed_clubs(request.user))
    if not form.is_valid():
        return render(request, "clubs/members.html", _page(request, form=form), status=400)
    users = get_user_model().objects
    username = form.cleaned_data["username"]
    member = users.filter(**{users.model.USERNAME_FIELD: username}).first()
    password = None
    if member is None:
        password = password_generate()
        member = users.create_user(username, password=password)
    try:
        role_grant(
            user=member,
            club=form.cleaned_data["club"],
            role=form.cleaned_data["role"],
            by=request.user,
        )
    except RoleError as error:
        form.add_error(None, str(error))
        return render(request, "clubs/members.html", _page(request, form=form), status=400)
    if password is not None:
        return render(
            request, "clubs/member_password.html", {"member": member, "password": password}
        )
    messages.success(request, _("The role is given."))
    return redirect("clubs:members")


@require_POST
@director_required
def member_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    membership = get_object_or_404(Membership.objects.select_related("user", "club"), pk=pk)
    club: Club = membership.club
    try:
        role_revoke(user=membership.user, club=club, role=membership.role, by=request.user)
    except RoleError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The role is taken away."))
    return redirect("clubs:members")


@never_cache
@require_POST
@director_required
def member_password(request: HttpRequest, pk: int) -> HttpResponse:
    """Set a new random password and show it once (POST only: a link preview or a reload
    of a GET must not reset anyone). Only for a member of a club I direct who holds no
    right I have not."""
    member = get_object_or_404(get_user_model(), pk=pk, is_active=True)
    if not manages_member(member, request.user):
        raise PermissionDenied("Not a member of a club you direct.")
    password = member_password_reset(member=member, by=request.user)
    return render(request, "clubs/member_password.html", {"member": member, "password": password})


@never_cache
@require_POST
@director_required
def api_token_new(request: HttpRequest) -> HttpResponse:
    """A new read-API token for the director signed in: its secret is shown once (POST
    only, never cached); only its SHA-256 digest is kept."""
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return render(request, "clubs/members.html", _page(request, token_form=form), status=400)
    try:
        token, secret = api_token_create(user=request.user, label=form.cleaned_data["label"])
    except RoleError as error:
        form.add_error(None, str(error))
        return render(request, "clubs/members.html", _page(request, token_form=form), status=400)
    return render(request, "clubs/api_token.html", {"token": token, "secret": secret})


@require_POST
@director_required
def api_token_revoke_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke one of the reader's own tokens (another account's is "no such token")."""
    if not api_token_revoke(user=request.user, pk=pk):
        raise Http404(_("No such API token."))
    messages.success(request, _("The API token is revoked: it no longer works."))
    return redirect("clubs:members")
