"""The pad on the smallest phones with the longest names: everything a normal deal needs
is on screen without scrolling (sideways or down), and the pad answers the latest tap."""

from __future__ import annotations

import pytest

from tests.browser.conftest import login, wider_than_viewport

pytestmark = pytest.mark.django_db(transaction=True)

LONG_NAMES = [
    "Aleksandra Przybyszewska-Wiśniewska",
    "Przemysław Brzęczyszczykiewicz",
    "Małgorzata Szczepańska",
    "Krzysztof Grzegorzewski",
]


@pytest.fixture
def kop_table(make_table):
    return make_table("kop", "kop-koscian", LONG_NAMES, planned_deals=32)


@pytest.fixture
def vint_table(make_table):
    return make_table("vint", "vint", LONG_NAMES)


@pytest.mark.parametrize("width", [320, 360, 414])
def test_kop_pad_fits_long_names(phone, live_server, scorer, kop_table, shots, width):
    phone.set_viewport_size({"width": width, "height": 740})
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{kop_table.pk}/")
    phone.screenshot(path=str(shots / f"kop-pad-long-{width}.png"), full_page=False)
    assert wider_than_viewport(phone) == []


def settles_in_view(page, locator, timeout_ms: int = 3000) -> bool:
    """``in_view`` once the pad's scroll back to the top has run (it follows the htmx swap
    by a frame or two; a busy machine makes that later): polled, never slept."""
    deadline = timeout_ms / 100
    for _ in range(int(deadline)):
        if in_view(page, locator):
            return True
        page.wait_for_timeout(100)
    return in_view(page, locator)


def in_view(page, locator) -> bool:
    """The control is on screen and not under the sticky bar (unless it is in the bar)."""
    return locator.evaluate(
        """(el) => {
          const r = el.getBoundingClientRect();
          const bar = document.querySelector(".pad-bar");
          let bottom = window.innerHeight;
          if (bar && !bar.contains(el)) bottom = Math.min(bottom, bar.getBoundingClientRect().top);
          return r.top >= 0 && r.bottom <= bottom + 1 && r.width > 0;
        }"""
    )


def tap_without_scrolling(page, selector) -> None:
    locator = page.locator(selector).first
    scrolled = page.evaluate("window.scrollY")
    assert in_view(page, locator), f"{selector} is off screen"
    locator.click(no_wait_after=True)
    assert page.evaluate("window.scrollY") == scrolled


def kop_deal(page, seats, digits):
    for seat in seats:
        tap_without_scrolling(page, f"#deal-form label.seat:has(input[value='{seat}'])")
    for d in digits:
        tap_without_scrolling(page, f"#deal-form [data-key='{d}']")
    page.locator(f"[data-preview-points='{digits}'] [data-preview-seat='1']").wait_for()
    tap_without_scrolling(page, "#save-deal")


@pytest.mark.parametrize("width", [360, 414])
def test_a_normal_kop_deal_is_five_taps_and_no_scroll(
    phone, live_server, scorer, kop_table, shots, width
):
    phone.set_viewport_size({"width": width, "height": 740})
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{kop_table.pk}/")
    kop_deal(phone, [1, 3], "60")
    phone.locator("#saved-msg", has_text="Deal 1 saved.").wait_for()
    # Back at the top of the pad: the message, the new totals and the contracts in view.
    top = ["#saved-msg", "[data-total-seat='4']", "#deal-form label:has([name=contract])"]
    for selector in top:
        assert in_view(phone, phone.locator(selector).first), selector
    assert phone.locator("[data-total-seat='1']").inner_text() == "1"
    phone.screenshot(path=str(shots / f"kop-pad-after-save-{width}x740.png"))
    kop_deal(phone, [2, 4], "70")
    phone.locator("#saved-msg", has_text="Deal 2 saved.").wait_for()
    assert [phone.locator(f"[data-total-seat='{i}']").inner_text() for i in (1, 2)] == ["0", "0"]
    assert wider_than_viewport(phone) == []


def test_the_preview_answers_the_latest_tap_on_slow_wifi(phone, live_server, scorer, kop_table):
    """300 ms added to every preview request, taps 300 ms apart: the box ends on the
    answer for 70, and once it showed that answer it never shows the one for 7 again."""
    login(phone, live_server, scorer.username)

    def slow(route):
        phone.wait_for_timeout(300)
        route.continue_()

    phone.route("**/preview/", slow)
    phone.goto(f"{live_server.url}/sessions/{kop_table.pk}/")
    phone.evaluate(
        """() => {
          window.previewLog = [];
          const box = document.getElementById("preview");
          new MutationObserver(() => {
            const d = box.querySelector("[data-preview-points]");
            if (d) window.previewLog.push(d.dataset.previewPoints);
          }).observe(box, { childList: true, subtree: true });
        }"""
    )
    phone.locator("#deal-form label.seat:has(input[value='1'])").click()
    phone.wait_for_timeout(300)
    phone.locator("#deal-form label.seat:has(input[value='3'])").click()
    for d in "70":
        phone.wait_for_timeout(300)
        phone.locator(f"#deal-form [data-key='{d}']").click()
    phone.locator("[data-preview-points='70'] [data-preview-seat='1']").wait_for()
    phone.wait_for_timeout(1500)  # every request still on its way has landed by now
    log = phone.evaluate("window.previewLog")
    assert log[-1] == "70"
    assert "7" not in log[log.index("70") :]
    assert phone.locator("#preview").get_attribute("class") == "preview"  # not greyed


@pytest.mark.parametrize("width", [320, 360])
def test_a_vint_contract_made_exactly_without_scrolling(
    phone, live_server, scorer, vint_table, shots, width
):
    """A suit contract made exactly: the tricks are guessed, so it is contract, declarer,
    honours side and count, Save. On the first deal of a rubber the first dealer is asked
    too (the page may need a scroll); the next deal starts at the top of the pad, every tap
    on screen."""
    phone.set_viewport_size({"width": width, "height": 740})
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{vint_table.pk}/")
    assert wider_than_viewport(phone) == []
    phone.screenshot(path=str(shots / f"vint-pad-long-{width}x740.png"))
    phone.locator("#deal-form label.seat:has(input[name=first_dealer][value=E])").click()
    phone.locator("#deal-form label:has(input[name=contract][value='5S'])").click()
    phone.locator("#deal-form label.seat:has(input[name=declarer][value=E])").click()
    phone.locator("#deal-form label:has(input[name=honours_side][value=EW])").click()
    phone.locator("#deal-form label:has(input[name=honours_count][value='6'])").click()
    phone.locator("[data-preview-below='EW']").wait_for()
    phone.locator("#save-deal").click()
    phone.locator("#saved-msg", has_text="Rubber 1, deal 1 saved.").wait_for()
    assert settles_in_view(phone, phone.locator("#saved-msg"))
    assert in_view(phone, phone.locator("[data-rubber-total='E']"))

    for selector in [
        "#deal-form label:has(input[name=contract][value='4H'])",
        "#deal-form label.seat:has(input[name=declarer][value=S])",
        "#deal-form label:has(input[name=honours_side][value=NS])",
        "#deal-form label:has(input[name=honours_count][value='5'])",
    ]:
        phone.screenshot(path=str(shots / f"vint-pad-second-{width}x740.png"))
        tap_without_scrolling(phone, selector)
    assert phone.locator("#id_declarer_tricks").input_value() == "10"
    phone.locator("[data-preview-below='NS']", has_text="40").wait_for()
    phone.screenshot(path=str(shots / f"vint-pad-filled-{width}x740.png"))
    tap_without_scrolling(phone, "#save-deal")
    phone.locator("#saved-msg", has_text="Rubber 1, deal 2 saved.").wait_for()
    assert wider_than_viewport(phone) == []


def long_press(page, locator) -> None:
    """A finger held on ``locator`` until the pad answers (real touch events through the
    DevTools protocol), then lifted."""
    box = locator.bounding_box()
    assert box is not None
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.locator("#name-tip").wait_for(state="visible")
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.mark.parametrize(
    ("game", "field", "seat", "full"),
    [("kop", "declarers", "1", LONG_NAMES[0]), ("vint", "first_dealer", "E", LONG_NAMES[1])],
)
def test_a_long_press_on_a_short_name_shows_the_full_name(
    phone, live_server, scorer, kop_table, vint_table, game, field, seat, full
):
    """Seat buttons shorten a long name; a finger held on one shows the full name, and that
    press does not choose the seat. A plain tap still does."""
    phone.set_viewport_size({"width": 320, "height": 740})
    login(phone, live_server, scorer.username)
    table = kop_table if game == "kop" else vint_table
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    button = phone.locator(f"#deal-form label.seat:has(input[name={field}][value='{seat}'])")
    first, last = full.split(maxsplit=1)
    assert first in button.inner_text() and last not in button.inner_text()
    choice = button.locator("input")
    assert not choice.is_checked()
    long_press(phone, button)
    tip = phone.locator("#name-tip")
    assert tip.inner_text() == full
    assert tip.get_attribute("role") == "status"
    assert wider_than_viewport(phone) == []
    assert not choice.is_checked()  # the press chose nothing (the tap it ended is over)
    button.tap()
    phone.wait_for_function("(el) => el.checked", arg=choice.element_handle())
    tip.wait_for(state="hidden")
