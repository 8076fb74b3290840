"""The main pages in Polish carry no developer text: no Python reprs, raw option keys,
``None``/``True``/``False``, template syntax or English words left untranslated."""

from __future__ import annotations

import html
import io
import re

import pytest
from django.core.management import call_command
from django.test import Client

from clubs.models import Player
from scoring.models import TableSession
from tournaments.demo_logins import DEMO_DIRECTOR
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _raw_option_values() -> re.Pattern[str]:
    """The values of the rule options as the engines spell them ("three_passes", "T12",
    "never"), also with spaces for underscores ("three passes"): a profile page shows
    each as a phrase in the reader's language, never as the key."""
    from scoring.engines import kop, vint

    raw = {
        *kop.TRUMP_ORDERS,
        *kop.AUCTION_ENDS,
        *kop.WESELE_PARTNERS,
        *kop.DOUBLING_COUNTS,
        *kop.BASKA_BIDS,
        *kop.SOLOIST_DOUBLINGS,
        *(v for spec in vint.OPTIONS.values() for v in spec.values or () if isinstance(v, str)),
    }
    words = sorted(raw | {v.replace("_", " ") for v in raw}, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b")


LEAKS = [
    re.compile(r"\{'|\['"),
    re.compile(r"\b(zolo_du|__all__|None|True|False)\b"),
    re.compile(r"\b(round|table|deals|Select|passes|yes|no)\b", re.IGNORECASE),
    _raw_option_values(),
    # template syntax left in the page (a comment over two lines is not one: {# ... #})
    re.compile(r"\{[#%]|[#%]\}|\{\{ | \}\}"),
]


def visible_text(page: str, *, own_titles: list[str]) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S | re.I)
    # attribute values people read (titles, labels, placeholders) count as text
    attrs = " ".join(re.findall(r'(?:title|aria-label|placeholder|alt)="([^"]*)"', page))
    text = html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + attrs)
    for title in own_titles:  # what the club typed is theirs, in whatever language
        text = text.replace(title, " ")
    return text


def test_polish_pages_show_no_developer_text(settings):
    settings.DEBUG = True  # demo_data loads the published demo logins only then
    call_command("demo_data", stdout=io.StringIO())
    settings.DEBUG = False
    kop = TableSession.objects.get(title="Demo: Kop table 1")
    vint = TableSession.objects.get(title="Demo: Vint session")
    tournament = Tournament.objects.get()
    player = Player.objects.order_by("pk").first()
    assert player is not None
    table_session = tournament.rounds.get(number=1).tables.get(number=1).session
    slug = tournament.slug
    client = Client(headers={"accept-language": "pl"})
    client.cookies["django_language"] = "pl"
    from django.contrib.auth.models import User

    client.force_login(User.objects.get(username=DEMO_DIRECTOR[0]))
    pages = [
        "/sessions/",
        "/sessions/new/",
        f"/sessions/{kop.pk}/",
        f"/sessions/{kop.pk}/sheet/",
        f"/sessions/{kop.pk}/history/",
        f"/sessions/{vint.pk}/",
        f"/sessions/{vint.pk}/sheet/",
        f"/sessions/{table_session.pk}/sheet/",
        "/profiles/",
        "/profiles/new/",
        "/tournaments/",
        "/tournaments/new/",
        f"/tournaments/{slug}/",
        f"/tournaments/{slug}/standings/",
        f"/tournaments/{slug}/board/",
        f"/tournaments/{slug}/rounds/1/",
        f"/tournaments/{slug}/players/1/",
        "/players/",
        f"/players/{player.pk}/",
        "/ratings/",
        f"/ratings/{tournament.game}/",
    ]
    own_titles = list(TableSession.objects.exclude(title="").values_list("title", flat=True))
    found = {}
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        text = visible_text(response.content.decode(), own_titles=own_titles)
        hits = sorted({m.group(0) for pattern in LEAKS for m in pattern.finditer(text)})
        if hits:
            found[path] = hits
    assert found == {}, "\n".join(f"{p}: {h}" for p, h in found.items())
