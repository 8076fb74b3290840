"""Issue 27 item 6: a page on what the app's words mean, in each language, linked from
the standings."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.translation import gettext, override

from tests.actors import DIRECTOR_ACCEPTS
from tournaments import services

pytestmark = pytest.mark.django_db

TERMS = ("Small points", "Big points", "Bye", "Walkover", "Accepted", "Rubber", "Honours")


@pytest.mark.parametrize("language", ["en", "pl", "ru", "et"])
def test_the_words_page_explains_each_term_in_the_reader_s_language(client, language):
    html = client.get(reverse("tournaments:words"), HTTP_ACCEPT_LANGUAGE=language)
    assert html.status_code == 200
    text = html.content.decode()
    with override(language):
        assert f"<h1>{gettext('What the words mean')}</h1>" in text
        for term in TERMS:
            assert f">{gettext(term)}</dt>" in text, term


def test_the_standings_link_to_the_words_page(client, kop_tournament, sixteen, commit):
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    html = client.get(
        reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug})
    ).content.decode()
    assert f'id="words-link" href="{reverse("tournaments:words")}"' in html
