"""The entry checks of a Vint deal (``rules/vint.md`` §5): what each kind of deal needs.

``deal_problems`` is the one entry point. This module checks the fields a
kind of deal needs or forbids and their ranges: a contract's declarer,
doubling, tricks and honours or grand aces; an all-pass deal's two trick
counts. What the aces in hand, the runs and the ace dumps say about where
the cards are is checked in ``card_checks``.

Vocabulary
----------
kind of deal
    "suit", "grand", "misere" or "pass" (an all-pass deal): the ``kind``
    param of a "not on this kind of deal" problem (``vint.honours_not_here``).
unknown
    The fields whose input was unreadable (a sheet parser marks them): the
    checks that relate them to other fields are skipped, so that one typo
    does not produce a cascade of follow-on problems.
common case
    A suit or grand contract with nothing unusual (no aces in hand, runs or
    dumps): ``deal_problems`` clears it in a few tests, since every scored
    deal is checked first (see ``benchmarks/bench_vint_engine.py``).
"""

from __future__ import annotations

from typing import Final, cast

from scoring.engines.errors import Params, show_value
from scoring.engines.vint.card_checks import check_aces, check_dumps, check_hand_and_runs
from scoring.engines.vint.facts import (
    DENOMINATION_BY_NAME,
    LEVELS,
    MULTIPLIER,
    SUIT_BY_NAME,
    Contract,
    DealProblem,
    Holding,
    VintDeal,
    in_range,
)
from scoring.engines.vint.options import DEFAULT_RULES, VintRules
from scoring.engines.vint.table import (
    OTHER_SIDE,
    PREV_SEAT,
    SEAT_BY_NAME,
    SIDE_BY_NAME,
    SIDE_OF,
    TRICKS,
    Seat,
    Side,
)

#: Every problem code this module can emit (see ``errors.py``).
CODES: Final = frozenset(
    {
        "vint.ace_dumps_not_here",
        "vint.all_pass_redealt",
        "vint.contract_invalid",
        "vint.declarer_missing",
        "vint.declarer_on_all_pass",
        "vint.declarer_tricks_missing",
        "vint.declarer_tricks_on_all_pass",
        "vint.doubling_invalid",
        "vint.doubling_on_all_pass",
        "vint.grand_aces_count_out_of_range",
        "vint.grand_aces_not_here",
        "vint.honours_count_out_of_range",
        "vint.honours_missing",
        "vint.honours_not_here",
        "vint.seat_invalid",
        "vint.side_invalid",
        "vint.side_tricks_out_of_range",
        "vint.tricks_missing",
        "vint.tricks_on_contract",
        "vint.tricks_out_of_range",
        "vint.tricks_sum",
    }
)


def _kind(contract: Contract | None) -> str:
    """The kind of deal, as a param: "suit", "grand", "misere" or "pass"."""
    if contract is None:
        return "pass"
    return {"G": "grand", "M": "misere"}.get(contract.denomination, "suit")


def deal_problems(
    deal: VintDeal, rules: VintRules = DEFAULT_RULES, *, unknown: frozenset[str] = frozenset()
) -> list[DealProblem]:
    """Every entry check of §5 that ``deal``'s fields allow, in field order.

    ``unknown`` names fields whose input was unreadable (a sheet parser marks
    them): checks relating them to other fields are skipped, so that one typo
    does not produce a cascade of follow-on problems.
    """
    out: list[DealProblem] = []
    contract = deal.contract
    if contract is None:
        _check_all_pass(deal, rules, unknown, out)
        return out
    if (
        type(contract.level) is not int
        or contract.level not in LEVELS
        or contract.denomination not in DENOMINATION_BY_NAME
    ):
        text = f"{contract.level}{contract.denomination}"
        out.append(
            DealProblem(
                "contract",
                f"{text} is not a contract",
                "vint.contract_invalid",
                {"value": show_value(text)},
            )
        )
        return out
    # The common case (a suit or grand contract, nothing unusual) in few tests.
    denom = contract.denomination
    if (
        deal.declarer in SEAT_BY_NAME
        and deal.doubling in MULTIPLIER
        and type(deal.doubling) is int
        and type(deal.declarer_tricks) is int
        and 0 <= deal.declarer_tricks <= TRICKS
        and deal.tricks is None
        and not deal.ace_dumps
        and not deal.aces_in_hand
        and not deal.sequences
    ):
        honours = deal.honours
        team = deal.grand_aces
        if denom in SUIT_BY_NAME:
            if (
                team is None
                and honours is not None
                and honours.side in SIDE_BY_NAME
                and type(honours.count) is int
                and 5 <= honours.count <= 9
            ):
                return out
        elif honours is None and (
            team is None
            or (
                denom == "G"
                and team.side in SIDE_BY_NAME
                and type(team.count) is int
                and 3 <= team.count <= 4
            )
        ):
            return out
    _check_contract(deal, contract, rules, unknown, out)
    return out


def _check_contract(
    deal: VintDeal,
    contract: Contract,
    rules: VintRules,
    unknown: frozenset[str],
    out: list[DealProblem],
) -> None:
    name = str(contract)
    denom = contract.denomination
    kind = {"G": "a grand", "M": "a misère"}.get(denom, "a suit contract")
    # What a "not on this kind of deal" problem needs to say so.
    here: Params = {"contract": name, "kind": _kind(contract)}
    if deal.declarer is None:
        out.append(DealProblem("declarer", "required on a contract", "vint.declarer_missing"))
    elif deal.declarer not in SEAT_BY_NAME:
        out.append(
            DealProblem(
                "declarer",
                f"{show_value(deal.declarer)} is not a seat (N, E, S, W)",
                "vint.seat_invalid",
                {"value": show_value(deal.declarer)},
            )
        )
    if type(deal.doubling) is not int or deal.doubling not in MULTIPLIER:
        out.append(
            DealProblem(
                "doubling",
                f"{show_value(deal.doubling)} is not 0 (none), 1 (doubled) or 2 (redoubled)",
                "vint.doubling_invalid",
                {"value": show_value(deal.doubling)},
            )
        )
    tricks_ok = False
    if deal.declarer_tricks is None:
        out.append(
            DealProblem("declarer_tricks", "required on a contract", "vint.declarer_tricks_missing")
        )
    elif in_range(
        out, "declarer_tricks", deal.declarer_tricks, 0, TRICKS, "vint.tricks_out_of_range"
    ):
        tricks_ok = "declarer_tricks" not in unknown
    if deal.tricks is not None:
        out.append(
            DealProblem(
                "tricks",
                "only on an all-pass deal (a contract uses declarer_tricks)",
                "vint.tricks_on_contract",
                dict(here),
            )
        )

    honours_ok = False
    if denom in SUIT_BY_NAME:
        if deal.honours is None:
            if "honours" not in unknown:
                out.append(
                    DealProblem(
                        "honours",
                        f"required on {name}: the side holding 5 or more of the 9 honour "
                        "units, and how many (5..9)",
                        "vint.honours_missing",
                        {"contract": name},
                    )
                )
        else:
            honours_ok = _check_holding(
                deal.honours, "honours", 5, 9, "vint.honours_count_out_of_range", out
            )
    elif deal.honours is not None:
        out.append(
            DealProblem(
                "honours",
                f"only on suit contracts; {name} is {kind}",
                "vint.honours_not_here",
                dict(here),
            )
        )

    grand_ok = False
    if denom == "G" or (rules.team_aces_all_contracts and denom in SUIT_BY_NAME):
        if deal.grand_aces is not None:
            grand_ok = _check_holding(
                deal.grand_aces, "grand_aces", 3, 4, "vint.grand_aces_count_out_of_range", out
            )
        else:
            grand_ok = True
    elif deal.grand_aces is not None:
        out.append(
            DealProblem(
                "grand_aces",
                f"only on grand contracts; {name} is {kind}",
                "vint.grand_aces_not_here",
                dict(here),
            )
        )

    holdings_allowed = denom != "M" or rules.holdings_in_misere
    hand_ok, seq_ok = check_hand_and_runs(
        deal, holdings_allowed, f"{name} is {kind}", here, rules, out
    )

    if denom == "M":
        declarer_ok = deal.declarer in SEAT_BY_NAME and "declarer" not in unknown
        check_dumps(
            deal,
            # Dumps of a side land in the other side's tricks.
            tricks_of=(
                None
                if not (tricks_ok and declarer_ok)
                else _misere_tricks(cast(Seat, deal.declarer), cast(int, deal.declarer_tricks))
            ),
            eldest=PREV_SEAT[cast(str, deal.declarer)] if declarer_ok else None,
            unknown=unknown,
            out=out,
        )
    elif deal.ace_dumps:
        out.append(
            DealProblem(
                "ace_dumps",
                f"only in misère and all-pass deals; {name} is {kind}",
                "vint.ace_dumps_not_here",
                dict(here),
            )
        )

    if hand_ok and seq_ok and holdings_allowed:
        check_aces(
            deal,
            denom,
            rules,
            honours=deal.honours if honours_ok and "honours" not in unknown else None,
            grand=(denom == "G" and grand_ok and "grand_aces" not in unknown),
            unknown=unknown,
            out=out,
        )


def _misere_tricks(declarer: Seat, declarer_tricks: int) -> dict[Side, int]:
    side = SIDE_OF[declarer]
    return {side: declarer_tricks, OTHER_SIDE[side]: TRICKS - declarer_tricks}


def _check_holding(
    holding: Holding, name: str, low: int, high: int, count_code: str, out: list[DealProblem]
) -> bool:
    ok = True
    if holding.side not in SIDE_BY_NAME:
        out.append(
            DealProblem(
                f"{name}.side",
                f"{show_value(holding.side)} is not a side (NS, EW)",
                "vint.side_invalid",
                {"value": show_value(holding.side)},
                name,
            )
        )
        ok = False
    if not in_range(out, f"{name}.count", holding.count, low, high, count_code, root=name):
        ok = False
    return ok


def _check_all_pass(
    deal: VintDeal, rules: VintRules, unknown: frozenset[str], out: list[DealProblem]
) -> None:
    here: Params = {"contract": "pass", "kind": "pass"}
    if deal.declarer is not None:
        out.append(DealProblem("declarer", "not on an all-pass deal", "vint.declarer_on_all_pass"))
    if deal.doubling != 0:
        out.append(
            DealProblem(
                "doubling", "an all-pass deal cannot be doubled", "vint.doubling_on_all_pass"
            )
        )
    if deal.declarer_tricks is not None:
        out.append(
            DealProblem(
                "declarer_tricks",
                "not on an all-pass deal (give tricks for NS and EW)",
                "vint.declarer_tricks_on_all_pass",
            )
        )
    if deal.honours is not None:
        out.append(
            DealProblem(
                "honours",
                "only on suit contracts; this is an all-pass deal",
                "vint.honours_not_here",
                dict(here),
            )
        )
    if deal.grand_aces is not None:
        out.append(
            DealProblem(
                "grand_aces",
                "only on grand contracts; this is an all-pass deal",
                "vint.grand_aces_not_here",
                dict(here),
            )
        )
    split = deal.tricks
    tricks_of: dict[Side, int] | None = None
    if rules.all_pass == "redeal":
        if split is not None:
            out.append(
                DealProblem(
                    "tricks",
                    "under all_pass=redeal an all-pass deal is not played",
                    "vint.all_pass_redealt",
                )
            )
        if deal.ace_dumps:
            out.append(
                DealProblem(
                    "ace_dumps",
                    "under all_pass=redeal an all-pass deal is not played",
                    "vint.all_pass_redealt",
                )
            )
    elif split is None:
        if "tricks" not in unknown:
            out.append(
                DealProblem(
                    "tricks",
                    "required on an all-pass deal (NS and EW tricks)",
                    "vint.tricks_missing",
                )
            )
    else:
        ok = True
        for side, value in (("NS", split.ns), ("EW", split.ew)):
            if not in_range(
                out,
                f"tricks.{side}",
                value,
                0,
                TRICKS,
                "vint.side_tricks_out_of_range",
                root="tricks",
                side=side,
            ):
                ok = False
        if ok:
            if split.ns + split.ew != TRICKS:
                out.append(
                    DealProblem(
                        "tricks",
                        f"NS {split.ns} + EW {split.ew} = {split.ns + split.ew}, not 13",
                        "vint.tricks_sum",
                        {"ns": split.ns, "ew": split.ew, "sum": split.ns + split.ew},
                    )
                )
            elif "tricks" not in unknown:
                tricks_of = {"NS": split.ns, "EW": split.ew}
    allowed = rules.holdings_in_misere
    hand_ok, seq_ok = check_hand_and_runs(
        deal, allowed, "this is an all-pass deal", here, rules, out
    )
    if rules.all_pass == "play":
        check_dumps(deal, tricks_of=tricks_of, eldest=None, unknown=unknown, out=out)
    if allowed and hand_ok and seq_ok:
        check_aces(deal, None, rules, honours=None, grand=False, unknown=unknown, out=out)


def check_deal(deal: VintDeal, rules: VintRules = DEFAULT_RULES) -> None:
    """Raise ``RuleError`` (with ``field``) for the first failed entry check."""
    problems = deal_problems(deal, rules)
    if problems:
        raise problems[0].error()
