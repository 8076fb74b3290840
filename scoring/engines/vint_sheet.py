"""Vint scoresheets: the JSON exchange format, read, scored and written.

The format is ``shared/formats/scoresheet-json.md`` (section "Vint"). A Vint
**sheet** is one session: optional ``rules`` (§7 options of ``rules/vint.md``
in snake_case) and one or more ``rubbers``, each with its ``seats`` (N, E, S,
W -> player), its ``first_dealer`` and its ``deals``. A deal is a contract
(``contract`` such as "4H", ``declarer``, ``doubling``, ``declarer_tricks``
and the holdings that score) or an all-pass deal (``"contract": "pass"``,
``tricks`` per side). The engine vocabulary (side, honour units, ace dump,
game, rubber, extra deals) is defined in the ``vint`` package's modules.

Reading is strict: a key the format does not name, a number that is not a
JSON integer (``true`` is not 1, ``10.0`` is not 10), a value out of range or
a deal that breaks an entry check of ``rules/vint.md`` §5 is a problem. Every
problem is collected and reported at once in a ``SheetError``, one line each,
naming the rubber, the deal (both 1-based) and the field::

    rubber 1, deal 4: declarer_tricks: 14 is outside 0..13
    rubber 2, deal 1: sequences[2].suit: "X" is not a suit (S, C, D, H)
    rubber 3: seats: the players differ from rubber 1 ("Eve" is new; "Dina" is missing)
    rules: double_scope: "everything" is not one of "play", "all", "contract_only"

A deal with ``"voided": true`` was struck out by a correction: it keeps its
place in the rubber (so it passes the deal like any other: the dealer of every
later deal is unchanged), needs no field but ``contract``, scores nothing and
is output with zero entries and ``"voided": true``. The facts it does give are
checked as any deal's, so that the app's export of a struck-out deal reads
back exactly. A voided deal may follow the rubber's end.

Choices the format leaves open, made here:

* a rubber with no deals is valid (a rubber not started yet); a sheet needs
  at least one rubber, because the players are named only in ``seats``;
* player names must be non-blank and different;
* ``grand_aces`` is omitted on a 2-2 split; ``null`` is not accepted for it
  (nor for any other key): absent means absent;
* ``declarer``, ``doubling`` and ``declarer_tricks`` are refused on an
  all-pass deal, ``tricks`` on a contract;
* with ``unfinished_rubber_bonus`` set, a rubber nobody has won by the end of
  the sheet is taken as stopped by the time limit, and its bonus is shown in
  an extra rubber key ``unfinished_bonus`` (per side) and counted in its
  totals; with ``result_method`` set to ``rubber_differential`` the session
  gains a ``differential`` object (2 x net, exact). Both keys appear only
  under those options, so the default output is exactly the documented one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from scoring.engines import vint
from scoring.engines.errors import (
    Problem,
    RuleError,
    SheetError,
    field_problem,
    located,
    rules_problem,
    sheet_problem,
)
from scoring.engines.scoresheet import not_an_object
from scoring.engines.shapes import VintDealJson, VintSheetJson
from scoring.engines.sheet_checks import (
    already_seated,
    expected,
    missing,
    name_problem,
    shown,
    unknown_key,
)

#: The engine codes this module emits besides the sheet's own (``sheet_checks.CODES``).
CODES = frozenset({"vint.rubber_over"})
SHEET_KEYS = ("game", "rules", "rubbers")
REQUIRED_SHEET_KEYS = ("game", "rubbers")
RUBBER_KEYS = ("seats", "first_dealer", "deals")
DEAL_KEYS = (
    "contract",
    "declarer",
    "doubling",
    "declarer_tricks",
    "honours",
    "grand_aces",
    "aces_in_hand",
    "sequences",
    "ace_dumps",
    "tricks",
    "voided",
)
CONTRACT_ONLY_KEYS = ("declarer", "doubling", "declarer_tricks")
REQUIRED_CONTRACT_KEYS = ("declarer", "doubling", "declarer_tricks")
_HOLDING_KEYS = ("side", "count")
_HAND_KEYS = ("seat", "count")
_RUN_KEYS = ("seat", "suit", "length")
_DUMP_KEYS = ("seat", "trick")
_TRICKS_KEYS = ("NS", "EW")


@dataclass(frozen=True)
class SheetRubber:
    """One rubber of a sheet as engine data: who sat where and its deals.

    ``deals`` are every deal in its place, the voided ones too (with the facts they
    gave); ``voided`` holds the numbers (1-based) of the voided ones.
    """

    seating: vint.Seating
    first_dealer: vint.Seat
    deals: tuple[vint.VintDeal, ...]
    voided: frozenset[int] = frozenset()

    @property
    def counted(self) -> tuple[vint.VintDeal, ...]:
        """The deals that score, in order."""
        return tuple(d for n, d in enumerate(self.deals, 1) if n not in self.voided)


@dataclass(frozen=True)
class VintSheet:
    """A valid Vint sheet: the rules and the rubbers."""

    rules: vint.VintRules
    rubbers: tuple[SheetRubber, ...]


def _is_int(value: object) -> bool:
    # bool is a subclass of int, but JSON true is not the number 1.
    return type(value) is int


class _DealReader:
    """Turns one JSON deal into a ``VintDeal``, noting every problem.

    Fields whose JSON cannot be read are noted in ``unknown``; the engine's
    checks then skip them, so a typo yields one line, not a cascade.
    """

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.unknown: set[str] = set()
        self.voided = False

    def bad(self, problem: Problem) -> None:
        self.problems.append(problem)
        field = problem.field or ""
        self.unknown.add(field.split("[")[0].split(".")[0])

    def keys(self, path: str, raw: Mapping[str, object], allowed: Sequence[str]) -> bool:
        ok = True
        for key in raw:
            if key not in allowed:
                self.bad(unknown_key(f"{path}.{key}", allowed))
                ok = False
        for key in allowed:
            if key not in raw:
                self.bad(missing(f"{path}.{key}"))
                ok = False
        return ok

    def string(self, path: str, value: object, what: str) -> str | None:
        if isinstance(value, str):
            return value
        self.bad(expected(path, what, value))
        return None

    def integer(self, path: str, value: object) -> int | None:
        if _is_int(value):
            return cast(int, value)
        self.bad(expected(path, "integer", value))
        return None

    def obj(self, path: str, value: object, keys: Sequence[str]) -> Mapping[str, object] | None:
        if not isinstance(value, dict):
            self.bad(expected(path, "object_with", value, keys))
            return None
        return value if self.keys(path, value, keys) else None

    def holding(self, name: str, value: object) -> vint.Holding | None:
        if value is None:
            self.bad(expected(name, "grand_aces" if name == "grand_aces" else "holding", None))
            return None
        raw = self.obj(name, value, _HOLDING_KEYS)
        if raw is None:
            return None
        side = self.string(f"{name}.side", raw["side"], "side")
        count = self.integer(f"{name}.count", raw["count"])
        if side is None or count is None:
            return None
        return vint.Holding(cast(vint.Side, side), count)

    def items(self, name: str, value: object, keys: Sequence[str]) -> list[Mapping[str, object]]:
        if not isinstance(value, list):
            self.bad(expected(name, "list", value))
            return []
        out: list[Mapping[str, object]] = []
        for i, item in enumerate(value, 1):
            raw = self.obj(f"{name}[{i}]", item, keys)
            if raw is not None:
                out.append(raw)
        return out

    def hands(self, value: object) -> tuple[vint.AcesInHand, ...]:
        out: list[vint.AcesInHand] = []
        for i, raw in enumerate(self.items("aces_in_hand", value, _HAND_KEYS), 1):
            seat = self.string(f"aces_in_hand[{i}].seat", raw["seat"], "seat")
            count = self.integer(f"aces_in_hand[{i}].count", raw["count"])
            if seat is not None and count is not None:
                out.append(vint.AcesInHand(cast(vint.Seat, seat), count))
        return tuple(out)

    def runs(self, value: object) -> tuple[vint.SuitSequence, ...]:
        out: list[vint.SuitSequence] = []
        for i, raw in enumerate(self.items("sequences", value, _RUN_KEYS), 1):
            seat = self.string(f"sequences[{i}].seat", raw["seat"], "seat")
            suit = self.string(f"sequences[{i}].suit", raw["suit"], "suit")
            length = self.integer(f"sequences[{i}].length", raw["length"])
            if seat is not None and suit is not None and length is not None:
                out.append(vint.SuitSequence(cast(vint.Seat, seat), cast(vint.Suit, suit), length))
        return tuple(out)

    def dumps(self, value: object) -> tuple[vint.AceDump, ...]:
        out: list[vint.AceDump] = []
        for i, raw in enumerate(self.items("ace_dumps", value, _DUMP_KEYS), 1):
            seat = self.string(f"ace_dumps[{i}].seat", raw["seat"], "seat")
            trick = self.integer(f"ace_dumps[{i}].trick", raw["trick"])
            if seat is not None and trick is not None:
                out.append(vint.AceDump(cast(vint.Seat, seat), trick))
        return tuple(out)

    def split(self, value: object) -> vint.TrickSplit | None:
        raw = self.obj("tricks", value, _TRICKS_KEYS)
        if raw is None:
            return None
        ns = self.integer("tricks.NS", raw["NS"])
        ew = self.integer("tricks.EW", raw["EW"])
        if ns is None or ew is None:
            return None
        return vint.TrickSplit(ns, ew)

    def read(self, raw: object, rules: vint.VintRules) -> vint.VintDeal | None:
        if not isinstance(raw, dict):
            self.problems.append(expected(None, "object", raw))
            return None
        for key in raw:
            if key not in DEAL_KEYS:
                self.bad(unknown_key(str(key), DEAL_KEYS))
        voided = raw.get("voided", False)
        if not isinstance(voided, bool):
            self.bad(expected("voided", "bool", voided))
            voided = False
        self.voided = voided
        if "contract" not in raw:
            self.bad(missing("contract"))
            return None
        text = self.string("contract", raw["contract"], "contract")
        contract: vint.Contract | None = None
        if text is not None:
            try:
                contract = vint.parse_contract(text)
            except RuleError as error:
                # The message names the field already.
                self.problems.append(field_problem(error.problem, named=True))
                text = None
        all_pass = text == "pass"
        if all_pass:
            for key in CONTRACT_ONLY_KEYS:
                if key in raw:
                    self.bad(sheet_problem("sheet.not_on_all_pass", "not on an all-pass deal", key))
        elif text is not None and not voided:
            for key in REQUIRED_CONTRACT_KEYS:
                if key not in raw:
                    self.bad(missing(key))

        declarer = None
        if "declarer" in raw and not all_pass:
            declarer = self.string("declarer", raw["declarer"], "seat")
        doubling = 0
        if "doubling" in raw and not all_pass:
            doubling = self.integer("doubling", raw["doubling"]) or 0
        tricks = None
        if "declarer_tricks" in raw and not all_pass:
            tricks = self.integer("declarer_tricks", raw["declarer_tricks"])
        deal = vint.VintDeal(
            contract=contract,
            declarer=cast(vint.Seat | None, declarer),
            doubling=doubling,
            declarer_tricks=tricks,
            honours=self.holding("honours", raw["honours"]) if "honours" in raw else None,
            grand_aces=(
                self.holding("grand_aces", raw["grand_aces"]) if "grand_aces" in raw else None
            ),
            aces_in_hand=self.hands(raw["aces_in_hand"]) if "aces_in_hand" in raw else (),
            sequences=self.runs(raw["sequences"]) if "sequences" in raw else (),
            ace_dumps=self.dumps(raw["ace_dumps"]) if "ace_dumps" in raw else (),
            tricks=self.split(raw["tricks"]) if "tricks" in raw else None,
        )
        if text is None:
            # Without a contract no entry check can be judged.
            return None
        skipped = set(self.unknown)
        if voided:
            # A voided deal needs only its contract: checks on what it left out are skipped.
            skipped |= {key for key in DEAL_KEYS if key not in raw}
        unknown = frozenset(skipped)
        for problem in vint.deal_problems(deal, rules, unknown=unknown):
            if problem.root not in unknown:
                self.problems.append(field_problem(problem.problem, named=True))
        return deal if not self.problems else None


def _read_seats(r: int, raw: object, problems: list[Problem]) -> vint.Seating | None:
    if not isinstance(raw, dict):
        problems.append(located(expected("seats", "object_with", raw, vint.SEATS), rubber=r))
        return None
    ok = True
    for key in raw:
        if key not in vint.SEATS:
            problems.append(located(unknown_key(f"seats.{key}", vint.SEATS), rubber=r))
            ok = False
    first_seat: dict[str, str] = {}
    for seat in vint.SEATS:
        field = f"seats.{seat}"
        if seat not in raw:
            problems.append(located(missing(field), rubber=r))
            ok = False
            continue
        name = raw[seat]
        if not isinstance(name, str):
            problems.append(located(expected(field, "name", name), rubber=r))
            ok = False
        elif problem := name_problem(name):
            problems.append(located(problem.at(field), rubber=r))
            ok = False
        elif name in first_seat:
            problems.append(located(already_seated(field, name, first_seat[name]), rubber=r))
            ok = False
        else:
            first_seat[name] = seat
    if not ok:
        return None
    return vint.Seating(raw["N"], raw["E"], raw["S"], raw["W"])


def _read_rubber(
    r: int, raw: object, rules: vint.VintRules, problems: list[Problem]
) -> tuple[SheetRubber | None, vint.Seating | None]:
    """The rubber if it is valid, and its seating if that alone is valid."""
    if not isinstance(raw, dict):
        problems.append(located(expected(None, "object_with", raw, RUBBER_KEYS), rubber=r))
        return None, None
    ok = True
    for key in raw:
        if key not in RUBBER_KEYS:
            problems.append(located(unknown_key(str(key), RUBBER_KEYS), rubber=r))
            ok = False
    for key in RUBBER_KEYS:
        if key not in raw:
            problems.append(located(missing(key), rubber=r))
            ok = False
    seating = _read_seats(r, raw["seats"], problems) if "seats" in raw else None
    first_dealer = raw.get("first_dealer")
    if "first_dealer" in raw and first_dealer not in vint.SEATS:
        text = f"{shown(first_dealer)} is not a seat (N, E, S, W)"
        line = sheet_problem("sheet.not_a_seat", text, "first_dealer", value=shown(first_dealer))
        problems.append(located(line, rubber=r))
        ok = False
    raw_deals = raw.get("deals", [])
    if not isinstance(raw_deals, list):
        problems.append(located(expected("deals", "deals", raw_deals), rubber=r))
        raw_deals = []
        ok = False
    deals: list[vint.VintDeal] = []
    voided: set[int] = set()
    state = vint.NEW_RUBBER
    last_played = 0
    for n, raw_deal in enumerate(raw_deals, 1):
        reader = _DealReader()
        deal = reader.read(raw_deal, rules)
        problems.extend(located(p, rubber=r, deal=n) for p in reader.problems)
        if deal is None:
            ok = False
            continue
        if reader.voided:
            voided.add(n)
            deals.append(deal)
            continue
        if state.finished:
            text = (
                f"the rubber is over: it ended with deal {last_played}, "
                "the fourth extra deal after the rubber was won"
            )
            over = sheet_problem("vint.rubber_over", text, deal=last_played)
            problems.append(located(over, rubber=r, deal=n))
            ok = False
            continue
        # Played here only to find deals past the end; a deal with a problem
        # is left out, so the end found after one may come late (never early).
        state, _ = vint.rubber_apply(state, deal, rules)
        last_played = n
        deals.append(deal)
    if not ok or seating is None:
        return None, seating
    rubber = SheetRubber(seating, cast(vint.Seat, first_dealer), tuple(deals), frozenset(voided))
    return rubber, seating


def read_vint_sheet(data: object) -> VintSheet:
    """Parse and validate a sheet; every problem at once in a ``SheetError``."""
    if not isinstance(data, dict):
        raise SheetError([not_an_object(data, shown_value=True)])
    problems = [unknown_key(str(key), SHEET_KEYS) for key in data if key not in SHEET_KEYS]
    problems += [missing(key) for key in REQUIRED_SHEET_KEYS if key not in data]
    if "game" in data and data["game"] != "vint":
        value = shown(data["game"])
        problems.append(
            sheet_problem("sheet.not_vint", f'{value} is not "vint"', "game", value=value)
        )

    raw_rules = data.get("rules", {})
    rules = vint.DEFAULT_RULES
    if not isinstance(raw_rules, dict):
        problems.append(expected("rules", "options", raw_rules))
    else:
        # Deals are still checked against the options that were fine.
        rules, rule_errors = vint.collect_rules(raw_rules)
        problems += [rules_problem(e.problem) for e in rule_errors]

    raw_rubbers = data.get("rubbers", [])
    if not isinstance(raw_rubbers, list) or ("rubbers" in data and not raw_rubbers):
        problems.append(expected("rubbers", "rubbers", raw_rubbers))
        raw_rubbers = []
    read = [_read_rubber(r, raw, rules, problems) for r, raw in enumerate(raw_rubbers, 1)]
    seatings = [seating for _, seating in read]
    _check_same_players(seatings, problems)
    if all(seating is not None for seating in seatings):
        # session_structure (A31): at most three rubbers, each partnership once.
        structure = vint.session_problems(cast(list[vint.Seating], seatings), rules)
        problems += [e.problem for e in structure]
    rubbers = [rubber for rubber, _ in read]
    if problems:
        raise SheetError(problems)
    return VintSheet(rules, tuple(cast(SheetRubber, r) for r in rubbers))


def _check_same_players(seatings: list[vint.Seating | None], problems: list[Problem]) -> None:
    # Only readable seatings are compared; a broken one is reported already.
    first: tuple[int, set[str]] | None = None
    for r, seating in enumerate(seatings, 1):
        if seating is None:
            continue
        names = set(seating.players)
        if first is None:
            first = (r, names)
            continue
        if names != first[1]:
            new = [shown(n) for n in sorted(names - first[1])]
            gone = [shown(n) for n in sorted(first[1] - names)]
            text = (
                f"the players differ from rubber {first[0]} "
                f"(new: {', '.join(new)}; missing: {', '.join(gone)})"
            )
            line = sheet_problem(
                "sheet.players_differ", text, "seats", first=first[0], new=new, gone=gone
            )
            problems.append(located(line, rubber=r))


def score_vint_sheet(data: object) -> dict[str, object]:
    """Score a sheet: the format's output (rubbers deal by deal, session)."""
    sheet = read_vint_sheet(data)
    return vint_sheet_result(sheet)


def vint_sheet_result(sheet: VintSheet) -> dict[str, object]:
    """The output object for a valid sheet."""
    rules = sheet.rules
    closed = rules.unfinished_rubber_bonus != "none"
    rubbers_out: list[dict[str, object]] = []
    columns: list[dict[str, int]] = []
    for rubber in sheet.rubbers:
        result = vint.score_rubber(rubber.counted, rules, closed=closed)
        out: dict[str, object] = {
            "deals": _deals_out(rubber, result),
            "rubber_winner": result.winner,
            "finished": result.finished,
            "totals": vint.rubber_player_totals(rubber.seating, result),
        }
        if result.closing:
            out["unfinished_bonus"] = {
                side: sum(e.points for e in result.closing if e.side == side) for side in vint.SIDES
            }
        rubbers_out.append(out)
        columns.append(cast(dict[str, int], out["totals"]))
    session = vint.session_result(columns)
    session_out: dict[str, object] = {"totals": dict(session.totals), "net": dict(session.net)}
    if rules.result_method == "rubber_differential":
        session_out["differential"] = dict(session.differential)
    return {"game": "vint", "rubbers": rubbers_out, "session": session_out}


def _deals_out(rubber: SheetRubber, result: vint.RubberResult) -> list[dict[str, object]]:
    """Each deal's output in its place; a voided one writes nothing and leaves the games
    and the phase as they were."""
    out: list[dict[str, object]] = []
    outcomes = iter(result.outcomes)
    games = {"NS": 0, "EW": 0}
    phase = "main"
    for n in range(1, len(rubber.deals) + 1):
        if n in rubber.voided:
            out.append(
                {
                    "above": {"NS": 0, "EW": 0},
                    "below": {"NS": 0, "EW": 0},
                    "games": dict(games),
                    "phase": phase,
                    "voided": True,
                    "warnings": [],
                }
            )
            continue
        o = next(outcomes)
        games = {"NS": o.games_ns, "EW": o.games_ew}
        phase = "main" if o.state.winner is None else "extra"
        out.append(
            {
                "above": {"NS": o.above_ns, "EW": o.above_ew},
                "below": {"NS": o.below_ns, "EW": o.below_ew},
                "games": dict(games),
                "phase": o.phase,
                "warnings": [],
            }
        )
    return out


def check_vint_sheet(data: object) -> list[str]:
    """Validate a sheet; raises ``SheetError`` if invalid. Vint has no warnings yet."""
    read_vint_sheet(data)
    return []


# ============================================================================ writing


def vint_sheet_from_session(rules: vint.VintRules, rubbers: Sequence[SheetRubber]) -> VintSheetJson:
    """The input format for a session held as plain data.

    ``read_vint_sheet`` of the result gives back ``VintSheet(rules, rubbers)``
    exactly. Every option is written, not only those that differ from the
    defaults, so the sheet means the same even if a later version changes a
    default.
    """
    return {
        "game": "vint",
        "rules": vint.rules_to_options(rules),
        "rubbers": [
            {
                "seats": dict(rubber.seating.as_dict()),
                "first_dealer": rubber.first_dealer,
                "deals": [
                    deal_to_json(deal, voided=n in rubber.voided)
                    for n, deal in enumerate(rubber.deals, 1)
                ],
            }
            for rubber in rubbers
        ],
    }


def deal_to_json(deal: vint.VintDeal, *, voided: bool = False) -> VintDealJson:
    """One deal in the input format (keys with nothing to say are left out); a voided
    deal ends with ``"voided": true`` and may lack facts."""
    out: VintDealJson
    if deal.contract is None:
        out = {"contract": "pass"}
        if deal.tricks is not None:
            out["tricks"] = {"NS": deal.tricks.ns, "EW": deal.tricks.ew}
    else:
        out = {"contract": str(deal.contract)}
        if deal.declarer is not None or not voided:
            out["declarer"] = deal.declarer
        out["doubling"] = deal.doubling
        if deal.declarer_tricks is not None or not voided:
            out["declarer_tricks"] = deal.declarer_tricks
    if deal.honours is not None:
        out["honours"] = {"side": deal.honours.side, "count": deal.honours.count}
    if deal.grand_aces is not None:
        out["grand_aces"] = {"side": deal.grand_aces.side, "count": deal.grand_aces.count}
    if deal.aces_in_hand:
        out["aces_in_hand"] = [{"seat": h.seat, "count": h.count} for h in deal.aces_in_hand]
    if deal.sequences:
        out["sequences"] = [
            {"seat": s.seat, "suit": s.suit, "length": s.length} for s in deal.sequences
        ]
    if deal.ace_dumps:
        out["ace_dumps"] = [{"seat": d.seat, "trick": d.trick} for d in deal.ace_dumps]
    if voided:
        out["voided"] = True
    return out
