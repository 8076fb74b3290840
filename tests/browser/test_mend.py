"""A director mends a running tournament on a 360 px phone and on a desktop: edits it,
withdraws a player and reinstates him, swaps two players between tables and puts a
substitute in for a no-show; each mend is in the tournament's history, in words."""

from __future__ import annotations

import pytest

from scoring import profile_services
from tests.browser.conftest import login, no_horizontal_overflow, wider_than_viewport
from tests.factories import ClubFactory, TournamentFactory
from tournaments import services
from tournaments.models import Registration, Tournament, TournamentAction

pytestmark = pytest.mark.django_db(transaction=True)


def seated(tournament: Tournament) -> list[list[int]]:
    """Round 1's tables as start numbers in seat order."""
    numbers = dict(tournament.entries.values_list("player_id", "number"))
    rnd = tournament.rounds.get(number=1)
    return [
        [numbers[s.player_id] for s in t.session.seats.order_by("seat")]
        for t in rnd.tables.order_by("number")
    ]


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_director_mends_a_tournament_on_a_phone_and_a_desktop(
    request, screen, live_server, director
):
    phone = request.getfixturevalue(screen)  # the page: a 360 px phone or a desktop
    profile_services.profile_sync_builtin()
    tournament = TournamentFactory(
        name="Puchar Kościana", rounds=3, deals_per_round=4, club=ClubFactory(), field=16
    )
    services.round_generate(tournament=tournament)
    base = f"{live_server.url}/tournaments/{tournament.slug}/"
    login(phone, live_server, director.username)

    # Edit: the tournament has started, so a reason is asked for.
    phone.goto(base)
    assert phone.locator("nav a", has_text="Admin").count() == 0  # no admin rights
    phone.locator("#edit-tournament").click()
    phone.wait_for_load_state()
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)
    phone.fill("input[name=name]", "Puchar Kościana 2026")
    phone.fill("input[name=deals_per_round]", "6")
    phone.locator("#tournament-edit button[type=submit]").click()
    phone.wait_for_load_state()
    assert "Say why" in phone.locator("#tournament-edit").inner_text()
    assert phone.locator("input[name=name]").input_value() == "Puchar Kościana 2026"
    phone.fill("textarea[name=reason]", "The name had no year.")
    phone.locator("#tournament-edit button[type=submit]").click()
    phone.wait_for_load_state()
    assert phone.locator("h1").inner_text() == "Puchar Kościana 2026"
    tournament.refresh_from_db()
    assert tournament.deals_per_round == 6

    # Withdraw no. 16 (a confirmation page first), then reinstate him.
    phone.locator("#withdraw-16").click()
    phone.wait_for_load_state()
    assert "Withdraw a player" in phone.locator("h1").inner_text()
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)
    assert Registration.objects.get(tournament=tournament, number=16).withdrawn_after is None
    phone.fill("textarea[name=reason]", "Went home ill.")
    phone.locator("#withdrawal button[type=submit]").click()
    phone.wait_for_load_state()
    assert Registration.objects.get(tournament=tournament, number=16).withdrawn_after == 1
    phone.locator("#reinstate-16").click()
    phone.wait_for_load_state()
    assert "Reinstate a player" in phone.locator("h1").inner_text()
    phone.fill("textarea[name=reason]", "He came back.")
    phone.locator("#withdrawal button[type=submit]").click()
    phone.wait_for_load_state()
    assert Registration.objects.get(tournament=tournament, number=16).withdrawn_after is None
    assert phone.locator("#withdraw-16").is_visible()

    # Swap two players of tables 1 and 2, then a substitute for a no-show at table 3.
    before = seated(tournament)
    a, b = before[0][0], before[1][0]
    phone.goto(f"{base}rounds/1/")
    phone.locator("#mend-round").click()
    phone.wait_for_load_state()
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)
    phone.select_option("select[name=swap-first]", str(a))
    phone.select_option("select[name=swap-second]", str(b))
    phone.fill("textarea[name=swap-reason]", "Brothers at one table.")
    phone.locator("#mend-swap-submit").click()
    phone.wait_for_load_state()
    assert "The two players changed tables." in phone.locator(".messages").inner_text()
    after = seated(tournament)
    assert after[0][0] == b and after[1][0] == a

    absent = before[2][1]
    phone.locator("#mend-round").click()
    phone.wait_for_load_state()
    phone.select_option("select[name=substitute-absent]", str(absent))
    phone.fill("input[name=substitute-new_name]", "Zofia Nowa")
    phone.fill("textarea[name=substitute-reason]", "No. absent did not come.")
    phone.locator("#mend-substitute-submit").click()
    phone.wait_for_load_state()
    assert "The substitute is seated" in phone.locator(".messages").inner_text()
    assert seated(tournament)[2][1] == 17
    assert "Zofia Nowa" in phone.locator(".cards").inner_text()

    # The history, in words, newest first.
    phone.goto(base)
    history = phone.locator("ol.history").inner_text()
    assert "Zofia Nowa (no. 17) plays instead of" in history
    assert "moved from table 1 to table 2" in history
    assert "reinstated" in history and "Went home ill." in history
    assert "Tournament edited: name: Puchar Kościana → Puchar Kościana 2026" in history
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)
    assert list(TournamentAction.objects.order_by("id").values_list("action", flat=True)) == [
        "edited",
        "withdrawn",
        "reinstated",
        "swapped",
        "substituted",
    ]
