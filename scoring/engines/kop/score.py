"""Scoring a Kop or Baśka deal and a table: the game value and who pays (``rules/kop.md``
§5, §6.2).

Vocabulary
----------
won
    The declarers win with P >= 53 (52 : 52 is theirs to lose); in a *du*
    contract (tout) only by taking all four tricks, P = 104 (§5.1).
C
    The contract factor (§5.2); ``contract_factor`` replaces it for the
    contracts it names (§7.1).
M
    The margin: 1 *z wyjściem*; 2 *bez wyjścia* (the losing side took at
    most ``bez_wyjscia_max`` points); 3 *bez bitki* (the losing side took no
    trick). Always 1 for du contracts unless ``margin_on_du``.
L
    Baśka's loss factor: 2 when the declaring side loses, else 1.
V
    The game value, C * 2^k * M * L (k: the effective doublings). Two
    against two: each winner receives V, each loser pays V. One against
    three: the soloist wins or pays V from or to each opponent, so his net
    is 3V (§5.3). Every deal sums to zero: the **payments** are the four
    seats' nets.
warning
    Doubtful but possible facts score normally and are reported for the
    scorer to confirm: points no set of tricks makes (Appendix A), a
    doubling by the soloist first (R5) or at all (``soloist_doubling=
    "never"``), a doubling by the wesele bidder (R6).
table
    A table's deals scored in order, with each seat's running total.

Speed: ``KopRules.tables`` holds, per allowed contract, the outcome for
every P and the payment signs for every set of declarers, so a deal is
scored by indexing and multiplying (see ``benchmarks/bench_kop_engine.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from scoring.engines.errors import IN_DEAL, EngineBug, Problem, RuleError
from scoring.engines.kop.contracts import (
    SEATS,
    TOTAL_POINTS,
    Contract,
    contracts_for,
    is_attainable,
)
from scoring.engines.kop.deal import KopDeal, check_deal

if TYPE_CHECKING:
    from scoring.engines.kop.options import KopRules

#: Every problem code this module can emit (warnings; see ``errors.py``).
CODES: Final = frozenset(
    {
        "kop.points_impossible",
        "kop.soloist_doubled",
        "kop.soloist_doubled_first",
        "kop.wesele_bidder_doubled",
    }
)


@dataclass(frozen=True)
class KopResult:
    """A scored deal. ``payments`` are the four seats' nets, seat 1 first."""

    value: int
    declarers_won: bool
    k: int
    margin: int
    L: int
    payments: tuple[int, int, int, int]
    #: Doubtful but possible entries for the scorer to confirm, in English
    #: (stored with a deal as the warnings its scorer confirmed).
    warnings: tuple[str, ...] = ()
    #: The same warnings as data, one ``Problem`` per string, in the same order.
    warning_problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class TableResult:
    """A table's deals scored in order, with each seat's total after each deal."""

    results: tuple[KopResult, ...]
    running_totals: tuple[tuple[int, int, int, int], ...]
    totals: tuple[int, int, int, int]


_UNCAPPED: Final = sys.maxsize
_new_object: Final = object.__new__
_MEMO_SIZE: Final = 2048  # per contract; a busy table uses a few hundred


class _ContractTable:
    """Everything about one contract under one set of rules, precomputed."""

    __slots__ = (
        "cap",
        "contract",
        "known",
        "outcomes",
        "never_applies",
        "r5_applies",
        "r6_applies",
        "seat_rules",
        "signs",
        "single",
    )

    def __init__(self, contract: Contract, rules: KopRules) -> None:
        self.contract = contract
        cap = rules.doubling_cap[contract.name]
        self.cap = _UNCAPPED if cap is None else cap
        self.single = contract.declarers == 1
        self.r5_applies = self.single and rules.soloist_doubling == "not_first"
        self.never_applies = self.single and rules.soloist_doubling == "never"
        self.r6_applies = contract.name == "wesele" and not rules.wesele_bidder_may_double
        self.seat_rules = self.r5_applies or self.never_applies or self.r6_applies
        self.known: dict[tuple[object, ...], KopResult] = {}
        # outcomes[P] = (declarers won, C * M * L, M, L, warning problems, their messages)
        self.outcomes = tuple(_outcome(contract, rules, p) for p in range(TOTAL_POINTS + 1))
        # signs[declarers] = (unit payments if the declarers win, if they lose)
        self.signs: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        if self.single:
            sides: Iterable[tuple[int, ...]] = ((s,) for s in SEATS)
        else:
            sides = ((a, b) for a in SEATS for b in SEATS if a != b)
        share = 4 - contract.declarers  # opponents each pay V; declarers split it
        for side in sides:
            unit = tuple(share // len(side) if s in side else -1 for s in SEATS)
            self.signs[side] = (unit, tuple(-u for u in unit))


def _outcome(
    contract: Contract, rules: KopRules, p: int
) -> tuple[bool, int, int, int, tuple[Problem, ...], tuple[str, ...]]:
    factor = rules.contract_factor[contract.name]
    if contract.name == "baska" and rules.baska_bid == "auto_win":
        # No play (A10 alternative): the four queens win, V = C * 2^k.
        return True, factor, 1, 1, (), ()
    won = p == TOTAL_POINTS if contract.is_du else p >= rules.declarer_target
    loser_points = TOTAL_POINTS - p if won else p
    # §7.1: the threshold is the losing side's (the defenders lost if the declarers won).
    bez_max = rules.bez_wyjscia_defenders if won else rules.bez_wyjscia_declarers
    margin = 1
    if not contract.is_du or rules.margin_on_du:
        if loser_points == 0:
            margin = 3
        elif loser_points <= bez_max:
            margin = 2
    loss = 2 if rules.baska_loss_double and not won else 1
    warnings: tuple[Problem, ...] = ()
    if not is_attainable(p):
        warnings = (
            Problem(
                "kop.points_impossible",
                {"points": p, "opponents": TOTAL_POINTS - p},
                "declarer_points",
                f"declarer_points: {p} : {TOTAL_POINTS - p} cannot occur "
                "(no set of tricks is worth that); please confirm",
            ),
        )
    messages = tuple(w.message for w in warnings)
    return won, factor * margin * loss, margin, loss, warnings, messages


class ScoringTables:
    """What scoring needs of one set of rules, per allowed contract (``KopRules.tables``)."""

    __slots__ = ("by_contract", "every_call", "rules")

    def __init__(self, rules: KopRules) -> None:
        self.rules = rules
        self.every_call = rules.doubling_count == "every_call"
        # Only the allowed contracts: any other one falls to check_deal, which names it.
        self.by_contract = {
            c.name: _ContractTable(c, rules) for c in contracts_for(rules.game, rules)
        }


def _score(deal: KopDeal, tables: ScoringTables, retry: bool = True) -> KopResult:
    # The fast path accepts only canonical input (str, tuples, plain ints) and
    # hands anything else to _score_checked, which explains or normalises it.
    declarers = deal.declarers
    try:
        ct = tables.by_contract[deal.contract]
        signs = ct.signs[declarers]
    except (KeyError, TypeError):
        return _score_checked(deal, tables, retry)
    if declarers[0].__class__ is not int or declarers[-1].__class__ is not int:
        # True == 1 would find seat 1's entry; a seat must be a real int.
        return _score_checked(deal, tables, retry)
    seats = deal.doubling_seats
    k = deal.doublings
    if seats is None:
        if k.__class__ is not int or k < 0 or k > ct.cap:
            return _score_checked(deal, tables, retry)
        seat_flags = 0
    else:
        if k is not None or seats.__class__ is not tuple:
            return _score_checked(deal, tables, retry)
        # effective_doublings, inlined: half of all deals come this way.
        k = 0
        last_side = None
        for seat in seats:
            if seat.__class__ is not int or not 0 < seat < 5:
                return _score_checked(deal, tables, retry)
            side = seat in declarers
            if side is not last_side:
                k += 1
                last_side = side
        if tables.every_call:
            k = len(seats)
        if k > ct.cap:
            return _score_checked(deal, tables, retry)
        seat_flags = _seat_flags(ct, declarers, seats) if ct.seat_rules else 0
    p = deal.declarer_points
    if p.__class__ is not int or not 0 <= p <= TOTAL_POINTS:
        return _score_checked(deal, tables, retry)
    # A table has few distinct outcomes (seats x k x points) and results are
    # immutable, so equal facts share one result. The memo is per rules and
    # bounded, so a long-lived rules object cannot grow without limit.
    key = (declarers, k, p, seat_flags)
    known = ct.known.get(key)
    if known is not None:
        return known
    won, base, margin, loss, problems, warnings = ct.outcomes[p]
    value = base << k
    a, b, c, d = signs[0] if won else signs[1]
    payments = (value * a, value * b, value * c, value * d)
    if payments[0] + payments[1] + payments[2] + payments[3]:
        raise EngineBug(f"payments {payments} of {deal} do not sum to zero")
    if seat_flags:
        problems = problems + _seat_warnings(ct, declarers, seat_flags)
        warnings = tuple(w.message for w in problems)
    # KopResult(...) would spend over half of this function's time in the
    # frozen dataclass's per-field object.__setattr__ calls; filling the
    # instance dict at once builds the same, equal, immutable-by-API object.
    result = _new_object(KopResult)
    result.__dict__.update(
        value=value,
        declarers_won=won,
        k=k,
        margin=margin,
        L=loss,
        payments=payments,
        warnings=warnings,
        warning_problems=problems,
    )
    if len(ct.known) < _MEMO_SIZE:
        ct.known[key] = result
    return result


def _score_checked(deal: KopDeal, tables: ScoringTables, retry: bool) -> KopResult:
    problems = check_deal(deal, tables.rules)
    if problems:
        raise problems[0]
    if not retry:
        raise EngineBug(f"the fast path refused {deal}, but check_deal finds nothing wrong")
    canonical = KopDeal(
        contract=str(deal.contract),
        declarers=tuple(int(s) for s in deal.declarers),
        doublings=None if deal.doublings is None else int(deal.doublings),
        doubling_seats=(
            None if deal.doubling_seats is None else tuple(int(s) for s in deal.doubling_seats)
        ),
        declarer_points=int(deal.declarer_points),
    )
    return _score(canonical, tables, retry=False)


_R5_BROKEN: Final = 1
_R6_BROKEN: Final = 2
_NEVER_BROKEN: Final = 4


def _seat_flags(ct: _ContractTable, declarers: tuple[int, ...], seats: Sequence[int]) -> int:
    # A bit per seat rule broken: cheap to compute and to key the memo on; the
    # warnings themselves follow from the flags and the declarers.
    flags = 0
    if ct.r5_applies and seats and seats[0] == declarers[0]:
        flags = _R5_BROKEN
    if ct.never_applies and declarers[0] in seats:
        flags |= _NEVER_BROKEN
    if ct.r6_applies and declarers[0] in seats:
        flags |= _R6_BROKEN
    return flags


def _seat_warnings(
    ct: _ContractTable, declarers: tuple[int, ...], flags: int
) -> tuple[Problem, ...]:
    out: list[Problem] = []
    if flags & _R5_BROKEN:
        # R5 broken: the first doubler is the soloist, declarers[0].
        out.append(
            Problem(
                "kop.soloist_doubled_first",
                {"seat": declarers[0], "contract": ct.contract.name},
                "doubling_seats",
                f"doubling_seats: seat {declarers[0]}, the soloist, made the first doubling "
                "(R5 forbids it); please confirm",
            )
        )
    if flags & _NEVER_BROKEN:
        # soloist_doubling "never" (Kościan): the soloist may not double at all.
        out.append(
            Problem(
                "kop.soloist_doubled",
                {"seat": declarers[0], "contract": ct.contract.name},
                "doubling_seats",
                f"doubling_seats: seat {declarers[0]}, the soloist, doubled "
                "(these rules forbid the soloist any doubling); please confirm",
            )
        )
    if flags & _R6_BROKEN:
        out.append(
            Problem(
                "kop.wesele_bidder_doubled",
                {"seat": declarers[0]},
                "doubling_seats",
                f"doubling_seats: seat {declarers[0]}, the wesele bidder, doubled "
                "(R6 forbids it); please confirm",
            )
        )
    return tuple(out)


def score_deal(deal: KopDeal, rules: KopRules) -> KopResult:
    """Score one deal by §6.2. Bad input raises ``RuleError`` naming the field.

    Doubtful but possible input (points that cannot occur, a doubling that
    R5 or R6 forbids) scores normally and is reported in ``warnings`` (and as
    data in ``warning_problems``).
    """
    return _score(deal, rules.tables)


def score_table(deals: Iterable[KopDeal], rules: KopRules) -> TableResult:
    """Score a table's deals in order; a bad deal raises ``RuleError`` "deal n: ...".

    The error keeps the deal's code and params and adds ``params[IN_DEAL] = n``.
    """
    tables = rules.tables
    results: list[KopResult] = []
    running: list[tuple[int, int, int, int]] = []
    t1 = t2 = t3 = t4 = 0
    score = _score
    add_result = results.append
    add_running = running.append
    for n, deal in enumerate(deals, 1):
        try:
            result = score(deal, tables)
        except RuleError as e:
            raise RuleError(
                f"deal {n}: {e.message}",
                field=e.field,
                code=e.code,
                params={**e.params, IN_DEAL: n},
                root=e.root,
            ) from e
        add_result(result)
        p1, p2, p3, p4 = result.payments
        t1 += p1
        t2 += p2
        t3 += p3
        t4 += p4
        add_running((t1, t2, t3, t4))
    return TableResult(tuple(results), tuple(running), (t1, t2, t3, t4))
