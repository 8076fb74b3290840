"""The standings page on a 360 px phone: one page of a big field, a search by a name typed
without its accents opens the page holding that player, marked, and the pager moves on;
nothing scrolls sideways."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import no_horizontal_overflow, wider_than_viewport
from tests.factories import ClubFactory, TournamentFactory
from tournaments import selectors, services
from tournaments.models import StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)
FIELD, PAGE = 150, 25


def big_field(director):
    tournament = TournamentFactory(
        name="Kościan Cup",
        rounds=3,
        deals_per_round=4,
        club=ClubFactory(name="Klub Kopa"),
        seed=7,
        created_by=director,
    )
    tournament.results_version = 1
    tournament.save(update_fields=["results_version"])
    snapshot_store(tournament, 1)
    return tournament


def snapshot_store(tournament, version, *, name="Małgorzata Wiśniewska-Szczepańska"):
    """The standings snapshot of ``version``: ``FIELD`` players named ``name`` and their
    start number, in start-number order."""
    rows = [
        {
            "rank": str(i),
            "place": i,
            "number": i,
            "name": f"{name} {i:03d}",
            "big_points": 1000 - i,
            "small_points": -i,
            "firsts": 1,
            "seconds": 1,
            "thirds": 1,
            "fourths": 0,
            "rounds": 3,
            "byes": 0,
            "by_round": [],
        }
        for i in range(1, FIELD + 1)
    ]
    data = {"game": "kop", "individual": rows}
    snapshot = StandingsSnapshot.objects.create(
        tournament=tournament, results_version=version, data=data
    )
    services.standings_rows_store(snapshot=snapshot, data=data)


def test_a_search_on_a_phone_opens_the_players_page_marked(
    phone, live_server, director, monkeypatch
):
    monkeypatch.setattr(selectors, "STANDINGS_PAGE_SIZE", PAGE)
    tournament = big_field(director)
    phone.goto(f"{live_server.url}/tournaments/{tournament.slug}/standings/")
    body = phone.locator("table.standings tbody tr")
    expect(body).to_have_count(PAGE)
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)

    phone.fill("#standings-q", "malgorzata wisniewska szczepanska 111")
    phone.press("#standings-q", "Enter")
    found = phone.locator("#standings-found")
    expect(found).to_contain_text("Małgorzata Wiśniewska-Szczepańska 111")
    expect(found).to_be_in_viewport()
    # Place 111 with 25 a page: the fifth page (places 101 to 125).
    expect(body.first).to_contain_text("Szczepańska 101")
    expect(phone.locator(".pager [aria-current=page]")).to_have_text("5")
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)

    phone.locator(".pager a[rel=next]").click()
    expect(body.first).to_contain_text("Szczepańska 126")
    expect(phone).to_have_url(re.compile(r"ind-page=6"))
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)


def test_a_page_left_open_while_the_standings_update_shows_the_new_ones(
    phone, live_server, director, monkeypatch
):
    """A phone on page 2 while a result is being counted: the page says so and asks every
    few seconds; once the new standings are stored it shows them, still on page 2."""
    monkeypatch.setattr(selectors, "STANDINGS_PAGE_SIZE", PAGE)
    tournament = big_field(director)
    Tournament.objects.filter(pk=tournament.pk).update(results_version=2)  # being counted
    phone.goto(f"{live_server.url}/tournaments/{tournament.slug}/standings/?ind-page=2")
    body = phone.locator("table.standings tbody tr")
    expect(body.first).to_contain_text("Szczepańska 026")
    expect(phone.locator("#standings-status")).to_contain_text("A newer version is on its way")

    snapshot_store(tournament, 2, name="Zofia Nowak")
    expect(body.first).to_contain_text("Zofia Nowak 026", timeout=15_000)
    expect(phone.locator("#standings-current")).to_be_visible()
    expect(phone).to_have_url(re.compile(r"ind-page=2"))
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)


def test_a_reader_switches_the_shared_pages_language_and_stays_on_its_page(
    phone, live_server, director, monkeypatch
):
    """The page every reader shares carries no CSRF token of anyone's: its language switch
    still works, twice over, and keeps the reader on the page of the standings they read."""
    monkeypatch.setattr(selectors, "STANDINGS_PAGE_SIZE", PAGE)
    tournament = big_field(director)
    url = f"{live_server.url}/tournaments/{tournament.slug}/standings/?ind-page=3"
    body = phone.locator("table.standings tbody tr")
    # A reader before this one drew the shared copy: this one is answered with it.
    first = phone.context.browser.new_page()
    first.goto(url)
    first.close()
    phone.goto(url)
    expect(body.first).to_contain_text("Szczepańska 051")
    phone.get_by_role("button", name="PL").click()
    expect(phone.locator("html")).to_have_attribute("lang", "pl")
    expect(phone.get_by_role("link", name="Zaloguj")).to_be_visible()
    expect(body.first).to_contain_text("Szczepańska 051")
    expect(phone).to_have_url(re.compile(r"ind-page=3"))
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)
    phone.get_by_role("button", name="EN").click()
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    expect(body.first).to_contain_text("Szczepańska 051")
