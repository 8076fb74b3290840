"""The three pages a player opens on his own phone, at 320 and 360 px, in Polish, Russian
and Estonian (issue 27): the pad through the table link (Kop at a tournament table, Vint at
a club table), find your table, and the standings. The demo club's players sit there, the
longest names first. On each: the page is in the language asked for, nothing reaches past
the right edge, no label is cut, names break between words only, and the words a player
acts on read in his language (taken from the catalogue of that language)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.utils.translation import gettext, override

from clubs.models import Club
from tests.browser.conftest import wider_than_viewport
from tests.browser.test_phone_details import CUT, WORD_BREAKS
from tests.browser.test_phone_layout import in_view
from tests.factories import TableSessionFactory
from tournaments.management.commands.demo_data import DEMO_PLAYERS
from tournaments.models import RoundTable, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = (320, 360)
# The Kop pad's keypad, both rows: a key under the sticky Save bar cannot be tapped.
KEYS = ["1", "5", "clear", "6", "0", "back"]


def words(language: str, *msgids: str) -> list[str]:
    with override(language):
        return [gettext(m) for m in msgids]


def fits(page, what: str) -> None:
    """Nothing past the right edge, no button label cut, no name broken inside a word."""
    assert wider_than_viewport(page) == [], what
    assert page.evaluate(CUT, "main .btn, main label.btn") == [], what
    breaks = page.evaluate(WORD_BREAKS, "td.words, .find-list a, .find-name, .seat-choice .btn")
    assert breaks == [], what


def open_pad(page, url: str, seat: int) -> None:
    """A player's phone opens the table link and says which seat he is."""
    page.goto(url)
    fits(page, "seat choice")
    page.locator(f"#seat-{seat}").click()
    page.locator("#deal-form").wait_for()


@pytest.mark.parametrize("language", ["pl", "ru", "et"])
def test_a_players_phone_in_each_language(browser, live_server, settings, language):
    settings.DEBUG = True  # demo_data loads its demo logins only then
    call_command("demo_data", stdout=io.StringIO())
    settings.DEBUG = False
    tournament = Tournament.objects.get()
    playing = RoundTable.objects.filter(round__number=3).first()  # being played
    assert playing is not None
    kop_link = f"{live_server.url}/t/{playing.session.entry_token}/"
    club = Club.objects.get(name="Klub Kopa Kościan (demo)")
    vint = TableSessionFactory(
        game="vint",
        profile="vint",
        players=list(club.players.filter(name__in=DEMO_PLAYERS[:4]).order_by("name")),
        title="Vint",
    )
    vint_link = f"{live_server.url}/t/{vint.entry_token}/"
    t = f"{live_server.url}/tournaments/{tournament.slug}"
    longest = DEMO_PLAYERS[0]
    save, find, place, or_tap = words(
        language, "Save deal %(n)s", "Find", "Place", "Or tap your name"
    )
    table_seat = words(language, "Table %(t)s, seat %(s)s")[0]

    for width in WIDTHS:
        context = browser.new_context(
            viewport={"width": width, "height": 740},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            service_workers="block",
        )
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            # The Kop pad at a tournament table: both keypad rows above the Save bar.
            open_pad(page, kop_link, 1)
            assert page.get_attribute("html", "lang") == language
            fits(page, f"Kop pad at {width} px")
            for key in KEYS:
                assert in_view(page, page.locator(f"#deal-form [data-key='{key}']")), key
            assert page.locator("#save-deal").inner_text().startswith(save.split("%")[0])

            # The Vint pad at a club table.
            open_pad(page, vint_link, 2)
            fits(page, f"Vint pad at {width} px")
            assert page.locator("#save-deal").inner_text().startswith(save.split("%")[0])

            # Find your table: the longest name, typed in part, then the list to tap.
            page.goto(f"{t}/find/")
            fits(page, f"find your table at {width} px")
            assert page.locator("details.find-all summary").inner_text() == or_tap
            page.fill("#find-q", longest.split()[1][:8])
            page.get_by_role("button", name=find, exact=True).click()
            page.locator("#find-result").wait_for()
            assert page.locator(".find-name").inner_text().startswith(longest)
            seat_line = page.locator(".find-seat").inner_text()
            assert seat_line.startswith(table_seat.split("%")[0]), seat_line
            fits(page, f"found at {width} px")

            # The standings.
            page.goto(f"{t}/standings/")
            assert page.locator("table.standings th").first.inner_text().strip() == place
            assert page.locator("table.standings tbody tr").count() >= 8
            fits(page, f"standings at {width} px")
        finally:
            context.close()
