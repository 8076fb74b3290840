"""The printed Kop paper pad: 32 deals on one A4 page, whatever the players' names."""

from __future__ import annotations

import re

import pytest

from tests.factories import TableSessionFactory, club_players

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
    session = TableSessionFactory(
        profile="kop-pagat",
        players=club_players(LONG_NAMES),
        title="Stół 1",
        created_by=None,
        planned_deals=32,
    )
    assert pdf_pages(desktop, f"{live_server.url}/pad/kop/") == 1
    assert pdf_pages(desktop, f"{live_server.url}/pad/baska/") == 1
    assert pdf_pages(desktop, f"{live_server.url}/sessions/{session.pk}/pad/") == 1
