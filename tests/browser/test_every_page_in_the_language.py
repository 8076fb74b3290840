"""Every page type in Polish, Russian and Estonian, as a signed-in director of the demo club
sees it (the language chosen as the app chooses it: the ``django_language`` cookie the
language switch sets): no English word in the visible text outside names and numbers.

One test per language walks the pages (two cores: one browser, one demo load each). The
English words are a short list of the app's own (matched as whole words); names are taken
from the database (players, clubs, tournaments, tables, logins) and a few game words are
allowed (Kop, Baśka, wesele, zolo...), so a page may say them in any language."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubs.models import Club, Player
from scoring.acceptance import session_accept
from scoring.models import TableSession
from scoring.services import Actor
from tests.browser.conftest import login
from tournaments.demo_logins import DEMO_DIRECTOR
from tournaments.models import League, Round, RoundTable, Series, Tournament
from tournaments.services import leagues

pytestmark = pytest.mark.django_db(transaction=True)

ENGLISH = re.compile(
    r"\b(the|and|of|table|tables|round|rounds|player|players|standings|accepted|seat|deals?|"
    r"points|tournaments?|results?|present|withdrew|entered|corrected|scorer|director|"
    r"rubber|save|edit|new|print|import|sheet|history|who|your|find|still|playing|just|"
    r"sitting|out|by|with|from|to|in|is|are|not|no|yes|or|rated|won|of|after|before|"
    r"name|number|club|clubs|date|status|actions|team|pair|series|season|league|rating|"
    r"ratings|accounts?|members?|role|profiles?|rules|contract|declarer|tricks?|pairs?|met|"
    r"more|than|once|accept|waiting|phone|open|total|games?|evening|counts|small|big|"
    r"honours|lost|place|bye|reason|only|all|show|hide|back|next|help|search)\b",
    re.I,
)
# Words of the games and the app that are the same in every language.
ALLOWED = [
    "tablescore",
    "The Penguin Book of Card Games",  # a book's title, cited
    "Vint (Estonian form)",  # its chapter
    "Kop",
    "Baśka",
    "Baska",
    "Vint",
    "wesele",
    "cicha",
    "zolo du",
    "zolo",
    "grand",
    "pagat",
    "CSV",
    "JSON",
    "PDF",
    "QR",
    "EN",
    "PL",
    "RU",
    "ET",
    "English",
    "Polski",
    "Русский",
    "Eesti",
    "Demo",
]


# Words of the lists that are words of the language too: Polish "to" (is), "profile"
# (profiles), "role" (roles); Estonian "number", "null" (zero), "all" (below).
SAME_WORD = {"pl": {"to", "profile", "role"}, "ru": set(), "et": {"number", "null", "all"}}
# Developer text in any language: an algorithm's name, Python's None, JSON's null, a code
# key (big_points), a date in American order (11/27/2026).
DEVELOPER = re.compile(
    r"tablescore-[a-z]+/\d|\bNone\b|\bnull\b|\b[a-z]+_[a-z_]+\b|\b\d{1,2}/\d{1,2}/\d{4}\b"
)
# What a player with no account opens: the seating algorithm and seed are not shown there.
PUBLIC = [
    "/",
    "/tournaments/",
    "{t}/",
    "{t}/rounds/3/",
    "{t}/standings/",
    "{t}/find/?n=1",
    "{t}/display/",
    "{t}/players/1/",
]


def _names(*, director: bool) -> list[str]:
    """The proper names on the pages: read from the database, longest first (a name that
    holds a shorter one is taken out whole). The director is shown how each round was
    seated (the algorithm's name); a player is not."""
    names = [
        *Player.objects.values_list("name", flat=True),
        *Club.objects.values_list("name", flat=True),
        *Tournament.objects.values_list("name", flat=True),
        *TableSession.objects.values_list("title", flat=True),
        *League.objects.values_list("name", flat=True),
        *Series.objects.values_list("name", flat=True),
        *get_user_model().objects.values_list("username", flat=True),
        *(Round.objects.values_list("algorithm", flat=True) if director else ()),
    ]
    return sorted({n for n in names if n}, key=len, reverse=True)


def _english_words(text: str, names: list[str], language: str) -> list[str]:
    """Each English word and each piece of developer text on the page, with the words
    around it (for a readable failure)."""
    text = re.sub(r"\S*https?://\S+|(?<!\S)/\S*", " ", text)  # links and paths
    text = re.sub(r"\s+", " ", text)
    for name in names:
        text = text.replace(name, " ")
    found = [
        f"{m.group(0)} (developer text: {text[max(0, m.start() - 40) : m.end() + 40]})"
        for m in DEVELOPER.finditer(text)
        if m.group(0) not in SAME_WORD[language]
    ]
    for word in sorted(ALLOWED, key=len, reverse=True):
        text = text.replace(word, " ")
    return found + sorted(
        {
            f"{m.group(0)} ({text[max(0, m.start() - 30) : m.end() + 30]})"
            for m in ENGLISH.finditer(text)
            if m.group(0).lower() not in SAME_WORD[language]
        }
    )


def _pages() -> list[str]:
    kop = TableSession.objects.get(title="Demo: Kop table 1")
    vint = TableSession.objects.get(title="Demo: Vint session")
    tournament = Tournament.objects.get()
    player = Player.objects.get(name="Aleksandra Przybyszewska-Wiśniewska")
    league = League.objects.get()
    slug = tournament.slug
    t = f"/tournaments/{slug}"
    return [
        "/",
        "/tournaments/",
        f"{t}/",
        f"{t}/rounds/1/",
        f"{t}/rounds/3/",
        f"{t}/standings/",
        f"{t}/find/",
        f"{t}/find/?n=1",
        f"{t}/display/",
        f"{t}/meetings/",
        f"{t}/players/1/",
        "/players/",
        "/series/",
        "/ratings/",
        f"/ratings/{tournament.game}/",
        f"/players/{player.pk}/",
        "/leagues/",
        f"/leagues/{league.slug}/",
        f"/sessions/{kop.pk}/",
        f"/sessions/{vint.pk}/",
        f"/sessions/{kop.pk}/pad/",
        f"/sessions/{kop.pk}/sheet/",
        f"/sessions/{vint.pk}/sheet/",
        f"/sessions/{kop.pk}/history/",
        f"/sessions/{vint.pk}/history/",
        # A tournament's tables: one accepted (round 1), one being played (round 3).
        f"/sessions/{RoundTable.objects.filter(round__number=1).first().session_id}/",
        f"/sessions/{RoundTable.objects.filter(round__number=3).first().session_id}/",
        "/sessions/",
        # The director's forms.
        "/tournaments/new/",
        f"{t}/board/",
        f"{t}/rounds/1/?cards=1",
        f"{t}/rounds/1/?print=1",
        f"{t}/standings/?print=1",
        f"{t}/edit/",
        f"{t}/competition/",
        f"{t}/rounds/3/mend/",
        "/leagues/new/",
        f"/leagues/{league.slug}/manage/",
        "/players/add/",
        f"/players/{player.pk}/edit/",
        "/sessions/new/",
        "/series/new/",
        "/accounts/members/",
        "/tournaments/import/",
        "/sessions/import/",
        "/pad/kop/",
        "/pad/baska/",
        "/profiles/",
    ]


@pytest.mark.parametrize("language", ["pl", "ru", "et"])
def test_no_english_words_on_any_page(browser, live_server, settings, language):
    settings.DEBUG = True  # demo_data loads the published demo logins only then
    call_command("demo_data", stdout=io.StringIO())
    settings.DEBUG = False
    # The Vint evening accepted: its pages say who accepted it and that it counts.
    session_accept(
        session=TableSession.objects.get(title="Demo: Vint session"),
        actor=Actor(label=DEMO_DIRECTOR[0], is_director=True),
        reason="Demo",
    )
    leagues.league_create(
        organiser=Club.objects.get(name="Klub Kopa Kościan (demo)"),
        name="Liga Kościańska",
        game="kop",
        season="2026",
        licences_required=False,
    )
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script("window.print = () => {};")
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    found: dict[str, list[str]] = {}
    t = f"/tournaments/{Tournament.objects.get().slug}"
    public = [path.format(t=t) for path in PUBLIC]
    try:
        for who, paths in (("a player", public), ("the director", _pages())):
            director = who == "the director"
            if director:
                login(page, live_server, DEMO_DIRECTOR[0], DEMO_DIRECTOR[1])
            names = _names(director=director)
            for path in paths:
                response = page.goto(live_server.url + path)
                assert response is not None and response.ok, path
                assert page.get_attribute("html", "lang") == language, path
                if words := _english_words(page.inner_text("body"), names, language):
                    found[f"{path} ({who})"] = words
    finally:
        context.close()
    assert found == {}, "\n".join(f"{path}: {'; '.join(w)}" for path, w in found.items())
