"""The print pages in real Chromium: a round's results and the final standings come out
of the browser's print as A4 (Chromium's PDF output, headless), every table and row on
the sheet and none cut at the right edge; on a 320 px phone they fit without a sideways
scroll. With the demo's longest name, in English and Polish.
"""

from __future__ import annotations

import re
from contextlib import nullcontext

import pytest

from scoring import profile_services
from tests.browser.conftest import no_horizontal_overflow, wider_than_viewport
from tests.factories import ClubFactory, TournamentFactory
from tests.tournaments.test_standings_words import play_round_one, play_round_two
from tournaments.models import StandingsSnapshot

pytestmark = pytest.mark.django_db(transaction=True)

LONGEST = "Aleksandra Przybyszewska-Wiśniewska"
FIELD = [LONGEST, "Bartłomiej Szczepański", "Celina Wrona", "Darek Lis", "Edek Sowa"]

# A4 is 210 mm wide; print.css leaves 10 mm each side: 190 mm of CSS pixels (96 per inch).
A4_TEXT_WIDTH = round(190 / 25.4 * 96)

FITS = "() => document.scrollingElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def finished():
    """The Spring Cup (tests/tournaments/test_standings_words.py) played to the end, with
    long names: round 1 with a bye, a withdrawal, round 2."""
    profile_services.profile_sync_builtin()
    club = ClubFactory(name="Klub Kopa")
    tournament = TournamentFactory(
        name="Spring Cup", rounds=2, deals_per_round=3, club=club, seed=3, field=FIELD
    )
    spring = play_round_one(tournament, nullcontext)  # tasks run at each commit here
    play_round_two(spring, nullcontext)
    assert StandingsSnapshot.objects.filter(tournament=tournament).exists()
    return spring


def pdf_pages(pdf: bytes) -> int:
    """How many pages a PDF has (its page objects; Chromium writes them uncompressed)."""
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


def urls(live_server, spring) -> dict[str, str]:
    base = f"{live_server.url}/tournaments/{spring.tournament.slug}"
    return {"round": f"{base}/rounds/1/?print=1", "standings": f"{base}/standings/?print=1"}


def set_language(page, live_server, language: str) -> None:
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )


# The pages open the browser's print dialog once loaded (static/js/print.js); a headless
# Chromium would hold the page "being printed", so the dialog is only counted here.
COUNT_PRINTS = "window.print = () => { window.printsAsked = (window.printsAsked || 0) + 1; };"


def open_print_page(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    assert page.evaluate("window.printsAsked") == 1  # the print dialog opened by itself


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_print_pages_come_out_as_one_a4_page_each(
    desktop, live_server, finished, shots, language
):
    set_language(desktop, live_server, language)
    desktop.add_init_script(COUNT_PRINTS)
    for name, url in urls(live_server, finished).items():
        open_print_page(desktop, url)
        assert LONGEST in desktop.content()
        desktop.emulate_media(media="print")
        # The sheet's width: nothing reaches past it.
        desktop.set_viewport_size({"width": A4_TEXT_WIDTH, "height": 1000})
        assert desktop.evaluate(FITS), wider_than_viewport(desktop)
        assert desktop.locator(".topbar").is_hidden()  # no site chrome on paper
        desktop.screenshot(path=str(shots / f"print-{name}-a4-{language}.png"), full_page=True)
        pdf = desktop.pdf(format="A4", print_background=True)
        (shots / f"print-{name}-{language}.pdf").write_bytes(pdf)
        assert pdf.startswith(b"%PDF-")
        assert pdf_pages(pdf) == 1, name  # one table of five players: one sheet
        desktop.emulate_media(media="screen")
        desktop.set_viewport_size({"width": 1280, "height": 800})


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_print_pages_fit_a_320_px_phone(phone, live_server, finished, shots, language):
    phone.set_viewport_size({"width": 320, "height": 740})
    set_language(phone, live_server, language)
    phone.add_init_script(COUNT_PRINTS)
    for name, url in urls(live_server, finished).items():
        open_print_page(phone, url)
        phone.screenshot(path=str(shots / f"print-{name}-320-{language}.png"), full_page=True)
        assert LONGEST in phone.content()
        assert phone.evaluate(FITS), (name, wider_than_viewport(phone))
        assert no_horizontal_overflow(phone), (name, wider_than_viewport(phone))


def test_a_players_page_fits_a_320_px_phone(phone, live_server, finished, shots):
    """The page of the player who sat out round 1: his rounds' table scrolls inside its
    own box if it must, the page never sideways."""
    phone.set_viewport_size({"width": 320, "height": 740})
    entry = finished.bye
    phone.goto(f"{live_server.url}/tournaments/{entry.tournament.slug}/players/{entry.number}/")
    phone.screenshot(path=str(shots / "player-page-320.png"), full_page=True)
    assert phone.locator("#player-total").inner_text().startswith("Place: 3")
    assert phone.evaluate(FITS), wider_than_viewport(phone)
