"""Browser tier: real headless Chromium (Debian's) driven by Playwright.

Pages are served by pytest-django's ``live_server`` on SQLite; the tier runner
sets DJANGO_ALLOW_ASYNC_UNSAFE because Playwright's sync API runs an event loop
in the test thread.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from tests.factories import TableSessionFactory, club_players

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not at {CHROMIUM}: apt-get install chromium", pytrace=False)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


def _page(browser, **options):
    """One browser context and its page, closed after the test."""
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


PHONE_OPTIONS = {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


# The pad's service worker fetches the page again in the background to keep it (sw.js);
# a test that does not wait for that could end with the fetch still reading the database
# while the test database is flushed. Only the offline tests, which wait for the worker,
# let it run (``offline_phone``).
@pytest.fixture
def phone(browser):
    yield from _page(browser, **PHONE_OPTIONS, service_workers="block")


@pytest.fixture
def offline_phone(browser):
    """A phone whose pad may install the service worker (the offline tests wait for it)."""
    yield from _page(browser, **PHONE_OPTIONS)


@pytest.fixture
def desktop(browser):
    yield from _page(browser, viewport=DESKTOP, service_workers="block")


@pytest.fixture
def make_table(scorer):
    """A table session of four new players of one club, on a built-in profile:
    ``make_table("kop", "kop-pagat", ["Ala", ...], title=..., planned_deals=...)``."""

    def make(game, slug, names, *, title="Stół 1", planned_deals=None):
        return TableSessionFactory(
            game=game,
            profile=slug,
            players=club_players(names),
            title=title,
            created_by=scorer,
            planned_deals=planned_deals,
        )

    return make


KOP_NAMES = ["Ala", "Bartek", "Celina", "Darek"]


@pytest.fixture
def table(make_table):
    """The Kop table most pad tests play at: pagat's rules, 32 deals planned."""
    return make_table("kop", "kop-pagat", KOP_NAMES, planned_deals=32)


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where screenshots go: $SCREENSHOT_DIR (make screenshots) or a temp dir."""
    target = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def settles_to(read: Callable[[], Any], want: Any, *, seconds: float = 30) -> None:
    """Poll ``read()`` (the database, say) until it returns ``want``, then assert it: a page
    can show its next state a moment before the server's answer is committed."""
    deadline = time.monotonic() + seconds
    while (got := read()) != want and time.monotonic() < deadline:
        time.sleep(0.1)
    assert got == want


def login(page, live_server, username: str, password: str = "pw-secret-123") -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def no_horizontal_overflow(page) -> bool:
    """Nothing sticks out to the right of the viewport the test asked for (a phone
    browser zooms out to fit a wide page, so window.innerWidth would grow with it)."""
    return not wider_than_viewport(page)


def wider_than_viewport(page) -> list[str]:
    """The elements that reach past the right edge of the viewport (for a readable failure)."""
    return page.evaluate(
        """(w) => {
          if (document.documentElement.scrollWidth <= w + 1) return [];
          const out = [];
          for (const el of document.querySelectorAll("body *")) {
            const r = el.getBoundingClientRect();
            if (r.right > w + 1 && r.width > 0) {
              out.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
                (el.className && typeof el.className === "string" ? "." + el.className : "") +
                " " + Math.round(r.right));
            }
          }
          return out.slice(0, 12);
        }""",
        page.viewport_size["width"],
    )
