"""A scorer plays a whole Vint rubber on a phone: vint.md §6.3, with two doubled
contracts, a misère and an all-pass deal, then reads the totals off the sheet.

The session's players are Anna, Carl, Boris, Dina, so rubber 1 seats them as
§6.3 does (Anna N + Boris S v Carl E + Dina W); its first dealer is E.
"""

from __future__ import annotations

import pytest

from scoring.games.vint.models import VintDeal
from tests.browser.conftest import login, no_horizontal_overflow

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(make_table):
    return make_table("vint", "vint", ["Anna", "Carl", "Boris", "Dina"], title="Vint 1")


def radio(page, name, value):
    page.locator(f"#deal-form label.btn:has(input[name={name}][value='{value}'])").click()


def step(page, field, times):
    button = page.locator(f"#deal-form [data-step='{1 if times > 0 else -1}'][data-for={field}]")
    for _ in range(abs(times)):
        button.click()


def select(page, name, value):
    page.locator(f"#deal-form select[name={name}]").select_option(str(value))


def preview(page, where, side, value):
    page.locator(f"[data-preview-{where}='{side}']", has_text=str(value)).wait_for()


def save(page, n):
    page.locator("#save-deal").click()
    page.get_by_text(f"Rubber 1, deal {n} saved.").wait_for()


def test_scorer_plays_a_rubber_on_a_phone(phone, live_server, scorer, table, shots):
    login(phone, live_server, scorer.username)
    phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    assert no_horizontal_overflow(phone)
    phone.get_by_text("NS: Anna + Boris · EW: Carl + Dina").wait_for()

    # 1. E 5♠, EW 11, EW hold 6 honour units. §6.3 starts with E dealing.
    radio(phone, "first_dealer", "E")
    radio(phone, "contract", "5S")
    radio(phone, "declarer", "E")
    assert phone.locator("#id_declarer_tricks").input_value() == "11"  # made exactly
    assert phone.locator("#other-tricks").inner_text() == "2"
    radio(phone, "honours_side", "EW")
    radio(phone, "honours_count", "6")
    preview(phone, "above", "EW", 2300)
    phone.screenshot(path=str(shots / "vint-pad-360x740.png"), full_page=True)
    save(phone, 1)

    # 2. S 4♦ doubled, NS 9 (down 1), NS 5 units: both sides pass 60, EW take the game.
    assert "dealer: S" in phone.locator(".vint-head").inner_text()
    radio(phone, "contract", "4D")
    radio(phone, "declarer", "S")
    radio(phone, "doubling", "1")
    step(phone, "declarer_tricks", -1)
    assert phone.locator("#other-tricks").inner_text() == "4"
    radio(phone, "honours_side", "NS")
    radio(phone, "honours_count", "5")
    preview(phone, "below", "NS", 72)
    preview(phone, "above", "EW", 800)
    save(phone, 2)

    # 3. N 6♥, NS 12, NS 6 units; saved first without the honours, which is refused.
    radio(phone, "contract", "6H")
    radio(phone, "declarer", "N")
    phone.locator("#save-deal").click()
    phone.locator("#honours-error").wait_for()
    assert phone.locator("#id_declarer_tricks").input_value() == "12"
    assert VintDeal.objects.filter(session=table).count() == 2
    radio(phone, "honours_side", "NS")
    radio(phone, "honours_count", "6")
    save(phone, 3)

    # 4. W 4 misère, EW take 2 (made); W's ace lost on trick 7.
    radio(phone, "contract", "4M")
    radio(phone, "declarer", "W")
    assert phone.locator("#id_declarer_tricks").input_value() == "3"  # misère: at most 7 - 4
    step(phone, "declarer_tricks", -1)
    select(phone, "dump_1_seat", "W")
    select(phone, "dump_1_trick", 7)
    preview(phone, "above", "EW", 1700)
    preview(phone, "below", "EW", 44)
    phone.screenshot(path=str(shots / "vint-misere-360x740.png"), full_page=True)
    save(phone, 4)

    # 5. S 5 grand, NS 11, NS hold 3 aces: NS's second game and the rubber.
    radio(phone, "contract", "5G")
    radio(phone, "declarer", "S")
    radio(phone, "grand_aces_side", "NS")
    radio(phone, "grand_aces_count", "3")
    preview(phone, "above", "NS", 2550)
    save(phone, 5)
    phone.get_by_text("extra deal 1 of 4").first.wait_for()

    # 6. E 7♣, EW 13, EW 8 units, E holds ♣A-K-Q-J-10.
    radio(phone, "contract", "7C")
    radio(phone, "declarer", "E")
    radio(phone, "honours_side", "EW")
    radio(phone, "honours_count", "8")
    phone.locator("details.extras summary").click()
    select(phone, "seq_C_seat", "E")
    select(phone, "seq_C_length", 5)
    preview(phone, "above", "EW", 5660)
    save(phone, 6)

    # 7. N 6♠, NS 12, NS 8 units: NS's third game in the extra deals.
    radio(phone, "contract", "6S")
    radio(phone, "declarer", "N")
    radio(phone, "honours_side", "NS")
    radio(phone, "honours_count", "8")
    save(phone, 7)

    # 8. All pass: NS 6 tricks, EW 7; E's ace lost on trick 12.
    radio(phone, "contract", "pass")
    assert phone.locator("#id_ns_tricks").input_value() == "6"
    assert phone.locator("#ew-tricks").inner_text() == "7"
    select(phone, "dump_1_seat", "E")
    select(phone, "dump_1_trick", 12)
    preview(phone, "above", "EW", 1200)
    preview(phone, "above", "NS", 100)
    save(phone, 8)

    # 9. W 5♥ doubled, EW 11, EW 6 units: EW's third game ends the rubber.
    phone.get_by_text("extra deal 4 of 4").first.wait_for()
    radio(phone, "contract", "5H")
    radio(phone, "declarer", "W")
    radio(phone, "doubling", "1")
    radio(phone, "honours_side", "EW")
    radio(phone, "honours_count", "6")
    phone.get_by_text("This deal ends the rubber.").wait_for()
    save(phone, 9)
    phone.get_by_text("Rubber 2 · deal 1").wait_for()
    assert no_horizontal_overflow(phone)

    # The four-column sheet: §6.3's totals, partners' columns alike.
    phone.goto(f"{live_server.url}/sessions/{table.pk}/sheet/")
    totals = {
        seat: int(phone.locator(f"[data-sheet-total='1-{seat}']").inner_text()) for seat in "NESW"
    }
    assert totals == {"N": 10599, "E": 16914, "S": 10599, "W": 16914}
    assert int(phone.locator("[data-session-total='Carl']").inner_text()) == 16914
    assert no_horizontal_overflow(phone)
    phone.screenshot(path=str(shots / "vint-sheet-360x740.png"), full_page=True)
