"""The game registry: one module per game behind one ``Game`` protocol.

Vocabulary. A **game** (Kop, Baśka, Vint) is what a table session plays. Its
module knows how the facts a scorer typed become an engine deal and a stored
row, how a session's rows are scored (keyed by **seat** 1..4, never by name),
and which templates show its pad and sheet. Everything else -- the write path
(``scoring.services``), the views, exports, the tournament standings, the
ratings -- asks the registry (``game_for``) and never tests the game itself.

A deal's **slot** is where it stands in a session: ``(rubber, number)`` for
Vint, ``(0, number)`` for Kop and Baśka, which have no rubbers.

Adding a game: one module here implementing ``Game`` and calling ``register``
(``ScoringConfig.ready`` imports the modules listed in ``GAME_MODULES``), its pure
engine in ``scoring/engines/``, its deal model and templates, and, if tournaments rank
it differently, a standings function in ``tournaments/standings.py`` keyed by the
game's ``family`` (and its ratings in ``tournaments/ratings.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from django.db.models import Count, Model, QuerySet

if TYPE_CHECKING:
    from scoring.models import TableSession

# Which sessions a read covers: their ids, or a query of one column yielding them (the
# database then reads it as a subquery: no list of thousands of ids goes over the wire).
SessionIds = Sequence[int] | QuerySet[Any, Any]


@dataclass(frozen=True, order=True)
class Slot:
    """Where a deal stands in its session: rubber (0 when the game has none) and number."""

    rubber: int
    number: int

    @property
    def label(self) -> str:
        """ "7" for a Kop deal, "2.7" for deal 7 of rubber 2."""
        return f"{self.rubber}.{self.number}" if self.rubber else str(self.number)

    @classmethod
    def parse(cls, text: str) -> Slot:
        rubber, _dot, number = text.rpartition(".")
        return cls(int(rubber or 0), int(number))


class SeatResult(NamedTuple):
    """A player's result at one table: points for the tournament and ratings.

    ``points`` are the small points (Kop: net payments; Vint: the session's column
    total), ``net`` what a Vint session's settlement gives (Kop: the points again),
    ``wins`` the rubbers won (Kop: 0). A named tuple: the standings of a 4,000-player
    event make 20,000 of them.
    """

    seat: int
    player_id: int
    points: int
    net: int
    wins: int = 0


@dataclass(frozen=True)
class TableProgress:
    """How far a table has played: counted deals, the planned number (if the game plans
    one), and whether it has played all it should (then it waits to be accepted)."""

    deals: int
    planned: int | None
    finished: bool


class Game(Protocol):
    """What a game module provides to the Django layer."""

    code: str  # "kop", "baska", "vint": TableSession.game
    label: str
    family: str  # games scored and ranked alike share a family: "kop" (Kop, Baśka), "vint"
    session_template: str
    sheet_template: str
    history_template: str
    edit_template: str
    aside_template: str  # what the table page's aside adds for this game ("" for nothing)
    paper_pad: bool  # a printable paper pad exists for the game

    @property
    def deal_model(self) -> type[Model]: ...  # read-only: each game names its own model class

    # ---------------------------------------------------------------- set-up
    def rules(self, session: TableSession) -> Any: ...

    def planned_deals(self, deals_per_round: int) -> int | None: ...

    # ----------------------------------------------------------------- entry
    def form(self, session: TableSession, data: Any = None, **kwargs: Any) -> Any: ...

    def form_facts(self, form: Any) -> dict[str, Any] | None:
        """The facts of a bound form, or None while it is incomplete or invalid."""
        ...

    def form_extra(self, form: Any) -> dict[str, Any]:
        """What a save needs besides the facts (Vint: the rubber seen, first dealer)."""
        ...

    def form_for_deal(self, session: TableSession, row: Any) -> Any: ...

    def pad_context(
        self, request: Any, session: TableSession, form: Any = None, *, editing: Any = None
    ) -> dict[str, Any]: ...

    def saved_context(
        self,
        request: Any,
        session: TableSession,
        row: Any,
        before: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """What a save's short answer shows after ``row`` was stored (the ``saved``
        partial of ``session_template``: the parts of the pad a new deal changes, the
        pad as the phone drew it being the table before this deal), or None when the pad
        must be drawn again (Vint: a new rubber seats the players elsewhere). ``before``
        is the session's tally before the save (``session.tally`` is the one after)."""
        ...

    def preview_context(self, request: Any, session: TableSession, form: Any) -> dict[str, Any]: ...

    preview_template: str

    # ----------------------------------------------------------------- write
    def next_slot(self, session: TableSession) -> Slot | None:
        """Where the next deal goes (None: the session takes no more deals); read under
        the session's row lock."""
        ...

    def closed_message(self, session: TableSession, extra: Mapping[str, Any]) -> str:
        """Why the session takes no more deals (when ``next_slot`` is None)."""
        ...

    def deal_at(self, session: TableSession, slot: Slot) -> Any | None: ...

    def slot_of(self, row: Any) -> Slot: ...

    def append(
        self,
        session: TableSession,
        slot: Slot,
        facts: Mapping[str, Any],
        *,
        entered_by: str,
        confirm_warnings: bool,
        extra: Mapping[str, Any],
    ) -> Any:
        """Score ``facts`` as the deal at ``slot``: its row, and the session's new tally
        set on ``session``; raise ``DealRejected`` or ``NeedsConfirmation`` (nothing
        written). The write path stores the row, unsaved here, with its history row and
        the tally (one statement on PostgreSQL)."""
        ...

    def correct(
        self, session: TableSession, row: Any, facts: Mapping[str, Any], *, confirm_warnings: bool
    ) -> None: ...

    def void(self, session: TableSession, row: Any) -> None: ...

    # ``append``, ``correct`` and ``void`` leave the session's new running state in
    # ``session.tally`` (the write path stores it); ``tally_compute`` is that state computed
    # from the stored rows from scratch, for imports, the data migration and the tests.
    def tally_compute(self, session: TableSession) -> Mapping[str, Any]: ...

    def tally_new(self) -> Mapping[str, Any]:
        """The tally of a session without deals (``session_create`` stores it)."""
        ...

    def snapshot(self, row: Any) -> Mapping[str, Any]:
        """The deal's facts and result as the history keeps them."""
        ...

    def summary(self, row: Any) -> str:
        """The deal in one line for a person ("zolo, seat 2, 70 points: +90 ...")."""
        ...

    # ----------------------------------------------------------------- read
    def seat_results(self, session_ids: SessionIds) -> dict[int, list[SeatResult]]:
        """Per session, the four seats' results (accepted or not: the caller filters)."""
        ...

    def counted_deals(self, session_ids: Sequence[int]) -> dict[int, int]: ...

    def progress(self, sessions: Sequence[TableSession]) -> dict[int, TableProgress]: ...

    def sheet_context(self, session: TableSession) -> dict[str, Any]: ...

    def history(self, session: TableSession, slot: Slot | None = None) -> list[Any]: ...

    def sheet_json(self, session: TableSession) -> Mapping[str, Any]:
        """The session as a scoresheet (``scoring.engines.shapes``) that re-imports."""
        ...

    def csv_rows(self, session: TableSession) -> list[list[Any]]: ...

    def import_sheet(self, data: Mapping[str, Any], *, user: Any, title: str) -> TableSession: ...


class GameBase:
    """What every game's module does the same way (the protocol's shared parts)."""

    deal_model: type[Model]

    def counted_deals(self, session_ids: Sequence[int]) -> dict[int, int]:
        """Per session, its deals that count (not voided): one grouped query."""
        return dict(
            self.deal_model.objects.filter(  # type: ignore[attr-defined]
                session_id__in=session_ids, voided=False
            )
            .values("session_id")
            .annotate(n=Count("pk"))
            .values_list("session_id", "n")
        )


GAME_MODULES = ("scoring.games.kop", "scoring.games.vint")
_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.code] = game
    return game


def game_for(code: str) -> Game:
    """The game module for ``code`` (``KeyError`` for an unknown game)."""
    return _GAMES[code]


def game_of(session: TableSession) -> Game:
    return game_for(session.game)


def all_games() -> list[Game]:
    return list(_GAMES.values())


def game_choices() -> list[tuple[str, str]]:
    return [(g.code, g.label) for g in all_games()]


def slot_of(row: Any) -> Slot:
    """A stored deal's slot, whatever its game."""
    return game_of(row.session).slot_of(row)
