"""No developer text on public pages: the seating algorithm and its seed are for the
club's director only; a tournament's rounds count their tables in the reader's plural."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    translation.activate("en")


def _text(client, url, language="en"):
    client.cookies["django_language"] = language
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(url).content.decode()))


def test_the_seating_algorithm_and_seed_are_for_the_director_only(
    client, director_client, kop_tournament, sixteen
):
    rnd = services.round_generate(tournament=kop_tournament)
    url = reverse("tournaments:round", kwargs={"slug": kop_tournament.slug, "number": 1})
    public = _text(client, url)
    assert f"seed {rnd.seed}" not in public and rnd.algorithm not in public
    assert "Seated by" not in public
    director = _text(director_client, url)
    assert f"Seated by {rnd.algorithm}, seed {rnd.seed}." in director


@pytest.mark.parametrize(
    ("language", "words"), [("en", "4 tables"), ("pl", "4 stoliki"), ("ru", "4 стола")]
)
def test_a_round_counts_its_tables_in_the_reader_s_plural(
    client, kop_tournament, sixteen, language, words
):
    services.round_generate(tournament=kop_tournament)
    url = reverse("tournaments:detail", kwargs={"slug": kop_tournament.slug})
    assert words in _text(client, url, language)
