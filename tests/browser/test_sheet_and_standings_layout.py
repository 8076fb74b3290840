"""Desktop (1280 px): the Vint sheet's three rubbers sit side by side, none cut or covered
by the next. Phone (320 px): they stack, nothing scrolls sideways. With the demo's longest
names, in English and Polish. Phone: the standings show small points without a sideways
scroll."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from scoring.models import TableSession
from tests.browser.conftest import login, no_horizontal_overflow, wider_than_viewport
from tournaments.demo_logins import DEMO_DIRECTOR
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(settings):
    settings.DEBUG = True  # demo_data loads the published demo logins only then
    call_command("demo_data", stdout=io.StringIO())
    settings.DEBUG = False


RUBBER_BOXES = """() => [...document.querySelectorAll('.rubber-sheet')].map(s => {
  const r = s.getBoundingClientRect();
  const cut = [...s.querySelectorAll('.scroll-x')].filter(
    x => x.scrollWidth > x.clientWidth + 1).length;
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, cut: cut};
})"""


def _vint_sheet(page, live_server, language):
    vint = TableSession.objects.get(title="Demo: Vint session")
    # The demo seats its longest names at the Vint table: the widest columns.
    assert vint.seats.filter(player__name="Aleksandra Przybyszewska-Wiśniewska").exists()
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    login(page, live_server, DEMO_DIRECTOR[0], DEMO_DIRECTOR[1])
    page.goto(f"{live_server.url}/sessions/{vint.pk}/sheet/")
    page.locator("#rubber-3").wait_for()
    return page.evaluate(RUBBER_BOXES)


@pytest.mark.parametrize("language", ["en", "pl"])
def test_vint_rubbers_side_by_side_at_1280_none_cut(desktop, live_server, demo, shots, language):
    boxes = _vint_sheet(desktop, live_server, language)
    desktop.screenshot(path=str(shots / f"vint-sheet-1280-{language}.png"), full_page=True)
    assert len(boxes) == 3
    for here, after in zip(boxes, boxes[1:], strict=False):  # one row, left to right
        assert abs(here["top"] - after["top"]) <= 1, boxes
        assert here["right"] <= after["left"] + 1, boxes  # rubber 3 never over rubber 2
    for box in boxes:  # every table whole in its own column, none cut off
        assert box["cut"] == 0, boxes
    assert no_horizontal_overflow(desktop)


@pytest.mark.parametrize("language", ["en", "pl"])
def test_vint_rubbers_stack_on_a_320_px_phone(phone, live_server, demo, shots, language):
    phone.set_viewport_size({"width": 320, "height": 740})
    boxes = _vint_sheet(phone, live_server, language)
    phone.screenshot(path=str(shots / f"vint-sheet-320-{language}.png"), full_page=True)
    assert len(boxes) == 3
    for here, after in zip(boxes, boxes[1:], strict=False):
        assert here["bottom"] <= after["top"] + 1, boxes
    for box in boxes:  # the sheet and the deal list fit the phone: no sideways scroll
        assert box["cut"] == 0 and box["right"] <= 320, boxes
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)


def test_standings_show_small_points_on_a_phone_without_scrolling(phone, live_server, demo, shots):
    tournament = Tournament.objects.get()
    phone.goto(f"{live_server.url}/tournaments/{tournament.slug}/standings/")
    phone.screenshot(path=str(shots / "standings-360.png"), full_page=True)
    overflow = phone.evaluate(
        """() => [...document.querySelectorAll('.scroll-x')].filter(
             s => s.scrollWidth > s.clientWidth + 1).map(s => s.id || s.className)"""
    )
    assert overflow == []
    small = phone.locator("th", has_text="Small points").first
    assert small.is_visible()
    box = small.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 361


BROKEN_NUMBERS = """() => [...document.querySelectorAll('.grid td.num')].flatMap(td => {
  const text = [...td.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
  if (!text) return [];
  const range = document.createRange();
  range.selectNodeContents(text);
  return range.getClientRects().length > 1 ? [text.textContent.trim()] : [];
})"""


def test_no_number_on_the_vint_table_page_breaks_across_lines_at_320_px(
    phone, live_server, demo, shots
):
    """The table page's deal list at 320 px with the longest names: 3360 stays one number,
    never "336" over "0"."""
    phone.set_viewport_size({"width": 320, "height": 740})
    vint = TableSession.objects.get(title="Demo: Vint session")
    phone.goto(f"{live_server.url}/sessions/{vint.pk}/")
    phone.locator(".grid td.num").first.wait_for()
    phone.screenshot(path=str(shots / "vint-table-320.png"), full_page=True)
    assert phone.locator(".grid td.num").count() > 0
    assert phone.evaluate(BROKEN_NUMBERS) == []


# Per name in the standings: each place where a line ends inside a word (a letter either
# side), with the width of that word and of the column's text box.
NAME_BREAKS = """(names) => [...document.querySelectorAll(names)].flatMap(a => {
  const text = a.firstChild, s = text.textContent, cell = a.closest('td');
  const box = (i, j) => { const r = document.createRange(); r.setStart(text, i); r.setEnd(text, j);
                          return r.getClientRects(); };
  const style = getComputedStyle(cell);
  const column = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const out = [];
  for (let i = 1; i < s.length; i++) {
    if (!(/\\p{L}/u.test(s[i - 1]) && /\\p{L}/u.test(s[i]))) continue;
    if (box(i - 1, i)[0].top === box(i, i + 1)[0].top) continue;
    let from = i, to = i;  // the word around the break
    while (from > 0 && /\\p{L}/u.test(s[from - 1])) from--;
    while (to < s.length && /\\p{L}/u.test(s[to])) to++;
    const word = [...box(from, to)].reduce((w, r) => w + r.width, 0);
    out.push({name: s, at: i, word: Math.round(word), column: Math.round(column)});
  }
  return out;
})"""


@pytest.mark.parametrize(
    ("page", "language", "width"),
    [
        ("standings", "pl", 360),
        ("standings", "pl", 320),
        ("standings", "ru", 320),
        ("ratings", "pl", 320),
    ],
)
def test_names_break_between_words_on_a_phone(
    phone, live_server, demo, shots, page, language, width
):
    """The demo's longest names on a phone, in the standings and the club leaderboard: the
    number columns keep to their numbers (the leaderboard keeps club, μ, σ and the last
    change for wider screens) and the names get the rest, so a name wraps between its
    words. Only a word wider than the whole column may break inside (at 320 px,
    "Brzęczyszczykiewicz")."""
    phone.set_viewport_size({"width": width, "height": 740})
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    if page == "standings":
        phone.goto(f"{live_server.url}/tournaments/{Tournament.objects.get().slug}/standings/")
    else:
        phone.goto(f"{live_server.url}/ratings/kop/")
    phone.screenshot(path=str(shots / f"{page}-{width}-{language}.png"), full_page=True)
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)
    names = "table.grid td a"
    assert phone.locator(names).count() >= 16
    breaks = phone.evaluate(NAME_BREAKS, names)
    assert all(b["word"] > b["column"] for b in breaks), breaks
    if width == 360:
        assert breaks == []
    else:  # squeezed by wide number columns, nearly every name broke inside a word
        assert len({b["name"] for b in breaks}) <= phone.locator(names).count() // 8, breaks


# Status pills that wrap inside (one pill drawn on two lines: "accepte / d").
BROKEN_PILLS = """() => [...document.querySelectorAll('.badge')]
  .filter(b => b.getClientRects().length > 1 ||
               b.getBoundingClientRect().height > 1.8 * parseFloat(getComputedStyle(b).fontSize))
  .map(b => b.textContent.trim())"""


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_boards_pills_stay_whole_on_a_320_px_phone(phone, live_server, demo, language):
    phone.set_viewport_size({"width": 320, "height": 740})
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    login(phone, live_server, DEMO_DIRECTOR[0], DEMO_DIRECTOR[1])
    phone.goto(f"{live_server.url}/tournaments/{Tournament.objects.get().slug}/board/")
    assert phone.locator("table.grid .badge").count() > 0
    assert phone.evaluate(BROKEN_PILLS) == []
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)
