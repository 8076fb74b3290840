"""A read-API token: ``Authorization: Bearer <secret>``; only its SHA-256 is stored."""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from clubs.selectors import api_token_find
from clubs.services import api_token_digest, api_token_used


class BearerTokenAuthentication(BaseAuthentication):
    """No header: anonymous (the public's view). A header with an unknown or revoked
    token: 401, never a silent fall back to the public's view."""

    keyword = "bearer"

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        scheme, _space, secret = header.strip().partition(" ")
        secret = secret.strip()
        if scheme.lower() != self.keyword or not secret or len(secret) > 200:
            raise AuthenticationFailed("Send the token as: Authorization: Bearer <token>.")
        token = api_token_find(digest=api_token_digest(secret))
        if token is None or not token.user.is_active:
            raise AuthenticationFailed("The token is unknown or was revoked.")
        api_token_used(token=token)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'
