"""``tournaments.sql``: the app's hand-written statements read what the ORM reads, and the
public standings page's read and poll are kept prepared on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from scoring.models import TableSession
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.sql import StandingsState, read_as, standings_states

pytestmark = pytest.mark.django_db


def test_a_hand_written_read_gives_what_the_orm_gives(kop_table):
    """``read_as``: a date column and an aggregate of it, as the database sends them (on
    SQLite text or naive), read into the ORM's aware values."""
    read = read_as(TableSession._meta.get_field("created_at"))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT created_at, (SELECT MAX(s.created_at) FROM scoring_tablesession s "
            "WHERE s.id = %s) FROM scoring_tablesession WHERE id = %s",
            [kop_table.session_id, kop_table.session_id],
        )
        column, aggregate = cursor.fetchone()
    by_orm = TableSession.objects.get(pk=kop_table.session_id).created_at
    assert read(column) == by_orm == read(aggregate)
    assert read(column).tzinfo is not None and read(None) is None


def test_the_standings_read_leaves_the_seating_plan_unread_and_reads_the_rest_as_the_orm(
    kop_tournament,
):
    """The standings page reads its tournament without the imported seating plan (every
    round's tables): the plan is not in the statement, the other fields (a date among
    them, parsed on SQLite) are what the ORM reads."""
    Tournament.objects.filter(pk=kop_tournament.pk).update(seating_plan=[[[1, 2, 3, 4]]])
    with CaptureQueriesContext(connection) as queries:
        ((read, state),) = standings_states("t.id = %s", kop_tournament.pk)
    assert "seating_plan" not in queries[0]["sql"]
    assert state == StandingsState(None, None, None, False, False, False)
    assert read.get_deferred_fields() == {"seating_plan"}
    orm = Tournament.objects.defer("seating_plan").get(pk=kop_tournament.pk)
    assert model_to_dict(read, exclude=["seating_plan"]) == model_to_dict(
        orm, exclude=["seating_plan"]
    )
    assert read.created_at == orm.created_at and read.created_at.tzinfo is not None
    assert read.seating_plan == [[[1, 2, 3, 4]]]  # read on first use, as the ORM would


def runs() -> dict[str, int]:
    """Each statement kept prepared on this connection: how many times it ran (none off
    PostgreSQL)."""
    if connection.vendor != "postgresql":
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements "
            "WHERE NOT from_sql"
        )
        return dict(cursor.fetchall())


def ran_since(before: dict[str, int]) -> dict[str, int]:
    return {s: n - before.get(s, 0) for s, n in runs().items() if n != before.get(s, 0)}


@pytest.mark.parametrize("prepared", [True, False], ids=["prepared", "plain"])
def test_a_public_readers_statements_are_kept_prepared(kop_table, settings, prepared):
    """The standings page's one read (the tournament with its standings state) and its
    poll give what the plain reads give, prepared or not, and Django's query log sees
    them. On PostgreSQL a prepared one stays on the connection after its first use (a
    later request only executes it); with ``DATABASE_PREPARED`` off, nothing is kept."""
    settings.DATABASE_PREPARED = prepared
    tournament = Tournament.objects.get(pk=kop_table.round.tournament_id)

    before = runs()
    with CaptureQueriesContext(connection) as queries:
        found = selectors.standings_page_state(slug=tournament.slug)
        again = selectors.standings_page_state(slug=tournament.slug)
        status = selectors.standings_status(slug=tournament.slug)
    assert len(queries) == 3
    assert found is not None and again is not None and status is not None
    assert model_to_dict(found[0]) == model_to_dict(tournament)
    assert found[1] == again[1] == selectors.standings_state(tournament)
    assert found[1].snapshot_id is None and not found[1].finished
    assert (status["version"], status["snapshot"]) == (tournament.results_version, None)
    assert selectors.standings_page_state(slug="no-such-tournament") is None
    ran = ran_since(before)
    if connection.vendor == "postgresql":
        # The page's read also asks whether the last round is seated; the poll's does not.
        page = [n for s, n in ran.items() if "standingssnapshot" in s and "rounds_planned" in s]
        poll = [n for s, n in ran.items() if "standingssnapshot" in s and "rounds_planned" not in s]
        # Prepared: the page's read ran three times, the poll's once; plain: none did.
        assert (page, poll, len(ran)) == (([3], [1], 2) if prepared else ([], [], 0))


def test_the_standings_state_of_a_tournament_deleted_meanwhile_is_empty(kop_tournament):
    """A page that read its tournament just before a director deleted it gets no snapshot,
    not a server error."""
    gone = Tournament.objects.get(pk=kop_tournament.pk)
    Tournament.objects.filter(pk=gone.pk).delete()
    view = selectors.standings_view(tournament=gone, viewer_is_director=False, with_data=False)
    assert (view["snapshot"], view["finished"], view["deferred"]) == (None, False, False)
