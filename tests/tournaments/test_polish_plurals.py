"""Deal counts in Polish on a tournament's progress board, round page and table pad: "8 z
8 rozdań" (after "z", the genitive). (The plural forms themselves:
``tests/config/test_i18n.py``; a club table's pad: ``tests/scoring/test_polish_pages.py``.)"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import PlayerFactory, RoundTableFactory, TournamentFactory
from tests.scoring.test_polish_pages import play, polish_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A Polish request leaves Polish active in this thread: later tests read English."""
    yield
    translation.activate("en")


@pytest.mark.parametrize("planned", [8, 22])
def test_board_round_and_pad_count_deals_in_polish(
    director_client, profiles, club, director, planned
):
    tournament = TournamentFactory(
        name="Puchar",
        rounds=1,
        deals_per_round=planned,
        club=club,
        seed=7,
        created_by=director,
        field=[PlayerFactory(club=club, name=f"Gracz {i}", number=i) for i in range(1, 5)],
    )
    session = RoundTableFactory(round__tournament=tournament).session
    play(session, planned)

    slug = tournament.slug
    board = polish_text(director_client, reverse("tournaments:board", kwargs={"slug": slug}))
    assert f"{planned} z {planned} rozdań" in board
    page = polish_text(
        director_client, reverse("tournaments:round", kwargs={"slug": slug, "number": 1})
    )
    assert f"{planned} z {planned} rozdań" in page
    pad = polish_text(director_client, reverse("scoring:session", args=[session.pk]))
    assert f"rozegrano {planned} z {planned} rozdań" in pad
