"""A director's competition tools in real Chromium, on a 360 px phone and on a desktop:
the walkout score set to the PSB's 3 big and 35 small points, a walkout recorded at round
1's table, a penalty of half a big point, and both seen in the standings.

The Spring Cup of ``tests/tournaments/test_standings_words.py`` (numbers worked out in its
docstring): round 1's table by seat has 19, -13, 7, -13 small points; a fifth player sits
out. Seat 4 walks out after deal 2: seats 1, 2 and 3 get 3 big and 35 small each, seat 4
nothing (competitions.md §2.3). Seat 3 then gets -1/2 big point: 2.5 in total."""

from __future__ import annotations

from contextlib import nullcontext

import pytest

from scoring import profile_services
from tests.browser.conftest import login, no_horizontal_overflow, wider_than_viewport
from tests.factories import ClubFactory, TournamentFactory
from tests.tournaments.test_standings_words import FIVE, play_round_one
from tournaments.models import Adjustment, RoundTable, TournamentAction

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_director_records_a_walkout_and_a_penalty_and_sees_them_in_the_standings(
    request, screen, live_server, director
):
    page = request.getfixturevalue(screen)
    profile_services.profile_sync_builtin()
    tournament = TournamentFactory(
        name="Spring Cup", rounds=2, deals_per_round=3, club=ClubFactory(), seed=3, field=FIVE
    )
    spring = play_round_one(tournament, nullcontext)  # tasks run at each commit here
    base = f"{live_server.url}/tournaments/{tournament.slug}/"
    login(page, live_server, director.username)

    # The rules: walkouts score 3 big and 35 small points.
    page.goto(base)
    page.locator("#competition-rules").click()
    page.wait_for_load_state()
    assert no_horizontal_overflow(page), wider_than_viewport(page)
    page.locator("#fieldset-walkout_mode input[value=fixed]").check()
    page.fill("input[name=walkout_big]", "3")
    page.fill("input[name=walkout_small]", "35")
    page.locator("#competition-save").click()
    page.wait_for_load_state()
    assert "Say why" in page.locator("#competition-form").inner_text()
    assert page.locator("input[name=walkout_small]").input_value() == "35"
    page.fill("#competition-form textarea[name=reason]", "Polish Baśka Association rules.")
    page.locator("#competition-save").click()
    page.wait_for_load_state()
    assert "The competition rules are saved." in page.locator(".messages").inner_text()

    # The walkout, from the round's page.
    leaver = spring.seat[4]
    page.goto(f"{base}rounds/1/")
    page.locator("#round-walkouts").click()
    page.wait_for_load_state()
    assert no_horizontal_overflow(page), wider_than_viewport(page)
    table = RoundTable.objects.get(round=spring.first)
    page.locator("#situation-form input[value=walkout]").check()
    page.select_option("select[name=seat]", f"{table.pk}-4")
    page.fill("input[name=after]", "2")
    page.fill("#situation-form textarea[name=reason]", "Left for a train.")
    page.locator("#situation-save").click()
    page.wait_for_load_state()
    assert "The walkout is recorded" in page.locator(".messages").inner_text()
    assert (
        f"Table 1: {leaver.player.name} (no. {leaver.number}) walked out after deal 2."
        in page.locator("#situations").inner_text()
    )

    # Half a big point off seat 3.
    three = spring.seat[3]
    page.goto(f"{base}competition/")
    page.fill("#adjustment-form input[name=number]", str(three.number))
    page.fill("#adjustment-form input[name=big]", "-1/2")
    page.fill("#adjustment-form textarea[name=reason]", "Phone rang")
    page.locator("#adjustment-save").click()
    page.wait_for_load_state()
    assert "The adjustment is added" in page.locator(".messages").inner_text()
    assert "Phone rang" in page.locator("#adjustment-list").inner_text()
    assert no_horizontal_overflow(page), wider_than_viewport(page)

    # The standings: the leaver marked, the stayers' 3 big and 35 small, the penalty.
    page.goto(f"{base}standings/")
    body = page.locator("main").inner_text()
    assert f"{leaver.player.name} (walked out)" in body
    row = page.locator("tr", has_text=spring.seat[1].player.name).first.inner_text()
    assert "35" in row
    row = page.locator("tr", has_text=three.player.name).first.inner_text()
    assert "2.5" in row
    assert "Phone rang" in page.locator("#adjustments").inner_text()
    assert list(TournamentAction.objects.order_by("id").values_list("action", flat=True)) == [
        "competition",
        "walkout",
        "adjusted",
    ]
    assert Adjustment.objects.get().big == -0.5
