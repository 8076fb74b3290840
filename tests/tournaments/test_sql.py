"""``tournaments.sql``: the app's hand-written statements read what the ORM reads. (That
the public standings page's read and poll are kept prepared on PostgreSQL, counted:
``tests/config/test_statements.py``.)"""

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


def test_the_standings_state_of_a_tournament_deleted_meanwhile_is_empty(kop_tournament):
    """A page that read its tournament just before a director deleted it gets no snapshot,
    not a server error."""
    gone = Tournament.objects.get(pk=kop_tournament.pk)
    Tournament.objects.filter(pk=gone.pk).delete()
    view = selectors.standings_view(tournament=gone, viewer_is_director=False, with_data=False)
    assert (view["snapshot"], view["finished"], view["deferred"]) == (None, False, False)
