"""Rows the league tests share: an association with two member clubs, players with
licence numbers, and events whose standings are written as competitions.md §11 gives
them (``tournaments.simulation.standings_write``), not played."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction as F
from typing import Any

import pytest

from clubs.models import Club, Player
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tests.ranking.test_competition_examples import NAMES as E13_NAMES
from tournaments.models import Tournament
from tournaments.simulation import GivenRow, standings_write

D = datetime.date


@dataclass
class Association:
    association: Club
    kartuzy: Club
    puck: Club
    players: dict[int, Player] = field(default_factory=dict)  # E13's numbers 1-9, and 20, 21


# E13's players (the pure rules' tests name them), and two more of the league examples.
NAMES = {**E13_NAMES, 20: "Jan", 21: "Kasia"}


@pytest.fixture
def psb(db) -> Association:
    """The Polish Baśka Association and two member clubs; players 1-5 of Kartuzy, the
    others of Puck, each with licence number L<n> as federation id."""
    association = ClubFactory(name="PSB", kind=Club.ASSOCIATION)
    kartuzy = ClubFactory(name="Kartuzy", association=association)
    puck = ClubFactory(name="Puck", association=association)
    found = Association(association, kartuzy, puck)
    for n, name in NAMES.items():
        found.players[n] = PlayerFactory(
            club=kartuzy if n <= 5 else puck, name=name, federation_id=f"L{n}"
        )
    return found


def event(
    club: Club,
    day: datetime.date,
    rows: Mapping[Player, tuple[int, Any, Any]],
    *,
    name: str | None = None,
    game: str = "baska",
) -> Tournament:
    """A tournament of ``club`` played on ``day`` whose standings are ``rows``: player ->
    (place, big points, small points)."""
    tournament = TournamentFactory(name=name or f"GP {day}", club=club, game=game)
    Tournament.objects.filter(pk=tournament.pk).update(date=day)
    tournament.date = day
    numbers = {}
    for player in rows:
        numbers[player] = RegistrationFactory(tournament=tournament, player=player).number
    write(tournament, {numbers[p]: r for p, r in rows.items()})
    return tournament


def write(tournament: Tournament, rows: Mapping[int, tuple[int, Any, Any]]) -> None:
    """New standings of ``tournament``: start number -> (place, big, small)."""
    standings_write(
        tournament=tournament,
        rows=[
            GivenRow(number, place, F(big), F(small), firsts=int(place == 1))
            for number, (place, big, small) in rows.items()
        ],
    )


def e13_rows(p: Mapping[int, Player]) -> dict[Player, tuple[int, Any, Any]]:
    """E13's standings (9 players, PSB scores): place, big, small."""
    return {
        p[9]: (1, 8, 55),
        p[3]: (2, 8, 49),
        p[2]: (3, 5, 31),
        p[4]: (3, 5, 31),
        p[5]: (5, 5, 17),
        p[7]: (6, F(7, 2), 20),
        p[1]: (7, 3, 6),
        p[6]: (8, 3, -19),
        p[8]: (9, F(1, 2), -15),
    }


def e17_second_rows(p: Mapping[int, Player]) -> dict[Player, tuple[int, Any, Any]]:
    """E17's event 2 (the document gives only the team sums, KAR 17 / +12 and PUC
    21 / +64; these rows are chosen to give them): player 20 plays for PUC, 8 and 5
    play but are in no line-up."""
    return {
        p[6]: (1, 6, 20),
        p[7]: (2, 5, 15),
        p[9]: (2, 5, 15),
        p[20]: (4, 5, 14),
        p[1]: (5, 5, 10),
        p[2]: (6, 4, 2),
        p[3]: (7, 4, 0),
        p[4]: (7, 4, 0),
        p[8]: (9, 3, 5),
        p[5]: (10, 2, -3),
    }


def ids(players: Sequence[Player]) -> list[int]:
    return [p.pk for p in players]
