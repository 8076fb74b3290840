"""The rule options of Vint (``rules/vint.md`` §7) and their parsing.

Vocabulary
----------
option
    One row of the §7 table (A1..A31) that has a name, written in snake_case
    as in ``shared/formats/scoresheet-json.md`` (``misere_trick_credit``,
    ``all_pass``). Its **default** is the document's; its **values** are the
    default and the alternatives the row names. Values compare with their
    type: JSON ``true`` is not ``1`` and ``4`` is not ``"4"``.
rules
    A ``VintRules``: one value for every option, checked when it is built.
    A rule profile (``scoring/engines/rules.py``) stores the options that
    differ from the defaults.
no score effect
    A7, A15, A16 and A25 concern the auction or seating, which the scorer
    does not record; they are accepted and kept so that a sheet carrying
    them survives an export and re-import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from difflib import get_close_matches
from typing import Final, Literal

from scoring.engines.errors import RuleError, show_value

#: Every problem code this module can emit (the ``rules.option_*`` codes are
#: shared with Kop; see ``errors.py``).
CODES: Final = frozenset(
    {
        "rules.option_choice",
        "rules.option_flag",
        "rules.option_integer",
        "rules.option_misspelt",
        "rules.option_unknown",
        "vint.option_level_min_unsupported",
    }
)


@dataclass(frozen=True)
class _Option:
    default: object
    values: tuple[object, ...] | None  # None: any non-negative integer
    source: str  # the row of rules/vint.md §7


# Every §7 option that has a snake_case name. A few change nothing the engine
# computes (they concern seating or the auction), but a sheet may carry them,
# so they are accepted and kept to survive an export and re-import.
OPTIONS: Final[Mapping[str, _Option]] = {
    "misere_trick_credit": _Option("mirror", ("mirror", "as_taken", "none"), "A5"),
    "trick_sides": _Option("both", ("both", "declarer_only", "declarer_if_made"), "A4"),
    "double_scope": _Option("play", ("play", "all", "contract_only"), "A13"),
    "extra_game_count": _Option("per_side", ("per_side", "overall"), "A18"),
    "simultaneous_game": _Option("higher", ("higher", "declarer_first", "both"), "A17"),
    "grand_doubles_ace_premium": _Option(False, (False, True), "A10"),
    "level_min": _Option(4, (4,), "A1"),
    "scale": _Option(1, (1, 10), "A2"),
    "odd_tricks_only": _Option(False, (False, True), "A3"),
    "all_pass": _Option("play", ("play", "redeal"), "A6"),
    "holdings_at": _Option(
        "first_lead", ("first_lead", "before_defender_exchange"), "A7 (no score effect)"
    ),
    "team_aces_all_contracts": _Option(False, (False, True), "A8"),
    "sequences_partnership": _Option(False, (False, True), "A9"),
    "holdings_in_misere": _Option(False, (False, True), "A11"),
    "ace_dump_sides": _Option("both", ("both", "declarer_only"), "A12"),
    "ace_dump_doubled": _Option(True, (True, False), "A12"),
    "game_uses_undoubled_tricks": _Option(False, (False, True), "A14"),
    "declarer_fixed_after_first_auction": _Option(False, (False, True), "A15 (no score effect)"),
    "second_auction_same_denomination": _Option(False, (False, True), "A16 (no score effect)"),
    "totals_above_only": _Option(False, (False, True), "A19"),
    "result_method": _Option("net", ("net", "rubber_differential"), "A20"),
    "overtrick_4": _Option(0, None, "A21"),
    "exchange_rule_on_first_auction_level": _Option(False, (False, True), "A25 (no score effect)"),
    "unfinished_rubber_bonus": _Option("none", ("none", "200_per_game_lead"), "A27"),
    "round_to_100": _Option(False, (False, True), "A30"),
    "session_structure": _Option("rotated", ("rotated", "free"), "A31"),
}


def _option_problem(name: str, value: object) -> RuleError | None:
    """Why ``value`` is not a valid value of option ``name`` (not raised), or None."""
    spec = OPTIONS.get(name)
    if spec is None:
        hint = get_close_matches(name, OPTIONS, n=1)
        return RuleError(
            f"{name}: unknown option (known: {', '.join(sorted(OPTIONS))})",
            field=name,
            code="rules.option_misspelt" if hint else "rules.option_unknown",
            params={"option": name, "game": "vint"} | ({"suggestion": hint[0]} if hint else {}),
        )
    shown = {"option": name, "value": show_value(value)}
    if spec.values is None:
        if type(value) is not int or value < 0:
            return RuleError(
                f"{name}: {show_value(value)} is not a non-negative integer",
                field=name,
                code="rules.option_integer",
                params=shown,
            )
        return None
    # JSON true is not 1 and 4 is not "4": compare the types as well.
    if any(type(value) is type(v) and value == v for v in spec.values):
        return None
    if name == "level_min" and value == 1 and type(value) is int:
        return RuleError(
            "level_min: 1 is not supported: rules/vint.md §7 A1 leaves the made, "
            "overtrick and special values of levels 1-3 to be supplied",
            field=name,
            code="vint.option_level_min_unsupported",
            params=shown,
        )
    allowed = ", ".join(show_value(v) for v in spec.values)
    message = f"{name}: {show_value(value)} is not one of {allowed}"
    if all(type(v) is bool for v in spec.values):
        return RuleError(message, field=name, code="rules.option_flag", params=shown)
    return RuleError(
        message,
        field=name,
        code="rules.option_choice",
        params={
            **shown,
            "allowed": [v if isinstance(v, str) else show_value(v) for v in spec.values],
        },
    )


@dataclass(frozen=True, slots=True)
class VintRules:
    """Every §7 option of ``rules/vint.md``; the defaults are the document's.

    Options marked "no score effect" (A7, A15, A16, A25) concern the auction or
    seating only; they are kept so that a sheet carrying them round-trips.
    """

    misere_trick_credit: Literal["mirror", "as_taken", "none"] = "mirror"
    trick_sides: Literal["both", "declarer_only", "declarer_if_made"] = "both"
    double_scope: Literal["play", "all", "contract_only"] = "play"
    extra_game_count: Literal["per_side", "overall"] = "per_side"
    simultaneous_game: Literal["higher", "declarer_first", "both"] = "higher"
    grand_doubles_ace_premium: bool = False
    level_min: int = 4
    scale: int = 1
    odd_tricks_only: bool = False
    all_pass: Literal["play", "redeal"] = "play"
    holdings_at: Literal["first_lead", "before_defender_exchange"] = "first_lead"
    team_aces_all_contracts: bool = False
    sequences_partnership: bool = False
    holdings_in_misere: bool = False
    ace_dump_sides: Literal["both", "declarer_only"] = "both"
    ace_dump_doubled: bool = True
    game_uses_undoubled_tricks: bool = False
    declarer_fixed_after_first_auction: bool = False
    second_auction_same_denomination: bool = False
    totals_above_only: bool = False
    result_method: Literal["net", "rubber_differential"] = "net"
    overtrick_4: int = 0
    exchange_rule_on_first_auction_level: bool = False
    unfinished_rubber_bonus: Literal["none", "200_per_game_lead"] = "none"
    round_to_100: bool = False
    session_structure: Literal["rotated", "free"] = "rotated"

    def __post_init__(self) -> None:
        for f in fields(self):
            problem = _option_problem(f.name, getattr(self, f.name))
            if problem is not None:
                raise problem


DEFAULT_RULES: Final = VintRules()


def collect_rules(options: Mapping[str, object]) -> tuple[VintRules, list[RuleError]]:
    """Check every option; return the rules built from the valid ones and a
    ``RuleError`` (not raised) for each bad one (empty when all are valid)."""
    problems: list[RuleError] = []
    good: dict[str, object] = {}
    for name, value in options.items():
        problem = _option_problem(str(name), value)
        if problem is None:
            good[name] = value
        else:
            problems.append(problem)
    return VintRules(**good), problems  # type: ignore[arg-type]


def rules_problems(options: Mapping[str, object]) -> tuple[VintRules, list[tuple[str, str]]]:
    """``collect_rules`` with the problems as ``(option name, message)`` pairs."""
    rules, problems = collect_rules(options)
    return rules, [(p.field or "", p.message) for p in problems]


def parse_rules(options: Mapping[str, object]) -> VintRules:
    """``VintRules`` from a mapping of snake_case option names to values.

    Omitted options take the default; an unknown name or value raises
    ``RuleError`` naming the option (the first one found).
    """
    rules, problems = collect_rules(options)
    if problems:
        raise problems[0]
    return rules


def rules_to_options(rules: VintRules) -> dict[str, object]:
    """Every option of ``rules`` by its format name; ``parse_rules`` inverts it."""
    return {f.name: getattr(rules, f.name) for f in fields(rules)}
