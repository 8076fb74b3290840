"""The printed Kop paper pad: 32 deals on one A4 page, whatever the players' names."""

from __future__ import annotations

import re

import pytest

from scoring import profile_services, services
from scoring.models import RuleProfile
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

LONG_NAMES = [
    "Aleksandra Wiśniewska-Kowalczyk",
    "Przemysław Brzęczyszczykiewicz",
    "Małgorzata Szczepańska-Jabłońska",
    "Krzysztof Grzegorz Dziewulski",
]


def pdf_pages(page, url):
    page.goto(url)
    pdf = page.pdf(format="A4", print_background=False)
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_a_blank_pad_and_a_tables_pad_print_on_one_page(desktop, live_server):
    profile_services.profile_sync_builtin()
    club = ClubFactory()
    session = services.session_create(
        game="kop",
        profile_version=RuleProfile.objects.get(slug="kop-pagat").current,
        players=[PlayerFactory(club=club, name=n) for n in LONG_NAMES],
        title="Stół 1",
        created_by=None,
        planned_deals=32,
    )
    assert pdf_pages(desktop, f"{live_server.url}/pad/kop/") == 1
    assert pdf_pages(desktop, f"{live_server.url}/pad/baska/") == 1
    assert pdf_pages(desktop, f"{live_server.url}/sessions/{session.pk}/pad/") == 1
