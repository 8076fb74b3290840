"""axe-core (vendored in tests/browser/vendor/) finds no violations on any page type,
on a phone and on a desktop.

The site's CSP allows scripts from 'self' only, so this test (and only this test) opens
its browser context with ``bypass_csp=True`` to inject axe; the pages themselves are
served exactly as in production.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from clubs.models import Player
from scoring.models import TableSession
from tests.browser.conftest import DESKTOP, PHONE, login
from tournaments.demo_logins import DEMO_DIRECTOR
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(__file__).parent / "vendor" / "axe.min.js"


def _pages() -> list[str]:
    kop = TableSession.objects.get(title="Demo: Kop table 1")
    vint = TableSession.objects.get(title="Demo: Vint session")
    tournament = Tournament.objects.get()
    player = Player.objects.get(name="Aleksandra Przybyszewska-Wiśniewska")
    slug = tournament.slug
    return [
        f"/sessions/{kop.pk}/",
        f"/sessions/{kop.pk}/sheet/",
        f"/sessions/{vint.pk}/",
        f"/sessions/{vint.pk}/sheet/",
        f"/sessions/{kop.pk}/history/",
        "/sessions/",
        f"/tournaments/{slug}/",
        f"/tournaments/{slug}/standings/",
        f"/tournaments/{slug}/board/",
        f"/tournaments/{slug}/rounds/1/",
        f"/tournaments/{slug}/rounds/1/walkouts/",
        f"/tournaments/{slug}/competition/",
        f"/tournaments/{slug}/rounds/1/?print=1",
        f"/tournaments/{slug}/standings/?print=1",
        f"/tournaments/{slug}/players/1/",
        "/ratings/",
        f"/ratings/{tournament.game}/",
        f"/players/{player.pk}/",
        "/profiles/",
        "/words/",
    ]


def _violations(page) -> list[str]:
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ["violations"]});
          return r.violations.map(v => v.id + " (" + v.impact + "): " +
            v.nodes.slice(0, 5).map(n => n.target.join(" ")).join(", "));
        }"""
    )
    return list(found)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_axe_violations_on_any_page_type(browser, live_server, settings, size):
    settings.DEBUG = True  # demo_data loads the published demo logins only then
    call_command("demo_data", stdout=io.StringIO())
    settings.DEBUG = False
    context = browser.new_context(viewport=size, bypass_csp=True)
    # The print pages open the print dialog once loaded; here it would hold the page.
    context.add_init_script("window.print = () => {};")
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        found: dict[str, list[str]] = {}
        page.goto(f"{live_server.url}/accounts/login/")
        if bad := _violations(page):
            found["/accounts/login/"] = bad
        login(page, live_server, DEMO_DIRECTOR[0], DEMO_DIRECTOR[1])
        for path in _pages():
            response = page.goto(live_server.url + path)
            assert response is not None and response.ok, path
            if bad := _violations(page):
                found[path] = bad
    finally:
        context.close()
    assert found == {}, "\n".join(f"{p}:\n  " + "\n  ".join(v) for p, v in found.items())
