"""Strict parsing of environment variables.

A bad value is an error that names the variable, so a typo in production fails
at start-up instead of silently falling back to a default
(after healthchecks' ``hc/settings.py``).
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true or false)")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_url(name: str, default: str | None, *, schemes: tuple[str, ...]) -> str | None:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    parsed = urlparse(raw)
    if parsed.scheme not in schemes:
        allowed = ", ".join(schemes)
        raise ImproperlyConfigured(
            f"{name}={raw!r} has scheme {parsed.scheme!r}; expected one of: {allowed}"
        )
    return raw
