"""What happens to a whole table: locked and unlocked, its result accepted, left out of
the ratings, its link revoked and reissued. Each goes to the table's history. Only a
director of the table's club does these (a director of another club gets 403, and
nothing is written); the table itself accepts through its link."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.roles import director_required, require_director_of
from scoring import acceptance, services
from scoring.errors import AcceptRefused
from scoring.models import TableSession
from scoring.permissions import entry_actor
from scoring.views import session_or_404


def _directed(request: HttpRequest, pk: int) -> tuple[TableSession, services.Actor]:
    """The session ``pk`` and its director acting: 403 unless he directs its club."""
    session = session_or_404(pk)
    user = request.user
    require_director_of(user, session.club_id)
    return session, services.Actor(label=user.get_username(), is_director=True, user_id=user.pk)


def _reason_errors(exc: services.DealRejected, request: HttpRequest) -> None:
    for msgs in exc.errors.values():
        for m in msgs:
            messages.error(request, m)


@require_POST
@director_required
def session_lock(request: HttpRequest, pk: int) -> HttpResponse:
    """Lock or (saying why) unlock; both go to the table's history."""
    session, actor = _directed(request, pk)
    reason = request.POST.get("reason", "")
    try:
        if request.POST.get("unlock"):
            services.session_unlock(session=session, actor=actor, reason=reason)
            messages.success(request, _("Session unlocked."))
        else:
            services.session_lock(session=session, actor=actor, reason=reason)
            messages.success(
                request, _("Table locked: nothing changes until a director unlocks it.")
            )
    except services.DealRejected as exc:
        _reason_errors(exc, request)
    return redirect("scoring:session", pk=pk)


@require_POST
@director_required
def session_planned(request: HttpRequest, pk: int) -> HttpResponse:
    """The director changes the table's planned deals, saying why."""
    session, actor = _directed(request, pk)
    try:
        planned = int(request.POST.get("planned_deals", "")[:4])
    except ValueError:
        messages.error(request, _("Type the number of deals the table plays."))
        return redirect("scoring:session", pk=pk)
    try:
        services.session_planned_change(
            session=session,
            actor=actor,
            planned=planned,
            reason=request.POST.get("reason", ""),
        )
    except services.DealRejected as exc:
        _reason_errors(exc, request)
    except services.SessionLocked as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The table now plays %(n)s deals.") % {"n": planned})
    return redirect("scoring:session", pk=pk)


@require_POST
def session_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """A club session's result accepted by a phone bound to another seat than the one(s)
    that entered deals, or a director with a reason (``services.session_accept``)."""
    session = session_or_404(pk)
    actor = entry_actor(request, session)
    if actor is None:
        raise PermissionDenied(_("Only the table (through its link) or a director may accept."))
    try:
        acceptance.session_accept(
            session=session, actor=actor, reason=request.POST.get("reason", "")
        )
    except AcceptRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Result accepted. Thank you!"))
    return redirect("scoring:session", pk=pk)


@require_POST
@director_required
def session_rating_exclude(request: HttpRequest, pk: int) -> HttpResponse:
    """A director leaves a club session out of the ratings, or rates it again, with a reason."""
    session, actor = _directed(request, pk)
    try:
        acceptance.session_rating_exclude(
            session=session,
            actor=actor,
            reason=request.POST.get("reason", ""),
            excluded=not request.POST.get("include"),
        )
    except AcceptRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Saved: the ratings follow in a moment."))
    return redirect("scoring:session", pk=pk)


@require_POST
@director_required
def session_link_reissue(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke the table link (every phone holding it loses the table) and make a new one."""
    session, actor = _directed(request, pk)
    try:
        services.session_link_reissue(
            session=session, actor=actor, reason=request.POST.get("reason", "")
        )
    except services.DealRejected as exc:
        _reason_errors(exc, request)
    else:
        messages.success(request, _("The old table link no longer works: here is the new one."))
    return redirect("scoring:session", pk=pk)
