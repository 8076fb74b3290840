"""A tournament table's title is built when shown, in the reader's language: none is stored."""

from __future__ import annotations

from django.utils import translation

from tournaments import services


def test_tournament_tables_are_named_in_the_readers_language(kop_tournament, sixteen):
    rnd = services.round_generate(tournament=kop_tournament)
    table = rnd.tables.select_related("session").get(number=2)
    assert table.session.title == ""
    with translation.override("en"):
        assert str(table.session) == f"{kop_tournament.name}: round 1, table 2"
    with translation.override("pl"):
        assert str(table.session) == f"{kop_tournament.name}: runda 1, stolik 2"
