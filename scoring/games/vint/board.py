"""A Vint session's rubbers as the pad and the sheet show them (``VintBoard``): each rubber's
deals as sheet rows, its four columns above and below the line, its totals, and the
session's standings (the package's docstring has the vocabulary).

Deals that are voided keep their number and their place: they score nothing,
but they pass the deal like any other, so the dealer of every later deal stays
as it was (exactly as on an exported sheet, which writes a voided deal in its
place with ``"voided": true``).

A rubber's first dealer is N for rubber 1 and, by default, the seat after the
last dealer of the previous rubber (the scorer may pick another before the
rubber's first deal is saved).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypedDict

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scoring.engines import vint
from scoring.engines.ranks import by_key, rank
from scoring.games.vint.deals import (
    RUBBERS,
    SEAT_SIDE,
    deal_from_facts,
    seats_of,
    standard_seats,
    vint_rules_for,
)
from scoring.games.vint.labels import contract_label, doubling_label, entry_label, item_label
from scoring.games.vint.models import VintDeal, VintRubber
from scoring.selectors import sheet_players

if TYPE_CHECKING:
    from scoring.models import TableSession

_MULTIPLIER = {0: 1, 1: 2, 2: 4}


@dataclass(frozen=True)
class Item:
    points: int
    label: str
    kind: str


class _DealHeading(TypedDict):
    """The part of a ``DealRow`` that a voided deal shows too."""

    deal: VintDeal
    contract: str
    declarer_name: str
    doubling: str


@dataclass
class DealRow:
    """One deal of a rubber as the sheet shows it."""

    deal: VintDeal
    position: int  # 1-based among counted deals; 0 when voided
    dealer: str  # seat (a voided deal was dealt too: it keeps its place)
    dealer_name: str
    contract: str
    declarer_name: str
    doubling: str
    result: str
    above: dict[str, int] = field(default_factory=dict)
    below: dict[str, int] = field(default_factory=dict)
    items_above: dict[str, list[Item]] = field(default_factory=dict)
    items_below: dict[str, list[Item]] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    game_notes: list[str] = field(default_factory=list)
    phase: str = "main"
    extra_deal: int = 0
    running: dict[str, int] = field(default_factory=dict)  # side totals after the deal

    @property
    def line(self) -> bool:
        return bool(self.game_notes)

    @property
    def phase_label(self) -> str:
        if self.deal.voided:
            return _("voided")
        if self.phase == "extra":
            return _("extra deal %(n)s of 4") % {"n": self.extra_deal}
        return _("main")


@dataclass
class SheetLine:
    """One row of the four-column sheet: a deal's entries in each player's column."""

    label: str
    cells: list[list[Item]]  # N, E, S, W
    note: str = ""
    line: bool = False
    extra: str = ""


@dataclass
class RubberView:
    number: int
    started: bool
    seats: dict[str, int]  # seat -> TableSeat number
    names: dict[str, str]  # seat -> player name
    first_dealer: str
    deals: Sequence[VintDeal]
    rules: vint.VintRules
    result: vint.RubberResult
    player_totals: dict[int, int]  # table seat (1..4) -> column total
    counted: int
    dealt: int  # deals so far, voided ones too (numbered 1..dealt)

    @cached_property
    def rows(self) -> list[DealRow]:
        """The deals as the sheet shows them (built only for the rubbers a page shows;
        none in a view from the tally made without its deals, ``rubber_from_tally``)."""
        return _deal_rows(self.deals, self.names, self.first_dealer, self.rules)

    @property
    def columns(self) -> list[tuple[str, str]]:
        return [(seat, self.names[seat]) for seat in vint.SEATS]

    @property
    def short_columns(self) -> list[tuple[str, str, str]]:
        """(seat, first name, full name): the sheet's narrow column heads on a phone."""
        first = {
            seat: name.split()[0] if name.split() else name for seat, name in self.names.items()
        }
        unique = len(set(first.values())) == 4
        return [(s, first[s] if unique else self.names[s], self.names[s]) for s in vint.SEATS]

    @property
    def partners(self) -> dict[str, str]:
        return {
            "NS": f"{self.names['N']} + {self.names['S']}",
            "EW": f"{self.names['E']} + {self.names['W']}",
        }

    @property
    def state(self) -> vint.RubberState:
        return self.result.state

    @property
    def finished(self) -> bool:
        return self.result.finished

    @property
    def next_number(self) -> int:
        return self.dealt + 1

    @property
    def next_dealer(self) -> str:
        # Voided deals keep their places in the rotation.
        return vint.dealer_of(self.first_dealer, self.dealt + 1)  # type: ignore[arg-type]

    @property
    def last_dealer(self) -> str | None:
        if not self.dealt:
            return None
        return vint.dealer_of(self.first_dealer, self.dealt)  # type: ignore[arg-type]

    @property
    def next_phase(self) -> str:
        """ "main", or "extra deal 2 of 4" for the next deal of a won rubber."""
        state = self.state
        if state.winner is None:
            return ""
        return _("extra deal %(n)s of 4") % {"n": state.extra_played + 1}

    @property
    def status(self) -> str:
        state = self.state
        if not self.started:
            return _("not started")
        if state.finished:
            return _("finished, won by %(side)s") % {"side": state.winner}
        if state.winner is not None:
            return _("won by %(side)s; extra deal %(n)s of 4 next") % {
                "side": state.winner,
                "n": state.extra_played + 1,
            }
        return _("games NS %(ns)s – EW %(ew)s") % {"ns": state.games_ns, "ew": state.games_ew}

    def side_total(self, side: str) -> int:
        return self.result.total(side)  # type: ignore[arg-type]

    @property
    def result_line(self) -> str:
        """A finished rubber in one line: who won it, and by how many points ("Rubber 1
        won by N–S by 1,240"); the side with more points is named when it is the other."""
        state = self.state
        if not state.finished or state.winner is None:
            return ""
        names = {"NS": _("N–S"), "EW": _("E–W")}
        won = state.winner
        other = "EW" if won == "NS" else "NS"
        lead = self.side_total(won) - self.side_total(other)
        words = {"n": self.number, "side": names[won], "other": names[other]}
        if lead > 0:
            points = number_format(lead, force_grouping=True)
            return _("Rubber %(n)s won by %(side)s by %(points)s") % {**words, "points": points}
        if lead == 0:
            return _("Rubber %(n)s won by %(side)s, level on points") % words
        points = number_format(-lead, force_grouping=True)
        return _("Rubber %(n)s won by %(side)s; %(other)s ahead on points by %(points)s") % {
            **words,
            "points": points,
        }

    @property
    def column_totals(self) -> list[tuple[str, str, int]]:
        """(seat, player, column total) in N E S W order."""
        return [(s, self.names[s], self.player_totals[self.seats[s]]) for s in vint.SEATS]

    @property
    def above_lines(self) -> list[SheetLine]:
        """Above the line, newest on top (the sheet is written upward from the line)."""
        out = []
        for row in reversed(self.rows):
            if row.deal.voided or not (row.above["NS"] or row.above["EW"]):
                continue
            cells = [list(reversed(row.items_above[SEAT_SIDE[s]])) for s in vint.SEATS]
            out.append(SheetLine(label=f"d{row.position}", cells=cells))
        for entry in self.result.closing:
            cells = [
                [Item(entry.points, entry_label(entry), entry.kind)]
                if SEAT_SIDE[s] == entry.side
                else []
                for s in vint.SEATS
            ]
            out.insert(0, SheetLine(label="", cells=cells))
        return out

    @property
    def below_lines(self) -> list[SheetLine]:
        """Below the line in play order, a game line under each deal that made a game."""
        out = []
        for row in self.rows:
            if row.deal.voided:
                continue
            cells = [row.items_below[SEAT_SIDE[s]] for s in vint.SEATS]
            out.append(
                SheetLine(
                    label=f"d{row.position}",
                    cells=cells,
                    note="; ".join(row.game_notes),
                    line=row.line,
                    extra=_("extra %(n)s/4") % {"n": row.extra_deal} if row.extra_deal else "",
                )
            )
        return out


@dataclass
class Standing:
    """A player's session result; ``seat`` (1..4) is who it is, ``name`` only for show."""

    seat: int
    player: Any
    name: str
    rubbers: list[int | None]
    total: int
    net: int
    place: int


@dataclass
class VintBoard:
    session: TableSession
    players: list[Any]
    rules: vint.VintRules
    rubbers: list[RubberView]
    current: RubberView | None
    standings: list[Standing]

    @property
    def complete(self) -> bool:
        return self.current is None

    @property
    def started(self) -> list[RubberView]:
        return [r for r in self.rubbers if r.started]

    def rubber(self, number: int) -> RubberView:
        return self.rubbers[number - 1]


def _result_label(facts: Mapping[str, Any], items: Sequence[Mapping[str, Any]]) -> str:
    if facts["contract"] == "pass":
        t = facts.get("tricks", {})
        return f"NS {t.get('NS')} · EW {t.get('EW')}"
    side = SEAT_SIDE.get(facts.get("declarer", ""), "?")
    text = f"{side} {facts.get('declarer_tricks')}"
    kinds = {i["kind"]: i for i in items}
    if "undertricks" in kinds:
        return f"{text} · " + _("down %(n)s") % {"n": kinds["undertricks"].get("count", 0)}
    if "overtricks" in kinds:
        return f"{text} · " + _("made +%(n)s") % {"n": kinds["overtricks"].get("count", 0)}
    return f"{text} · " + _("made")


def _closed(rules: vint.VintRules) -> bool:
    """Whether a rubber's totals take the unfinished-rubber entries (A27): as played so
    far, when its table stops there."""
    return rules.unfinished_rubber_bonus != "none"


def _rubber_view(
    number: int,
    row: VintRubber | None,
    deals: Sequence[VintDeal],
    names: Mapping[int, str],
    rules: vint.VintRules,
    default_first_dealer: str,
) -> RubberView:
    seats = seats_of(row) if row is not None else standard_seats(number)
    counted = [d for d in deals if not d.voided]
    result = vint.score_rubber(
        [deal_from_facts(d.facts) for d in counted], rules, closed=_closed(rules)
    )
    first_dealer = row.first_dealer if row is not None else default_first_dealer
    return _view(number, row is not None, seats, names, first_dealer, rules, result, deals)


def _view(
    number: int,
    started: bool,
    seats: dict[str, int],
    names: Mapping[int, str],
    first_dealer: str,
    rules: vint.VintRules,
    result: vint.RubberResult,
    deals: Sequence[VintDeal] = (),
    dealt: int | None = None,
) -> RubberView:
    return RubberView(
        number=number,
        started=started,
        seats=seats,
        names={seat: names[n] for seat, n in seats.items()},
        first_dealer=first_dealer,
        deals=deals,
        rules=rules,
        result=result,
        player_totals=seat_totals(seats, result),
        counted=result.state.deals_played,
        dealt=len(deals) if dealt is None else dealt,
    )


def tally_result(tally: Mapping[str, Any], rules: vint.VintRules) -> vint.RubberResult:
    """The totals of the rubber a tally keeps (``VintTally``), as its deals would give them."""
    state = vint.RubberState(*tally["state"])
    return vint.rubber_result(state, vint.RubberSums(*tally["sums"]), rules, closed=_closed(rules))


def rubber_from_tally(
    tally: Mapping[str, Any],
    names: Mapping[int, str],
    rules: vint.VintRules,
    deals: Sequence[VintDeal] = (),
) -> RubberView:
    """The rubber being played as its tally keeps it, with ``deals`` (its stored deals, for
    its rows; none: a view without rows)."""
    return _view(
        tally["rubber"],
        tally["started"],
        {seat: int(n) for seat, n in tally["seats"].items()},
        names,
        tally["first_dealer"],
        rules,
        tally_result(tally, rules),
        deals,
        dealt=tally["next"] - 1,
    )


def _deal_rows(
    deals: Sequence[VintDeal], by_seat: Mapping[str, str], first_dealer: str, rules: vint.VintRules
) -> list[DealRow]:
    rows: list[DealRow] = []
    running = {"NS": 0, "EW": 0}
    part = {"NS": 0, "EW": 0}
    position = 0
    for place, deal in enumerate(deals, 1):
        if not deal.voided:
            position += 1
        rows.append(deal_row(deal, place, position, by_seat, first_dealer, rules, part, running))
    return rows


def deal_row(
    deal: VintDeal,
    place: int,
    position: int,
    by_seat: Mapping[str, str],
    first_dealer: str,
    rules: vint.VintRules,
    part: dict[str, int],
    running: dict[str, int],
) -> DealRow:
    """The sheet's row of ``deal``, dealt ``place``-th and ``position``-th among the counted
    deals, after deals that left the part-scores at ``part`` and the side totals at
    ``running`` (both brought up to date here, for the next row)."""
    dealer = vint.dealer_of(first_dealer, place)  # type: ignore[arg-type]
    facts = deal.facts
    declarer = facts.get("declarer", "")
    common: _DealHeading = {
        "deal": deal,
        "contract": contract_label(facts["contract"]),
        "declarer_name": by_seat.get(declarer, ""),
        "doubling": doubling_label(facts.get("doubling", 0)),
    }
    if deal.voided:
        return DealRow(
            position=0,
            dealer=dealer,
            dealer_name=by_seat[dealer],
            result="",
            above={"NS": 0, "EW": 0},
            below={"NS": 0, "EW": 0},
            items_above={"NS": [], "EW": []},
            items_below={"NS": [], "EW": []},
            running=dict(running),
            **common,
        )
    entries = deal.entries
    items = entries.get("items", [])
    above: dict[str, list[Item]] = {"NS": [], "EW": []}
    below: dict[str, list[Item]] = {"NS": [], "EW": []}
    for item in items:
        target = above if item["where"] == "above" else below
        target[item["side"]].append(Item(item["points"], item_label(item), item["kind"]))
    m = _MULTIPLIER.get(facts.get("doubling", 0), 1)
    notes = []
    for side in ("NS", "EW"):
        gain = entries["below"][side]
        if rules.game_uses_undoubled_tricks:
            gain //= m
        part[side] += gain
    for side in entries.get("games_won", []):
        game_no = entries["games"][side]
        notes.append(
            _("%(side)s game %(n)s (%(points)s)")
            % {"side": side, "n": game_no, "points": part[side]}
        )
    if entries.get("games_won"):
        part.update(NS=0, EW=0)
    for side in ("NS", "EW"):
        running[side] += entries["above"][side] + entries["below"][side]
    return DealRow(
        position=position,
        dealer=dealer,
        dealer_name=by_seat[dealer],
        result=_result_label(facts, items),
        above=dict(entries["above"]),
        below=dict(entries["below"]),
        items_above=above,
        items_below=below,
        games=dict(entries["games"]),
        game_notes=notes,
        phase=entries.get("phase", "main"),
        extra_deal=entries.get("extra_deal", 0),
        running=dict(running),
        **common,
    )


def vint_scoreboard(*, session: TableSession) -> VintBoard:
    """Everything the pad and the sheet show, from the stored rubbers and deals."""
    return board_of(
        session,
        VintRubber.objects.filter(session=session),
        VintDeal.objects.filter(session=session).order_by("rubber", "number"),
    )


def board_of(
    session: TableSession, rubber_rows: Iterable[VintRubber], deal_rows: Iterable[VintDeal]
) -> VintBoard:
    """The board of ``session`` with these rubbers and deals (stored, or about to be:
    a correction is scored on the rows it would store)."""
    rules = vint_rules_for(session)
    players = sheet_players(session)
    names = {seat: p.name for seat, p in enumerate(players, 1)}
    rows = {r.number: r for r in rubber_rows}
    deals: dict[int, list[VintDeal]] = {}
    for deal in sorted(deal_rows, key=lambda d: (d.rubber, d.number)):
        deals.setdefault(deal.rubber, []).append(deal)
    rubbers: list[RubberView] = []
    last_dealer: str | None = None
    for number in range(1, max(RUBBERS, *rows.keys(), 0) + 1):
        default = vint.next_seat(last_dealer) if last_dealer else "N"  # type: ignore[arg-type]
        view = _rubber_view(number, rows.get(number), deals.get(number, []), names, rules, default)
        rubbers.append(view)
        last_dealer = view.last_dealer
    if rules.session_structure == "free" and rubbers[-1].started and rubbers[-1].finished:
        # Any number of rubbers (A31 "free"): the next one is always open.
        number = len(rubbers) + 1
        default = vint.next_seat(last_dealer) if last_dealer else "N"  # type: ignore[arg-type]
        rubbers.append(_rubber_view(number, None, [], names, rules, default))
    started = [r for r in rubbers if r.started]
    current: RubberView | None
    if not started:
        current = rubbers[0]
    elif not started[-1].finished:
        current = started[-1]
    elif started[-1].number < len(rubbers):
        current = rubbers[started[-1].number]
    else:
        current = None
    return VintBoard(
        session=session,
        players=players,
        rules=rules,
        rubbers=rubbers,
        current=current,
        standings=_standings(players, rubbers, started or rubbers[:1]),
    )


def vint_pad_board(*, session: TableSession, rows: bool = True) -> VintBoard:
    """The board the pad shows, from the session's tally (``VintTally``): the rubber being
    played as the tally keeps it, with its deals for the pad's rows (``rows``; a save's
    short answer draws its one new row itself), and the session totals over the stored
    seat totals of the rubbers before it, so that no rubber is played again. Only
    ``current`` and ``standings`` are complete (``rubbers`` holds the current rubber
    alone). When the session is over: the whole board."""
    tally = session.tally or {}
    if tally.get("rubber") is None:
        return vint_scoreboard(session=session)
    rules = vint_rules_for(session)
    players = sheet_players(session)
    names = {seat: p.name for seat, p in enumerate(players, 1)}
    deals: Sequence[VintDeal] = ()
    if rows:
        deals = list(
            VintDeal.objects.filter(session=session, rubber=tally["rubber"]).order_by("number")
        )
    view = rubber_from_tally(tally, names, rules, deals)
    columns = [{int(k): v for k, v in totals.items()} for totals in tally["done"]]
    if view.started or not columns:
        columns.append(view.player_totals)
    return VintBoard(
        session=session,
        players=players,
        rules=rules,
        rubbers=[view],
        current=view,
        standings=_standings_from(players, columns),
    )


def seat_totals(seats: Mapping[str, int], result: vint.RubberResult) -> dict[int, int]:
    """A rubber's column totals by table seat (1..4): the engine keys players by any label,
    and here the label is the seat, so two players of the same name stay apart."""
    seating = vint.Seating(*(str(seats[s]) for s in vint.SEATS))
    return {int(k): v for k, v in vint.rubber_player_totals(seating, result).items()}


def _standings(
    players: Sequence[Any], rubbers: Sequence[RubberView], counted: Sequence[RubberView]
) -> list[Standing]:
    standings = _standings_from(players, [r.player_totals for r in counted])
    for s in standings:
        s.rubbers = [r.player_totals[s.seat] if r.started else None for r in rubbers]
    return standings


def _standings_from(players: Sequence[Any], columns: Sequence[Mapping[int, int]]) -> list[Standing]:
    """Totals, nets and places from each counted rubber's column totals by table seat;
    ``rubbers`` holds those columns (``_standings`` puts None for an unstarted rubber)."""
    result = vint.session_result([{str(seat): t for seat, t in c.items()} for c in columns])
    totals = {int(k): v for k, v in result.totals.items()}
    nets = {int(k): v for k, v in result.net.items()}
    ranked = rank(range(1, len(players) + 1), [by_key(totals.__getitem__)])
    return [
        Standing(
            seat=seat,
            player=players[seat - 1],
            name=players[seat - 1].name,
            rubbers=[c[seat] for c in columns],
            total=totals[seat],
            net=nets[seat],
            place=place,
        )
        for seat, place, _tied in ranked
    ]
