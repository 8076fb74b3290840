"""The Kop and Baśka game: cards, seats, contracts (``rules/kop.md`` §1, §3, §8.2, App. A).

Vocabulary
----------
game
    "kop" (Wielkopolska) or "baska" (Kashubia). Baśka adds the grand,
    grand du and baśka contracts and the loss factor L.
seat
    1..4, clockwise. Deal *n* is dealt by seat ((n - 1) mod 4) + 1 (§8.2).
deal
    One hand of the game: 16 cards, four each, four **tricks** of four cards.
card points (*oka*)
    A = 11, 10 = 10, Q = 3, J = 2; the pack holds 104. Every trick holds at
    least 8, so a side with 0 points took no trick (§4).
contract
    What the declaring side plays (§3): its factor C (normal 1, wesele 1,
    cicha 4, zolo 5, zolo du 10, grand 5, grand du 10, baśka 10; §5.2), how
    many declarers it has (two, or a single soloist) and whether it is a
    *du* contract (tout: the declarers must take all four tricks).
attainable
    A card-point total that some set of tricks makes up (Appendix A): the
    declarers can hold P only if the opponents can hold 104 - P.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from scoring.engines.errors import RuleError, show_value

if TYPE_CHECKING:
    from scoring.engines.kop.options import KopRules

GAMES: Final = ("kop", "baska")
SEATS: Final = (1, 2, 3, 4)
TOTAL_POINTS: Final = 104
TRICKS_PER_DEAL: Final = 4
CARD_POINTS: Final[Mapping[str, int]] = MappingProxyType({"A": 11, "10": 10, "Q": 3, "J": 2})
SUITS: Final = ("clubs", "spades", "hearts", "diamonds")

#: Every problem code this module can emit (see ``errors.py``).
CODES: Final = frozenset({"kop.game_unknown", "kop.deal_number_invalid"})


@dataclass(frozen=True)
class Contract:
    """One contract of §3: its factor C, side size and where it may be played."""

    name: str
    factor: int
    declarers: int
    is_du: bool
    games: tuple[str, ...]
    label_pl: str
    label_en: str


_ALL: Final = ("kop", "baska")
_BASKA: Final = ("baska",)

#: Every contract by name, in the order a contract picker should list them.
CONTRACTS: Final[Mapping[str, Contract]] = MappingProxyType(
    {
        c.name: c
        for c in (
            Contract("normal", 1, 2, False, _ALL, "gra zwykła", "normal game"),
            Contract("cicha", 4, 1, False, _ALL, "cicha", "silent solo"),
            Contract("wesele", 1, 2, False, _ALL, "wesele", "wedding"),
            Contract("zolo", 5, 1, False, _ALL, "zolo", "solo"),
            Contract("zolo_du", 10, 1, True, _ALL, "zolo du", "solo tout"),
            Contract("grand", 5, 1, False, _BASKA, "grand", "grand"),
            Contract("grand_du", 10, 1, True, _BASKA, "grand du", "grand tout"),
            Contract("baska", 10, 1, False, _BASKA, "baśka", "Baśka (four queens)"),
        )
    }
)


def unknown_game(game: object) -> RuleError:
    """The problem (not raised) with a ``game`` that is neither "kop" nor "baska"."""
    return RuleError(
        f"{show_value(game)} is not a Kop or Baśka game (kop, baska)",
        field="game",
        code="kop.game_unknown",
        params={"value": show_value(game)},
    )


def contracts_for(game: str, rules: KopRules | None = None) -> tuple[Contract, ...]:
    """The contracts playable in ``game`` ("kop" or "baska"), picker order.

    With ``rules``, only the contracts those rules allow (``contracts``, §7.1).
    """
    if game not in GAMES:
        raise unknown_game(game)
    allowed = rules.contracts if rules is not None else None
    return tuple(
        c for c in CONTRACTS.values() if game in c.games and (allowed is None or c.name in allowed)
    )


# ------------------------------------------------------------------- attainable totals


def _attainable_by_tricks() -> tuple[frozenset[int], ...]:
    # Any 4t cards of the pack can make up t tricks (Appendix A), so the sums
    # of all multisets of 4t card values, at most four of each rank, are the
    # totals a side can hold after t tricks.
    values = tuple(CARD_POINTS.values())
    per_suit = len(SUITS)
    by_tricks: list[set[int]] = [set() for _ in range(TRICKS_PER_DEAL + 1)]
    for counts in product(range(per_suit + 1), repeat=len(values)):
        cards = sum(counts)
        if cards % 4 == 0:
            by_tricks[cards // 4].add(sum(n * v for n, v in zip(counts, values, strict=True)))
    return tuple(frozenset(s) for s in by_tricks)


#: ATTAINABLE_BY_TRICKS[t]: the card-point totals a side can hold with t tricks.
ATTAINABLE_BY_TRICKS: Final = _attainable_by_tricks()


def is_attainable(declarer_points: int) -> bool:
    """True if the declarers can hold P while the opponents hold 104 - P."""
    return any(
        declarer_points in ATTAINABLE_BY_TRICKS[t]
        and TOTAL_POINTS - declarer_points in ATTAINABLE_BY_TRICKS[TRICKS_PER_DEAL - t]
        for t in range(TRICKS_PER_DEAL + 1)
    )


def dealer_for_deal(deal_no: int) -> int:
    """The seat that deals deal ``deal_no`` (1-based): seat 1 deals deal 1 (§8.2)."""
    if not is_int(deal_no) or deal_no < 1:
        raise RuleError(
            f"{show_value(deal_no)} is not a deal number (1, 2, ...)",
            field="deal_no",
            code="kop.deal_number_invalid",
            params={"value": show_value(deal_no)},
        )
    return (deal_no - 1) % 4 + 1


def is_int(value: object) -> bool:
    """True for a JSON integer: true and false arrive as bool, which Python counts as int."""
    return isinstance(value, int) and not isinstance(value, bool)
