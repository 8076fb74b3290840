"""What a game provides to the Django layer: four small parts, each for one kind of caller.

Vocabulary. A **game** (Kop, Baśka, Vint) is what a table session plays. Its package
(``scoring/games/kop/``, ``scoring/games/vint/``) knows how the facts a scorer typed become
an engine deal and a stored row, how a session's rows are scored (keyed by **seat** 1..4,
never by name), and which partials draw its pad and sheet. Its callers ask for one part:

* the **entry** (``Entry``): the pad's form, what the pad, a save's short answer and the
  preview show, and the paper pad (the views of ``scoring.views``);
* the **ledger** (``Ledger``): where the next deal goes, and a deal appended, corrected or
  voided as unsaved rows with the session's new **tally** (the running state a save scores
  against: Kop's seat totals, Vint's rubber so far); only the write path
  (``scoring.services``) calls it, and only it saves;
* the **sheet** (``Sheet``): the sheet and history pages, the JSON and CSV exports and a
  scoresheet read for import;
* the **results** (``Results``): what tournaments read -- the deals a round plans, how far a
  table has played and the four seats' results -- and the game's ranking **family**.

A deal's **slot** is where it stands in a session: ``(rubber, number)`` for Vint, ``(0,
number)`` for Kop and Baśka, which have no rubbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from django.db.models import Model, QuerySet

if TYPE_CHECKING:
    from scoring.models import DealHistory, TableSession

#: A deal's facts as the scoresheet format writes them (``scoring.engines.shapes``).
Facts = Mapping[str, Any]
#: A session's running state (``TableSession.tally``; each game types its own shape).
Tally = Mapping[str, Any]
#: What a template is drawn with.
Context = dict[str, Any]

# How many deals after the next one a pad names the dealer of (``upcoming_dealers``, a list
# of (deal number, seat, name)): the offline pad shows them as it queues deals.
UPCOMING_DEALERS = 12
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
        """ "7" for a Kop deal, "2.7" for deal 7 of rubber 2 (the deal URLs use it too)."""
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

    @property
    def over(self) -> bool:
        """More deals than planned (the director allowed more, or planned fewer later)."""
        return self.planned is not None and self.deals > self.planned

    @property
    def off_plan(self) -> bool:
        """More or fewer deals than planned: only a director accepts the table, with a
        reason, and the board flags it once accepted."""
        return self.planned is not None and self.deals != self.planned


@dataclass
class Writes:
    """What a change of a session's deals stores, unsaved: the ledger builds it, the write
    path (``scoring.services``) saves it with the deal's history row and the tally.

    ``deal`` is the deal appended (a new row: ``deal_fields`` None) or changed (its
    ``deal_fields`` are saved); None only for an imported sheet without deals.
    ``created`` are other new rows (Vint: a rubber's row), ``changed`` other rows with the
    fields to save (Vint: the later deals of a rubber, scored again); ``tally`` is the
    session's running state after the change."""

    deal: Any | None
    tally: Tally
    deal_fields: tuple[str, ...] | None = None
    created: list[Model] = field(default_factory=list)
    changed: list[tuple[Model, tuple[str, ...]]] = field(default_factory=list)


@dataclass(frozen=True)
class Imported:
    """A scoresheet read for import (``Sheet.read``): its players' names in seat order
    (1..4), its rule options, the deals it plans (None: as the game has it) and its deals,
    in play order, each with its slot, its facts (as a row keeps them) and whether it was
    struck out; ``parts`` are what each part of the session begins with (Vint: each
    rubber's seats and first dealer; Kop: none)."""

    names: Sequence[str]
    rules: Mapping[str, Any]
    planned_deals: int | None
    deals: Sequence[tuple[Slot, Facts, bool]]
    parts: Sequence[Mapping[str, Any]] = ()


class DealForm(Protocol):
    """The pad's form of a game (a Django form with ``EntryKeys``)."""

    is_bound: bool
    warnings: list[str]

    def __getitem__(self, name: str) -> Any: ...

    def deal_facts(self) -> dict[str, Any] | None:
        """The facts of a bound form, or None while it is incomplete or invalid."""
        ...

    def deal_extra(self) -> dict[str, Any]:
        """What a save needs besides the facts (Vint: the rubber seen, first dealer)."""
        ...

    def entry_keys(self) -> tuple[Slot | None, str]: ...

    def reason_given(self) -> str:
        """The reason a correction gives ("" without one)."""
        ...

    def confirmed(self) -> bool: ...

    def add_engine_errors(self, errors: Mapping[str, list[str]]) -> None: ...

    def field_errors(self, name: str) -> list[str]:
        """The messages shown beside the field ``name`` (the correction's reason)."""
        ...


@dataclass(frozen=True)
class PadTemplates:
    """The partials the one table page (``scoring/session.html``) and the one correction
    page (``scoring/deal_edit.html``) draw a game's pad with."""

    pad: str  # the pad: totals, the form and the newest deals (the save's whole answer)
    saved: str  # a save's short answer: the parts a new deal changes, swapped in by id
    preview: str  # what the deal on the pad would write
    edit: str  # the correction page's form
    aside: str  # what the table page's aside adds ("" for nothing)
    script: str  # the pad's script (static path)
    form_class: str  # the pad form's CSS classes


class PaperPad(Protocol):
    """A printable pad to score on paper, blank or with a session's players."""

    template: str

    def context(self, session: TableSession | None, code: str) -> Context: ...

    def blank_label(self, code: str) -> str:
        """The link to game ``code``'s blank pad, in words ("Print a blank Kop score pad")."""
        ...


class OptionFields(Protocol):
    """The fields the rule profile editor (``scoring.profile_forms``) offers for the options
    of a game's rules (``scoring.option_fields.DescribedOptions``)."""

    @property
    def names(self) -> tuple[str, ...]:
        """The fields' names."""
        ...

    def fields(self) -> dict[str, Any]:
        """The form fields, new for each form (name -> ``django.forms.Field``)."""
        ...

    def initial(self, options: dict[str, Any]) -> dict[str, Any]:
        """The fields' initial values from a stored profile's ``options``, taking the
        options they show out of it (the rest are kept as stored)."""
        ...

    def to_options(self, data: Mapping[str, Any], options: dict[str, Any]) -> None:
        """Put the filled fields (a form's cleaned ``data``) into ``options``."""
        ...

    def field_of(self, option: str) -> str:
        """The field that shows ``option``'s problems ("options": none, the whole form)."""
        ...


class Entry(Protocol):
    """The pad: the form a scorer fills in and what the pad shows."""

    templates: PadTemplates
    paper_pad: PaperPad | None  # the game's printable pad, if it has one
    option_fields: OptionFields  # the profile editor's fields for the game's options

    def form(self, session: TableSession, data: Any = None) -> DealForm: ...

    def form_for_deal(self, session: TableSession, row: Any) -> DealForm: ...

    def pad_context(
        self,
        session: TableSession,
        form: DealForm | None = None,
        *,
        editing: Any = None,
        whole_page: bool = True,
    ) -> Context:
        """What the pad shows for ``form`` (None: an empty one), or for the correction of
        the stored deal ``editing``; ``whole_page`` False draws the pad alone (a save's
        answer), which may read less."""
        ...

    def saved_context(
        self, session: TableSession, row: Any, before: Tally | None
    ) -> Context | None:
        """What a save's short answer shows after ``row`` was stored (the parts of the pad
        a new deal changes, the pad as the phone drew it being the table before this
        deal), or None when the pad must be drawn again (Vint: a new rubber seats the
        players elsewhere). ``before`` is the session's tally before the save
        (``session.tally`` is the one after)."""
        ...

    def preview_context(
        self, session: TableSession, form: DealForm, editing: Slot | None
    ) -> Context:
        """What the deal on the pad would write: appended, or in place of ``editing``."""
        ...


class Ledger(Protocol):
    """Where deals go and what a change stores, as unsaved rows (``Writes``)."""

    def tally_new(self) -> Tally:
        """The tally of a session without deals (``session_create`` stores it)."""
        ...

    def tally_compute(self, session: TableSession) -> Tally:
        """The tally from the session's stored rows, from scratch (imports, tests)."""
        ...

    def next_slot(self, session: TableSession) -> Slot | None:
        """Where the next deal goes (None: the session takes no more deals); read under
        the session's row lock, from its tally."""
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
        facts: Facts,
        *,
        entered_by: str,
        confirm_warnings: bool,
        extra: Mapping[str, Any],
    ) -> Writes:
        """``facts`` as the deal at ``slot`` (``next_slot``), scored against
        ``session.tally``; raise ``DealRejected`` or ``NeedsConfirmation``."""
        ...

    def correct(
        self, session: TableSession, row: Any, facts: Facts, *, confirm_warnings: bool
    ) -> Writes: ...

    def void(self, session: TableSession, row: Any) -> Writes: ...

    def imported(self, session: TableSession, sheet: Imported, *, entered_by: str) -> list[Writes]:
        """A scoresheet's deals (``Sheet.read``), struck-out ones in their places, as the
        rows that store them, in order: the last one's tally is the session's. Warnings
        count as confirmed (the deals were played and written down)."""
        ...

    def snapshot(self, row: Any) -> Mapping[str, Any]:
        """The deal's facts and result as the history keeps them."""
        ...

    def summary(self, row: Any) -> str:
        """The deal in one line for a person ("zolo, seat 2, 70 points: +90 ...")."""
        ...


@dataclass
class HistoryEntry:
    """One row of a table's history as its list shows it: the row, the deal's slot (None:
    a row about the whole table) and the deal before and after, in words."""

    row: DealHistory
    slot: Slot | None
    before: str
    after: str


class Sheet(Protocol):
    """The scoresheet: its page, the history, exports and a sheet read for import."""

    sheet_template: str  # the sheet's partial in ``scoring/sheet.html``
    page_class: str  # what the sheet page's CSS knows the game's sheet by ("": nothing)

    def sheet_context(self, session: TableSession) -> Context: ...

    def history(self, session: TableSession, slot: Slot | None = None) -> list[HistoryEntry]: ...

    def sheet_json(self, session: TableSession) -> Mapping[str, Any]:
        """The session as a scoresheet (``scoring.engines.shapes``) that re-imports."""
        ...

    def csv_rows(self, session: TableSession) -> list[list[Any]]: ...

    def read(self, data: Mapping[str, Any]) -> Imported:
        """A scoresheet of this game read for import (``SheetError``: every problem)."""
        ...


class Results(Protocol):
    """What tournaments read of a game's tables."""

    family: str  # games ranked alike share a family: "kop" (Kop, Baśka), "vint"

    def planned_deals(self, deals_per_round: int) -> int | None: ...

    def counted_deals(self, session_ids: Sequence[int]) -> dict[int, int]: ...

    def progress(self, sessions: Sequence[TableSession]) -> dict[int, TableProgress]: ...

    def seat_results(self, session_ids: SessionIds) -> dict[int, list[SeatResult]]:
        """Per session, the four seats' results (accepted or not: the caller filters)."""
        ...


@dataclass(frozen=True)
class Game:
    """A game as the registry holds it: its code (``TableSession.game``), its name, and
    its four parts."""

    code: str
    label: str
    entry: Entry
    ledger: Ledger
    sheet: Sheet
    results: Results
