"""The event file (``shared/formats/event-json.md``): read, validated, scored, written.

An **event file** holds one tournament: ``players``, optional ``teams`` (Kop and
Baśka), ``rounds`` of ``tables`` (and ``byes``), the director's ``adjustments``,
the deal ``rules`` of every table and the ``competition`` options of
``rules/competitions.md`` §10. A Kop or Baśka table gives its ``deals`` (scored
as a scoresheet's, by ``scoring.engines.sheets``) or its ``small_points`` (a
paper result), and may record a ``walkout`` or be ``short``; a Vint table gives
its ``rubbers`` (a scoresheet's session) or its ``totals`` and ``rubbers_won``.

* ``load_event(raw)``: the file's JSON object, read within the scoresheet's limits
  (size, depth, digits, NUL) and refusing a key given twice in one object.
* ``read_event(data)``: the event as ``tournaments.ranking.competition`` data.
* ``score_event(data)``: the output document (``individual``, ``classes``, ``teams``,
  ``adjustments``), numbers exact: an integer when whole, else ``"p/q"``.
* ``check_event(data)``: validation only.

Every problem is collected and raised at once in a ``SheetError``: one line each,
naming the round, table, player or adjustment and the field::

    round 2, table 1: seats: 9 is not a player of the event
    round 1, table 1: deal 3: declarer_points: 105 is outside 0..104
    competition: bye_score: expected "average" or {"big": B, "small": S} ...
    adjustment 1: reason: missing or empty

Each line is also a ``Problem`` with a code (``event.*``, the ranking's
``competition.*``, or the scoresheet's own) and its parameters. Keys the format does
not name are refused at every level. Deal warnings are not part of the output.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scoring.engines.errors import Param, Problem, SheetError
from scoring.engines.scoresheet import MAX_SHEET_BYTES, parse_json
from scoring.engines.sheets import score_sheet
from tournaments.ranking.competition import (
    Adjustment,
    ClassStandings,
    KopEvent,
    KopEventResult,
    KopOptions,
    KopRound,
    Player,
    Table,
    Team,
    VintEvent,
    VintEventResult,
    VintOptions,
    VintRound,
    VintTable,
    is_int,
    kop_event_problems,
    kop_options,
    score_kop_event,
    score_vint_event,
    shown,
    vint_event_problems,
    vint_options,
)
from tournaments.ranking.errors import RankingError, RankingProblem

#: The problem codes this module names (a page says each in the reader's language); it
#: also passes on the scoresheet's own codes (``sheet.*``, deals' and rules' codes) and
#: those of ``competition.CODES``.
CODES = frozenset(
    {
        "event.adjustment_not_participant",
        "event.amount_invalid",
        "event.class_unknown",
        "event.expected",
        "event.key_repeated",
        "event.missing",
        "event.no_deals",
        "event.result_count",
        "event.round_number",
        "event.round_without_tables",
        "event.rubber_seats",
        "event.rubbers_won_with_rubbers",
        "event.short_with_result",
        "event.table_repeated",
        "event.table_size",
        "event.teams_in_vint",
        "event.text_blank",
        "event.unknown_key",
        "event.walkout_deals",
    }
)

FORMAT = "tablescore-event/1"

TOP_KEYS = (
    "format",
    "name",
    "date",
    "game",
    "rules",
    "competition",
    "players",
    "teams",
    "rounds",
    "adjustments",
)
PLAYER_KEYS = ("id", "name", "classes", "licence")
LICENCE_KEYS = ("number", "since")
TEAM_KEYS = ("id", "name", "members")
KOP_ROUND_KEYS = ("number", "tables", "byes")
VINT_ROUND_KEYS = ("number", "tables")
KOP_TABLE_KEYS = ("number", "seats", "deals", "small_points", "walkout", "short")
VINT_TABLE_KEYS = ("number", "seats", "rubbers", "totals", "rubbers_won")
WALKOUT_KEYS = ("player", "after_deal")
KOP_ADJUSTMENT_KEYS = ("player", "round", "big", "small", "reason")
VINT_ADJUSTMENT_KEYS = ("player", "round", "net", "reason")


@dataclass(frozen=True)
class _Kind:
    """How the format's parts differ between the kinds of game it names: what a round
    and an adjustment hold, how the options are read, and whether a table holds rubbers
    (Vint: no byes, walkouts, short tables or teams) or deals."""

    round_keys: tuple[str, ...]
    adjustment_keys: tuple[str, ...]
    amounts: tuple[str, ...]
    options: Callable[[Mapping[str, object]], KopOptions | VintOptions]
    rubbers: bool


_KOP = _Kind(KOP_ROUND_KEYS, KOP_ADJUSTMENT_KEYS, ("big", "small"), kop_options, rubbers=False)
_VINT = _Kind(VINT_ROUND_KEYS, VINT_ADJUSTMENT_KEYS, ("net",), vint_options, rubbers=True)
#: The games the format names, and their kind.
KINDS: dict[str, _Kind] = {"kop": _KOP, "baska": _KOP, "vint": _VINT}
GAMES = tuple(KINDS)

#: Where in the file a problem is (``round 2, table 1: seats``): the param every line has.
EVENT_FIELD = "event_field"

_EXACT = re.compile(r"(-?[0-9]{1,18})(?:/([0-9]{1,18}))?")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_PLACEHOLDERS = ["1", "2", "3", "4"]


class _Problems:
    """The lines found so far."""

    def __init__(self) -> None:
        self.lines: list[Problem] = []

    def add(self, where: str, code: str, text: str, **params: Param) -> None:
        params[EVENT_FIELD] = where
        self.lines.append(Problem(code, params, where, f"{where}: {text}"))

    def keys(self, where: str, raw: Mapping[str, object], allowed: Sequence[str]) -> None:
        for key in raw:
            text = f"unknown key (allowed: {', '.join(allowed)})"
            if key not in allowed:
                self.add(f"{where}: {key}" if where else str(key), "event.unknown_key", text)

    def missing(self, where: str, raw: Mapping[str, object], required: Sequence[str]) -> bool:
        absent = [key for key in required if key not in raw]
        for key in absent:
            self.add(f"{where}: {key}" if where else key, "event.missing", "missing")
        return not absent

    def expected(self, where: str, what: str, value: object) -> None:
        self.add(where, "event.expected", f"expected {what}, got {shown(value)}", what=what)

    def obj(self, where: str, value: object, allowed: Sequence[str]) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.expected(where, f"an object with {', '.join(allowed)}", value)
            return None
        self.keys(where, value, allowed)
        return value

    def ids(self, where: str, value: object) -> list[int] | None:
        """A list of player ids (whole numbers), or ``None`` (the problem noted)."""
        if not isinstance(value, list) or not all(is_int(v) for v in value):
            self.expected(where, "a list of player ids", value)
            return None
        return list(value)

    def whole(self, where: str, value: object, low: int | None = None) -> int | None:
        if not is_int(value) or (low is not None and value < low):  # type: ignore[operator]
            what = "a whole number" if low is None else f"a whole number of at least {low}"
            self.expected(where, what, value)
            return None
        return value  # type: ignore[return-value]

    def text(self, where: str, value: object) -> str | None:
        if not isinstance(value, str) or not value.strip():
            self.add(where, "event.text_blank", f"expected a non-empty string, got {shown(value)}")
            return None
        return value

    def ranking(self, problems: Sequence[RankingProblem], prefix: str = "") -> None:
        for p in problems:
            params: dict[str, Param] = dict(p.params)
            params[EVENT_FIELD] = f"{prefix}{p.field}" if p.field else prefix.rstrip(": ")
            named = p.field is None or p.message.startswith(p.field)
            message = f"{prefix}{p.message}" if named else f"{prefix}{p.field}: {p.message}"
            self.lines.append(Problem(p.code, params, p.field, message))

    def sheet(self, where: str, error: SheetError, *, skip_rules: bool) -> None:
        for p in error.coded:
            if skip_rules and p.params.get("sheet_field") == "rules":
                continue  # the event's rules are reported once, not at every table
            params = {**p.params, EVENT_FIELD: where}
            self.lines.append(Problem(p.code, params, p.field, f"{where}: {p.message}", p.root))


# ============================================================================ loading


def load_event(raw: bytes | str) -> object:
    """The JSON value of an event file, or ``SheetError`` (one line) if it cannot be read.

    The limits are the scoresheet's (``scoring.engines.scoresheet``); a key given
    twice in one object is refused as well.
    """
    problems = _Problems()
    if isinstance(raw, bytes):
        if len(raw) > MAX_SHEET_BYTES:
            text = f"the file is larger than {MAX_SHEET_BYTES:,} bytes"
            problems.add("file", "sheet.too_large", text, limit=MAX_SHEET_BYTES)
            raise SheetError(problems.lines)
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            byte = exc.start + 1
            problems.add("file", "sheet.not_utf8", f"not UTF-8 text (byte {byte})", byte=byte)
            raise SheetError(problems.lines) from None
    if len(raw) > MAX_SHEET_BYTES:
        text = f"the file is larger than {MAX_SHEET_BYTES:,} bytes"
        problems.add("file", "sheet.too_large", text, limit=MAX_SHEET_BYTES)
        raise SheetError(problems.lines)
    data = parse_json(raw, "file")
    twice: list[str] = []

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        seen: set[str] = set()
        for key, _value in items:
            if key in seen:
                twice.append(key)
            seen.add(key)
        return dict(items)

    # Read again only to find keys given twice: the limits are checked already.
    json.loads(raw, object_pairs_hook=pairs)
    for key in sorted(set(twice)):
        text = f"the key {shown(key)} is given twice in one object"
        problems.add("file", "event.key_repeated", text, key=key)
    if problems.lines:
        raise SheetError(problems.lines)
    return data


# ============================================================================ reading


@dataclass(frozen=True)
class EventFile:
    """A valid event file as engine data: the game and the event (Kop/Baśka or Vint)."""

    game: str
    event: KopEvent | VintEvent
    #: The scoresheet (``formats/scoresheet-json.md``) of each table given deal by deal or
    #: rubber by rubber, by (round, table number): what was scored, with the players named
    #: by their ids as text ("7"), for an import to store the deals.
    sheets: Mapping[tuple[int, int], Mapping[str, object]] = field(default_factory=dict)


def exact_value(value: object) -> Fraction | None:
    """An input amount as a fraction, or ``None``: a JSON integer, or a string ``"p/q"`` in
    lowest terms with ``q`` > 1 and the sign on ``p`` (the form the output writes)."""
    if isinstance(value, int) and is_int(value):
        return Fraction(value)
    if isinstance(value, str) and (match := _EXACT.fullmatch(value)) and match.group(2):
        numerator, denominator = int(match.group(1)), int(match.group(2))
        if denominator > 1 and Fraction(numerator, denominator).denominator == denominator:
            return Fraction(numerator, denominator)
    return None


def write_exact(value: Fraction | int) -> int | str:
    """An exact number as the output writes it: an integer when whole, else ``"p/q"``."""
    value = Fraction(value)
    if value.denominator == 1:
        return value.numerator
    return f"{value.numerator}/{value.denominator}"


def _read_date(problems: _Problems, where: str, value: object) -> None:
    ok = isinstance(value, str) and _DATE.fullmatch(value)
    if ok:
        try:
            datetime.date.fromisoformat(value)  # type: ignore[arg-type]
        except ValueError:
            ok = False
    if not ok:
        problems.expected(where, 'a date "YYYY-MM-DD"', value)


def _read_players(problems: _Problems, value: object) -> list[Player]:
    if not isinstance(value, list) or not value:
        problems.expected("players", "a non-empty list of players", value)
        return []
    out = []
    for i, item in enumerate(value, 1):
        pid = item.get("id") if isinstance(item, dict) else None
        where = f"player {pid}" if is_int(pid) else f"players[{i}]"
        raw = problems.obj(where, item, PLAYER_KEYS)
        if raw is None:
            continue
        ok = problems.missing(where, raw, ("id", "name"))
        if "id" in raw and not is_int(pid):
            problems.expected(f"{where}: id", "a whole number of at least 1", pid)
            ok = False
        name = raw.get("name", "")
        if "name" in raw and not isinstance(name, str):
            problems.expected(f"{where}: name", "a name", name)
            ok = False
        classes = raw.get("classes", [])
        if not isinstance(classes, list) or not all(isinstance(c, str) for c in classes):
            problems.expected(f"{where}: classes", "a list of class codes", classes)
            classes, ok = [], False
        if "licence" in raw:
            licence = problems.obj(f"{where}: licence", raw["licence"], LICENCE_KEYS)
            if licence is None:
                ok = False
            else:
                if "number" not in licence:
                    problems.add(f"{where}: licence.number", "event.missing", "missing")
                else:
                    problems.text(f"{where}: licence.number", licence["number"])
                if "since" in licence:
                    _read_date(problems, f"{where}: licence.since", licence["since"])
        if ok:
            out.append(Player(pid, name, tuple(classes)))  # type: ignore[arg-type]
    return out


def _read_teams(problems: _Problems, value: object) -> list[Team]:
    if not isinstance(value, list):
        problems.expected("teams", "a list of teams", value)
        return []
    out = []
    for i, item in enumerate(value, 1):
        tid = item.get("id") if isinstance(item, dict) else None
        where = f"team {tid}" if isinstance(tid, str) and tid.strip() else f"teams[{i}]"
        raw = problems.obj(where, item, TEAM_KEYS)
        if raw is None:
            continue
        ok = problems.missing(where, raw, TEAM_KEYS)
        team_id = problems.text(f"{where}: id", tid) if "id" in raw else None
        name = problems.text(f"{where}: name", raw["name"]) if "name" in raw else None
        members = problems.ids(f"{where}: members", raw["members"]) if "members" in raw else None
        if ok and team_id is not None and name is not None and members is not None:
            out.append(Team(team_id, name, tuple(members)))
    return out


def _read_adjustments(problems: _Problems, value: object, game: str) -> list[Adjustment]:
    if not isinstance(value, list):
        problems.expected("adjustments", "a list of adjustments", value)
        return []
    amounts = KINDS[game].amounts
    allowed = KINDS[game].adjustment_keys
    out = []
    for i, item in enumerate(value, 1):
        where = f"adjustment {i}"
        raw = problems.obj(where, item, allowed)
        if raw is None:
            continue
        ok = problems.missing(where, raw, ("player", "reason"))
        player = problems.whole(f"{where}: player", raw["player"]) if "player" in raw else None
        number = raw.get("round")
        if number is not None and not is_int(number):
            problems.expected(f"{where}: round", "a round number", number)
            ok = False
        reason = raw.get("reason", "")
        if not isinstance(reason, str):
            problems.expected(f"{where}: reason", "a reason", reason)
            ok = False
        given: dict[str, Fraction] = {}
        for key in amounts:
            if key not in raw:
                continue
            amount = exact_value(raw[key])
            if amount is None:
                text = f'expected a whole number or an exact half ("1/2"), got {shown(raw[key])}'
                problems.add(f"{where}: {key}", "event.amount_invalid", text)
                ok = False
            else:
                given[key] = amount
        if ok and player is not None:
            out.append(Adjustment(player, reason, round=number, **given))
    return out


class _Reader:
    """Reads one event file, noting every problem."""

    def __init__(self, data: Mapping[str, Any], game: str) -> None:
        self.data = data
        self.game = game
        self.problems = _Problems()
        self.rules_given = "rules" in data
        # What the file names, whether or not it could be read: a table with a problem
        # is left out of the event, and its players and round must not look empty then.
        self.seated: set[object] = set()
        self.rounds_with_tables: set[int] = set()
        self.sheets: dict[tuple[int, int], Mapping[str, object]] = {}

    # ------------------------------------------------------------- deal rules

    def _sheet(self, **parts: object) -> dict[str, object]:
        sheet: dict[str, object] = {"game": self.game, **parts}
        if self.rules_given:
            sheet["rules"] = self.data["rules"]
        return sheet

    def check_rules(self) -> None:
        if not self.rules_given:
            return
        if KINDS[self.game].rubbers:
            seats = dict(zip(("N", "E", "S", "W"), _PLACEHOLDERS, strict=True))
            empty = {"seats": seats, "first_dealer": "N", "deals": []}
            sheet = self._sheet(rubbers=[empty])
        else:
            sheet = self._sheet(players=_PLACEHOLDERS, deals=[])
        try:
            score_sheet(sheet)
        except SheetError as error:
            self.problems.lines.extend(error.coded)

    # ------------------------------------------------------------- Kop tables

    def kop_table(self, r: int, t: int, raw: Mapping[str, Any]) -> Table | None:
        p = self.problems
        number = raw.get("number")
        where = f"round {r}, table {number}" if is_int(number) else f"round {r}, tables[{t}]"
        ok = p.missing(where, raw, ("number", "seats"))
        p.keys(where, raw, KOP_TABLE_KEYS)
        if any(key not in KOP_TABLE_KEYS for key in raw):
            ok = False
        seats = p.ids(f"{where}: seats", raw["seats"]) if "seats" in raw else None
        short = raw.get("short", False)
        if not isinstance(short, bool):
            p.expected(f"{where}: short", "true or false", short)
            return None
        has_deals, has_small = "deals" in raw, "small_points" in raw
        walkout, after = None, None
        if short:
            extra = [k for k in ("deals", "small_points", "walkout") if k in raw]
            if extra:
                text = f"a short table has no {', '.join(extra)}"
                p.add(where, "event.short_with_result", text, keys=extra)
                ok = False
            if seats is not None and len(seats) != 3:
                text = f"{len(seats)} players; a short table has 3"
                p.add(f"{where}: seats", "event.table_size", text, size=len(seats))
                ok = False
            return Table(tuple(seats), number=number) if ok and seats is not None else None
        if seats is not None and len(seats) != 4:
            text = f'{len(seats)} players; a table has 4 (3 only with "short": true)'
            p.add(f"{where}: seats", "event.table_size", text, size=len(seats))
            ok = False
        if "walkout" in raw:
            w = p.obj(f"{where}: walkout", raw["walkout"], WALKOUT_KEYS)
            if w is None or not p.missing(f"{where}: walkout", w, WALKOUT_KEYS):
                ok = False
            else:
                walkout = p.whole(f"{where}: walkout.player", w["player"])
                after = p.whole(f"{where}: walkout.after_deal", w["after_deal"], 0)
                ok = ok and walkout is not None and after is not None
        if has_deals == has_small:
            p.add(where, "event.result_count", "give exactly one of deals and small_points")
            return None
        small: tuple[int, ...] | None = None
        if has_small:
            value = raw["small_points"]
            if not isinstance(value, list) or len(value) != 4 or not all(map(is_int, value)):
                p.expected(f"{where}: small_points", "4 whole numbers, one per seat", value)
                return None
            small = tuple(value)
        else:
            small = self.kop_deals(where, raw["deals"], "walkout" in raw, after, (r, number or 0))
            if small is None:
                return None
        if not ok or seats is None:
            return None
        return Table(tuple(seats), small, walkout, number)

    def kop_deals(
        self,
        where: str,
        deals: object,
        walkout: bool,
        after: int | None,
        key: tuple[int, int],
    ) -> tuple[int, ...] | None:
        p = self.problems
        if not isinstance(deals, list):
            p.expected(f"{where}: deals", "a list of deals", deals)
            return None
        if not deals and not walkout:
            p.add(f"{where}: deals", "event.no_deals", "a table without a walkout needs deals")
            return None
        if walkout and after is not None and len(deals) != after:
            text = f"{len(deals)} deals recorded, but the walkout came after deal {after}"
            p.add(f"{where}: deals", "event.walkout_deals", text, deals=len(deals), after=after)
            return None
        sheet = self._sheet(players=_PLACEHOLDERS, deals=deals)
        try:
            out = score_sheet(sheet)
        except SheetError as error:
            p.sheet(where, error, skip_rules=True)
            return None
        self.sheets[key] = sheet
        totals = out["totals"]
        return tuple(totals)

    # ------------------------------------------------------------- Vint tables

    def vint_table(self, r: int, t: int, raw: Mapping[str, Any]) -> VintTable | None:
        p = self.problems
        number = raw.get("number")
        where = f"round {r}, table {number}" if is_int(number) else f"round {r}, tables[{t}]"
        ok = p.missing(where, raw, ("number", "seats"))
        p.keys(where, raw, VINT_TABLE_KEYS)
        if any(key not in VINT_TABLE_KEYS for key in raw):
            ok = False
        seats = p.ids(f"{where}: seats", raw["seats"]) if "seats" in raw else None
        if seats is not None and len(seats) != 4:
            text = f"{len(seats)} players; a Vint table has 4"
            p.add(f"{where}: seats", "event.table_size", text, size=len(seats))
            seats, ok = None, False
        has_rubbers, has_totals = "rubbers" in raw, "totals" in raw
        if has_rubbers == has_totals:
            p.add(where, "event.result_count", "give exactly one of rubbers and totals")
            return None
        if has_rubbers and "rubbers_won" in raw:
            p.add(f"{where}: rubbers_won", "event.rubbers_won_with_rubbers", "only with totals")
            return None
        if has_totals:
            totals, won = raw["totals"], raw.get("rubbers_won", [0, 0, 0, 0])
            if not isinstance(totals, list) or len(totals) != 4 or not all(map(is_int, totals)):
                p.expected(f"{where}: totals", "4 whole numbers, one per seat", totals)
                ok = False
            if not isinstance(won, list) or len(won) != 4 or not all(map(is_int, won)):
                p.expected(f"{where}: rubbers_won", "4 whole numbers, one per seat", won)
                ok = False
            if not ok or seats is None:
                return None
            return VintTable(
                (seats[0], seats[1], seats[2], seats[3]),
                (totals[0], totals[1], totals[2], totals[3]),
                (won[0], won[1], won[2], won[3]),
                number,
            )
        if seats is None:
            return None
        session = self.vint_rubbers(where, seats, raw["rubbers"], (r, number or 0))
        if session is None or not ok:
            return None
        return VintTable((seats[0], seats[1], seats[2], seats[3]), session[0], session[1], number)

    def vint_rubbers(
        self, where: str, seats: list[int], rubbers: object, key: tuple[int, int]
    ) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]] | None:
        p = self.problems
        if not isinstance(rubbers, list) or not rubbers:
            p.expected(f"{where}: rubbers", "a non-empty list of rubbers", rubbers)
            return None
        converted: list[object] = []
        ok = True
        for n, rubber in enumerate(rubbers, 1):
            if isinstance(rubber, dict) and isinstance(rubber.get("seats"), dict):
                compass = rubber["seats"]
                ids = list(compass.values())
                if sorted(map(str, ids)) != sorted(map(str, seats)) or not all(map(is_int, ids)):
                    text = f"expected the table's four players {seats}, got {shown(compass)}"
                    p.add(f"{where}: rubber {n}: seats", "event.rubber_seats", text)
                    ok = False
                    continue
                rubber = {**rubber, "seats": {k: str(v) for k, v in compass.items()}}
            converted.append(rubber)
        if not ok:
            return None
        sheet = self._sheet(rubbers=converted)
        try:
            out = score_sheet(sheet)
        except SheetError as error:
            p.sheet(where, error, skip_rules=True)
            return None
        self.sheets[key] = sheet
        totals: Mapping[str, int] = out["session"]["totals"]
        won = dict.fromkeys(seats, 0)
        for rubber, result in zip(converted, out["rubbers"], strict=True):
            side = result["rubber_winner"]
            if side is None:
                continue
            compass = rubber["seats"]  # type: ignore[index]
            for seat in ("N", "S") if side == "NS" else ("E", "W"):
                won[int(compass[seat])] += 1
        a, b, c, d = (totals[str(s)] for s in seats)
        return (a, b, c, d), (won[seats[0]], won[seats[1]], won[seats[2]], won[seats[3]])

    # ------------------------------------------------------------- rounds

    def rounds(self) -> tuple[list[KopRound], list[VintRound]]:
        p = self.problems
        value = self.data.get("rounds")
        if not isinstance(value, list):
            p.expected("rounds", "a non-empty list of rounds", value)
            return [], []
        vint = KINDS[self.game].rubbers
        allowed = KINDS[self.game].round_keys
        kop_rounds: list[KopRound] = []
        vint_rounds: list[VintRound] = []
        for r, item in enumerate(value, 1):
            where = f"round {r}"
            raw = p.obj(where, item, allowed)
            if raw is None:
                continue
            p.missing(where, raw, ("number", "tables"))
            if "number" in raw and (not is_int(raw["number"]) or raw["number"] != r):
                text = f"expected {r} (rounds are numbered 1, 2, ... in order), got "
                p.add(f"{where}: number", "event.round_number", text + shown(raw["number"]))
            tables = raw.get("tables", [])
            if not isinstance(tables, list):
                p.expected(f"{where}: tables", "a list of tables", tables)
                tables = []
            numbers: set[int] = set()
            if tables:
                self.rounds_with_tables.add(r)
            for table in tables:
                if isinstance(table, dict) and isinstance(table.get("seats"), list):
                    self.seated.update(p for p in table["seats"] if is_int(p))
            if isinstance(raw.get("byes"), list):
                self.seated.update(p for p in raw["byes"] if is_int(p))
            kop_tables: list[Table] = []
            vint_tables: list[VintTable] = []
            for t, table in enumerate(tables, 1):
                raw_table = _table_object(p, f"{where}, tables[{t}]", table)
                if raw_table is None:
                    continue
                number = raw_table.get("number")
                if "number" in raw_table and not (
                    isinstance(number, int) and is_int(number) and number >= 1
                ):
                    p.expected(
                        f"{where}, tables[{t}].number", "a whole number of at least 1", number
                    )
                    continue
                if number in numbers:
                    p.add(f"{where}, table {number}", "event.table_repeated", "number given twice")
                    continue
                if isinstance(number, int):
                    numbers.add(number)
                if vint:
                    read_vint = self.vint_table(r, t, raw_table)
                    if read_vint is not None:
                        vint_tables.append(read_vint)
                else:
                    read_kop = self.kop_table(r, t, raw_table)
                    if read_kop is not None:
                        kop_tables.append(read_kop)
            byes: list[int] = []
            if "byes" in raw and not vint:
                byes = p.ids(f"{where}: byes", raw["byes"]) or []
            if vint:
                vint_rounds.append(VintRound(tuple(vint_tables)))
            else:
                kop_rounds.append(KopRound(tuple(kop_tables), tuple(byes)))
        return kop_rounds, vint_rounds


def _table_object(problems: _Problems, where: str, value: object) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        problems.expected(where, "a table object", value)
        return None
    return value


def _usable_options(
    read: Callable[[Mapping[str, object]], KopOptions | VintOptions], raw: Mapping[str, object]
) -> tuple[KopOptions | VintOptions | None, set[str]]:
    """The options that are fine on their own, so that a bad one (reported already) does
    not make the classes or team sizes of the rest of the file look wrong."""
    fine: dict[str, object] = {}
    for key, value in raw.items():
        try:
            read({key: value})
        except RankingError:
            continue
        fine[key] = value
    try:
        return read(fine), set(fine)
    except RankingError:
        return None, set()


def read_event(data: object) -> EventFile:
    """The event of a file's JSON value; ``SheetError`` with every problem."""
    problems = _Problems()
    if not isinstance(data, dict):
        problems.expected("file", "a JSON object", data)
        raise SheetError(problems.lines)
    problems.keys("", data, TOP_KEYS)
    problems.missing("", data, ("format", "game", "players", "rounds"))
    if "format" in data and data["format"] != FORMAT:
        problems.expected("format", f'"{FORMAT}"', data["format"])
    game = data.get("game")
    if "game" in data and game not in GAMES:
        problems.expected("game", "one of kop, baska, vint", game)
    if "name" in data:
        problems.text("name", data["name"])
    if "date" in data:
        _read_date(problems, "date", data["date"])
    if not isinstance(game, str) or game not in GAMES:
        raise SheetError(problems.lines)

    reader = _Reader(data, game)
    reader.problems = problems
    reader.check_rules()
    vint = KINDS[game].rubbers
    raw_options = data.get("competition", {})
    options: KopOptions | VintOptions | None = None
    classes_read = True
    if not isinstance(raw_options, dict):
        problems.expected("competition", "an object of options", raw_options)
    else:
        read_options = KINDS[game].options
        try:
            options = read_options(raw_options)
        except RankingError as error:
            problems.ranking(error.coded, "competition: ")
            options, fine = _usable_options(read_options, raw_options)
            classes_read = "classes" not in raw_options or "classes" in fine
    players = _read_players(problems, data.get("players", [None])) if "players" in data else []
    teams: list[Team] = []
    if "teams" in data:
        if vint:
            problems.add("teams", "event.teams_in_vint", "a Vint event has no teams")
        else:
            teams = _read_teams(problems, data["teams"])
    kop_rounds, vint_rounds = reader.rounds() if "rounds" in data else ([], [])
    adjustments = (
        _read_adjustments(problems, data["adjustments"], game) if "adjustments" in data else []
    )

    # The event's own checks run on what could be read, so that one slip is one line:
    # a table left out for its own problem does not make its round or players look empty.
    def cascade(p: RankingProblem) -> bool:
        if p.code == "event.round_without_tables":
            return p.params.get("round") in reader.rounds_with_tables
        if p.code == "event.class_unknown":
            return not classes_read  # the classes option is wrong, reported already
        if p.code == "event.adjustment_not_participant":
            return p.params.get("player") in reader.seated
        return False

    event: KopEvent | VintEvent
    if vint:
        event = VintEvent(
            tuple(players),
            tuple(vint_rounds),
            options if isinstance(options, VintOptions) else VintOptions(),
            tuple(adjustments),
        )
        problems.ranking([p for p in vint_event_problems(event) if not cascade(p)])
    else:
        event = KopEvent(
            tuple(players),
            tuple(kop_rounds),
            options if isinstance(options, KopOptions) else KopOptions(),
            tuple(adjustments),
            tuple(teams),
        )
        problems.ranking([p for p in kop_event_problems(event) if not cascade(p)])
    if problems.lines:
        raise SheetError(problems.lines)
    return EventFile(game, event, reader.sheets)


def check_event(data: object) -> None:
    """Validate an event file's JSON value; ``SheetError`` with every problem."""
    read_event(data)


# ============================================================================ writing


def score_event(data: object) -> dict[str, object]:
    """The output document of an event file's JSON value (keys in the format's order)."""
    read = read_event(data)
    if isinstance(read.event, VintEvent):
        return vint_output(read.game, score_vint_event(read.event))
    return kop_output(read.game, score_kop_event(read.event))


def _classes_output(classes: Sequence[ClassStandings]) -> list[dict[str, object]]:
    return [
        {
            "code": c.code,
            "label": c.label,
            "standings": [
                {"player": r.player, "rank": r.rank_label, "overall_rank": r.overall_rank_label}
                for r in c.rows
            ],
        }
        for c in classes
    ]


def kop_output(game: str, result: KopEventResult) -> dict[str, object]:
    return {
        "format": FORMAT,
        "game": game,
        "individual": [
            {
                "player": r.player,
                "name": r.name,
                "rank": r.rank_label,
                "big_points": write_exact(r.big_points),
                "small_points": write_exact(r.small_points),
                "firsts": r.firsts,
                "seconds": r.seconds,
                "thirds": r.thirds,
                "fourths": r.fourths,
                "rounds_played": r.rounds_played,
                "byes": r.byes,
                "walkouts": r.walkouts,
                "adjustments": {
                    "big": write_exact(r.adjustment_big),
                    "small": write_exact(r.adjustment_small),
                },
            }
            for r in result.individual
        ],
        "classes": _classes_output(result.classes),
        "teams": [
            {
                "team": t.team,
                "name": t.name,
                "rank": t.rank_label,
                "big_points": write_exact(t.big_points),
                "small_points": write_exact(t.small_points),
                "firsts": t.firsts,
                "seconds": t.seconds,
                "thirds": t.thirds,
                "fourths": t.fourths,
                "counted": list(t.counted),
            }
            for t in result.teams
        ],
        "adjustments": [
            {
                "player": a.player,
                "round": a.round,
                "big": write_exact(a.big),
                "small": write_exact(a.small),
                "reason": a.reason,
            }
            for a in result.adjustments
        ],
    }


def vint_output(game: str, result: VintEventResult) -> dict[str, object]:
    return {
        "format": FORMAT,
        "game": game,
        "individual": [
            {
                "player": r.player,
                "name": r.name,
                "rank": r.rank_label,
                "net": write_exact(r.net),
                "rubbers_won": r.rubbers_won,
                "total_points": write_exact(r.total_points),
                "rounds_played": r.rounds_played,
                "adjustments": {"net": write_exact(r.adjustment_net)},
            }
            for r in result.individual
        ],
        "classes": _classes_output(result.classes),
        "teams": [],
        "adjustments": [
            {"player": a.player, "round": a.round, "net": write_exact(a.net), "reason": a.reason}
            for a in result.adjustments
        ],
    }
