"""A Vint save scores its deal against the tally the session keeps (the rubber's state,
side sums and seats), and its short answer is drawn from the tallies before and after
the save without reading a deal. Under any combination of the §7 options and any deals
(hypothesis), with voids mixed in (they rebuild the tally from the rows), what the short
answer shows must equal what the whole board shows, every rubber replayed from the
stored rows: the rubber's totals, status and next deal, the new deal's row and the
session's standings.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.engines.vint import VintDeal, VintRules, deal_problems, rules_to_options
from scoring.engines.vint_sheet import deal_to_json
from scoring.errors import DealRejected, NeedsConfirmation
from scoring.games import game_of
from scoring.games.interface import Slot
from scoring.games.vint.board import DealRow, RubberView, vint_scoreboard
from scoring.models import TableSession
from tests.engines.test_vint_properties import deals, rules
from tests.factories import RuleProfileVersionFactory, TableSessionFactory

pytestmark = pytest.mark.django_db

ACTOR = services.Actor(label="phone", phone="p1", seat=1)
NAMES = itertools.count()


@st.composite
def table_deal(draw: st.DrawFn, chosen: VintRules) -> VintDeal:
    """A deal under ``chosen``, its contract made three times in four (so that games,
    rubbers and extra deals come often)."""
    deal = draw(deals(chosen))
    contract = deal.contract
    if contract is None or contract.is_misere or draw(st.integers(0, 3)) == 0:
        return deal
    tricks = min(13, contract.level + 6 + draw(st.integers(0, 1)))
    made = dataclasses.replace(deal, declarer_tricks=tricks)
    return deal if deal_problems(made, chosen) else made


@st.composite
def plays(draw: st.DrawFn):
    """Options, and what the table does: record a deal, or void an earlier one."""
    chosen = draw(rules())
    # mostly records, so that rubbers are won and sessions reach their later rubbers
    op = st.tuples(st.integers(0, 7), table_deal(chosen), st.integers(0, 99)).map(
        lambda t: ("void", t[2]) if t[0] == 0 else ("record", t[1])
    )
    return chosen, draw(st.lists(op, min_size=20, max_size=50))


def _view(rubber: RubberView) -> dict[str, object]:
    """What the pad shows of a rubber (its heading, totals and next deal)."""
    names = (
        "number started seats names first_dealer counted next_number next_dealer "
        "next_phase status column_totals partners"
    )
    return {
        # all but the deals' outcomes (a tally keeps none)
        "result": dataclasses.replace(rubber.result, outcomes=()),
        **{name: getattr(rubber, name) for name in names.split()},
    }


def _row(row: DealRow) -> dict[str, object]:
    return {**{k: v for k, v in vars(row).items() if k != "deal"}, "deal": row.deal.pk}


def _standings(board) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(s.seat, s.total, s.net, s.place) for s in board.standings]


# Long tables of deals drawn with retries: slow to draw, and sometimes given up on.
PROPERTY = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)


@dataclasses.dataclass
class Saved:
    """A deal the table saved: what was stored, the session as the save's lock-and-read
    left it (with its rule profile), the short answer drawn from it (None: the whole
    pad) and the statements that drawing sent."""

    stored: services.Stored
    session: TableSession
    short: dict | None
    read: CaptureQueriesContext


def replay(case, check: Callable[[Saved], None]) -> None:
    """Play ``case`` (``plays()``) at a new Vint table on its options, ``check`` each
    deal saved; everything is rolled back after."""
    chosen, ops = case
    with transaction.atomic():
        version = RuleProfileVersionFactory(
            profile__slug=f"vint-{next(NAMES)}",
            profile__game="vint",
            options=rules_to_options(chosen),
        )
        session = TableSessionFactory(game="vint", profile_version=version)
        game = game_of(session)
        slots: list[Slot] = []
        for op, arg in ops:
            session = TableSession.objects.get(pk=session.pk)
            try:
                if op == "void":
                    if slots:
                        services.deal_void(
                            session=session,
                            slot=slots[arg % len(slots)],
                            actor=ACTOR,
                            reason="misdeal",
                        )
                    continue
                stored = services.deal_record(
                    session=session, facts=deal_to_json(arg), actor=ACTOR, confirm_warnings=True
                )
            except (DealRejected, NeedsConfirmation):
                continue  # refused (the session is over, a void would end a rubber early)
            slots.append(stored.slot)
            # as the save's lock-and-read left it: with its rule profile
            session = TableSession.objects.select_related("profile_version").get(pk=session.pk)
            with CaptureQueriesContext(connection) as read:
                short = game.entry.saved_context(session, stored.row, stored.before)
            check(Saved(stored, session, short, read))
        transaction.set_rollback(True)


def _equals_the_whole_board(saved: Saved) -> None:
    full = vint_scoreboard(session=saved.session)
    current = full.current
    # The pad is drawn again when the rubber ended with this deal or began with it.
    whole_pad = current is None or current.number != saved.stored.slot.rubber or current.counted < 2
    assert (saved.short is None) == whole_pad
    if saved.short is None:
        return
    assert current is not None
    assert _view(saved.short["rubber"]) == _view(current)
    assert _row(saved.short["new_row"]) == _row(current.rows[-1])
    assert _standings(saved.short["board"]) == _standings(full)
    assert saved.short["next_slot"] == Slot(current.number, current.next_number)


@PROPERTY
@given(case=plays())
def test_the_short_answer_from_the_tallies_equals_the_whole_board(profiles, case):
    """What it reads to draw the answer (the players only) is counted in
    ``tests/config/test_statements.py``, over cases drawn alike."""
    replay(case, _equals_the_whole_board)
