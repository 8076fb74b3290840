"""The base page as a person sees it: phone and desktop, login, language switch."""

from __future__ import annotations

import pytest

from tests.browser.conftest import login, no_horizontal_overflow

pytestmark = pytest.mark.django_db(transaction=True)


def test_home_on_a_phone_is_readable_without_sideways_scrolling(phone, live_server, shots):
    phone.goto(live_server.url + "/")
    assert phone.locator("h1").inner_text() == "Keep score at the card table"
    assert no_horizontal_overflow(phone)
    # Local assets only: htmx came from our own static files.
    assert phone.evaluate("typeof window.htmx") == "object"
    phone.screenshot(path=str(shots / "home-360x740.png"), full_page=True)


def test_home_on_a_desktop(desktop, live_server, shots):
    desktop.goto(live_server.url + "/")
    assert desktop.locator(".brand").is_visible()
    desktop.screenshot(path=str(shots / "home-1280x800.png"))


def test_no_request_leaves_the_machine(phone, live_server):
    outside = []
    phone.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith(live_server.url) else None,
    )
    phone.goto(live_server.url + "/")
    phone.wait_for_load_state("networkidle")
    assert outside == []


def test_director_logs_in_and_out(phone, live_server, director):
    login(phone, live_server, director.username)
    assert phone.get_by_role("button", name="Log out").is_visible()
    phone.get_by_role("button", name="Log out").click()
    phone.wait_for_load_state()
    assert phone.get_by_role("link", name="Log in").is_visible()


def test_language_switch_to_polish_and_back(phone, live_server):
    phone.goto(live_server.url + "/")
    phone.get_by_role("button", name="PL").click()
    phone.wait_for_load_state()
    assert phone.locator("html").get_attribute("lang") == "pl"
    assert phone.locator("h1").inner_text() == "Zapisuj wyniki przy stoliku"
    phone.get_by_role("button", name="EN").click()
    phone.wait_for_load_state()
    assert phone.locator("h1").inner_text() == "Keep score at the card table"
