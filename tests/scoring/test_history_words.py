"""A table's history in the reader's language: who acted ("table link, seat 2" is stored in
English and said in Polish or Russian when shown), the action in the gender of what it is
about, and the date in the language's own order. Stored rows never change."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from scoring import services
from scoring.actors import actor_words, link_label
from scoring.models import DealHistory
from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import KopDealFactory

pytestmark = pytest.mark.django_db

NORMAL = {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60}


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    translation.activate("en")


def test_a_link_label_is_said_in_the_reader_s_language():
    assert link_label(2) == "table link, seat 2"  # what is stored: never translated
    with translation.override("pl"):
        assert actor_words(link_label(2)) == "link do stolika, miejsce 2"
        assert actor_words(link_label(3, "ala")) == "link do stolika, miejsce 3 (ala)"
        assert actor_words("table link") == "link do stolika"
    with translation.override("ru"):
        assert actor_words(link_label(2)) == "ссылка стола, место 2"
        assert actor_words("import") == "импорт из файла"
    with translation.override("et"):
        assert actor_words(link_label(4)) == "laua link, koht 4"


def test_a_user_name_stays_as_it_is():
    with translation.override("ru"):
        assert actor_words("table linker") == "table linker"
        assert actor_words("dora-director") == "dora-director"


def _text(client, url, language):
    client.cookies["django_language"] = language
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(url).content.decode()))


def test_the_history_page_says_who_and_what_in_russian_and_polish(director_client, kop_session):
    KopDealFactory(session=kop_session, facts=NORMAL, actor=services.Actor(label=link_label(2)))
    services.session_lock(session=kop_session, actor=DIRECTOR_ACCEPTS, reason="")
    url = reverse("scoring:history", args=[kop_session.pk])

    russian = _text(director_client, url, "ru")
    assert "кем: ссылка стола, место 2," in russian
    assert "Стол: закрыт (кем: dora-director," in russian
    assert "table link" not in russian and " кто " not in russian
    polish = _text(director_client, url, "pl")
    assert "Stolik: zamknięty (kto: dora-director," in polish
    assert "link do stolika, miejsce 2" in polish and "przez" not in polish
    # The stored row keeps its English label.
    assert DealHistory.objects.filter(actor="table link, seat 2").count() == 1


def test_the_history_date_is_in_estonian_order(director_client, kop_session):
    KopDealFactory(session=kop_session, facts=NORMAL, actor=services.Actor(label="sam"))
    stamp = timezone.localtime(DealHistory.objects.get().at)
    estonian = _text(director_client, reverse("scoring:history", args=[kop_session.pk]), "et")
    assert f"{stamp:%d.%m.%Y} {stamp.hour}:{stamp:%M}" in estonian  # 27.11.2026 15:31
    assert "p.l." not in estonian and "e.l." not in estonian


# ---------------------------------------------------------------- counts in the reader's grammar
def test_the_vint_preview_puts_points_after_their_label(scorer_client, vint_session):
    """ "6 очки за 1 взятку" put a number before a label that is not a count of points: the
    preview says "очки за 2 взятки: 8" (the label, then its points)."""
    from tests.scoring.test_vint_entry import contract, url

    data = contract("4M", "E", 2, dump_1_seat="E", dump_1_trick=5, dump_2_seat="N", dump_2_trick=9)
    scorer_client.cookies["django_language"] = "ru"
    html = scorer_client.post(url("preview", vint_session), data).content.decode()
    assert re.search(r"очки за \d+ взят\w+( \([^)]*\))?: \d+", html), html
    assert not re.search(r"\d+ очки за", html)
