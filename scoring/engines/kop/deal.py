"""A Kop or Baśka deal's facts and their checks (``rules/kop.md`` §6.1).

Vocabulary
----------
facts
    What the scorer records of a deal (a ``KopDeal``): the contract, the
    declarers, the doublings and the declarers' card points.
declarers
    The declaring side: the two Old (``normal``; the holders of the two
    black queens, *starzy*), the wesele pair (bidder first, then the jack
    holder), or a single soloist (``cicha``, ``zolo``, ``zolo_du``; in Baśka
    also ``grand``, ``grand_du``, ``baska``). The others are the opponents
    (defenders, in a normal game the Young, *młodzi*).
P
    The declarers' card points, ``declarer_points`` (0..104); the opponents
    hold 104 - P.
problem
    A ``RuleError`` (not raised) naming the field and, as data, what is
    wrong (``code``, ``params``; see ``errors.py``). ``check_deal`` lists
    every one; doubtful but possible facts are not problems but warnings
    (``score``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from scoring.engines.errors import RuleError, show_value
from scoring.engines.kop.contracts import CONTRACTS, SEATS, TOTAL_POINTS, contracts_for, is_int
from scoring.engines.kop.doublings import effective_doublings

if TYPE_CHECKING:
    from scoring.engines.kop.options import KopRules

#: Every problem code this module can emit (see ``errors.py``).
CODES: Final = frozenset(
    {
        "kop.contract_not_allowed",
        "kop.contract_unknown",
        "kop.declarers_need_one",
        "kop.declarers_need_two",
        "kop.doubling_seats_above_cap",
        "kop.doublings_above_cap",
        "kop.doublings_both",
        "kop.doublings_missing",
        "kop.doublings_negative",
        "kop.not_an_integer",
        "kop.points_out_of_range",
        "kop.seat_invalid",
        "kop.seats_not_a_list",
        "kop.seats_repeated",
    }
)


@dataclass(frozen=True, kw_only=True)
class KopDeal:
    """The facts of one deal (§6.1). Give exactly one of doublings / doubling_seats."""

    contract: str
    declarers: tuple[int, ...]
    doublings: int | None = None
    doubling_seats: tuple[int, ...] | None = None
    declarer_points: int


def check_deal(deal: KopDeal, rules: KopRules) -> list[RuleError]:
    """Every problem with a deal (empty if ``score_deal`` would accept it)."""
    problems: list[RuleError] = []
    contract = CONTRACTS.get(deal.contract) if isinstance(deal.contract, str) else None
    if contract is None or rules.game not in contract.games:
        names = [c.name for c in contracts_for(rules.game)]
        game = "Kop" if rules.game == "kop" else "Baśka"
        problems.append(
            RuleError(
                f"{show_value(deal.contract)} is not a {game} contract ({', '.join(names)})",
                field="contract",
                code="kop.contract_unknown",
                params={"value": show_value(deal.contract), "game": rules.game, "contracts": names},
            )
        )
        contract = None
    elif rules.contracts is not None and contract.name not in rules.contracts:
        allowed = list(rules.contracts)
        problems.append(
            RuleError(
                f"{contract.name} is not played under these rules ({', '.join(allowed)})",
                field="contract",
                code="kop.contract_not_allowed",
                params={"contract": contract.name, "contracts": allowed},
            )
        )
        contract = None

    declarers = deal.declarers
    seats_ok = False
    if not isinstance(declarers, tuple | list):
        problems.append(
            RuleError(
                f"expected a list of seats, got {show_value(declarers)}",
                field="declarers",
                code="kop.seats_not_a_list",
                params={"value": show_value(declarers)},
            )
        )
    else:
        bad = [s for s in declarers if not is_int(s) or s not in SEATS]
        if bad:
            problems.append(
                RuleError(
                    f"{show_value(bad[0])} is not a seat (1..4)",
                    field="declarers",
                    code="kop.seat_invalid",
                    params={"value": show_value(bad[0])},
                )
            )
        elif len(set(declarers)) != len(declarers):
            problems.append(
                RuleError(
                    f"seats {list(declarers)} repeat a seat",
                    field="declarers",
                    code="kop.seats_repeated",
                    params={"seats": list(declarers)},
                )
            )
        elif contract is not None and len(declarers) != contract.declarers:
            two = contract.declarers == 2
            need = "two different seats" if two else "exactly one seat"
            problems.append(
                RuleError(
                    f"{contract.name} needs {need}, got {list(declarers)}",
                    field="declarers",
                    code="kop.declarers_need_two" if two else "kop.declarers_need_one",
                    params={"contract": contract.name, "seats": list(declarers)},
                )
            )
        else:
            seats_ok = True

    cap = rules.doubling_cap[contract.name] if contract is not None else None
    cap_text = f"the cap of {cap} for {contract.name}" if contract is not None else ""
    if deal.doublings is not None and deal.doubling_seats is not None:
        problems.append(
            RuleError(
                "give doublings or doubling_seats, not both",
                field="doubling_seats",
                code="kop.doublings_both",
            )
        )
    elif deal.doublings is None and deal.doubling_seats is None:
        problems.append(
            RuleError(
                "give doublings (the count k) or doubling_seats",
                field="doublings",
                code="kop.doublings_missing",
            )
        )
    elif deal.doublings is not None:
        k = deal.doublings
        if not is_int(k):
            problems.append(
                RuleError(
                    f"expected an integer, got {show_value(k)}",
                    field="doublings",
                    code="kop.not_an_integer",
                    params={"value": show_value(k)},
                )
            )
        elif k < 0:
            problems.append(
                RuleError(
                    f"{k} is below 0",
                    field="doublings",
                    code="kop.doublings_negative",
                    params={"value": k},
                )
            )
        elif cap is not None and k > cap:
            assert contract is not None  # a cap belongs to a contract
            problems.append(
                RuleError(
                    f"{k} is above {cap_text}",
                    field="doublings",
                    code="kop.doublings_above_cap",
                    params={"value": k, "cap": cap, "contract": contract.name},
                )
            )
    else:
        seats = deal.doubling_seats
        if not isinstance(seats, tuple | list):
            problems.append(
                RuleError(
                    f"expected a list of seats, got {show_value(seats)}",
                    field="doubling_seats",
                    code="kop.seats_not_a_list",
                    params={"value": show_value(seats)},
                )
            )
        else:
            try:
                k = effective_doublings(
                    seats, declarers if seats_ok else (), doubling_count=rules.doubling_count
                )
            except RuleError as e:
                problems.append(e)
            else:
                if seats_ok and cap is not None and k > cap:
                    assert contract is not None  # a cap belongs to a contract
                    problems.append(
                        RuleError(
                            f"{list(seats)} make {k} counted doublings, above {cap_text}",
                            field="doubling_seats",
                            code="kop.doubling_seats_above_cap",
                            params={
                                "seats": list(seats),
                                "k": k,
                                "cap": cap,
                                "contract": contract.name,
                            },
                        )
                    )

    p = deal.declarer_points
    if not is_int(p):
        problems.append(
            RuleError(
                f"expected an integer, got {show_value(p)}",
                field="declarer_points",
                code="kop.not_an_integer",
                params={"value": show_value(p)},
            )
        )
    elif not 0 <= p <= TOTAL_POINTS:
        problems.append(
            RuleError(
                f"{p} is outside 0..{TOTAL_POINTS}",
                field="declarer_points",
                code="kop.points_out_of_range",
                params={"value": p, "low": 0, "high": TOTAL_POINTS},
            )
        )
    return problems
