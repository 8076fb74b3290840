"""Member accounts, for directors: who can log in, and a new password for one who forgot."""

from __future__ import annotations

from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clubs.roles import DIRECTORS, SCORERS, director_required
from clubs.services import member_password_reset


@director_required
def members(request: HttpRequest) -> HttpResponse:
    accounts = (
        get_user_model()
        .objects.filter(is_active=True)
        .prefetch_related("groups")
        .order_by("username")
    )
    locked = set(
        AccessAttempt.objects.filter(failures_since_start__gt=0).values_list("username", flat=True)
    )
    rows = [
        {
            "user": u,
            "roles": sorted(g.name for g in u.groups.all() if g.name in (DIRECTORS, SCORERS)),
            "failed_logins": u.get_username() in locked,
        }
        for u in accounts
    ]
    return render(request, "clubs/members.html", {"rows": rows})


@never_cache
@require_POST
@director_required
def member_password(request: HttpRequest, pk: int) -> HttpResponse:
    """Set a new random password and show it once (POST only: a link preview or a reload
    of a GET must not reset anyone)."""
    member = get_object_or_404(get_user_model(), pk=pk, is_active=True)
    password = member_password_reset(member=member, by=request.user)
    return render(request, "clubs/member_password.html", {"member": member, "password": password})
