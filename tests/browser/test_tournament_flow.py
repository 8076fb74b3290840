"""A director runs round 1 of a 16-player tournament; a table scores it through its link."""

from __future__ import annotations

import pytest

from clubs.selectors import player_label, several_clubs
from scoring import profile_services
from tests.browser.conftest import login, no_horizontal_overflow
from tests.factories import ClubFactory, PlayerFactory
from tournaments import services
from tournaments.models import RoundTable, StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def second_phone(browser):
    """Another player's phone at the table (its own browser context: its own session)."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_director_seats_a_round_and_a_table_scores_it(
    desktop, phone, second_phone, live_server, director, shots
):
    profile_services.profile_sync_builtin()
    club = ClubFactory(name="Klub")
    players = [PlayerFactory(club=club, name=f"Gracz {i:02d}") for i in range(1, 17)]

    # The director creates the tournament.
    login(desktop, live_server, director.username)
    desktop.goto(f"{live_server.url}/tournaments/new/")
    desktop.fill("input[name=name]", "Puchar Kościana")
    desktop.select_option("select[name=profile]", label="Kop, Kościan regulations")
    desktop.fill("input[name=deals_per_round]", "4")
    desktop.locator("main button[type=submit]").click()
    desktop.wait_for_load_state()
    tournament = Tournament.objects.get()
    # Registration and check-in of the field (the first two through the page).
    for player in players[:2]:
        label = player_label(player, several=several_clubs())  # with the club's name if two
        desktop.select_option("select[name=player]", label=label)
        desktop.get_by_role("button", name="Register").click()
        desktop.wait_for_load_state()
    for player in players[2:]:
        services.registration_add(tournament=tournament, player=player)
    for entry in tournament.entries.all():
        services.registration_check_in(registration=entry)
    desktop.reload()
    desktop.locator("#seat-next-round").click()
    desktop.wait_for_load_state()
    assert "round 1" in desktop.locator("h1").inner_text()
    assert desktop.locator(".card").count() == 4

    # A player at table 1 opens the link on a phone (no account) and enters four deals.
    table = RoundTable.objects.get(round__number=1, number=1)
    link = f"{live_server.url}/t/{table.session.entry_token}/"
    phone.goto(link)
    assert no_horizontal_overflow(phone)
    phone.locator("#seat-1").click()  # "Which seat are you?"
    phone.locator("#deal-form").wait_for()
    for n, points in enumerate(("60", "44", "70", "36"), 1):
        phone.locator("#deal-form label.seat").nth(0).click()
        phone.locator("#deal-form label.seat").nth(2).click()
        for digit in points:
            phone.locator(f"#deal-form [data-key='{digit}']").click()
        phone.locator("#save-deal").click()
        phone.get_by_text(f"Deal {n} saved.").wait_for()
    # Old = seats 1 & 3: +1 (60), -1 (44), +1 (70), -1 (36) -> 0 0 0 0 at the table
    assert phone.locator("[data-total-seat='1']").inner_text() == "0"

    # The scorer's phone may not accept its own deals: another player does, on their phone.
    phone.reload()
    assert phone.locator("#accept-other-phone").is_visible()
    assert phone.locator("#accept-result").count() == 0
    seat2 = table.session.seats.get(seat=2).player.name
    second_phone.goto(link)
    second_phone.locator("#seat-2").click()
    second_phone.locator("#accept-result").click()
    second_phone.get_by_text(f"Result accepted by seat 2 ({seat2})").wait_for()
    assert StandingsSnapshot.objects.filter(tournament=tournament).exists()
    phone.goto(f"{live_server.url}/tournaments/{tournament.slug}/standings/")
    phone.locator("#standings-current").wait_for()
    assert phone.locator("table.standings tbody tr").count() == 4
    # all four tie on 0 small points: they share (5+3+1+0)/4 = 2.25 big points
    assert "2.25" in phone.locator("table.standings tbody").inner_text()
    phone.screenshot(path=str(shots / "standings-360x740.png"), full_page=True)

    # The director's board shows one of four tables accepted.
    desktop.goto(f"{live_server.url}/tournaments/{tournament.slug}/board/")
    assert "1 of 4 tables accepted" in desktop.locator("#board").inner_text()
