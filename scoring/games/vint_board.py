"""Reads for Vint sessions: the scoreboard, the four-column sheet, exports.

Vocabulary (see ``scoring/engines/vint.py`` for the game's own terms): a
Vint **session** is one ``TableSession`` with game "vint": four players A..D
(``TableSeat`` 1..4) and up to three **rubbers**, each with its own seating
(``VintRubber``). A rubber is **started** once it has a row, i.e. a deal was
saved in it or it came from an imported sheet. The **current rubber** is the
one the next deal goes to: the last started rubber while it is not finished,
then the next one; when rubber 3 is finished the session is **complete**.

Deals that are voided keep their number and their place: they score nothing,
but they pass the deal like any other, so the dealer of every later deal stays
as it was (exactly as on an exported sheet, which writes a voided deal in its
place with ``"voided": true``).

A rubber's first dealer is N for rubber 1 and, by default, the seat after the
last dealer of the previous rubber (the scorer may pick another before the
rubber's first deal is saved).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engines import vint
from scoring.engines.ranks import by_key, rank
from scoring.engines.shapes import VintSheetJson
from scoring.engines.vint_sheet import SheetRubber, vint_sheet_from_session
from scoring.models import DealHistory, TableSession, VintDeal, VintRubber
from scoring.rows import rows_where
from scoring.selectors import sheet_players

# The seat numbers (TableSeat.seat) of players A..D in each rubber, N E S W,
# as vint.session_partnerships seats them.
_PLAYERS = ("A", "B", "C", "D")


def vint_rules_for(session: TableSession) -> vint.VintRules:
    return _rules(json.dumps(session.profile_version.options, sort_keys=True))


@lru_cache(maxsize=64)
def _rules(options_json: str) -> vint.VintRules:
    # Options are frozen per profile version, so parsing once per option set is enough.
    return vint.parse_rules(json.loads(options_json))


def standard_seats(rubber: int) -> dict[str, int]:
    """Seat numbers by N, E, S, W for ``rubber`` of a session started in the app.

    Rubbers 1..3 give each player each partner once; a fourth rubber, which only
    ``session_structure="free"`` allows (A31), starts the rotation again.
    """
    seating = vint.session_partnerships(_PLAYERS)[(rubber - 1) % RUBBERS]
    return {seat: _PLAYERS.index(name) + 1 for seat, name in seating.as_dict().items()}


def seats_of(row: VintRubber) -> dict[str, int]:
    return {"N": row.north, "E": row.east, "S": row.south, "W": row.west}


def seating_of(seats: Mapping[str, int], names: Mapping[int, str]) -> vint.Seating:
    """The engine's seating: player names by seat, from seat numbers and the session's names."""
    return vint.Seating(names[seats["N"]], names[seats["E"]], names[seats["S"]], names[seats["W"]])


def deal_from_facts(facts: Mapping[str, Any]) -> vint.VintDeal:
    """A ``VintDeal`` from facts in the format (not validated: ``deal_problems`` does that)."""
    contract = facts.get("contract")
    dumps = [(d.get("seat"), d.get("trick")) for d in facts.get("ace_dumps") or ()]
    if contract == "pass":
        tricks = facts.get("tricks") or {}
        return vint.all_pass_deal(tricks.get("NS"), tricks.get("EW"), ace_dumps=dumps)
    honours = facts.get("honours")
    grand = facts.get("grand_aces")
    return vint.contract_deal(
        str(contract),
        facts.get("declarer"),  # type: ignore[arg-type]
        facts.get("declarer_tricks"),  # type: ignore[arg-type]
        doubling=facts.get("doubling", 0),
        honours=(honours["side"], honours["count"]) if honours else None,
        grand_aces=(grand["side"], grand["count"]) if grand else None,
        aces_in_hand=[(h["seat"], h["count"]) for h in facts.get("aces_in_hand") or ()],
        sequences=[(s["seat"], s["suit"], s["length"]) for s in facts.get("sequences") or ()],
        ace_dumps=dumps,
    )


def entry_json(entry: vint.Entry) -> dict[str, Any]:
    out: dict[str, Any] = {
        "side": entry.side,
        "where": entry.where,
        "kind": entry.kind,
        "points": entry.points,
    }
    if entry.count:
        out["count"] = entry.count
    if entry.seat:
        out["seat"] = entry.seat
    if entry.suit:
        out["suit"] = entry.suit
    return out


def entries_json(outcome: vint.DealOutcome) -> dict[str, Any]:
    """What a deal wrote on the sheet and where the rubber stands after it."""
    state = outcome.state
    return {
        "above": {"NS": outcome.above_ns, "EW": outcome.above_ew},
        "below": {"NS": outcome.below_ns, "EW": outcome.below_ew},
        "items": [entry_json(e) for e in outcome.all_entries],
        "games": {"NS": state.games_ns, "EW": state.games_ew},
        "games_won": list(outcome.games_won),
        "part": {"NS": state.part_ns, "EW": state.part_ew},
        "phase": outcome.phase,
        "extra_deal": outcome.extra_deal,
        "rubber_winner": state.winner,
        "finished": state.finished,
    }


RUBBERS = vint.SESSION_RUBBERS  # a session's rubbers under session_structure "rotated"
SUIT_SYMBOL = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
SEAT_SIDE = {"N": "NS", "E": "EW", "S": "NS", "W": "EW"}
_MULTIPLIER = {0: 1, 1: 2, 2: 4}


def contract_label(contract: str) -> str:
    """ "4H" -> "4♥", "5G" -> "5 grand", "4M" -> "4 misère", "pass" -> "all pass"."""
    if contract == "pass":
        return _("all pass")
    level, denom = contract[0], contract[1]
    if denom in SUIT_SYMBOL:
        return f"{level}{SUIT_SYMBOL[denom]}"
    if denom == "G":
        return _("%(level)s grand") % {"level": level}
    return _("%(level)s misère") % {"level": level}


def doubling_label(doubling: int) -> str:
    return {1: _("doubled"), 2: _("redoubled")}.get(doubling, "")


def item_label(item: Mapping[str, Any]) -> str:
    """What one sheet entry is for, in words ("honours 5", "ace dumped at trick 6")."""
    kind = item["kind"]
    n = item.get("count", 0)
    seat = item.get("seat", "")
    suit = SUIT_SYMBOL.get(item.get("suit", ""), "")
    if kind == "trick_points":
        return ngettext("trick points for %(n)s trick", "trick points for %(n)s tricks", n) % {
            "n": n
        }
    if kind == "made":
        return _("contract made")
    if kind == "overtricks":
        return ngettext("%(n)s overtrick", "%(n)s overtricks", n) % {"n": n}
    if kind == "undertricks":
        return ngettext("%(n)s undertrick", "%(n)s undertricks", n) % {"n": n}
    if kind == "special":
        return _("special bonus (slam bid beaten)")
    if kind == "honours":
        return _("honours: %(n)s units") % {"n": n}
    if kind == "grand_aces":
        return _("grand aces: %(n)s") % {"n": n}
    if kind == "aces_in_hand":
        return _("%(n)s aces in %(seat)s's hand") % {"n": n, "seat": seat}
    if kind == "sequence":
        return _("%(suit)sA run of %(n)s (%(seat)s)") % {"suit": suit, "n": n, "seat": seat}
    if kind == "ace_dump":
        return _("%(seat)s's ace dumped at trick %(n)s") % {"seat": seat, "n": n}
    if kind == "all_pass_penalty":
        return _("fewer tricks (by %(n)s)") % {"n": n}
    if kind == "rubber":
        return _("rubber bonus")
    if kind == "extra_game":
        return _("bonus for game %(n)s") % {"n": n}
    if kind == "unfinished_rubber":
        return _("unfinished rubber, %(n)s games ahead") % {"n": n}
    return str(kind)


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
                [Item(entry.points, item_label(_entry_dict(entry)), entry.kind)]
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


def _entry_dict(entry: vint.Entry) -> dict[str, Any]:
    return {"kind": entry.kind, "count": entry.count, "seat": entry.seat, "suit": entry.suit}


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
    rules = vint_rules_for(session)
    players = sheet_players(session)
    names = {seat: p.name for seat, p in enumerate(players, 1)}
    rows = {r.number: r for r in VintRubber.objects.filter(session=session)}
    deals: dict[int, list[VintDeal]] = {}
    for deal in VintDeal.objects.filter(session=session).order_by("rubber", "number"):
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
        where = "session_id = %s AND rubber = %s ORDER BY number"
        deals = rows_where(VintDeal, where, [session.pk, tally["rubber"]])
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


def facts_summary(facts: Mapping[str, Any]) -> str:
    """A deal's facts in one line: "4♥ N doubled, 10 tricks; honours NS 5"."""
    if not facts:
        return ""
    parts = [contract_label(facts["contract"])]
    if facts["contract"] == "pass":
        t = facts.get("tricks", {})
        parts.append(f"NS {t.get('NS')} · EW {t.get('EW')}")
    else:
        head = f"{facts.get('declarer')}"
        if facts.get("doubling"):
            head += f" {doubling_label(facts['doubling'])}"
        parts.append(
            head
            + ", "
            + ngettext("%(n)s trick", "%(n)s tricks", facts.get("declarer_tricks") or 0)
            % {"n": facts.get("declarer_tricks")}
        )
    if facts.get("honours"):
        h = facts["honours"]
        parts.append(_("honours %(side)s %(n)s") % {"side": h["side"], "n": h["count"]})
    if facts.get("grand_aces"):
        g = facts["grand_aces"]
        parts.append(_("aces %(side)s %(n)s") % {"side": g["side"], "n": g["count"]})
    for hand in facts.get("aces_in_hand", []):
        parts.append(
            _("%(n)s aces in %(seat)s's hand") % {"n": hand["count"], "seat": hand["seat"]}
        )
    for run in facts.get("sequences", []):
        parts.append(
            _("%(suit)sA run of %(n)s (%(seat)s)")
            % {"suit": SUIT_SYMBOL[run["suit"]], "n": run["length"], "seat": run["seat"]}
        )
    for dump in facts.get("ace_dumps", []):
        parts.append(
            _("%(seat)s's ace dumped at trick %(n)s") % {"seat": dump["seat"], "n": dump["trick"]}
        )
    return "; ".join(parts)


@dataclass
class HistoryEntry:
    row: DealHistory
    rubber: int | None
    before: str
    after: str


def vint_deal_history(
    *, session: TableSession, rubber: int | None = None, number: int | None = None
) -> list[HistoryEntry]:
    """History of the session's deals (newest first), or of one deal (rubber and number)."""
    qs = DealHistory.objects.filter(session=session)
    if rubber is not None:
        qs = qs.filter(rubber=rubber)
    if number is not None:
        qs = qs.filter(deal_number=number)
    return [
        HistoryEntry(
            row=h,
            rubber=h.rubber,
            before=_snapshot_summary(h.old) if h.deal_number else "",
            after=_snapshot_summary(h.new) if h.deal_number else "",
        )
        for h in qs  # deal number 0: a row about the whole table (lock, acceptance, link)
    ]


def _snapshot_summary(snap: Mapping[str, Any] | None) -> str:
    if not snap:
        return ""
    text = facts_summary(snap.get("facts") or {})
    above, below = snap.get("above"), snap.get("below")
    if above and below and not snap.get("voided"):
        text += f" → NS {above['NS']} + {below['NS']}, EW {above['EW']} + {below['EW']}"
    if snap.get("voided"):
        text += " (" + _("voided") + ")"
    return text


def vint_sheet_json(*, session: TableSession) -> VintSheetJson:
    """The session as a Vint scoresheet (``shared/formats/scoresheet-json.md``).

    Every started rubber with its seating, first dealer and deals, a voided one in its
    place with ``"voided": true``; a session with no deal yet gives rubber 1 with no
    deals, because the format names the players only in ``seats``.
    """
    board = vint_scoreboard(session=session)
    names = {seat: p.name for seat, p in enumerate(board.players, 1)}
    rubbers = board.started or board.rubbers[:1]
    return vint_sheet_from_session(
        board.rules,
        [
            SheetRubber(
                seating=seating_of(r.seats, names),
                first_dealer=r.first_dealer,  # type: ignore[arg-type]
                deals=tuple(deal_from_facts(deal.facts) for deal in r.deals),
                voided=frozenset(n for n, deal in enumerate(r.deals, 1) if deal.voided),
            )
            for r in rubbers
        ],
    )


def vint_csv_rows(*, session: TableSession) -> list[list[Any]]:
    """One row per deal (voided ones marked), then each player's total and net."""
    board = vint_scoreboard(session=session)
    seats = range(1, len(board.players) + 1)
    header = [
        "rubber",
        "deal",
        "phase",
        "dealer",
        "contract",
        "declarer",
        "doubling",
        "declarer_tricks",
        "tricks NS",
        "tricks EW",
        "NS above",
        "NS below",
        "EW above",
        "EW below",
        "games NS",
        "games EW",
        *[f"total {n} {p.name}" for n, p in zip(seats, board.players, strict=True)],
        "voided",
    ]
    out: list[list[Any]] = [header]
    for rubber in board.started:
        side_of = {rubber.seats[s]: SEAT_SIDE[s] for s in vint.SEATS}
        before = {
            n: sum(r.player_totals[n] for r in board.started[: rubber.number - 1]) for n in seats
        }
        for row in rubber.rows:
            f = row.deal.facts
            tricks = f.get("tricks", {})
            phase = "" if row.deal.voided else row.phase
            if row.extra_deal:
                phase = f"extra {row.extra_deal}"
            # A voided deal wrote nothing: blank entry cells (a spreadsheet's sum stays
            # right) and the running totals carry on unchanged.
            if row.deal.voided:
                entries: list[Any] = [""] * 6
            else:
                entries = [
                    row.above["NS"],
                    row.below["NS"],
                    row.above["EW"],
                    row.below["EW"],
                    row.games.get("NS", ""),
                    row.games.get("EW", ""),
                ]
            out.append(
                [
                    rubber.number,
                    row.deal.number,
                    phase,
                    row.dealer,
                    f["contract"],
                    f.get("declarer", ""),
                    f.get("doubling", ""),
                    f.get("declarer_tricks", ""),
                    tricks.get("NS", ""),
                    tricks.get("EW", ""),
                    *entries,
                    *[before[n] + row.running[side_of[n]] for n in seats],
                    _("voided") if row.deal.voided else "",
                ]
            )
    totals = {s.seat: s for s in board.standings}
    blank = [""] * (len(header) - len(seats) - 2)
    out.append(["total", *blank, *[totals[n].total for n in seats], ""])
    out.append(["net", *blank, *[totals[n].net for n in seats], ""])
    return out
