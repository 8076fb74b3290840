"""Rate limits (DRF throttling in the site's cache): per address without a token, per
token with one (``API_RATE_ANONYMOUS``, ``API_RATE_TOKEN``: requests a minute)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from config.security import client_ip


class AddressThrottle(SimpleRateThrottle):
    scope = "api-address"

    def get_rate(self) -> str:
        return f"{settings.API_RATE_ANONYMOUS}/min"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.auth is not None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request) or "-"}


class TokenThrottle(SimpleRateThrottle):
    scope = "api-token"

    def get_rate(self) -> str:
        return f"{settings.API_RATE_TOKEN}/min"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.auth is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.auth.pk}
