"""The running tally every write keeps (``TableSession.tally``: what the pad and the
standings read instead of the deal rows).

It must equal the one computed from the rows from scratch, whatever the order of records,
corrections and voids (a hypothesis property), after an import, and after the migration
that filled in what older tallies lacked; the Vint pad's board drawn from it must show
what the whole board shows. (What a save costs in statements: ``tests/config/
test_statements.py``.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import imports
from scoring import services as scoring_services
from scoring.errors import DealRejected, NeedsConfirmation
from scoring.games import game_of
from scoring.games.interface import Slot
from scoring.games.vint.board import vint_pad_board, vint_scoreboard
from scoring.models import TableSession
from tests.actors import home_club
from tests.factories import TableSessionFactory

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
SHEET = Path(__file__).parent.parent / "fixtures" / "sheets" / "vint_session.json"
VINT_FACTS = [d for r in json.loads(SHEET.read_text())["rubbers"] for d in r["deals"]]


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
        session = TableSessionFactory(game=game, profile=slug)
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
    session = imports.session_import_sheet(data=data, user=director, club=home_club())
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
    session = TableSessionFactory(game="vint")
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
    rubbers' seat totals) are computed again from the rows by migration 0014 (0010's,
    moved): saves and the pad read only the tally."""
    import importlib

    from django.apps import apps

    session = TableSessionFactory(game="vint")
    for facts in [*SIX[0]["deals"], SIX[1]["deals"][0]]:
        scoring_services.deal_record(
            session=session, facts=facts, actor=ACTOR, confirm_warnings=True
        )
    session.refresh_from_db()
    whole = dict(session.tally)
    old = {k: v for k, v in whole.items() if k not in missing}
    TableSession.objects.filter(pk=session.pk).update(tally=old)
    migration = importlib.import_module("scoring.migrations.0014_tallies_on_the_current_schema")
    migration.tallies_compute(apps, None)
    session.refresh_from_db()
    assert session.tally == whole
    assert len(whole["done"]) == 1 and whole["sums"] != [0, 0, 0, 0]
    scoring_services.deal_record(
        session=session, facts=SIX[1]["deals"][1], actor=ACTOR, confirm_warnings=True
    )
    _pad_equals_full_board(session)
