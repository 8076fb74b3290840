"""A scorer records Kop deals on a phone: normal, zolo with kontra and rej, cicha, a correction."""

from __future__ import annotations

import pytest

from scoring.games.kop.models import KopDeal
from tests.browser.conftest import login, no_horizontal_overflow

pytestmark = pytest.mark.django_db(transaction=True)


def tap(page, label_text):
    page.locator("#deal-form label.btn", has_text=label_text).first.click()


def keypad(page, digits):
    for d in digits:
        page.locator(f"#deal-form [data-key='{d}']").click()


def totals(page):
    return [int(page.locator(f"[data-total-seat='{i}']").inner_text()) for i in range(1, 5)]


def test_scorer_records_a_table_on_a_phone(phone, live_server, scorer, table, shots):
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    assert no_horizontal_overflow(phone)

    # 1. Normal game (preselected): Old = seats 1 & 3 take 60 -> E1. Five taps after the first.
    assert phone.locator("input[name=contract][value=normal]").is_checked()
    tap(phone, "1\u00a0Ala")
    tap(phone, "3\u00a0Celina")
    keypad(phone, "60")
    assert phone.locator("#other-points").inner_text() == "44"
    phone.locator("[data-preview-seat='1']").wait_for()
    assert phone.locator("[data-preview-seat='1']").inner_text() == "+1"
    phone.screenshot(path=str(shots / "kop-pad-360x740.png"), full_page=True)
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 1 saved.").wait_for()
    assert totals(phone) == [1, -1, 1, -1]

    # 2. Zolo by seat 3, kontra by 4 then rej by 3, soloist loses with 28 -> E17 (V 20).
    tap(phone, "zolo")
    tap(phone, "3\u00a0Celina")
    phone.locator("details.doubling-seats summary").click()
    phone.locator("[data-dseat='4']").click()
    phone.locator("[data-dseat='3']").click()
    keypad(phone, "28")
    phone.locator("[data-preview-seat='3']", has_text="-60").wait_for()
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 2 saved.").wait_for()
    assert totals(phone) == [21, 19, -59, 19]

    # 3. Cicha by seat 1 wins 61 -> E12: +12 -4 -4 -4.
    tap(phone, "cicha")
    tap(phone, "1\u00a0Ala")
    keypad(phone, "61")
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 3 saved.").wait_for()
    assert totals(phone) == [33, 15, -63, 15]

    # 4. Correct deal 1: the queens were really with 2 and 4.
    phone.get_by_label("edit deal 1").click()
    phone.wait_for_load_state()
    phone.locator("input[name=declarers][value='1']").uncheck(force=True)
    phone.locator("input[name=declarers][value='3']").uncheck(force=True)
    tap(phone, "2\u00a0Bartek")
    tap(phone, "4\u00a0Darek")
    phone.fill("input[name=reason]", "queens misread")
    phone.locator("#save-correction").click()
    phone.get_by_text("Deal 1 corrected.").wait_for()
    assert totals(phone) == [31, 17, -65, 17]
    assert KopDeal.objects.get(session=table, number=1).payments == (-1, 1, -1, 1)
    phone.screenshot(path=str(shots / "kop-after-correction-360x740.png"), full_page=True)


def test_rejected_entry_keeps_the_taps(phone, live_server, scorer, table):
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    tap(phone, "1\u00a0Ala")  # only one Old: a normal game needs two
    keypad(phone, "60")
    phone.locator("#save-deal").click()
    phone.locator("#declarers-error").wait_for()
    assert phone.locator("input[name=declarer_points]").input_value() == "60"
    assert phone.locator("input[name=declarers][value='1']").is_checked()
    assert KopDeal.objects.count() == 0


ZERO_LOOKS_CHOSEN = """() => {
  const zero = document.querySelector("#deal-form input[name=doublings][value='0']");
  const one = document.querySelector("#deal-form input[name=doublings][value='1']");
  const bg = (input) => getComputedStyle(input.closest("label")).backgroundColor;
  return zero.checked || bg(zero) !== bg(one);
}"""


def test_doublings_entered_by_seat_leave_the_0_button_unchosen(phone, live_server, scorer, table):
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    zero = phone.locator("#deal-form input[name=doublings][value='0']")
    assert zero.is_checked() and phone.evaluate(ZERO_LOOKS_CHOSEN)

    # Seats tapped: "0" is neither checked nor highlighted any more.
    phone.locator("details.doubling-seats summary").click()
    phone.locator("[data-dseat='4']").click()
    phone.locator("[data-dseat='3']").click()
    phone.wait_for_function(f"() => !({ZERO_LOOKS_CHOSEN})()")
    assert phone.locator("#deal-form [name=doubling_seats]").input_value() == "4 3"

    # Refused (no declarers tapped): the pad comes back with the seats, "0" still unchosen.
    keypad(phone, "60")
    phone.locator("#save-deal").click()
    phone.locator("#declarers-error").wait_for()
    assert phone.locator("#deal-form [name=doubling_seats]").input_value() == "4 3"
    assert not phone.evaluate(ZERO_LOOKS_CHOSEN)

    # A count chosen again clears the seats; typed seats clear the count once more.
    tap(phone, "kontra")
    phone.wait_for_function("() => document.querySelector('[name=doubling_seats]').value === ''")
    phone.locator("#deal-form [name=doubling_seats]").fill("2 1")
    phone.wait_for_function(f"() => !({ZERO_LOOKS_CHOSEN})()")
    assert not phone.locator("#deal-form input[name=doublings]:checked").count()
