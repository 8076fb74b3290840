"""Fixtures for every tier that loads Django."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """The unit tier runs with pytest-django switched off (``-p no:django``), where the
    setting it reads from pyproject.toml would be an unknown option (a warning on every
    run): it is declared here instead, read by nobody."""
    if not pluginmanager.hasplugin("django"):
        parser.addini("DJANGO_SETTINGS_MODULE", "pytest-django's (not loaded in this tier)")


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
