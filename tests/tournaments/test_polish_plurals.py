"""Counts in Polish take Polish plural forms: 1 rozdanie, 2-4 rozdania, 5-21 rozdań,
22 rozdania; "8 z 8 rozdań" (after "z", the genitive). On the pad, the progress board
and the round page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext, override

from scoring import services as scoring_services
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A Polish request leaves Polish active in this thread: later tests read English."""
    yield
    translation.activate("en")


DEALS = {1: "rozdanie", 2: "rozdania", 4: "rozdania", 5: "rozdań", 12: "rozdań", 21: "rozdań"}
DEALS |= {22: "rozdania", 24: "rozdania", 25: "rozdań", 112: "rozdań", 102: "rozdania"}


@pytest.mark.parametrize(("n", "word"), DEALS.items())
def test_deal_counts_use_the_polish_plural_forms(n, word):
    with override("pl"):
        assert ngettext("%(n)s deal", "%(n)s deals", n) % {"n": n} == f"{n} {word}"
        played = ngettext("%(n)s deal played", "%(n)s deals played", n) % {"n": n}
        assert played == f"rozegrano {n} {word}"


@pytest.mark.parametrize(("n", "word"), [(1, "rozdania"), (2, "rozdań"), (8, "rozdań")])
def test_of_n_deals_takes_the_genitive(n, word):
    with override("pl"):
        said = ngettext("%(d)s of %(n)s deal", "%(d)s of %(n)s deals", n) % {"d": 0, "n": n}
        assert said == f"0 z {n} {word}"
        said = ngettext("%(d)s of %(n)s deal played", "%(d)s of %(n)s deals played", n)
        assert said % {"d": n, "n": n} == f"rozegrano {n} z {n} {word}"


def _polish(client: Client, url: str) -> str:
    client.cookies["django_language"] = "pl"
    text = re.sub(r"<[^>]+>", " ", client.get(url).content.decode())
    return re.sub(r"\s+", " ", text)


def _play(session, deals: int) -> None:
    actor = scoring_services.Actor(label="sam", is_director=False)
    facts = {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60}
    for _ in range(deals):
        scoring_services.deal_record(session=session, facts=facts, actor=actor)


@pytest.mark.parametrize("planned", [8, 22])
def test_board_round_and_pad_count_deals_in_polish(
    director_client, profiles, club, director, planned
):
    tournament = services.tournament_create(
        name="Puchar",
        game="kop",
        profile_version=profiles["kop-koscian"].current,
        rounds=1,
        deals_per_round=planned,
        club=club,
        seed=7,
        created_by=director,
    )
    for i in range(1, 5):
        entry = services.registration_add(
            tournament=tournament, player=PlayerFactory(club=club, name=f"Gracz {i}", number=i)
        )
        services.registration_check_in(registration=entry)
    services.round_generate(tournament=tournament)
    session = Round.objects.get().tables.get().session
    _play(session, planned)

    slug = tournament.slug
    board = _polish(director_client, reverse("tournaments:board", kwargs={"slug": slug}))
    assert f"{planned} z {planned} rozdań" in board
    page = _polish(
        director_client, reverse("tournaments:round", kwargs={"slug": slug, "number": 1})
    )
    assert f"{planned} z {planned} rozdań" in page
    pad = _polish(director_client, reverse("scoring:session", args=[session.pk]))
    assert f"rozegrano {planned} z {planned} rozdań" in pad


@pytest.mark.parametrize(("played", "word"), [(1, "rozdanie"), (3, "rozdania"), (5, "rozdań")])
def test_a_club_table_s_pad_counts_deals_in_polish(
    scorer_client, scorer, profiles, club, played, word
):
    session = scoring_services.session_create(
        game="kop",
        profile_version=profiles["kop-pagat"].current,
        players=[PlayerFactory(club=club, name=f"Gracz {i}") for i in range(1, 5)],
        title="Stół 1",
        created_by=scorer,
        planned_deals=None,
    )
    _play(session, played)
    pad = _polish(scorer_client, reverse("scoring:session", args=[session.pk]))
    assert f"rozegrano {played} {word}" in pad
