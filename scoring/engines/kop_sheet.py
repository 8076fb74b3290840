"""Kop and Baśka scoresheets: the JSON exchange format, read, scored and written.

The format is ``shared/formats/scoresheet-json.md`` (section "Kop and Baśka").
A **sheet** is what a scorer writes down at one table: the ``game``, optional
``rules`` (§7 options of ``rules/kop.md`` in snake_case), the four ``players``
in seat order (seat 1 deals deal 1, then clockwise) and the ``deals``, each
with its ``contract``, ``declarers`` (seats 1..4), exactly one of
``doublings`` (the effective count k) or ``doubling_seats`` (who doubled after
the final contract, in order) and ``declarer_points`` (0..104). An app's export
also writes the ``warnings`` its scorer confirmed (the output's key); reading
accepts them as a list of messages and scores the deal afresh, so they never
change a number. The engine
vocabulary (k, M, L, V, declarers, Old / Young) is defined in the ``kop`` package's modules.

Reading is strict: a key the format does not name, a number that is not a
JSON integer (``true`` is not 1, ``60.0`` is not 60), a seat outside 1..4 or a
count above the contract's cap is a problem. Every problem is collected and
reported at once in a ``SheetError``, one line each, naming where it is::

    deal 3: declarer_points: 105 is outside 0..104
    rules: bez_wyjscia_max: "25" is not allowed (an integer from 0 to 52; ...)
    players: seat 2: expected a name, got 7

A deal with ``"voided": true`` was struck out by a correction: it keeps its
place (its number, so the dealer of every later deal is unchanged), needs no
field but ``contract`` and scores nothing. The facts it does give are checked
as any deal's, so that the app's export of a struck-out deal (all its facts
and ``"voided": true``) reads back exactly.

Choices the format leaves open, made here: a sheet with no deals is valid
(a session before its first deal; the totals are all 0); the four player
names must be non-blank and different.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.engines import kop
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
from scoring.engines.shapes import KopDealJson, KopSheetJson
from scoring.engines.sheet_checks import (
    already_seated,
    expected,
    missing,
    name_problem,
    shown,
    unknown_key,
)

SHEET_KEYS = ("game", "rules", "players", "deals")
REQUIRED_SHEET_KEYS = ("game", "players", "deals")
DEAL_KEYS = (
    "contract",
    "declarers",
    "doublings",
    "doubling_seats",
    "declarer_points",
    "voided",
    "warnings",
)
REQUIRED_DEAL_KEYS = ("contract", "declarers", "declarer_points")
FACT_KEYS = ("contract", "declarers", "doublings", "doubling_seats", "declarer_points")
_EXPECTED = {"doublings": "integer", "doubling_seats": "seat_list"}

#: The engine codes this module emits besides the sheet's own (``sheet_checks.CODES``).
CODES = frozenset({"kop.sheet_game_mismatch", "kop.game_unknown"})


@dataclass(frozen=True)
class KopSheet:
    """A valid sheet, as engine data.

    ``deals`` are every deal in its place, the voided ones too (with the facts
    they gave: ``declarers`` may be empty, ``declarer_points`` ``None``);
    ``voided`` holds the numbers (1-based) of the voided ones.
    """

    game: str
    rules: kop.KopRules
    players: tuple[str, str, str, str]
    deals: tuple[kop.KopDeal, ...]
    voided: frozenset[int] = frozenset()

    @property
    def counted(self) -> tuple[kop.KopDeal, ...]:
        """The deals that score, in order."""
        return tuple(d for n, d in enumerate(self.deals, 1) if n not in self.voided)


def _unknown_keys(data: Mapping[object, object], allowed: Sequence[str]) -> list[Problem]:
    return [unknown_key(str(key), allowed) for key in data if key not in allowed]


def _check_players(players: object) -> list[Problem]:
    if not isinstance(players, list) or len(players) != 4:
        return [expected("players", "players", players)]
    problems: list[Problem] = []
    first_seat: dict[str, int] = {}
    for seat, name in enumerate(players, 1):
        field, said = f"players[{seat}]", f"players: seat {seat}"
        if not isinstance(name, str):
            problems.append(expected(field, "name", name, said=said))
        elif problem := name_problem(name):
            problems.append(problem.at(field, said=said))
        elif name in first_seat:
            problems.append(already_seated(field, name, first_seat[name], said=said))
        else:
            first_seat[name] = seat
    return problems


def _as_tuple(value: object) -> object:
    # Lists become tuples so KopDeal stays hashable; anything else is left for
    # check_deal to name.
    return tuple(value) if isinstance(value, list) else value


def _read_deal(
    n: int, raw: object, rules: kop.KopRules, problems: list[Problem]
) -> tuple[kop.KopDeal, bool] | None:
    """The deal and whether it is voided, or ``None`` (its problems noted)."""
    if not isinstance(raw, dict):
        problems.append(located(expected(None, "object", raw), deal=n))
        return None
    local = _unknown_keys(raw, DEAL_KEYS)
    voided = raw.get("voided", False)
    if not isinstance(voided, bool):
        local.append(expected("voided", "bool", voided))
        voided = False
    # A voided deal needs only its contract; whatever else it gives is checked.
    required = ("contract",) if voided else REQUIRED_DEAL_KEYS
    absent = [key for key in required if key not in raw]
    local += [missing(key) for key in absent]
    skip = {key for key in FACT_KEYS if key not in raw} if voided else set(absent)
    deal = kop.KopDeal(
        contract=raw.get("contract"),  # type: ignore[arg-type]
        declarers=_as_tuple(raw.get("declarers", ())),  # type: ignore[arg-type]
        doublings=raw.get("doublings"),
        doubling_seats=_as_tuple(raw.get("doubling_seats")),  # type: ignore[arg-type]
        declarer_points=raw.get("declarer_points"),  # type: ignore[arg-type]
    )
    # KopDeal uses None for "not given", so a JSON null would pass as absent.
    nulls = [key for key in ("doublings", "doubling_seats") if key in raw and raw[key] is None]
    local += [
        field_problem(e.problem)
        for e in kop.check_deal(deal, rules)
        if e.field not in skip and e.field not in nulls
    ]
    local += [expected(key, _EXPECTED[key], None) for key in nulls]
    warnings = raw.get("warnings", [])
    if not isinstance(warnings, list) or not all(isinstance(w, str) for w in warnings):
        local.append(expected("warnings", "messages", warnings))
    problems.extend(located(p, deal=n) for p in local)
    return (deal, voided) if not local else None


def read_kop_sheet(data: object) -> KopSheet:
    """Parse and validate a sheet; every problem at once in a ``SheetError``."""
    if not isinstance(data, dict):
        raise SheetError([not_an_object(data, shown_value=True)])
    problems = _unknown_keys(data, SHEET_KEYS)
    problems += [missing(key) for key in REQUIRED_SHEET_KEYS if key not in data]

    game = data.get("game")
    rules: kop.KopRules | None = None
    if "game" in data:
        if not isinstance(game, str) or game not in kop.GAMES:
            text = f"{shown(game)} is not a Kop or Baśka game (kop, baska)"
            problems.append(sheet_problem("kop.game_unknown", text, "game", value=shown(game)))
        else:
            # Problems in the options are reported, and the deals are still
            # checked against the options that were fine.
            rules, rule_problems = kop.collect_rules(game, data.get("rules", {}))
            # Option messages already start with the option's name.
            problems += [rules_problem(e.problem) for e in rule_problems]

    if "players" in data:
        problems += _check_players(data["players"])

    deals: list[kop.KopDeal] = []
    voided: set[int] = set()
    raw_deals = data.get("deals", [])
    if not isinstance(raw_deals, list):
        problems.append(expected("deals", "deals", raw_deals))
        raw_deals = []
    # Without a known game the deals are still checked, against Baśka's
    # superset of contracts, so that one typo does not hide the others.
    deal_rules = rules if rules is not None else kop.default_rules("baska")
    for n, raw in enumerate(raw_deals, 1):
        read = _read_deal(n, raw, deal_rules, problems)
        if read is not None:
            deals.append(read[0])
            if read[1]:
                voided.add(n)

    if problems:
        raise SheetError(problems)
    assert rules is not None and isinstance(game, str)
    players = data["players"]
    return KopSheet(
        game,
        rules,
        (players[0], players[1], players[2], players[3]),
        tuple(deals),
        frozenset(voided),
    )


def score_kop_sheet(data: object) -> dict[str, object]:
    """Score a sheet: the format's output (game, players, deals, totals)."""
    sheet = read_kop_sheet(data)
    return sheet_result(sheet, kop.score_table(sheet.counted, sheet.rules))


def results_in_place(sheet: KopSheet, table: kop.TableResult) -> list[kop.KopResult | None]:
    """The results of ``table`` (the counted deals scored) put back in the deals' places,
    ``None`` where a deal is voided."""
    counted = iter(table.results)
    return [None if n in sheet.voided else next(counted) for n in range(1, len(sheet.deals) + 1)]


def sheet_result(sheet: KopSheet, table: kop.TableResult) -> dict[str, object]:
    """The output object for an already scored sheet (``table``: its counted deals)."""
    return {
        "game": sheet.game,
        "players": list(sheet.players),
        "deals": [
            {"voided": True, "value": 0, "payments": [0, 0, 0, 0], "warnings": []}
            if r is None
            else {
                "value": r.value,
                "declarers_won": r.declarers_won,
                "payments": list(r.payments),
                # R5, R6, soloist_doubling, impossible totals: they never change a number.
                "warnings": list(r.warnings),
            }
            for r in results_in_place(sheet, table)
        ],
        "totals": list(table.totals),
    }


def check_kop_sheet(data: object) -> list[str]:
    """Validate a sheet (``SheetError`` if invalid) and return its warnings.

    Warnings are doubtful but legal entries the scorer should confirm: card
    points that no set of tricks can make, a soloist who doubled first (R5),
    a wesele bidder who doubled (R6). One line each, "deal n: field: ...".
    """
    sheet = read_kop_sheet(data)
    table = kop.score_table(sheet.counted, sheet.rules)
    return [
        f"deal {n}: {warning}"
        for n, result in enumerate(results_in_place(sheet, table), 1)
        if result is not None
        for warning in result.warnings
    ]


def kop_sheet_from_deals(
    game: str,
    rules: kop.KopRules | Mapping[str, object] | None,
    players: Sequence[str],
    deals: Iterable[kop.KopDeal],
    voided: Collection[int] = (),
) -> KopSheetJson:
    """The input-format sheet for recorded deals (the inverse of ``read_kop_sheet``).

    ``voided`` are the numbers (1-based) of the deals struck out: they are written in
    their places with ``"voided": true``.

    ``rules`` may be ``KopRules``, an options mapping or ``None`` (defaults).
    The sheet spells out every option, so it scores the same even if a later
    version changes a default. The result is read back before it is returned:
    deals that would not re-import raise ``SheetError`` here, not at import.
    """
    if isinstance(rules, kop.KopRules):
        if rules.game != game:
            raise RuleError(
                f"the rules are for {rules.game}, the sheet for {game}",
                field="game",
                code="kop.sheet_game_mismatch",
                params={"game": rules.game, "sheet_game": game},
            )
        options = kop.rules_to_options(rules)
    elif rules is None:
        options = kop.rules_to_options(kop.default_rules(game))
    else:
        options = kop.rules_to_options(kop.parse_rules(game, rules))
    sheet: KopSheetJson = {
        "game": game,
        "rules": options,
        "players": list(players),
        "deals": [_deal_to_json(d, n in voided) for n, d in enumerate(deals, 1)],
    }
    read_kop_sheet(sheet)
    return sheet


def _deal_to_json(deal: kop.KopDeal, voided: bool = False) -> KopDealJson:
    # A voided deal may lack facts: only what it has is written.
    out: KopDealJson = {"contract": deal.contract}
    if deal.declarers or not voided:
        out["declarers"] = list(deal.declarers)
    if deal.doublings is not None:
        out["doublings"] = deal.doublings
    if deal.doubling_seats is not None:
        out["doubling_seats"] = list(deal.doubling_seats)
    if deal.declarer_points is not None or not voided:
        out["declarer_points"] = deal.declarer_points
    if voided:
        out["voided"] = True
    return out
