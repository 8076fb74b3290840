"""The Kop pad without a connection: deals wait on the phone (IndexedDB) and are sent in
order when it returns; a deal another phone saved meanwhile is shown, never overwritten."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.games.kop.models import KopDeal
from tests.browser.conftest import login, settles_to
from tests.browser.test_kop_scorer import keypad, tap

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def phone(offline_phone):
    """These tests need the service worker (see tests/browser/conftest.py)."""
    return offline_phone


CONTROLLED = "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"
CACHED = "async () => !!(await (await caches.open('tablescore-pad-v1')).match(location.href))"
SLOW = 30_000  # ms: generous for a loaded machine; every wait polls for its state


def open_pad(page, live_server, user, session):
    login(page, live_server, user.username)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    # The service worker controls the page and keeps it (and its files) for offline use.
    page.wait_for_function(CONTROLLED, timeout=SLOW)
    page.wait_for_function(CACHED, timeout=SLOW)


def enter(page, contract, seats, points):
    if contract != "normal":
        tap(page, contract)
    for seat in seats:
        tap(page, seat)
    keypad(page, points)
    page.locator("#save-deal").click()


def rows(session):
    return list(
        KopDeal.objects.filter(session=session)
        .order_by("number")
        .values_list("number", "contract", "declarer_points")
    )


def test_three_deals_offline_survive_a_reload_and_are_stored_once_in_order(
    phone, live_server, scorer, table
):
    open_pad(phone, live_server, scorer, table)
    phone.context.set_offline(True)

    assert "dealer: 1 (Ala)" in phone.locator("#deal-head").inner_text()
    enter(phone, "normal", ["1\u00a0Ala", "3\u00a0Celina"], "60")
    phone.get_by_text("1 deal waiting to send").wait_for()
    assert "waits for the server" in phone.locator("#preview").inner_text()
    # The next deal's dealer, offline as online: the deal passes to seat 2, then 3.
    assert "Deal 2 · dealer: 2 (Bartek)" in phone.locator("#deal-head").inner_text()
    enter(phone, "cicha", ["1\u00a0Ala"], "61")
    phone.get_by_text("2 deals waiting to send").wait_for()
    assert "Deal 3 · dealer: 3 (Celina)" in phone.locator("#deal-head").inner_text()

    # A reload without a connection: the page comes from the worker's cache and the
    # queue from IndexedDB; the pad goes on with deal 3.
    phone.reload()
    phone.get_by_text("2 deals waiting to send").wait_for()
    assert phone.locator("#save-deal").inner_text() == "Save deal 3"
    assert "Deal 3 · dealer: 3 (Celina)" in phone.locator("#deal-head").inner_text()
    enter(phone, "normal", ["2\u00a0Bartek", "4\u00a0Darek"], "70")
    phone.get_by_text("3 deals waiting to send").wait_for()
    assert list(phone.locator("#offline-list li").all_inner_texts())[2].endswith("Card points: 70")
    assert KopDeal.objects.count() == 0

    phone.context.set_offline(False)
    phone.get_by_text("Save deal 4").wait_for()
    phone.locator("#offline-box").wait_for(state="hidden")
    settles_to(lambda: rows(table), [(1, "normal", 60), (2, "cicha", 61), (3, "normal", 70)])
    # +1 (deal 1), +12 (cicha), -1 (deal 3) for seat 1: the totals include all three.
    assert [int(phone.locator(f"[data-total-seat='{i}']").inner_text()) for i in (1, 2)] == [
        12,
        -4,
    ]


def test_a_deal_saved_from_another_phone_meanwhile_is_shown_and_the_scorer_chooses(
    phone, live_server, scorer, table
):
    open_pad(phone, live_server, scorer, table)
    phone.context.set_offline(True)
    enter(phone, "normal", ["1\u00a0Ala", "3\u00a0Celina"], "60")
    enter(phone, "cicha", ["1\u00a0Ala"], "61")
    phone.get_by_text("2 deals waiting to send").wait_for()

    # Meanwhile phone B saves deal 1 (with the connection this phone lacks).
    services.deal_record(
        session=table,
        facts={"contract": "normal", "declarers": [2, 4], "doublings": 0, "declarer_points": 75},
        actor=services.Actor(label="phone B"),
    )

    phone.context.set_offline(False)
    panel = phone.locator("#offline-conflict")
    panel.wait_for()
    assert "Deal 1 was saved from another phone meanwhile." in panel.inner_text()
    assert phone.locator("#offline-theirs").inner_text() != ""
    assert phone.locator("#offline-mine").inner_text().endswith("Card points: 60")
    # Nothing was decided for the scorer: B's deal stands, A's deals still wait.
    assert rows(table) == [(1, "normal", 75)]
    phone.get_by_text("2 deals waiting to send").wait_for()

    phone.locator("#offline-keep", has_text="Keep mine as deal 2").click()
    phone.locator("#offline-box").wait_for(state="hidden")
    phone.get_by_text("Save deal 4").wait_for()
    settles_to(lambda: rows(table), [(1, "normal", 75), (2, "normal", 60), (3, "cicha", 61)])


def test_dropping_the_conflicting_deal_sends_the_rest(phone, live_server, scorer, table):
    open_pad(phone, live_server, scorer, table)
    phone.context.set_offline(True)
    enter(phone, "normal", ["1\u00a0Ala", "3\u00a0Celina"], "60")
    enter(phone, "cicha", ["1\u00a0Ala"], "61")
    phone.get_by_text("2 deals waiting to send").wait_for()
    services.deal_record(
        session=table,
        facts={"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60},
        actor=services.Actor(label="phone B"),
    )
    phone.context.set_offline(False)
    phone.locator("#offline-conflict").wait_for()
    phone.locator("#offline-drop").click()
    phone.locator("#offline-box").wait_for(state="hidden")
    phone.get_by_text("Save deal 3").wait_for()
    settles_to(lambda: rows(table), [(1, "normal", 60), (2, "cicha", 61)])


def test_a_save_that_never_reaches_the_server_waits_and_the_next_deal_queues_behind_it(
    phone, live_server, scorer, table
):
    """The Wi-Fi is up but the request is lost: navigator.onLine stays true.

    Every step waits for what the scorer sees (polled, with room for a loaded machine):
    the lost save's retry may still be on its way when deal 2 is saved, and the page then
    sends again as soon as that retry ends (offline.js, ``again``)."""
    open_pad(phone, live_server, scorer, table)
    phone.route("**/deals/", lambda route: route.abort())
    enter(phone, "normal", ["1\u00a0Ala", "3\u00a0Celina"], "60")
    expect(phone.locator("#offline-count")).to_have_text("1 deal waiting to send", timeout=SLOW)
    expect(phone.locator("#save-deal")).to_have_text("Save deal 2", timeout=SLOW)
    assert KopDeal.objects.count() == 0

    phone.unroute("**/deals/")
    # Deal 2 goes behind deal 1, and the queue is sent at once since the phone is online.
    enter(phone, "cicha", ["1\u00a0Ala"], "61")
    expect(phone.locator("#offline-box")).to_be_hidden(timeout=SLOW)
    expect(phone.locator("#save-deal")).to_have_text("Save deal 3", timeout=SLOW)
    settles_to(lambda: rows(table), [(1, "normal", 60), (2, "cicha", 61)])
