"""A scorer meets the end of the planned deals (issue 25): after the last one the pad
says they are all played and offers no next deal, a phone and a desktop alike; the
director allows one more with a reason and the pad offers it."""

from __future__ import annotations

import pytest

from scoring.games.kop.models import KopDeal
from tests.browser.conftest import KOP_NAMES, login, no_horizontal_overflow
from tests.browser.test_double_tap import _normal_60

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_pad_stops_at_the_planned_deals_and_the_director_allows_one_more(
    request, screen, browser, live_server, scorer, director, make_table
):
    page = request.getfixturevalue(screen)
    table = make_table("kop", "kop-pagat", KOP_NAMES, planned_deals=2)
    login(page, live_server, scorer.username)
    page.goto(f"{live_server.url}/sessions/{table.pk}/")
    for n in (1, 2):
        _normal_60(page)
        page.locator("#save-deal").click()
        page.get_by_text(f"Deal {n} saved.").wait_for()
    page.locator("#all-played").wait_for()
    assert "All 2 planned deals are played" in page.locator("#all-played").inner_text()
    assert page.locator("#deal-form").count() == 0 and page.locator("#save-deal").count() == 0
    assert no_horizontal_overflow(page)
    page.reload()  # a visit says the same
    assert page.locator("#all-played").count() == 1 and page.locator("#deal-form").count() == 0
    assert KopDeal.objects.filter(session=table).count() == 2

    # The director allows one more, saying why; the scorer's pad offers deal 3.
    boss = browser.new_page(viewport={"width": 1280, "height": 900})
    login(boss, live_server, director.username)
    boss.goto(f"{live_server.url}/sessions/{table.pk}/")
    boss.locator("#planned-form input[name=planned_deals]").fill("3")
    boss.locator("#planned-form input[name=reason]").fill("a misdeal was replayed")
    boss.locator("#change-planned").click()
    boss.get_by_text("The table now plays 3 deals.").wait_for()
    boss.close()
    page.reload()
    _normal_60(page)
    page.locator("#save-deal").click()
    page.get_by_text("Deal 3 saved.").wait_for()
    page.locator("#all-played").wait_for()
    assert KopDeal.objects.filter(session=table).count() == 3
