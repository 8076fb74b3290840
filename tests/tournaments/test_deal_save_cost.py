"""What a deal save costs in statements, and the running tally it keeps.

A save is five statements in scoring, through Django's ORM: the session locked and read
with its rule profile, the slot its submission key stored looked up under that lock, the
deal, its history row and the session's tally; plus one for a tournament table (the results
version, found and counted in one statement). The django tier runs this on SQLite and the
integration tier on PostgreSQL. From the pad the same locked read serves the view too (no
read of the session before it), and the pad it answers with reads the newest rows and the
seats' players, and nothing but the players for the short answer a pad drawn empty asks for
(the new row comes from the save): the number of statements is asserted, so that one more
fails. The tally every write keeps must equal the one computed from the rows from scratch,
whatever the order of records, corrections and voids (a hypothesis property).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import imports
from scoring import services as scoring_services
from scoring.errors import DealRejected, NeedsConfirmation
from scoring.games import game_of
from scoring.games.interface import Slot
from scoring.games.vint.board import vint_pad_board, vint_scoreboard
from scoring.models import TableSession
from tests.actors import phone
from tests.factories import ClubFactory, PlayerFactory
from tests.scoring.test_vint_entry import RUBBER_1 as VINT_FORMS
from tournaments import services

pytestmark = pytest.mark.django_db

ACTOR = scoring_services.Actor(label="phone", phone="p1", seat=1)
KOP_FACTS = [
    {"contract": "normal", "declarers": [1, 3], "doublings": 1, "declarer_points": 60},
    # a defender doubles, the soloist redoubles: not first, which Kościan allows (R5) but
    # its "never" (soloist_doubling) warns of; the defenders' kontra alone keeps it quiet
    {"contract": "zolo", "declarers": [2], "doubling_seats": [1], "declarer_points": 28},
    {"contract": "cicha", "declarers": [4], "doublings": 0, "declarer_points": 70},
    {"contract": "normal", "declarers": [2, 4], "doublings": 0, "declarer_points": 40},
]
KOP_FORM = {
    "contract": "normal",
    "declarers": ["1", "3"],
    "doublings": "1",
    "declarer_points": "60",
}
SHEET = Path(__file__).parent.parent / "fixtures" / "sheets" / "vint_session.json"
VINT_FACTS = [d for r in json.loads(SHEET.read_text())["rubbers"] for d in r["deals"]]


def statements(ctx: CaptureQueriesContext) -> list[str]:
    """The statements a save sent (savepoints are the test's transaction, not the save's)."""
    return [
        q["sql"]
        for q in ctx.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]


@pytest.fixture
def vint_table(profiles, club, director):
    tournament = services.tournament_create(
        name="Vint night",
        game="vint",
        profile_version=profiles["vint"].current,
        rounds=1,
        club=club,
        seed=3,
        created_by=director,
    )
    for i in range(1, 5):
        entry = services.registration_add(
            tournament=tournament, player=PlayerFactory(club=club, number=i)
        )
        services.registration_check_in(registration=entry)
    round_ = services.round_generate(tournament=tournament)
    return round_.tables.select_related("session").first()


def save(session: TableSession, facts: dict, key: str, **extra) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        stored = scoring_services.deal_record(
            session=session, facts=facts, actor=ACTOR, submission_key=key, extra=extra
        )
    assert not stored.replayed
    return statements(ctx)


# The submission key's slot, looked up once the session is locked (a save of the same
# form that got the lock first is seen); then the deal, its history row and the tally.
KEY = "SELECT the slot the submission key stored"
WRITES = ["INSERT the deal", "INSERT its history row", "UPDATE the session's tally"]


def test_a_kop_save_is_the_lock_the_writes_and_the_version(kop_table):
    session = kop_table.session
    version = kop_table.round.tournament.results_version
    save(session, KOP_FACTS[0], "k0")
    sent = save(session, KOP_FACTS[1], "k1")
    assert len(sent) == 1 + 1 + len(WRITES) + 1, "\n".join(sent)
    assert "FOR UPDATE" in sent[0] or connection.vendor == "sqlite"
    assert "submission_key" in sent[1]  # the key looked up under the lock
    session.refresh_from_db()
    assert session.tally == game_of(session).ledger.tally_compute(session)
    assert session.tally["counted"] == 2 and session.tally["last"] == 2
    kop_table.round.tournament.refresh_from_db()
    assert kop_table.round.tournament.results_version == version + 2


def test_a_vint_save_is_the_same_and_the_rubbers_row_when_it_opens_one(vint_table):
    session = vint_table.session
    first = save(session, VINT_FACTS[0], "v0", rubber=1)
    assert len(first) == 1 + 1 + 1 + len(WRITES) + 1, "\n".join(first)  # + the rubber's row
    sent = save(session, VINT_FACTS[1], "v1", rubber=1)
    assert len(sent) == 1 + 1 + len(WRITES) + 1, "\n".join(sent)
    session.refresh_from_db()
    assert session.tally == game_of(session).ledger.tally_compute(session)


def test_a_replayed_submission_is_found_by_the_locked_read(kop_table):
    session = kop_table.session
    save(session, KOP_FACTS[0], "same")
    with CaptureQueriesContext(connection) as ctx:
        stored = scoring_services.deal_record(
            session=session,
            facts=KOP_FACTS[0],
            actor=ACTOR,
            submission_key="same",
            expected=Slot(0, 1),
        )
    assert stored.replayed and stored.slot == Slot(0, 1)
    assert len(statements(ctx)) == 3  # the locked read, the key's slot, the deal it names


# The pad's save, form post to the htmx answer, at a tournament table: every statement it
# sends, in order. The test runs in a transaction, so the save's own transaction shows as
# a savepoint; in production the same two are BEGIN and COMMIT.
PLAYERS = ["the four seats' players"]
KOP_SAVE_STATEMENTS = [
    "the phone's grant (django_session), read once, before the lock",
    "SAVEPOINT",  # BEGIN
    "lock-and-read the session with its profile and its tournament table",
    KEY,
    *WRITES,
    "UPDATE the tournament's results version (table_changed)",
    "RELEASE SAVEPOINT",  # COMMIT
    "the pad's newest rows",
    *PLAYERS,
]
# Vint: the same, but the pad shows the rubber being played, so it reads its deals for
# its rows (its totals, seats and first dealer are in the tally, and so are the finished
# rubbers' seat totals).
AFTER_COMMIT = KOP_SAVE_STATEMENTS.index("RELEASE SAVEPOINT") + 1
VINT_SAVE_STATEMENTS = [
    *KOP_SAVE_STATEMENTS[:AFTER_COMMIT],
    *PLAYERS,
    "the current rubber's deals",
]


def _pad_post(client, url: str, data: dict, slot: Slot):  # type: ignore[no-untyped-def]
    """The pad's form as a phone sends it: the slot it expects to create, a fresh key."""
    keys = {
        "expected_number": str(slot.number),
        "submission_key": f"key-{slot.rubber}-{slot.number}-0123456789",
    }
    response = client.post(url, {**data, **keys}, headers={"HX-Request": "true"})
    assert response["X-Deal-Outcome"] == "saved", response.content[:500]
    return response


def test_a_kop_save_from_the_pad_sends_these_statements(kop_table, django_assert_num_queries):
    session = kop_table.session
    client = phone(session, seat=1)
    url = f"/sessions/{session.pk}/deals/"
    _pad_post(client, url, KOP_FORM, Slot(0, 1))
    with django_assert_num_queries(len(KOP_SAVE_STATEMENTS)) as ctx:
        response = _pad_post(client, url, KOP_FORM, Slot(0, 2))
    sent = [q["sql"] for q in ctx.captured_queries]
    assert "FOR UPDATE" in sent[2] or connection.vendor == "sqlite"
    assert "submission_key" in sent[3]  # the key looked up under the lock
    assert not any("SUM(" in s or "COUNT(" in s for s in sent)
    html = response.content.decode()
    assert 'id="pad"' in html and "<html" not in html
    session.refresh_from_db()
    for total in session.tally["totals"]:
        assert f">{total:+d}<" in html or f">{total}<" in html


# A pad drawn empty asks for the short answer: after the first deal the new row comes
# from the save itself, so the answer reads the seats' players only.
KOP_SHORT_STATEMENTS = [*KOP_SAVE_STATEMENTS[:AFTER_COMMIT], *PLAYERS]


def test_a_kop_save_answered_short_reads_the_seats_only(kop_table, django_assert_num_queries):
    session = kop_table.session
    client = phone(session, seat=1)
    url = f"/sessions/{session.pk}/deals/"
    _pad_post(client, url, KOP_FORM, Slot(0, 1))
    short = {**KOP_FORM, "pad_answer": "short", "pad_revision": "1"}
    with django_assert_num_queries(len(KOP_SHORT_STATEMENTS)) as ctx:
        response = _pad_post(client, url, short, Slot(0, 2))
    assert response["X-Pad-Answer"] == "short"
    assert not any("ORDER BY number DESC" in q["sql"] for q in ctx.captured_queries)


def test_a_club_session_save_from_the_pad_tells_no_tournament(profiles, django_assert_num_queries):
    club = ClubFactory()
    session = scoring_services.session_create(
        game="kop",
        profile_version=profiles["kop-koscian"].current,
        players=[PlayerFactory(club=club) for _ in range(4)],
    )
    client = phone(session, seat=1)
    url = f"/sessions/{session.pk}/deals/"
    _pad_post(client, url, KOP_FORM, Slot(0, 1))
    statements = [s for s in KOP_SAVE_STATEMENTS if "results version" not in s]
    with django_assert_num_queries(len(statements)) as ctx:
        _pad_post(client, url, KOP_FORM, Slot(0, 2))
    assert not any("results_version" in q["sql"] for q in ctx.captured_queries)


def test_a_vint_save_from_the_pad_sends_these_statements(vint_table, django_assert_num_queries):
    session = vint_table.session
    client = phone(session, seat=1)
    url = f"/sessions/{session.pk}/deals/"
    _pad_post(client, url, {"rubber": "1", **VINT_FORMS[0]}, Slot(1, 1))
    with django_assert_num_queries(len(VINT_SAVE_STATEMENTS)) as ctx:
        response = _pad_post(client, url, {"rubber": "1", **VINT_FORMS[1]}, Slot(1, 2))
    assert "submission_key" in ctx.captured_queries[3]["sql"]
    assert re.search(r"\"rubber\" = 1\b", ctx.captured_queries[-1]["sql"])  # rubber 1 only
    assert response["X-Deal-Number"] == "1.2"
    assert 'id="pad"' in response.content.decode()


def test_a_vint_save_answered_short_reads_the_seats_only(vint_table, django_assert_num_queries):
    """The short answer is scored from the tallies before and after the save: no deal and
    no rubber row is read (``tests/scoring/test_vint_tally_answer.py`` checks what it
    shows against the whole board)."""
    session = vint_table.session
    client = phone(session, seat=1)
    url = f"/sessions/{session.pk}/deals/"
    _pad_post(client, url, {"rubber": "1", **VINT_FORMS[0]}, Slot(1, 1))
    short = {"rubber": "1", **VINT_FORMS[1], "pad_answer": "short", "pad_revision": "1"}
    with django_assert_num_queries(len(KOP_SHORT_STATEMENTS)) as ctx:
        response = _pad_post(client, url, short, Slot(1, 2))
    assert response["X-Pad-Answer"] == "short"
    reads = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT")]
    assert not any("vintdeal" in sql or "vintrubber" in sql for sql in reads)


# ----------------------------------------------------------------- the tally property

OPS = st.lists(
    st.one_of(
        st.tuples(st.just("record"), st.integers(0, 99), st.integers(0, 99)),
        st.tuples(st.just("correct"), st.integers(0, 99), st.integers(0, 99)),
        st.tuples(st.just("void"), st.integers(0, 99), st.integers(0, 99)),
    ),
    max_size=25,
)


def _run(session: TableSession, ops, pool) -> None:
    game = game_of(session)
    slots: list[Slot] = []
    for op, a, b in ops:
        session = TableSession.objects.get(pk=session.pk)
        try:
            if op == "record":
                stored = scoring_services.deal_record(
                    session=session, facts=pool[a % len(pool)], actor=ACTOR, confirm_warnings=True
                )
                slots.append(stored.slot)
            elif slots and op == "correct":
                scoring_services.deal_correct(
                    session=session,
                    slot=slots[a % len(slots)],
                    facts=pool[b % len(pool)],
                    actor=ACTOR,
                    reason="typo",
                    confirm_warnings=True,
                )
            elif slots:
                scoring_services.deal_void(
                    session=session, slot=slots[a % len(slots)], actor=ACTOR, reason="misdeal"
                )
        except (DealRejected, NeedsConfirmation):
            pass  # refused: nothing written, and the tally must not have moved either
        session.refresh_from_db()
        assert session.tally == dict(game.ledger.tally_compute(session)), (op, a, b)


PROPERTY = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _property(profiles, game: str, slug: str, pool, ops) -> None:
    with transaction.atomic():
        club = ClubFactory()
        session = scoring_services.session_create(
            game=game,
            profile_version=profiles[slug].current,
            players=[PlayerFactory(club=club) for _ in range(4)],
        )
        _run(session, ops, pool)
        transaction.set_rollback(True)


@PROPERTY
@given(ops=OPS)
def test_the_kop_tally_equals_a_recomputation_after_any_changes(profiles, ops):
    _property(profiles, "kop", "kop-koscian", KOP_FACTS, ops)


@PROPERTY
@given(ops=OPS)
def test_the_vint_tally_equals_a_recomputation_after_any_changes(profiles, ops):
    _property(profiles, "vint", "vint", VINT_FACTS, ops)


@pytest.mark.parametrize("name", ["kop_format_example.json", "vint_session.json"])
def test_an_imported_sheet_comes_with_its_tally(profiles, director, name):
    data = json.loads((SHEET.parent / name).read_text())
    session = imports.session_import_sheet(data=data, user=director)
    session.refresh_from_db()
    assert session.tally
    assert session.tally == dict(game_of(session).ledger.tally_compute(session))


# ------------------------------------------------- the pad's board from the stored tally

SIX = json.loads(SHEET.read_text())["rubbers"]  # vint.md §6: three rubbers, 9 + 9 + 7 deals


def _pad_equals_full_board(session: TableSession) -> None:
    """The tally a save kept equals one computed from the rows, and the pad's board (the
    current rubber over the stored seat totals of those before it) shows what the whole
    board shows: the session's standings and the current rubber."""
    session.refresh_from_db()
    assert session.tally == dict(game_of(session).ledger.tally_compute(session))
    full = vint_scoreboard(session=session)
    pad = vint_pad_board(session=session)
    assert [(s.seat, s.total, s.net, s.place) for s in pad.standings] == [
        (s.seat, s.total, s.net, s.place) for s in full.standings
    ]
    if full.current is None:
        assert pad.current is None
        return
    assert pad.current is not None
    for attribute in ("number", "started", "first_dealer", "next_number", "column_totals"):
        assert getattr(pad.current, attribute) == getattr(full.current, attribute), attribute
    assert pad.current.status == full.current.status


def test_the_pads_board_from_the_tally_equals_the_whole_board_over_section_6(profiles):
    club = ClubFactory()
    session = scoring_services.session_create(
        game="vint",
        profile_version=profiles["vint"].current,
        players=[PlayerFactory(club=club) for _ in range(4)],
    )
    _pad_equals_full_board(session)
    for number, rubber in enumerate(SIX, 1):
        for facts in rubber["deals"]:
            stored = scoring_services.deal_record(
                session=session, facts=facts, actor=ACTOR, confirm_warnings=True
            )
            assert stored.slot.rubber == number
            _pad_equals_full_board(session)
        if number < len(SIX):  # the rubber ended: its seat totals joined the tally
            assert len(session.tally["done"]) == number
    # Corrections and voids rebuild the tally from the rows; saves go on from it.
    changes = 0
    for op, slot, facts in [
        ("correct", Slot(1, 2), SIX[0]["deals"][5]),
        ("void", Slot(1, 3), None),
        ("correct", Slot(2, 1), SIX[1]["deals"][4]),
        ("void", Slot(3, 7), None),
        ("record", None, SIX[2]["deals"][6]),
        ("void", Slot(3, 2), None),
        ("record", None, SIX[2]["deals"][0]),
    ]:
        try:
            if op == "correct":
                scoring_services.deal_correct(
                    session=session,
                    slot=slot,
                    facts=facts,
                    actor=ACTOR,
                    reason="typo",
                    confirm_warnings=True,
                )
            elif op == "void":
                scoring_services.deal_void(
                    session=session, slot=slot, actor=ACTOR, reason="misdeal"
                )
            else:
                scoring_services.deal_record(
                    session=session, facts=facts, actor=ACTOR, confirm_warnings=True
                )
            changes += 1
        except (DealRejected, NeedsConfirmation):
            pass  # refused: nothing written
        _pad_equals_full_board(session)
    assert changes >= 5


@pytest.mark.parametrize("missing", [("done", "sums", "seats"), ("sums", "seats")])
def test_the_migration_fills_in_a_vint_tally_kept_before_it_kept_the_rubbers_sums(
    profiles, missing
):
    """Tallies stored before they kept the rubber's side sums and seats (or the earlier
    rubbers' seat totals) are computed again from the rows by migration 0010: saves and
    the pad read only the tally."""
    import importlib

    from django.apps import apps

    club = ClubFactory()
    session = scoring_services.session_create(
        game="vint",
        profile_version=profiles["vint"].current,
        players=[PlayerFactory(club=club) for _ in range(4)],
    )
    for facts in [*SIX[0]["deals"], SIX[1]["deals"][0]]:
        scoring_services.deal_record(
            session=session, facts=facts, actor=ACTOR, confirm_warnings=True
        )
    session.refresh_from_db()
    whole = dict(session.tally)
    old = {k: v for k, v in whole.items() if k not in missing}
    TableSession.objects.filter(pk=session.pk).update(tally=old)
    migration = importlib.import_module("scoring.migrations.0010_vint_tally_sums")
    migration.tally_refill(apps, None)
    session.refresh_from_db()
    assert session.tally == whole
    assert len(whole["done"]) == 1 and whole["sums"] != [0, 0, 0, 0]
    scoring_services.deal_record(
        session=session, facts=SIX[1]["deals"][1], actor=ACTOR, confirm_warnings=True
    )
    _pad_equals_full_board(session)
