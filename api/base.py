"""What every API view shares: the ``API_ENABLED`` switch, ``ETag``/``If-None-Match``
(and ``Last-Modified`` where a view knows it cheaply), the ``since=`` filter, and the
site's visibility checks for the reader (anonymous, or a token's account)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.http import Http404, HttpResponseBase
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.dateparse import parse_date, parse_datetime
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import generics
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.views import APIView

SINCE = OpenApiParameter(
    "since",
    OpenApiTypes.DATETIME,
    description="Only what changed at or after this time (ISO 8601; a date means its midnight).",
)


def parse_since(request: Request) -> datetime | None:
    raw = request.query_params.get("since")
    if raw is None:
        return None
    raw = raw.strip()
    found: datetime | None = None
    if len(raw) <= 40:
        try:
            found = parse_datetime(raw.replace(" ", "+"))
            if found is None and (day := parse_date(raw)) is not None:
                found = datetime(day.year, day.month, day.day)
        except ValueError:
            found = None
    if found is not None:
        try:
            if timezone.is_naive(found):
                found = timezone.make_aware(found)
            # In UTC: PostgreSQL refuses offsets beyond ±15:59 that Python accepts.
            found = found.astimezone(UTC)
        except (OverflowError, ValueError):
            found = None
    if found is None:
        raise ValidationError({"since": "Give a time as ISO 8601, e.g. 2026-05-01T18:00:00Z."})
    return found


class Conditional(APIView):
    """``ETag`` for every 200 answer to a GET (a digest of the body unless the view set
    one), and 304 when ``If-None-Match`` (or ``If-Modified-Since``) holds it. A view
    that knows its version before reading (the standings) answers 304 by itself."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        if not settings.API_ENABLED:
            raise Http404
        super().initial(request, *args, **kwargs)

    def finalize_response(
        self, request: Request, response: Any, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.auth is not None or request.META.get("HTTP_AUTHORIZATION"):
            response["Cache-Control"] = "private, no-cache"
        else:
            response["Cache-Control"] = "public, no-cache"
        patch_vary_headers(response, ["Authorization", "Origin"])
        if request.method not in ("GET", "HEAD") or response.status_code != 200:
            return response
        if not response.has_header("ETag"):
            response.render()
            response["ETag"] = f'"{hashlib.sha256(response.content).hexdigest()[:32]}"'
        answer = get_conditional_response(
            request, etag=response["ETag"], last_modified=None, response=response
        )
        return answer if answer is not None else response

    def not_modified(
        self, request: Request, etag: str, last_modified: datetime | None = None
    ) -> HttpResponseBase | None:
        """A 304 if the reader holds ``etag`` already (before anything else is read)."""
        stamp = int(last_modified.timestamp()) if last_modified else None
        answer = get_conditional_response(request, etag=etag, last_modified=stamp)
        if answer is not None:
            answer["ETag"] = etag
        return answer


class ApiView(Conditional):
    pass


class ListView(Conditional, generics.ListAPIView):
    pass


class DetailView(Conditional, generics.RetrieveAPIView):
    pass
