"""Phones of 320 and 360 px: the pad as it first opens, in Polish (the longest labels),
both keypad rows whole above the sticky Save bar, contract labels whole, and a typing
slip ("610") shows no other side; the ratings filter a finger's size; team names broken
between words only."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.actors import DIRECTOR_ACCEPTS
from tests.browser.conftest import login, wider_than_viewport
from tests.browser.test_phone_layout import LONG_NAMES, in_view
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db(transaction=True)

# Every label of the element fits its box: nothing cut off at the left or the right.
CUT = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.scrollWidth > el.clientWidth + 1)
  .map((el) => el.textContent.trim())"""


@pytest.mark.parametrize(("width", "height"), [(320, 740), (360, 740)])
def test_the_kop_pad_on_first_load(phone, live_server, scorer, make_table, width, height):
    table = make_table("kop", "kop-koscian", LONG_NAMES, planned_deals=32)
    phone.set_viewport_size({"width": width, "height": height})
    phone.context.add_cookies([{"name": "django_language", "value": "pl", "url": live_server.url}])
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    for key in ["1", "5", "clear", "6", "0", "back"]:
        assert in_view(phone, phone.locator(f"#deal-form [data-key='{key}']")), key
    assert phone.evaluate(CUT, "#deal-form .choices label.btn") == []
    assert "normalna" in phone.locator("#deal-form .choices.contracts").inner_text()
    assert wider_than_viewport(phone) == []

    for key in "610":
        phone.locator(f"#deal-form [data-key='{key}']").click()
    assert phone.locator("#id_declarer_points").input_value() == "610"
    assert phone.locator("#other-points").inner_text() == "—"
    phone.locator("#deal-form [data-key='back']").click()
    phone.locator("#deal-form [data-key='back']").click()
    assert phone.locator("#other-points").inner_text() == "98"


def test_the_ratings_filter_is_finger_sized_at_320_px(phone, live_server):
    phone.set_viewport_size({"width": 320, "height": 740})
    phone.goto(f"{live_server.url}/ratings/kop/")
    controls = phone.locator("#rating-filter input, #rating-filter select, #rating-filter .btn")
    assert controls.count() == 4
    for i in range(controls.count()):
        box = controls.nth(i).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, controls.nth(i).inner_html()
    assert phone.locator("#rating-filter input[name=min]").input_value() == "0"
    assert wider_than_viewport(phone) == []


# Each place in a cell's text where a line ends inside a word (a letter either side).
WORD_BREAKS = """(sel) => [...document.querySelectorAll(sel)].flatMap(td => {
  const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT), out = [];
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const s = text.textContent;
    const top = (i) => { const r = document.createRange(); r.setStart(text, i);
                         r.setEnd(text, i + 1); return r.getClientRects()[0]?.top; };
    for (let i = 1; i < s.length; i++) {
      if (/\\p{L}/u.test(s[i - 1]) && /\\p{L}/u.test(s[i]) && top(i - 1) !== top(i)) {
        out.push(s);
      }
    }
  }
  return out;
})"""


@pytest.mark.parametrize("width", [320, 360])
def test_team_names_break_between_words(phone, live_server, director, width):
    club = ClubFactory(name="Klub Kopa")
    teams = ["Kościan A", "Kościan Wielkopolski B", "Wolsztyn Przemęt C", "Leszno D"]
    tournament = TournamentFactory(
        name="Kościan Cup",
        rounds=3,
        deals_per_round=4,
        club=club,
        seed=7,
        created_by=director,
        field=[
            PlayerFactory(club=club, name=f"Małgorzata Wiśniewska {i}", number=i)
            for i in range(1, 17)
        ],
    )
    tournament.competition = {"team_counting": "all", "team_size_min": 1, "team_size_max": 8}
    tournament.save()
    for entry in Registration.objects.filter(tournament=tournament):
        entry.team = teams[entry.number % 4]
        entry.save()
    services.round_accept_all(
        rnd=services.round_generate(tournament=tournament),
        actor=DIRECTOR_ACCEPTS,
        reason="on paper",
    )
    phone.set_viewport_size({"width": width, "height": 740})
    phone.goto(f"{live_server.url}/tournaments/{tournament.slug}/standings/")
    assert phone.locator("td.words").count() >= 8
    assert phone.evaluate(WORD_BREAKS, "td.words") == []
    assert wider_than_viewport(phone) == []


def test_a_seats_phone_sees_the_accept_button_once_another_phone_saved_a_deal(
    phone, live_server, scorer, make_table
):
    """Before the first deal a seat's phone says there is nothing to accept; when another
    phone saves one, the note turns into the button without a reload (the accept part asks
    again every 10 s: the phone's clock is moved on instead of waiting)."""
    table = make_table("kop", "kop-koscian", LONG_NAMES)
    phone.clock.install()
    phone.goto(f"{live_server.url}/t/{table.entry_token}/")
    phone.locator("#seat-2").click()
    phone.locator("#accept-no-deals").wait_for()
    scoring_services.deal_record(
        session=table,
        facts={"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 70},
        actor=scoring_services.Actor(label="table link, seat 1", phone="other", seat=1),
    )
    with phone.expect_response(lambda r: r.request.headers.get("hx-request") == "true"):
        phone.clock.run_for(11_000)
    phone.clock.run_for(1_000)  # htmx swaps and settles on timers too
    phone.locator("#accept-result").wait_for()
    assert phone.locator("#accept-no-deals").count() == 0
    assert phone.locator("#accept-actions[hx-trigger]").count() == 0  # asks no more
