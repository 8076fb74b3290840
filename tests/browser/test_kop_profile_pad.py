"""The pad follows the table's rule profile: Baśka without grand offers no grand."""

from __future__ import annotations

import pytest

from scoring.games.kop.models import KopDeal
from tests.browser.conftest import KOP_NAMES, login

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(make_table):
    return make_table("baska", "baska-no-grand", KOP_NAMES, title="Gorzów")


def test_a_pad_without_grand(phone, live_server, scorer, table):
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    contracts = phone.locator("#deal-form input[name=contract]")
    offered = [contracts.nth(i).get_attribute("value") for i in range(contracts.count())]
    # Baśka's contracts but grand and grand du (rules/kop.md §7.1 "contracts").
    assert offered == ["normal", "cicha", "wesele", "zolo", "zolo_du", "baska"]
    assert phone.locator("#deal-form input[name=contract][value=grand]").count() == 0
    # An allowed one still plays: zolo by seat 2 wins 70 -> V 5, seat 2 +15.
    phone.locator("#deal-form label.btn", has_text="zolo").first.click()
    phone.locator("#deal-form label.btn", has_text="2\u00a0Bartek").first.click()
    for d in "70":
        phone.locator(f"#deal-form [data-key='{d}']").click()
    phone.locator("[data-preview-seat='2']", has_text="+15").wait_for()
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 1 saved.").wait_for()
    assert KopDeal.objects.get().payments == (-5, 15, -5, -5)
