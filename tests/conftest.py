"""Fixtures for every tier.

The tiers that load Django also get the named actors (``tests/actors.py``) and the rows
most tests start from (``tests/fixtures.py``: ``profiles``, ``club``, ``four_players``,
``kop_session``, ``kop_tournament``, ``sixteen``, ``kop_table``, ``commit``, ...),
registered here once for every directory; the unit tier (``-p no:django``) loads
neither, since both import Django.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """The unit tier runs with pytest-django switched off (``-p no:django``), where the
    setting it reads from pyproject.toml would be an unknown option (a warning on every
    run): it is declared here instead, read by nobody."""
    if not pluginmanager.hasplugin("django"):
        parser.addini("DJANGO_SETTINGS_MODULE", "pytest-django's (not loaded in this tier)")


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("django"):
        # pytest-django has set Django up by now (before the conftests were loaded).
        for module in ("tests.actors", "tests.fixtures", "tests.clubs.identities"):
            config.pluginmanager.import_plugin(module)


@pytest.fixture(autouse=True)
def _language_of_the_test_only(request: pytest.FixtureRequest) -> Iterator[None]:
    """A page asked for in Estonian leaves its language active in the thread (the locale
    middleware activates it and nothing deactivates it): the next test starts in the
    default language again, whatever ran before it."""
    yield
    if request.config.pluginmanager.hasplugin("django"):
        from django.utils import translation

        translation.deactivate()


@pytest.fixture(autouse=True)
def _columns_hold_what_is_saved(request: pytest.FixtureRequest) -> Iterator[None]:
    """A model saved with text longer than its column fails the test on SQLite too (which
    stores it), as PostgreSQL refuses it in production (a 500)."""
    if not request.config.pluginmanager.hasplugin("django"):  # the unit tier: no Django
        yield
        return
    from tests.strict_db import lengths_checked

    with lengths_checked():
        yield


class FakeBroker:
    """Celery's broker as ``ops.outbox`` sees it: down (each send refused, as by a Redis
    that is not there) until ``up`` is set; ``tried`` counts the sends, ``sent`` lists
    those that went through."""

    def __init__(self) -> None:
        self.up = False
        self.tried = 0
        self.sent: list[tuple[str, list[object]]] = []

    def send_task(self, name: str, args: list[object]) -> None:
        from kombu.exceptions import OperationalError

        self.tried += 1
        if not self.up:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6390. Connection refused.")
        self.sent.append((name, args))


@pytest.fixture
def broker(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeBroker]:
    """Tasks go to a ``FakeBroker`` (down at first) instead of running in-process; the
    outbox forgets its last failure before and after."""
    from config.celery import app
    from ops import outbox

    settings.CELERY_TASK_ALWAYS_EAGER = False
    fake = FakeBroker()
    monkeypatch.setattr(app, "send_task", fake.send_task)
    outbox._state.update(down_until=0.0, stored_here=False)
    yield fake
    outbox._state.update(down_until=0.0, stored_here=False)
