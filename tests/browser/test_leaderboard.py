"""A visitor opens the Kop leaderboard, sorts it, and follows a player to their page and chart."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from scoring import services as scoring_services
from scoring.engines.simulate import random_kop_deals
from tests.browser.conftest import no_horizontal_overflow
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tests.factories import record_kop_deals as kop_bulk_record
from tournaments import ratings, services
from tournaments.models import RoundTable

pytestmark = pytest.mark.django_db(transaction=True)
ACTOR = scoring_services.Actor(label="test", is_director=True)


@pytest.fixture
def rated(director):
    """Eight players, two rounds of eight deals, rated (tables marked accepted directly, so
    only the ratings run here, not the standings task)."""
    club = ClubFactory(name="Klub Kopa")
    tournament = TournamentFactory(
        name="Kościan Cup",
        rounds=2,
        deals_per_round=8,
        club=club,
        seed=7,
        created_by=director,
        field=[PlayerFactory(club=club, name=f"Gracz {9 - i:02d}", number=i) for i in range(1, 9)],
    )
    rng = random.Random(4)
    for _ in range(2):
        rnd = services.round_generate(tournament=tournament)
        for table in rnd.tables.select_related("session"):
            kop_bulk_record(
                session=table.session, deals=random_kop_deals(rng, 8), entered_by=ACTOR.label
            )
        RoundTable.objects.filter(round=rnd).update(accepted_at=timezone.now())
        ratings.ratings_update(game="kop")
    return tournament


def test_leaderboard_sort_and_follow_a_player_to_their_chart(
    desktop, phone, live_server, rated, shots
):
    desktop.goto(f"{live_server.url}/ratings/kop/?min=0")
    assert desktop.locator("#rating-computed").inner_text().startswith("Computed")
    rows = desktop.locator("table.leaderboard tbody tr")
    assert rows.count() == 8
    ratings_shown = [float(t) for t in rows.locator("td:nth-child(4)").all_inner_texts()]
    assert ratings_shown == sorted(ratings_shown, reverse=True)
    assert "after Kościan Cup round 2 table" in rows.first.inner_text()
    desktop.screenshot(path=str(shots / "leaderboard-1280x800.png"), full_page=True)

    # Sorting by name is a plain link; htmx swaps only the table and updates the address.
    desktop.locator("table.leaderboard thead th a", has_text="Player").click()
    desktop.wait_for_url("**r-sort=name**")
    names = rows.locator("td:nth-child(2)").all_inner_texts()
    assert names == sorted(names) and names[0] == "Gracz 01"

    desktop.get_by_role("link", name="Gracz 01", exact=True).click()
    desktop.wait_for_url("**/players/*/")
    assert desktop.locator("h1").inner_text().startswith("Gracz 01")
    chart = desktop.locator("svg.rating-chart")
    assert chart.is_visible()
    assert chart.locator("circle").count() == 2
    assert "Last change" in desktop.locator("#rating-kop").inner_text()
    desktop.locator("summary", has_text="Rating history as numbers").click()
    history = desktop.locator("table.rating-history tbody tr")
    assert history.count() == 2 and history.first.is_visible()
    desktop.screenshot(path=str(shots / "player-page-1280x800.png"), full_page=True)

    phone.goto(desktop.url)
    assert phone.locator("svg.rating-chart").is_visible()
    assert no_horizontal_overflow(phone)
    phone.screenshot(path=str(shots / "player-page-360x740.png"), full_page=True)
