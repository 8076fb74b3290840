"""The read API's tests: the demo tournament (``manage.py demo_data``: two rounds
accepted, the third in progress) and API clients for each identity of ``people``."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from clubs.services import api_token_create
from tournaments.models import Tournament


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> None:
    cache.clear()  # the throttles' counts (the test cache is this process's memory)


@pytest.fixture
def demo(settings: Any) -> Tournament:
    settings.DEBUG = True  # demo_data refuses to run with DEBUG off
    call_command("demo_data", stdout=None)
    settings.DEBUG = False
    return Tournament.objects.get()


def token_client(user: Any) -> Client:
    """A client sending a new token of ``user`` (and no session cookie)."""
    _token, secret = api_token_create(user=user, label="test")
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}", raise_request_exception=False)
