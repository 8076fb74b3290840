"""The pad on 320 and 360 px phones as it first opens, in Polish (the longest labels):
both keypad rows whole above the sticky Save bar, contract labels whole, names broken
between words only; a typing slip ("610") shows no other side."""

from __future__ import annotations

import pytest

from tests.browser.conftest import login, wider_than_viewport
from tests.browser.test_phone_layout import LONG_NAMES, in_view

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
