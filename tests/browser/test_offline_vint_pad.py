"""The Vint pad without a connection: the same queue as Kop's (static/js/offline.js).
Deals wait on the phone and are sent in order; the phone never guesses where a rubber
ends. A deal entered after the rubber's last one (the phone cannot know it ended) is
put back on the next rubber's pad, whose partnerships differ, for the scorer to check:
never moved over silently. Another phone's deal in the same slot is a choice.

Players Anna, Boris, Carl, Dina (seats 1-4): rubber 1 is Anna (N) + Carl (S) v Boris (E)
+ Dina (W); rubber 2 is Anna (N) + Boris (S) v Carl (E) + Dina (W)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.games import game_of
from scoring.games.vint.models import VintDeal
from tests.browser.conftest import login, settles_to
from tests.browser.test_offline_pad import CACHED, CONTROLLED
from tests.browser.test_vint_scorer import radio
from tests.factories import TableSessionFactory, club_players

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def phone(offline_phone):
    """These tests need the service worker (see tests/browser/conftest.py)."""
    return offline_phone


SLOW = 30_000  # ms: generous for a loaded machine; every wait polls for its state


def contract(c, declarer, tricks, **more):
    return {
        "contract": c,
        "declarer": declarer,
        "doubling": "0",
        "declarer_tricks": str(tricks),
        **{k: str(v) for k, v in more.items()},
    }


# vint.md §6.2, rubber 1 (first dealer N): NS win their second game with deal 5, so
# deals 6-9 are the four extra deals and the rubber ends with deal 9.
RUBBER_1 = [
    contract("4H", "N", 10, honours_side="NS", honours_count=5),
    contract("5D", "W", 11, honours_side="EW", honours_count=6),
    contract("6C", "S", 12, honours_side="NS", honours_count=8),
    contract("4S", "E", 9, honours_side="EW", honours_count=6),
    contract("4G", "N", 11, grand_aces_side="NS", grand_aces_count=3),
    contract("4M", "E", 3, dump_1_seat="W", dump_1_trick=6),
    {"contract": "pass", "ns_tricks": "5", "dump_1_seat": "S", "dump_1_trick": "10"},
]


@pytest.fixture
def table(scorer):
    return TableSessionFactory(
        game="vint",
        players=club_players(["Anna", "Boris", "Carl", "Dina"]),
        title="Vint 1",
        created_by=scorer,
    )


def store(session, deals, label="phone B"):
    """Deals saved through the one write path, as another phone would."""
    game = game_of(session)
    for data in deals:
        form = game.entry.form(session, {"rubber": "1", "first_dealer": "N", **data})
        facts = form.deal_facts()
        assert facts is not None, form.errors
        services.deal_record(
            session=session,
            facts=facts,
            actor=services.Actor(label=label),
            extra=form.deal_extra(),
        )


def stored(session, want, *, start=0, slots=True):
    """The session's deals from ``start`` on, once they settle to ``want``."""
    settles_to(lambda: [r if slots else r[1:] for r in rows(session)][start:], want)


def rows(session):
    return list(
        VintDeal.objects.filter(session=session)
        .order_by("rubber", "number")
        .values_list("rubber", "number", "facts__contract", "facts__declarer")
    )


def open_pad(page, live_server, user, session):
    login(page, live_server, user.username)
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    page.wait_for_function(CONTROLLED, timeout=SLOW)
    page.wait_for_function(CACHED, timeout=SLOW)


def enter(page, c, declarer, honours=None):
    radio(page, "contract", c)
    radio(page, "declarer", declarer)
    if honours:
        radio(page, "honours_side", honours[0])
        radio(page, "honours_count", honours[1])
    page.locator("#save-deal").click()


def waiting(page, n):
    label = "1 deal waiting to send" if n == 1 else f"{n} deals waiting to send"
    expect(page.locator("#offline-count")).to_have_text(label, timeout=SLOW)


def test_vint_deals_offline_cross_the_rubber_end_and_are_stored_once_in_order(
    phone, live_server, scorer, table
):
    store(table, RUBBER_1)
    open_pad(phone, live_server, scorer, table)
    expect(phone.locator(".vint-head")).to_contain_text("Rubber 1 · deal 8")
    phone.context.set_offline(True)

    enter(phone, "4H", "N", ("NS", "5"))  # rubber 1, deal 8 (its third extra deal)
    waiting(phone, 1)
    assert "waits for the server" in phone.locator("#preview").inner_text()
    expect(phone.locator(".vint-head")).to_contain_text("Rubber 1 · deal 9")
    enter(phone, "4S", "E", ("EW", "5"))  # deal 9: the fourth extra deal, the last
    waiting(phone, 2)

    # A reload without a connection keeps the queue; the pad goes on with "deal 10".
    phone.reload()
    waiting(phone, 2)
    expect(phone.locator("#save-deal")).to_have_text("Save deal 10")
    enter(phone, "4D", "S", ("NS", "5"))  # entered with rubber 1's seats: S is Carl
    waiting(phone, 3)
    assert phone.locator("#offline-list li").nth(2).inner_text().startswith("4")
    assert len(rows(table)) == 7

    phone.context.set_offline(False)
    # Deals 8 and 9 are stored; the third expected rubber 1's deal 10, but rubber 1 ended
    # with deal 9 and rubber 2 has other partnerships: the scorer sees it on rubber 2's pad.
    status = phone.locator("#offline-status")
    expect(status).to_contain_text("ended before it", timeout=SLOW)
    expect(phone.locator(".vint-head")).to_contain_text("Rubber 2 · deal 1")
    expect(phone.locator(".vint-head")).to_contain_text("NS: Anna + Boris · EW: Carl + Dina")
    waiting(phone, 1)
    stored(table, [(1, 8, "4H", "N"), (1, 9, "4S", "E")], start=7)
    # The deal's values are back on the pad, the seats for the scorer to check.
    assert phone.locator("#deal-form input[name=contract][value='4D']").is_checked()
    assert phone.locator("#deal-form input[name=declarer][value='S']").is_checked()
    # Carl declared: he sits E in rubber 2.
    radio(phone, "declarer", "E")
    radio(phone, "honours_side", "EW")
    phone.locator("#save-deal").click()
    expect(phone.locator("#offline-box")).to_be_hidden(timeout=SLOW)
    expect(phone.locator(".vint-head")).to_contain_text("Rubber 2 · deal 2", timeout=SLOW)
    stored(table, [(1, 8, "4H", "N"), (1, 9, "4S", "E"), (2, 1, "4D", "E")], start=7)
    assert VintDeal.objects.filter(session=table).count() == 10


def test_a_vint_deal_saved_from_another_phone_meanwhile_is_shown_and_the_scorer_chooses(
    phone, live_server, scorer, table
):
    store(table, RUBBER_1[:4])
    open_pad(phone, live_server, scorer, table)
    phone.context.set_offline(True)
    enter(phone, "4G", "N")  # deal 5
    enter(phone, "4M", "E")  # deal 6
    waiting(phone, 2)

    # Meanwhile phone B saves deal 5 (with the connection this phone lacks).
    store(table, [contract("5S", "W", 11, honours_side="EW", honours_count=5)])

    phone.context.set_offline(False)
    panel = phone.locator("#offline-conflict")
    expect(panel).to_be_visible(timeout=SLOW)
    expect(panel).to_contain_text("Deal 5 was saved from another phone meanwhile.")
    assert phone.locator("#offline-theirs").inner_text() != ""
    assert phone.locator("#offline-mine").inner_text().startswith("4")
    # Nothing was decided for the scorer: B's deal stands, this phone's deals still wait.
    assert [r[1:] for r in rows(table)][4:] == [(5, "5S", "W")]
    waiting(phone, 2)

    phone.locator("#offline-keep", has_text="Keep mine as deal 6").click()
    expect(phone.locator("#offline-box")).to_be_hidden(timeout=SLOW)
    expect(phone.locator("#save-deal")).to_have_text("Save deal 8", timeout=SLOW)
    stored(table, [(5, "5S", "W"), (6, "4G", "N"), (7, "4M", "E")], start=4, slots=False)


def test_keeping_a_deal_whose_rubber_another_phone_ended_puts_it_back_on_the_next_pad(
    phone, live_server, scorer, table
):
    """Phone B saved the rubber's last deal: keeping this phone's deal there would put it
    into rubber 2 with rubber 1's seats, so it comes back on rubber 2's pad; the scorer
    drops it, and the deal after it (also entered for rubber 1) comes back the same way."""
    store(table, [*RUBBER_1, contract("4H", "N", 10, honours_side="NS", honours_count=5)])
    open_pad(phone, live_server, scorer, table)
    phone.context.set_offline(True)
    enter(phone, "4S", "E", ("EW", "5"))  # deal 9, the rubber's last
    enter(phone, "4D", "S", ("NS", "5"))  # "deal 10": rubber 1 is over by then
    waiting(phone, 2)
    store(table, [contract("5C", "W", 11, honours_side="EW", honours_count=5)])  # B: deal 9

    phone.context.set_offline(False)
    panel = phone.locator("#offline-conflict")
    expect(panel).to_contain_text("Deal 9 was saved from another phone meanwhile.", timeout=SLOW)
    phone.locator("#offline-keep").click()
    status = phone.locator("#offline-status")
    expect(status).to_contain_text("Deal 9 kept on this phone was entered for a rubber that ended")
    expect(phone.locator(".vint-head")).to_contain_text("Rubber 2 · deal 1")
    assert phone.locator("#deal-form input[name=contract][value='4S']").is_checked()
    stored(table, [(8, "4H", "N"), (9, "5C", "W")], start=7, slots=False)

    phone.locator("#offline-drop-fix").click()
    expect(status).to_contain_text("Deal 10 kept on this phone", timeout=SLOW)
    waiting(phone, 1)
    assert phone.locator("#deal-form input[name=contract][value='4D']").is_checked()
    radio(phone, "declarer", "E")  # Carl, S in rubber 1, sits E in rubber 2
    radio(phone, "honours_side", "EW")
    phone.locator("#save-deal").click()
    expect(phone.locator("#offline-box")).to_be_hidden(timeout=SLOW)
    expect(phone.locator(".vint-head")).to_contain_text("Rubber 2 · deal 2", timeout=SLOW)
    stored(table, [(1, 8, "4H", "N"), (1, 9, "5C", "W"), (2, 1, "4D", "E")], start=7)


def test_a_refused_deal_can_be_dropped_and_the_next_one_takes_its_number(
    phone, live_server, scorer, table
):
    """Deal 5 lacks its honours (the phone cannot tell offline): the server refuses it and
    the pad shows why; the scorer drops it, and the deal after it becomes deal 5."""
    store(table, RUBBER_1[:4])
    open_pad(phone, live_server, scorer, table)
    phone.context.set_offline(True)
    enter(phone, "4H", "N")  # no honours: refused by the server
    enter(phone, "4S", "E", ("EW", "5"))
    waiting(phone, 2)

    phone.context.set_offline(False)
    expect(phone.locator("#offline-status")).to_contain_text(
        "The server refused deal 5", timeout=SLOW
    )
    expect(phone.locator("#honours-error")).to_be_visible()
    assert len(rows(table)) == 4

    phone.locator("#offline-drop-fix").click()
    expect(phone.locator("#offline-box")).to_be_hidden(timeout=SLOW)
    expect(phone.locator("#save-deal")).to_have_text("Save deal 6", timeout=SLOW)
    stored(table, [(5, "4S", "E")], start=4, slots=False)
