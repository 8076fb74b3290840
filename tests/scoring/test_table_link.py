"""A table's link (``scoring.permissions``): a phone that scanned it may write at the table
for ``TABLE_LINK_HOURS``; after that it scans the card again (and says its seat again)."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from scoring import permissions
from tests.actors import open_table_link, phone

pytestmark = pytest.mark.django_db

DEAL = {"contract": "normal", "declarers": ["1", "3"], "doublings": "0", "declarer_points": "60"}


def add_url(table):
    return reverse("scoring:deal_add", kwargs={"pk": table.session_id})


def test_a_grant_ends_after_table_link_hours(kop_table, settings, monkeypatch):
    table = kop_table  # a tournament's table, as the phones of a hall scan
    settings.TABLE_LINK_HOURS = 3
    scorer = phone(table.session, seat=1)
    opened = time.time()
    monkeypatch.setattr(permissions.time, "time", lambda: opened + 2.9 * 3600)
    assert scorer.post(add_url(table), DEAL).status_code == 302
    monkeypatch.setattr(permissions.time, "time", lambda: opened + 3.1 * 3600)
    assert scorer.post(add_url(table), DEAL).status_code == 403
    # Scanning the card again gives a new grant (the seat is asked again).
    assert (
        open_table_link(scorer, table.session, seat=1).post(add_url(table), DEAL).status_code == 302
    )
