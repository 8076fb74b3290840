"""A save's short answer, as the phone sees it: the pad drawn empty comes back empty for
the next deal, with the new totals, the new deal's row on top and no more rows than the
pad shows, though the server sent only those parts (X-Pad-Answer: short). A refused save
draws the pad with the scorer's values; the save after it still leaves an empty pad."""

from __future__ import annotations

import pytest

from scoring.games.kop.models import KopDeal
from tests.browser.conftest import login, settles_to
from tests.browser.test_kop_scorer import keypad, tap, totals

pytestmark = pytest.mark.django_db(transaction=True)

EMPTY_PAD = """() => {
  const f = document.getElementById("deal-form");
  const checked = Array.from(f.querySelectorAll("input:checked")).map(i => i.name + "=" + i.value);
  return {
    checked: checked.sort(),
    points: f.querySelector("[name=declarer_points]").value,
    seats: f.querySelector("[name=doubling_seats]").value,
    order: f.querySelector("[name=declarer_order]").value,
    other: document.getElementById("other-points").textContent,
    open: f.querySelector("details.doubling-seats").open,
    preview: document.getElementById("preview").innerText.trim(),
  };
}"""
EMPTY = {
    "checked": ["contract=normal", "doublings=0"],
    "points": "",
    "seats": "",
    "order": "",
    "other": "—",
    "open": False,
    "preview": "The payments appear here.",
}


def answers(page) -> list[str]:
    """What kind of answer each save got (the page records the header of every swap)."""
    return page.evaluate("window.padAnswers")


def record_answers(page) -> None:
    page.evaluate(
        """() => { window.padAnswers = [];
          document.addEventListener("htmx:afterRequest", (e) => {
            const xhr = e.detail.xhr;
            if (xhr && xhr.getResponseHeader("X-Deal-Outcome"))
              window.padAnswers.push(xhr.getResponseHeader("X-Pad-Answer") || "whole");
          }); }"""
    )


def test_the_pad_comes_back_empty_after_a_short_answer(phone, live_server, scorer, table):
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    record_answers(phone)
    tap(phone, "1\u00a0Ala")
    tap(phone, "3\u00a0Celina")
    keypad(phone, "60")
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 1 saved.").wait_for()

    # Zolo with kontra and rej by seat, the seats' box opened: all of it goes after the save.
    tap(phone, "zolo")
    tap(phone, "3\u00a0Celina")
    phone.locator("details.doubling-seats summary").click()
    phone.locator("[data-dseat='4']").click()
    phone.locator("[data-dseat='3']").click()
    keypad(phone, "28")
    phone.locator("[data-preview-seat='3']", has_text="-60").wait_for()
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 2 saved.").wait_for()
    assert answers(phone) == ["short", "short"]
    assert phone.evaluate(EMPTY_PAD) == EMPTY
    assert totals(phone) == [21, 19, -59, 19]
    assert phone.locator("#save-deal").inner_text() == "Save deal 3"
    assert phone.locator("#deal-head").inner_text().startswith("Deal 3")
    rows = phone.locator("#recent-rows tr td:first-child").all_inner_texts()
    assert rows == ["2", "1"]
    assert phone.locator("[data-deal-count]").inner_text() == "2 of 32 deals played"

    # The next deal goes in as any other, with the new key and number.
    tap(phone, "cicha")
    tap(phone, "1\u00a0Ala")
    keypad(phone, "61")
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 3 saved.").wait_for()
    assert totals(phone) == [33, 15, -63, 15]
    settles_to(lambda: KopDeal.objects.filter(session=table).count(), 3)


def test_the_pad_keeps_eight_rows_however_many_deals(phone, live_server, scorer, table):
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    record_answers(phone)
    for n in range(1, 11):
        tap(phone, "1\u00a0Ala")
        tap(phone, "3\u00a0Celina")
        keypad(phone, "60")
        phone.locator("[data-preview-seat='1']").wait_for()
        phone.locator("#save-deal").click()
        phone.get_by_text(f"Deal {n} saved.").wait_for()
    assert answers(phone) == ["short"] * 10
    rows = phone.locator("#recent-rows tr td:first-child").all_inner_texts()
    assert rows == [str(n) for n in range(10, 2, -1)]
    assert totals(phone) == [10, -10, 10, -10]


def test_after_a_refusal_the_whole_pad_then_short_again(phone, live_server, scorer, table):
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    record_answers(phone)
    tap(phone, "1\u00a0Ala")  # one Old only: refused, the taps kept
    keypad(phone, "60")
    phone.locator("#save-deal").click()
    phone.locator("#declarers-error").wait_for()
    tap(phone, "3\u00a0Celina")  # the second Old: seat 1, ticked before the refusal, stays
    assert phone.locator("input[name=declarers][value='1']").is_checked()
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 1 saved.").wait_for()
    # the form drawn with the refused values asked for the whole pad: an empty one again
    assert answers(phone) == ["whole", "whole"]
    assert phone.evaluate(EMPTY_PAD) == EMPTY
    tap(phone, "2\u00a0Bartek")
    tap(phone, "4\u00a0Darek")
    keypad(phone, "70")
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 2 saved.").wait_for()
    assert answers(phone)[-1] == "short"
    assert phone.evaluate(EMPTY_PAD) == EMPTY
    assert totals(phone) == [0, 0, 0, 0]


def test_another_phones_deal_meanwhile_redraws_the_whole_pad(
    phone, desktop, live_server, scorer, table
):
    """Two phones at one table: the second one's pad is behind after the first one's
    save; its own save then gets the whole pad, with both deals' rows."""
    for page in (phone, desktop):
        login(page, live_server, scorer.username)
        page.goto(f"{live_server.url}/sessions/{table.pk}/")
    record_answers(desktop)
    tap(phone, "1\u00a0Ala")
    tap(phone, "3\u00a0Celina")
    keypad(phone, "60")
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 1 saved.").wait_for()
    # the second phone, still at deal 1, is told of the conflict and saves as deal 2
    tap(desktop, "2\u00a0Bartek")
    tap(desktop, "4\u00a0Darek")
    keypad(desktop, "70")
    desktop.locator("#save-deal").click()
    desktop.locator("#entry-conflict").wait_for()
    desktop.locator("#save-deal").click()
    desktop.get_by_text("Deal 2 saved.").wait_for()
    assert answers(desktop) == ["whole", "whole"]
    rows = desktop.locator("#recent-rows tr td:first-child").all_inner_texts()
    assert rows == ["2", "1"]


def test_the_vint_pad_comes_back_empty_within_a_rubber(phone, live_server, scorer, make_table):
    from tests.browser.test_vint_scorer import radio

    table = make_table("vint", "vint", ["Anna", "Carl", "Boris", "Dina"], title="Vint 1")
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    record_answers(phone)
    deals = [("E", "5S", "E", "EW", "6"), (None, "4H", "S", "NS", "5")]
    for n, (first, contract, declarer, side, honours) in enumerate(deals, 1):
        if first:
            radio(phone, "first_dealer", first)
        radio(phone, "contract", contract)
        radio(phone, "declarer", declarer)
        radio(phone, "honours_side", side)
        radio(phone, "honours_count", honours)
        phone.locator(f"[data-preview-below='{side}']").wait_for()
        phone.locator("#save-deal").click()
        phone.get_by_text(f"Rubber 1, deal {n} saved.").wait_for()
    # the first deal's pad asked for the first dealer: drawn again whole; then short
    assert answers(phone) == ["whole", "short"]
    state = phone.evaluate(
        """() => ({
          checked: Array.from(document.querySelectorAll("#deal-form input:checked"))
            .map(i => i.name + "=" + i.value),
          tricks: document.getElementById("id_declarer_tricks").value,
          other: document.getElementById("other-tricks").textContent,
          preview: document.getElementById("preview").innerText.trim(),
        })"""
    )
    assert state == {
        "checked": ["doubling=0", "grand_aces_side="],  # as a pad is drawn
        "tricks": "",
        "other": "—",
        "preview": "The entries above and below the line appear here.",
    }
    assert phone.locator("#save-deal").inner_text() == "Save deal 3"
    assert phone.locator("#deal-head").inner_text().startswith("Rubber 1 · deal 3")
    # deal 2's row went on top of deal 1's (the short answer carries that row alone), and
    # the rubber's heading and the session's totals were swapped in
    numbers = phone.locator("#recent-rows tr td:first-child").all_inner_texts()
    assert [n.split()[0] for n in numbers] == ["2", "1"]
    html = phone.content()
    assert html.count('id="recent-rows"') == 1 and html.count('id="session-totals"') == 1
    assert phone.locator("#rubber-heading").inner_text().startswith("Rubber 1")
