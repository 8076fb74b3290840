"""The public standings page: one copy per results version shared by the readers who are
not signed in (the hall's phones), drawn without a CSRF token (a token is each reader's)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services as scoring_services
from tests.actors import DIRECTOR_ACCEPTS
from tournaments import services

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def standings_url(kop_tournament, sixteen, django_capture_on_commit_callbacks):
    rnd = services.round_generate(tournament=kop_tournament)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    return reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug})


def test_readers_share_one_page_without_a_token_and_switch_language_from_it(standings_url):
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    drawn = first.get(standings_url)
    shared = second.get(standings_url)
    assert "tournaments/standings.html" in [t.name for t in drawn.templates]
    assert shared.templates == []  # the second reader's page was not drawn again
    pages = [r.content.decode() for r in (drawn, shared)]
    assert pages[0] == pages[1] and "Gracz 01" in pages[0]
    # a token is each reader's own: the shared page carries none and sets no cookie for one
    assert "csrfmiddlewaretoken" not in pages[0] and "X-CSRFToken" not in pages[0]
    assert all("csrftoken" not in r.cookies for r in (drawn, shared))
    for client in (first, second):
        # the page's one form, the language switch, works without a token
        answer = client.post(reverse("set_language"), {"language": "en", "next": standings_url})
        assert answer.status_code == 302 and answer.url == standings_url
        assert '<html lang="en">' in client.get(standings_url).content.decode()


def test_a_signed_in_reader_page_carries_a_token_the_forms_need(standings_url, director_client):
    director_client.handler.enforce_csrf_checks = True
    page = director_client.get(standings_url).content.decode()
    token = TOKEN.search(page).group(1)
    assert f'"X-CSRFToken": "{token}"' in page  # htmx's header: the same token
    logout = reverse("logout")
    assert director_client.post(logout).status_code == 403  # none: refused
    assert director_client.post(logout, {"csrfmiddlewaretoken": token}).status_code == 302


def test_a_new_results_version_is_a_new_page(standings_url, kop_tournament):
    reader = Client()
    assert reader.get(standings_url).templates  # drawn and kept
    table = kop_tournament.rounds.get().tables.get(number=1)
    before = reader.get(standings_url).content.decode()
    scoring_services.session_unlock(
        session=table.session,
        actor=scoring_services.Actor(label="d", is_director=True),
        reason="a late correction",
    )
    after = reader.get(standings_url)
    assert after.templates  # drawn again for the new version
    assert after.content.decode() != before


def test_a_signed_in_reader_gets_a_page_of_their_own(standings_url, director_client):
    Client().get(standings_url)  # an anonymous copy exists
    page = director_client.get(standings_url)
    assert page.templates and "Log out" in page.content.decode()


def test_a_search_or_an_unknown_query_is_drawn_for_its_request(standings_url):
    reader = Client()
    for query in ("?q=gracz", "?q=gracz", "?utm=x", "?utm=x"):
        assert reader.get(standings_url + query).templates  # drawn every time
    assert reader.get(standings_url + "?ind-page=1").templates
    assert not reader.get(standings_url + "?ind-page=1").templates  # shared


def test_a_process_serves_the_shared_page_from_its_own_memory(standings_url, monkeypatch):
    """After one read from the shared cache, this process answers from its own copy (no
    round trip to Redis per reader); a page too large for that stays shared only."""
    from django.core.cache import cache, caches

    from config import cache as page_cache

    drawn = Client().get(standings_url)
    assert drawn.templates
    shared_reads = []
    shared_get = cache.get
    monkeypatch.setattr(cache, "get", lambda key, *a: shared_reads.append(key) or shared_get(key))
    for _ in range(3):
        assert Client().get(standings_url).content.decode().count("Gracz") >= 16
    assert shared_reads == []  # every reader answered from this process's copy

    caches["pages"].clear()  # another process: its first reader reads the shared copy
    Client().get(standings_url)
    Client().get(standings_url)
    assert len(shared_reads) == 1 and shared_reads[0].startswith("standings-page:")

    caches["pages"].clear()
    monkeypatch.setattr(page_cache, "PAGE_COPY_LOCAL_MAX", 100)  # every page too large
    Client().get(standings_url)
    Client().get(standings_url)
    assert len(shared_reads) == 3  # both from the shared cache, none kept here


def test_a_query_made_up_by_a_stranger_is_drawn_but_never_kept(standings_url, monkeypatch):
    """A sorting by any text, page 999999, print=yes, an unknown player: each is drawn for
    its request and kept nowhere (no shared copy, no cached tables under its query): a
    script cannot fill the cache, which shares Redis with the task broker. The page's
    own links are kept."""
    from django.core.cache import cache

    from tournaments.views import standings as views

    kept = []
    monkeypatch.setattr(views, "keep_page_copy", lambda key, *a: kept.append(key))
    shared_set = cache.set
    monkeypatch.setattr(cache, "set", lambda key, *a, **k: kept.append(key) or shared_set(key, *a))
    reader = Client()
    made_up = (
        "?ind-sort=zzz",
        "?ind-sort=-",
        "?ind-page=999999",
        "?ind-page=02",
        "?print=yes",
        "?player=999",
        "?ind-sort=name&ind-sort=-name",
        "?pairs-sort=big_points%20",
        "?print=1&player=3",
        "?print=1&ind-page=2",
    )
    for query in made_up:
        page = reader.get(standings_url + query)
        assert page.status_code == 200 and "Gracz 01" in page.content.decode(), query
        assert page.templates, query  # drawn
    # Kept at most: tables under a query the page's own links write (an unknown player is
    # shown the plain page, a player on the print page the print page; a doubled sorting
    # is drawn by its last value, the page's -name).
    assert {key.rsplit(":", 1)[1] for key in kept} <= {"", "ind-sort=-name", "print=1"}, kept
    own = ("?ind-sort=-name", "?ind-page=2", "?print=1", "?player=3", "?pairs-sort=big_points")
    for query in own:
        reader.get(standings_url + query)
    assert len([k for k in kept if k.startswith("standings-page:")]) == len(own)
