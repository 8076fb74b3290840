"""``scoring.rows``: the save's statements written out once per model. What they store
and read must be what the ORM stores and reads, whatever the field (JSON, dates, defaults,
a foreign key, the tournament's one-to-one onto the session)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from scoring import services as scoring_services
from scoring.models import DealHistory, TableSeat, TableSession
from scoring.rows import reader, row_insert, row_locked, rows_where, rows_with, rows_write
from scoring.selectors import seat_players_along, sheet_players
from tests.factories import ClubFactory, PlayerFactory
from tests.strict_db import PostgresWouldRefuse
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_session(profiles):
    club = ClubFactory()
    # seated in another order than they were made: seat order is not id order
    players = [PlayerFactory(club=club) for _ in range(4)][::-1]
    return scoring_services.session_create(
        game="kop", profile_version=profiles["kop-koscian"].current, players=players
    )


def history(session: TableSession, **over) -> dict:
    return {
        "session": session,
        "rubber": 2,
        "deal_number": 7,
        "action": "created",
        "actor": "Zażółć gęślą jaźń",
        "phone": "p1",
        "seat": 3,
        "new": {"contract": "zolo", "payments": [3, -1, -1, -1], "ł": None},
        "submission_key": "abc",
        **over,
    }


def stored(row: DealHistory) -> dict:
    found = DealHistory.objects.get(pk=row.pk)
    values = model_to_dict(found)
    values.pop("id")
    return {**values, "has_time": found.at is not None}


def test_an_insert_stores_what_the_orm_stores(club_session):
    by_orm = DealHistory.objects.create(**history(club_session))
    written = row_insert(DealHistory(**history(club_session, submission_key="def")))
    assert written.pk is not None and written.pk != by_orm.pk
    assert not written._state.adding
    expected = {**stored(by_orm), "submission_key": "def"}
    assert stored(written) == expected
    assert expected["new"]["ł"] is None and expected["old"] is None  # JSON and a default


def test_the_locked_read_reads_what_the_orm_reads(club_session):
    club_session.tally = {"totals": [1, -1, 0, 0], "counted": 1, "last": 1}
    rows_write(updates=[(club_session, ["tally"])])
    by_orm = TableSession.objects.select_related("profile_version").get(pk=club_session.pk)
    with transaction.atomic():
        read = row_locked(TableSession, club_session.pk, related=("profile_version",))
    assert model_to_dict(read) == model_to_dict(by_orm)
    assert read.created_at == by_orm.created_at and read.tally["totals"] == [1, -1, 0, 0]
    with CaptureQueriesContext(connection) as ctx:
        assert read.profile_version == by_orm.profile_version
        assert read.profile_version.options == by_orm.profile_version.options
    assert ctx.captured_queries == []  # it came with the row


def test_the_one_to_one_onto_the_row_comes_with_it_or_is_known_absent(kop_table, club_session):
    with transaction.atomic(), CaptureQueriesContext(connection) as ctx:
        table = row_locked(TableSession, kop_table.session.pk, related=("round_table",))
        club = row_locked(TableSession, club_session.pk, related=("round_table",))
        assert table.round_table.pk == kop_table.pk
        assert table.round_table.session is table
        with pytest.raises(TableSession.round_table.RelatedObjectDoesNotExist):
            club.round_table  # noqa: B018
    assert len(ctx.captured_queries) == 2  # the two reads, nothing on access


def test_extra_columns_and_missing_rows(club_session):
    row_insert(DealHistory(**history(club_session)))
    table = connection.ops.quote_name(DealHistory._meta.db_table)
    extra = {
        "found": f"SELECT deal_number FROM {table} h WHERE h.session_id = t.id AND h.phone = %s"
    }
    with transaction.atomic():
        read = row_locked(TableSession, club_session.pk, extra=extra, extra_params=["p1"])
        none = row_locked(TableSession, club_session.pk, extra=extra, extra_params=["p2"])
        assert (read.found, none.found) == (7, None)
        for pk in (club_session.pk + 1000, 2**63):  # none, and beyond the column's range
            with pytest.raises(TableSession.DoesNotExist):
                row_locked(TableSession, pk)


def test_a_deferred_field_is_left_unread_and_the_others_read_as_the_orm_reads(kop_tournament):
    """The standings page reads its tournament without the imported seating plan (every
    round's tables): the plan is not in the statement, the other fields (a date among
    them, parsed on SQLite) are what the ORM reads."""
    Tournament.objects.filter(pk=kop_tournament.pk).update(seating_plan=[[[1, 2, 3, 4]]])
    with CaptureQueriesContext(connection) as queries:
        ((read, more),) = rows_with(
            Tournament, ("1 + 1",), "t.id = %s", [kop_tournament.pk], defer=("seating_plan",)
        )
    assert "seating_plan" not in queries[0]["sql"] and more == (2,)
    assert read.get_deferred_fields() == {"seating_plan"}
    orm = Tournament.objects.defer("seating_plan").get(pk=kop_tournament.pk)
    assert model_to_dict(read, exclude=["seating_plan"]) == model_to_dict(
        orm, exclude=["seating_plan"]
    )
    assert read.created_at == orm.created_at and read.created_at.tzinfo is not None
    assert read.seating_plan == [[[1, 2, 3, 4]]]  # read on first use, as the ORM would


def test_rows_brought_along_are_what_the_orm_reads_in_their_order(club_session, profiles):
    """The seats' players come with a save's locked read on PostgreSQL (one lateral join,
    an array per column), converted as the ORM converts them, in seat order; a session
    without seats brings none; SQLite brings nothing and ``sheet_players`` reads them."""
    seats = TableSeat.objects.filter(session=club_session).order_by("seat")
    by_orm = [s.player for s in seats.select_related("player")]
    empty = TableSession.objects.create(game="kop", profile_version=club_session.profile_version)
    with transaction.atomic():
        read = row_locked(TableSession, club_session.pk, along=seat_players_along())
        alone = row_locked(TableSession, empty.pk, along=seat_players_along())
        with CaptureQueriesContext(connection) as ctx:
            players = sheet_players(read)
        if connection.vendor != "postgresql":
            assert not hasattr(alone, "_sheet_players") and len(ctx.captured_queries) == 1
        else:
            assert ctx.captured_queries == [] and alone._sheet_players == []
    assert [model_to_dict(p) for p in players] == [model_to_dict(p) for p in by_orm]
    assert [p.created_at for p in players] == [p.created_at for p in by_orm]
    assert [p.pk for p in players] != sorted(p.pk for p in players)  # seat order, not id


def test_an_update_writes_the_fields_named_and_no_other(club_session):
    club_session.revision, club_session.title = 5, "changed here only"
    rows_write(updates=[(club_session, ["revision"])])
    club_session.refresh_from_db()
    assert (club_session.revision, club_session.title) == (5, "")
    assert rows_where(TableSession, "id = %s", [club_session.pk])[0].revision == 5


def test_a_hand_written_read_gives_what_the_orm_gives(club_session):
    """``reader``: a date column and an aggregate of it, as the database sends them (on
    SQLite text or naive), read into the ORM's aware values."""
    field = TableSession._meta.get_field("created_at")
    read = reader(field)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT created_at, (SELECT MAX(created_at) FROM scoring_tablesession) "
            "FROM scoring_tablesession WHERE id = %s",
            [club_session.pk],
        )
        column, aggregate = cursor.fetchone()
    by_orm = TableSession.objects.get(pk=club_session.pk).created_at
    assert read(column) == by_orm == read(aggregate)
    assert read(column).tzinfo is not None and read(None) is None


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
def test_a_saves_statements_are_kept_prepared(club_session, settings, prepared):
    """A save's locked read and its writes (one ``WITH`` on PostgreSQL) are kept prepared
    on the connection and run from there the next time; nothing is kept when it is off."""
    settings.DATABASE_PREPARED = prepared
    before = runs()
    for n in (1, 2):
        with transaction.atomic():
            session = row_locked(TableSession, club_session.pk)
            session.revision += 1
            rows_write(
                inserts=[DealHistory(**history(session, deal_number=n, submission_key=f"k{n}"))],
                updates=[(session, ["revision"])],
            )
    assert TableSession.objects.get(pk=club_session.pk).revision == club_session.revision + 2
    if connection.vendor == "postgresql":
        ran = ran_since(before)
        locked = [n for s, n in ran.items() if "FOR UPDATE" in s]
        written = [n for s, n in ran.items() if s.startswith("WITH")]
        assert (locked, written) == (([2], [2]) if prepared else ([], []))


def test_every_test_refuses_text_longer_than_its_column(club_session):
    """The suite's guard (``tests/conftest.py``): text too long for its column fails a test
    on SQLite too, whichever way it is written (a save, a bulk insert, a row written out)."""
    limit = DealHistory._meta.get_field("actor").max_length
    with pytest.raises(PostgresWouldRefuse):
        DealHistory.objects.create(**history(club_session, actor="x" * (limit + 1)))
    with pytest.raises(PostgresWouldRefuse):
        DealHistory.objects.bulk_create([DealHistory(**history(club_session, actor="x" * 999))])
    with pytest.raises(PostgresWouldRefuse):
        row_insert(DealHistory(**history(club_session, actor="x" * (limit + 1))))
    row_insert(DealHistory(**history(club_session, actor="x" * limit)))  # it fits
    assert DealHistory.objects.filter(session=club_session).count() == 1
