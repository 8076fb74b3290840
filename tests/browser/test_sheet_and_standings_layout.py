"""Desktop: the Vint sheet's three rubbers sit side by side without one covering another.
Phone: the standings show small points without a sideways scroll."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from scoring.models import TableSession
from tests.browser.conftest import login
from tournaments.demo_logins import DEMO_DIRECTOR
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(settings):
    settings.DEBUG = True  # demo_data loads the published demo logins only then
    call_command("demo_data", stdout=io.StringIO())
    settings.DEBUG = False


def test_vint_rubbers_do_not_overlap_on_a_desktop(desktop, live_server, demo, shots):
    vint = TableSession.objects.get(title="Demo: Vint session")
    login(desktop, live_server, DEMO_DIRECTOR[0], DEMO_DIRECTOR[1])
    desktop.goto(f"{live_server.url}/sessions/{vint.pk}/sheet/")
    desktop.screenshot(path=str(shots / "vint-sheet-1280.png"), full_page=True)
    boxes = desktop.evaluate(
        """() => [...document.querySelectorAll('.rubber-sheet')].map(s => {
             const r = s.getBoundingClientRect();
             const cut = [...s.querySelectorAll('.scroll-x')].filter(
               x => x.scrollWidth > x.clientWidth + 1).length;
             return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, cut: cut};
           })"""
    )
    assert len(boxes) == 3
    for here, after in zip(boxes, boxes[1:], strict=False):  # side by side or stacked
        assert here["right"] <= after["left"] + 1 or here["bottom"] <= after["top"] + 1, boxes
    for box in boxes:  # every table whole in its own column, none cut off
        assert box["cut"] == 0, boxes


def test_standings_show_small_points_on_a_phone_without_scrolling(phone, live_server, demo, shots):
    tournament = Tournament.objects.get()
    phone.goto(f"{live_server.url}/tournaments/{tournament.slug}/standings/")
    phone.screenshot(path=str(shots / "standings-360.png"), full_page=True)
    overflow = phone.evaluate(
        """() => [...document.querySelectorAll('.scroll-x')].filter(
             s => s.scrollWidth > s.clientWidth + 1).map(s => s.id || s.className)"""
    )
    assert overflow == []
    small = phone.locator("th", has_text="Small points").first
    assert small.is_visible()
    box = small.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 361
