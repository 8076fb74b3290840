"""The demo data seats the longest Polish names: no page scrolls sideways at 320 px."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from clubs.models import Player
from scoring.models import TableSession
from tests.browser.conftest import login, wider_than_viewport
from tournaments.demo_logins import DEMO_DIRECTOR
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_no_page_scrolls_sideways_at_320_px_with_the_longest_names(
    phone, live_server, shots, settings
):
    settings.DEBUG = True  # demo_data loads the published demo logins only then
    call_command("demo_data", stdout=io.StringIO())
    settings.DEBUG = False
    kop = TableSession.objects.get(title="Demo: Kop table 1")
    vint = TableSession.objects.get(title="Demo: Vint session")
    tournament = Tournament.objects.get()
    longest = Player.objects.get(name="Aleksandra Przybyszewska-Wiśniewska")
    assert kop.seats.filter(player=longest).exists()
    phone.set_viewport_size({"width": 320, "height": 740})
    login(phone, live_server, DEMO_DIRECTOR[0], DEMO_DIRECTOR[1])
    pages = [
        f"/sessions/{kop.pk}/",
        f"/sessions/{kop.pk}/sheet/",
        f"/sessions/{kop.pk}/history/",
        f"/sessions/{vint.pk}/",
        f"/sessions/{vint.pk}/sheet/",
        f"/tournaments/{tournament.slug}/",
        f"/tournaments/{tournament.slug}/standings/",
        f"/tournaments/{tournament.slug}/board/",
        f"/tournaments/{tournament.slug}/rounds/3/",
        f"/players/{longest.pk}/",
        "/players/",
        "/ratings/",
    ]
    wide = {}
    for path in pages:
        phone.goto(live_server.url + path)
        overflow = wider_than_viewport(phone)
        if overflow:
            wide[path] = overflow
            name = path.strip("/").replace("/", "-")
            phone.screenshot(path=str(shots / f"wide-320-{name}.png"), full_page=True)
    assert wide == {}, "\n".join(f"{p}: {els}" for p, els in wide.items())
