"""Fixtures for every tier that loads Django."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


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
