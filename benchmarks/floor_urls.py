"""The site's URLs plus the floor a deal save is measured against (``bench_requests``;
not named ``bench_*``, so ``make bench`` does not run it as a benchmark).

``/bench/bare/<pk>/`` is the least a table's phone can do to store one row: the same
middleware (sessions, CSRF, authentication, security headers), the table link checked
against the table's token, and one INSERT; it renders nothing.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from config.urls import urlpatterns as site
from scoring.models import DealHistory, TableSession
from scoring.permissions import link_grant


@require_POST
def bare_insert(request: HttpRequest, pk: int) -> HttpResponse:
    session = TableSession.objects.only("pk", "entry_token").get(pk=pk)
    grant = link_grant(request, session)
    if grant is None:
        return HttpResponse(status=403)
    DealHistory.objects.create(
        session_id=pk,
        deal_number=1,
        action="created",
        actor="bench",
        phone=str(grant["phone"]),
        seat=int(grant["seat"]),
        new={"contract": request.POST.get("contract", "")},
    )
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/<int:pk>/", bare_insert), *site]
