"""Doublings in Kop and Baśka (``rules/kop.md`` §2.3, §2.4): how many count, and their names.

Vocabulary
----------
doubling
    A call after the final contract (kontra, rej, bok, słup, ...) that
    doubles the game's value. The scorer gives either their number k
    directly or the seats that made them, in order (``doubling_seats``).
k
    The number of effective doublings. By rule R3 a doubling counts only if
    the doubler sits on the other side from the previous *counted* doubler
    (``doubling_count="alternating_sides_only"``); under ``"every_call"``
    every call counts.
doubling names
    The calls that bring the count to 1, 2, ... (``doubling_names``, §7);
    past them the factor is shown ("×64").

Who may double (R5: not the soloist first; R6: not the wesele bidder) is
checked when a deal is scored: a breach is a warning (``score``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Final

from scoring.engines.errors import RuleError, show_value
from scoring.engines.kop.contracts import SEATS, is_int

if TYPE_CHECKING:
    from scoring.engines.kop.options import KopRules

#: The values of the ``doubling_count`` option (§7): R3, or every call counts.
DOUBLING_COUNTS: Final = ("alternating_sides_only", "every_call")

#: Every problem code this module can emit (see ``errors.py``).
CODES: Final = frozenset({"kop.seat_invalid", "rules.option_choice"})


def effective_doublings(
    doubling_seats: Sequence[int],
    declarers: Collection[int],
    *,
    doubling_count: str = "alternating_sides_only",
) -> int:
    """k from the seats that doubled after the final contract (rule R3).

    By default a doubling counts only if the doubler sits on the other side
    from the previous *counted* doubler; the first always counts. With
    ``doubling_count="every_call"`` every call counts.
    """
    for seat in doubling_seats:
        if not is_int(seat) or seat not in SEATS:
            raise RuleError(
                f"{show_value(seat)} is not a seat (1..4)",
                field="doubling_seats",
                code="kop.seat_invalid",
                params={"value": show_value(seat)},
            )
    if doubling_count == "every_call":
        return len(doubling_seats)
    if doubling_count != "alternating_sides_only":
        raise RuleError(
            f"doubling_count: {show_value(doubling_count)} is not allowed "
            f"({', '.join(DOUBLING_COUNTS)})",
            field="doubling_count",
            code="rules.option_choice",
            params={
                "option": "doubling_count",
                "value": show_value(doubling_count),
                "allowed": list(DOUBLING_COUNTS),
            },
        )
    k = 0
    last_side: bool | None = None
    for seat in doubling_seats:
        side = seat in declarers
        if side is not last_side:
            k += 1
            last_side = side
    return k


def doubling_name(k: int, rules: KopRules) -> str:
    """The call that brings the count to k: 1 kontra, 2 rej... ("" for none).

    Past the names of the rules (private games) the factor is shown: "×64".
    """
    if k <= 0:
        return ""
    if k <= len(rules.doubling_names):
        return rules.doubling_names[k - 1]
    return f"×{2**k}"
