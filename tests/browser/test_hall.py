"""The hall: a player on a 360 px phone finds their table; the hall display on a
1920x1080 screen counts the round down, pages through the standings and updates itself
from the polled partial (304 while nothing changed) without reloading the page."""

from __future__ import annotations

import re

import pytest

from scoring import services as scoring_services
from tests.browser.conftest import no_horizontal_overflow, wider_than_viewport
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)
ACTOR = scoring_services.Actor(label="test", is_director=True)
FULL_HD = {"width": 1920, "height": 1080}
HD = {"width": 1280, "height": 720}
LONG = "Małgorzata Wiśniewska-Szczepańska"

# Every visible element inside the screen (a hidden row or a cut table has no box).
OFF_SCREEN = """() => {
  const w = window.innerWidth, h = window.innerHeight, out = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || !el.checkVisibility()) continue;
    if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1) {
      out.push(el.tagName.toLowerCase() + (el.className ? "." + el.className : "") +
        " " + Math.round(r.top) + ".." + Math.round(r.bottom));
    }
  }
  return out.slice(0, 12);
}"""


def field(director, players: int):
    club = ClubFactory(name="Klub Kopa")
    names = [
        "Małgorzata Wiśniewska-Szczepańska" if i == 5 else f"Gracz {i:02d}"
        for i in range(1, players + 1)
    ]
    return TournamentFactory(
        name="Kościan Cup",
        rounds=3,
        deals_per_round=4,
        club=club,
        seed=7,
        created_by=director,
        round_minutes=90,
        field=[PlayerFactory(club=club, name=name, number=i) for i, name in enumerate(names, 1)],
    )


def test_a_player_finds_their_seat_on_a_phone(phone, live_server, director):
    tournament = field(director, 16)
    rnd = services.round_generate(tournament=tournament)
    table = rnd.tables.get(session__seats__player__number=5)
    seat = table.session.seats.get(player__number=5).seat
    phone.goto(f"{live_server.url}/tournaments/{tournament.slug}/find/")
    phone.fill("#find-q", "malgorzata wisniewska")
    phone.click("form.find-form button")
    result = phone.locator("#find-result")
    assert result.get_attribute("data-number") == "5"
    assert f"Table {table.number}, seat {seat}" in result.inner_text()
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)

    # A name shared by many: tap the right start number.
    phone.fill("#find-q", "gracz")
    phone.click("form.find-form button")
    assert phone.locator("#find-several").is_visible()
    phone.click(".find-list a[href='?n=12']")
    assert phone.locator("#find-result").get_attribute("data-number") == "12"
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)


def test_the_hall_display_on_a_full_hd_screen(browser, live_server, director):
    tournament = field(director, 40)
    first = services.round_generate(tournament=tournament)
    services.round_accept_all(rnd=first, actor=ACTOR, reason="on paper")
    second = services.round_generate(tournament=tournament)
    context = browser.new_context(viewport=FULL_HD)
    page = context.new_page()
    page.set_default_timeout(15_000)
    polls: list[int] = []
    page.on("response", lambda r: polls.append(r.status) if "part=1" in r.url else None)
    try:
        page.goto(f"{live_server.url}/tournaments/{tournament.slug}/display/?every=2")
        page.evaluate("window.__notReloaded = true")
        clock = page.locator("[data-round-clock] .left")
        page.wait_for_function(
            "() => /^1:29:\\d\\d$/.test("
            "document.querySelector('[data-round-clock] .left').textContent)"
        )
        assert re.match(r"1:(29|30):\d\d", clock.inner_text())

        # 40 players: as many rows as fit a page (more than a dozen at full HD), one
        # page shown at a time, then the next.
        rows = page.locator("#hall-standings tbody tr")
        assert rows.count() == 40
        size = page.locator("#hall-standings tbody tr:visible").count()
        assert 15 <= size < 40
        assert page.locator("[data-page-label]").inner_text() == f"1 / {-(-40 // size)}"
        page.wait_for_function(
            "() => /^2 \\/ /.test(document.querySelector('[data-page-label]').textContent)",
            timeout=12_000,
        )
        visible = page.locator("#hall-standings tbody tr:visible")
        assert visible.first.inner_text() == rows.nth(size).inner_text()

        # Nothing changed: the polls answer 304 and the page is left as it is.
        page.wait_for_timeout(4500)
        assert 304 in polls and 200 not in polls
        playing = page.locator(".hall-playing li[data-table]").count()
        assert playing == second.tables.count()

        # A table is accepted: the next poll brings the new partial, the page stays.
        table = second.tables.first()
        services.round_table_accept(table=table, actor=ACTOR, reason="on paper")
        page.wait_for_function(
            "(n) => document.querySelectorAll('.hall-playing li[data-table]').length === n",
            arg=playing - 1,
        )
        assert 200 in polls
        assert page.evaluate("window.__notReloaded") is True
        assert no_horizontal_overflow(page), wider_than_viewport(page)
        # fits the screen once the standings are paged again after the update (polled)
        page.wait_for_function(
            f"() => document.documentElement.scrollHeight <= {FULL_HD['height'] + 1}"
        )
    finally:
        context.close()


@pytest.mark.parametrize("screen", [HD, FULL_HD], ids=["1280x720", "1920x1080"])
def test_the_hall_display_fits_the_screen(browser, live_server, director, screen):
    """A big field with long names: the standings in type read across a hall, the tables
    still playing and every accepted table that fits, newest first, nothing off screen."""
    club = ClubFactory(name="Klub Kopa")
    tournament = TournamentFactory(
        name="Kościan Cup",
        rounds=3,
        deals_per_round=4,
        club=club,
        seed=7,
        created_by=director,
        field=[PlayerFactory(club=club, name=f"{LONG} {i}", number=i) for i in range(1, 61)],
    )
    first = services.round_generate(tournament=tournament)
    services.round_accept_all(rnd=first, actor=ACTOR, reason="on paper")
    second = services.round_generate(tournament=tournament)
    tables = list(second.tables.order_by("number"))
    for table in tables[:6]:
        services.round_table_accept(table=table, actor=ACTOR, reason="on paper")
    context = browser.new_context(viewport=screen)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/tournaments/{tournament.slug}/display/?every=60")
        assert page.evaluate(OFF_SCREEN) == []
        assert page.evaluate("document.documentElement.scrollHeight") <= screen["height"]
        assert no_horizontal_overflow(page), wider_than_viewport(page)

        row = page.locator("#hall-standings tbody tr:visible").first
        font = page.evaluate(
            "(el) => parseFloat(getComputedStyle(el).fontSize)",
            row.locator("td").first.element_handle(),
        )
        assert font >= (28 if screen is FULL_HD else 18)
        assert row.bounding_box()["height"] >= (28 if screen is FULL_HD else 20)
        # As many rows as fit, the rest paged: one more row would cross the bottom.
        visible = page.locator("#hall-standings tbody tr:visible")
        assert visible.count() >= 14
        last = visible.last.bounding_box()
        bottom = page.locator("#hall-standings").bounding_box()
        assert last["y"] + 2 * last["height"] > bottom["y"] + bottom["height"]
        assert page.locator("[data-page-label]").inner_text().startswith("1 / ")

        # The newest accepted table first; the rest of the list says how many it leaves out.
        accepted = page.locator(".hall-accepted li[data-table]:visible")
        assert accepted.count() >= 1
        assert accepted.first.get_attribute("data-table") == str(tables[5].number)
        shown = accepted.count()
        if shown < 6:
            assert page.locator(".hall-accepted [data-more-line]").inner_text() == (
                f"and {6 - shown} more"
            )
    finally:
        context.close()
