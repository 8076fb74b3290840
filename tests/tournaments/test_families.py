"""``tournaments.families``: every game of the registry has its family, and a family's
parts agree with each other (its table shows what its standings document's rows hold)."""

from __future__ import annotations

import random

import pytest

from scoring.engines.simulate import random_kop_deals
from scoring.games import all_games
from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import record_kop_deals as kop_bulk_record
from tournaments import services
from tournaments.families import FAMILIES, family_for, games
from tournaments.standings import standings_compute
from tournaments.tables import PlayerStandingsTable

pytestmark = pytest.mark.django_db


def test_every_game_has_the_family_it_names_and_every_family_a_game():
    assert games() == [(g.code, g.label) for g in all_games()]
    named = {g.results.family for g in all_games()}
    assert named == set(FAMILIES)
    for game in all_games():
        family = family_for(game.code)
        assert family is FAMILIES[game.results.family] and family.name == game.results.family
        assert issubclass(family.table, PlayerStandingsTable)
    with pytest.raises(KeyError):
        family_for("bridge")


def test_a_kop_familys_table_shows_keys_its_standings_rows_hold(kop_tournament, sixteen):
    rnd = services.round_generate(tournament=kop_tournament)
    rng = random.Random(3)
    for table in rnd.tables.select_related("session"):
        kop_bulk_record(session=table.session, deals=random_kop_deals(rng, 4), entered_by="x")
    services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    document = standings_compute(tournament=kop_tournament)
    family = family_for(kop_tournament.game)
    assert family.standings(kop_tournament) == document
    (row, *_rest) = document["individual"]
    assert set(family.table.base_columns) <= set(row)
