"""A double tap on the pad's save button stores one deal and says "saved", never a
refusal: while the first send is on its way the second is dropped (hx-sync), and a tap
right after the "saved" answer does not send the form the answer emptied (issue 25)."""

from __future__ import annotations

import time

import pytest

from scoring.games.kop.models import KopDeal
from tests.browser.conftest import login
from tests.browser.test_kop_scorer import keypad, tap

pytestmark = pytest.mark.django_db(transaction=True)


def _normal_60(page) -> None:
    tap(page, "1\u00a0Ala")
    tap(page, "3\u00a0Celina")
    keypad(page, "60")
    page.locator("[data-preview-seat='1']").wait_for()


def _slow_saves(page, seconds: float) -> None:
    """The network takes ``seconds`` to carry each save (the hall's Wi-Fi on a bad day)."""

    def delayed(route):  # type: ignore[no-untyped-def]
        time.sleep(seconds)
        route.continue_()

    page.route("**/deals/", delayed)


def test_a_double_tap_on_a_slow_network_stores_one_deal_and_says_saved(
    phone, live_server, scorer, table
):
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    _normal_60(phone)
    _slow_saves(phone, 0.6)
    phone.locator("#save-deal").dblclick()
    phone.get_by_text("Deal 1 saved.").wait_for()
    phone.wait_for_timeout(1500)  # a second send would have been answered by now
    assert KopDeal.objects.filter(session=table).count() == 1
    assert phone.locator("#pad .error").count() == 0
    assert phone.locator("#saved-msg").inner_text() == "Deal 1 saved."


def test_a_second_tap_just_after_the_answer_is_not_a_refusal_and_the_next_deal_saves(
    phone, live_server, scorer, table
):
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    _normal_60(phone)
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 1 saved.").wait_for()
    phone.locator("#save-deal").click()  # the second tap lands after the answer
    phone.wait_for_timeout(800)
    assert phone.locator("#pad .error").count() == 0
    assert phone.locator("#saved-msg").inner_text() == "Deal 1 saved."
    assert KopDeal.objects.filter(session=table).count() == 1
    # The next deal, entered at once, is saved as usual.
    _normal_60(phone)
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 2 saved.").wait_for()
    assert KopDeal.objects.filter(session=table).count() == 2
