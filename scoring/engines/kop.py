"""Scoring engine for Kop (Wielkopolska) and Baśka (Kashubia).

The specification is ``shared/rules/kop.md``; section numbers below refer to it.

Vocabulary
----------
seat
    1..4, clockwise. Deal *n* is dealt by seat ((n - 1) mod 4) + 1 (§8.2).
deal
    One hand of the game: 16 cards, four each, four **tricks** of four cards.
    The scorer records only the facts listed in §6.1 (a ``KopDeal``).
card points (*oka*)
    A = 11, 10 = 10, Q = 3, J = 2; the pack holds 104. Every trick holds at
    least 8, so a side with 0 points took no trick (§4).
Old / Young (*starzy* / *młodzi*)
    The holders of the two black queens and the other two players. In a
    normal game the Old are the **declarers**.
declarers
    The declaring side: the two Old (``normal``), the wesele pair (bidder
    first, then the jack holder), or a single soloist (``cicha``, ``zolo``,
    ``zolo_du``; in Baśka also ``grand``, ``grand_du``, ``baska``). The others
    are the opponents (defenders).
P
    The declarers' card points, ``declarer_points``; the opponents hold 104 - P.
    Declarers win with P >= 53 (52 : 52 is theirs to lose); in a *du*
    contract (tout) only by taking all four tricks, P = 104 (§5.1).
C
    The contract factor: normal 1, wesele 1, cicha 4, zolo 5, zolo du 10,
    grand 5, grand du 10, baśka 10 (§5.2); ``contract_factor`` replaces it
    for the contracts it names (§7.1).
k
    The number of effective doublings (kontra, rej, bok, słup, ...). Each one
    doubles the value. Given either directly or as the seats that doubled
    after the final contract, from which k follows by rule R3 (§2.4).
M
    The margin: 1 *z wyjściem*; 2 *bez wyjścia* (the losing side took at
    most ``bez_wyjscia_max`` = 25 points; §7.1 lets the threshold differ by
    which side lost: losing declarers or losing defenders); 3 *bez bitki*
    (the losing side took no trick). Always 1 for du contracts unless
    ``margin_on_du``.
L
    Baśka's loss factor: 2 when the declaring side loses, else 1.
V
    The game value, C * 2^k * M * L. Two against two: each winner receives V,
    each loser pays V. One against three: the soloist wins or pays V from or
    to each opponent, so his net is 3V (§5.3). Every deal sums to zero.

allowed contracts
    ``contracts`` (§7.1): the contracts a club plays; a deal with another is
    bad input. ``soloist_doubling`` says which doublings a soloist may make
    (``not_first``: R5; ``never``; ``any``); a breach is a warning.

Rules are a ``KopRules`` (every §7 and §7.1 option, validated when built). Per-rules
lookup tables are compiled once, so ``score_deal`` and ``score_table`` only
index and multiply.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cached_property
from itertools import product
from types import MappingProxyType
from typing import Final

from scoring.engines.errors import IN_DEAL, EngineBug, Problem, RuleError

GAMES: Final = ("kop", "baska")
SEATS: Final = (1, 2, 3, 4)
TOTAL_POINTS: Final = 104
TRICKS_PER_DEAL: Final = 4
CARD_POINTS: Final[Mapping[str, int]] = MappingProxyType({"A": 11, "10": 10, "Q": 3, "J": 2})
SUITS: Final = ("clubs", "spades", "hearts", "diamonds")

#: Every problem code this module can emit (errors and warnings); see
#: ``errors.py``. The Django layer has a sentence for each.
CODES: Final = frozenset(
    {
        # Options (the shared ``rules.option_*`` codes are also Vint's).
        "kop.game_unknown",
        "rules.options_not_an_object",
        "rules.option_unknown",
        "rules.option_misspelt",
        "rules.option_choice",
        "rules.option_flag",
        "kop.option_game_mismatch",
        "kop.option_trump_order",
        "kop.option_declarer_target",
        "kop.option_bez_wyjscia_max",
        "kop.option_doubling_cap",
        "kop.option_cap_contract",
        "kop.option_doubling_names",
        "kop.option_bez_wyjscia_side",
        "kop.option_contract_name",
        "kop.option_contract_factor",
        "kop.option_contracts",
        "kop.option_contracts_repeated",
        "kop.option_contracts_normal",
        "kop.option_soloist_doubling_conflict",
        # Deals.
        "kop.contract_unknown",
        "kop.contract_not_allowed",
        "kop.seats_not_a_list",
        "kop.seat_invalid",
        "kop.seats_repeated",
        "kop.declarers_need_one",
        "kop.declarers_need_two",
        "kop.doublings_both",
        "kop.doublings_missing",
        "kop.not_an_integer",
        "kop.doublings_negative",
        "kop.doublings_above_cap",
        "kop.doubling_seats_above_cap",
        "kop.points_out_of_range",
        "kop.deal_number_invalid",
        # Warnings (appendix A): the deal scores, the scorer confirms.
        "kop.points_impossible",
        "kop.soloist_doubled_first",
        "kop.soloist_doubled",
        "kop.wesele_bidder_doubled",
    }
)

# --------------------------------------------------------------------------- contracts


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


def _show(value: object) -> str:
    # Messages quote values as the JSON a scorer typed: true, null, "zolo".
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _unknown_game(game: object) -> RuleError:
    return RuleError(
        f"{_show(game)} is not a Kop or Baśka game (kop, baska)",
        field="game",
        code="kop.game_unknown",
        params={"value": _show(game)},
    )


def contracts_for(game: str, rules: KopRules | None = None) -> tuple[Contract, ...]:
    """The contracts playable in ``game`` ("kop" or "baska"), picker order.

    With ``rules``, only the contracts those rules allow (``contracts``, §7.1).
    """
    if game not in GAMES:
        raise _unknown_game(game)
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


# ----------------------------------------------------------------------------- options

DOUBLING_NAMES_KOP: Final = ("kontra", "rej", "bok", "słup")
DOUBLING_NAMES_BASKA: Final = ("kontra", "rekontra", "bok", "hirsz")
DOUBLING_NAMES_KOSCIAN: Final = ("kontra", "rej", "bok", "skok", "zub")
OFFICIAL_DOUBLING_CAP: Final = 4

TRUMP_ORDERS: Final = ("T14", "T12")
WESELE_PARTNERS: Final = ("highest_missing_jack", "named_jack")
DOUBLING_COUNTS: Final = ("alternating_sides_only", "every_call")
AUCTION_ENDS: Final = ("three_passes", "all_pass", "four_passes", "free_order")
BASKA_BIDS: Final = ("played", "auto_win")
SOLOIST_DOUBLINGS: Final = ("not_first", "never", "any")
#: The two sides a ``bez_wyjscia_max`` object names (§7.1): the side that lost.
BEZ_WYJSCIA_SIDES: Final = ("declarers", "defenders")
CONTRACT_FACTOR_RANGE: Final = range(1, 101)
UNLIMITED: Final = "unlimited"
DECLARER_TARGET: Final = 53
# The loser of a normal game holds at most 52, so a larger threshold would
# only say "every loss is bez wyjścia" in a more confusing way.
BEZ_WYJSCIA_RANGE: Final = range(0, 53)


def _full_caps(game: str, cap: int | None) -> dict[str, int | None]:
    return {c.name: cap for c in contracts_for(game)}


def _default_factors(game: str) -> dict[str, int]:
    return {c.name: c.factor for c in contracts_for(game)}


@dataclass(frozen=True)
class KopRules:
    """Every option of §7, by its snake_case name.

    Build it with ``parse_rules(game, options)`` or ``default_rules(game)``:
    the field defaults are Kop's, so ``KopRules(game="baska")`` would keep the
    Kop trump order, loss factor and doubling names. Construction validates
    every field (``RuleError`` naming the option) and fills ``doubling_cap``
    for every contract of the game; ``None`` there means unlimited.
    """

    #: "kop" or "baska" (Baśka adds grand, grand du, baśka and the L factor).
    game: str = "kop"
    #: "T14" (three tens) or "T12" (pagat); display and hand checks only.
    trump_order: str = "T14"
    #: Declarers win with this many points; §7 offers no alternative to 53.
    declarer_target: int = DECLARER_TARGET
    #: A losing side with 1..this many points loses bez wyjścia (M = 2): one
    #: number, or per losing side ``{"declarers": 26, "defenders": 25}`` (§7.1;
    #: an object whose two numbers are equal is kept as that one number).
    bez_wyjscia_max: int | Mapping[str, int] = field(default=25, hash=False)
    #: Whether M also applies to zolo du / grand du.
    margin_on_du: bool = False
    #: L = 2 when the declaring side loses (Baśka's rule).
    baska_loss_double: bool = False
    #: "highest_missing_jack" or "named_jack"; who the partner is, not scoring.
    wesele_partner: str = "highest_missing_jack"
    #: R6 variant: the wesele bidder may double (else a warning).
    wesele_bidder_may_double: bool = False
    #: R5 variant: a soloist may make the first doubling (else a warning).
    #: The §7 spelling of ``soloist_doubling``: true is "any", false "not first"
    #: (which "never" satisfies too); the two are kept in step.
    soloist_may_double_first: bool = False
    #: "alternating_sides_only" (R3) or "every_call".
    doubling_count: str = "alternating_sides_only"
    #: R7; the scorer records only doublings after the final contract anyway.
    higher_bid_cancels_doublings: bool = True
    #: Most doublings per contract; None means unlimited.
    doubling_cap: Mapping[str, int | None] = field(
        default_factory=lambda: MappingProxyType(_full_caps("kop", OFFICIAL_DOUBLING_CAP)),
        hash=False,
    )
    #: The names of doubling levels 1, 2, ... (kontra first).
    doubling_names: tuple[str, ...] = DOUBLING_NAMES_KOP
    #: "three_passes", "all_pass", "four_passes" or "free_order"; not enforced.
    auction_end: str = "three_passes"
    #: R9 (Kościan): wesele only in the bidder's first call; not enforced.
    wesele_first_call_only: bool = False
    #: "played" (needs 53, margin applies) or "auto_win" (V = 10 x 2^k) (A10).
    baska_bid: str = "played"
    #: "du" as a +100 % suffix rather than a contract: same values (A12).
    du_as_suffix: bool = False
    #: C per contract (§7.1); every contract of the game, filled from §5.2.
    contract_factor: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType(_default_factors("kop")), hash=False
    )
    #: The contracts the club plays, picker order (§7.1); ``None``: every one.
    contracts: tuple[str, ...] | None = None
    #: "not_first" (R5), "never" or "any": which doublings a soloist may make.
    soloist_doubling: str = "not_first"

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise _unknown_game(self.game)
        for name, parse in _OPTION_PARSERS.items():
            value = parse(self.game, name, getattr(self, name))
            if value is not getattr(self, name):
                # Normalising a container (list -> tuple, partial caps -> all
                # contracts, read-only) is the only change a parser makes.
                object.__setattr__(self, name, value)
        # The two spellings of the soloist's doublings say the same thing.
        if self.soloist_may_double_first and self.soloist_doubling == "not_first":
            object.__setattr__(self, "soloist_doubling", "any")
        elif self.soloist_doubling == "any":
            object.__setattr__(self, "soloist_may_double_first", True)
        if self.soloist_may_double_first != (self.soloist_doubling == "any"):
            raise _soloist_conflict(self.soloist_may_double_first, self.soloist_doubling)

    @property
    def bez_wyjscia_declarers(self) -> int:
        """The bez wyjścia threshold when the declaring side lost."""
        value = self.bez_wyjscia_max
        return value if isinstance(value, int) else value["declarers"]

    @property
    def bez_wyjscia_defenders(self) -> int:
        """The bez wyjścia threshold when the defending side lost."""
        value = self.bez_wyjscia_max
        return value if isinstance(value, int) else value["defenders"]

    @property
    def allowed_contracts(self) -> tuple[str, ...]:
        """The names of the contracts these rules allow, picker order."""
        return tuple(c.name for c in contracts_for(self.game, self))

    @cached_property
    def _tables(self) -> _Tables:
        return _Tables(self)

    def __reduce__(self) -> tuple[object, ...]:
        # The read-only caps mapping cannot be pickled or deep-copied as it
        # is; the options, the format's own spelling of the rules, can.
        return (parse_rules, (self.game, rules_to_options(self)))


def _bad_value(
    name: str,
    value: object,
    allowed_text: str,
    code: str,
    *,
    root: str | None = None,
    **params: int | str | list[str],
) -> RuleError:
    return RuleError(
        f"{name}: {_show(value)} is not allowed ({allowed_text})",
        field=name,
        code=code,
        params={"option": name, "value": _show(value), **params},
        root=root,
    )


def _choice(*allowed: str) -> Callable[[str, str, object], object]:
    def parse(game: str, name: str, value: object) -> object:
        if not isinstance(value, str) or value not in allowed:
            raise _bad_value(
                name,
                value,
                "one of " + ", ".join(allowed),
                "rules.option_choice",
                allowed=list(allowed),
            )
        return value

    return parse


def _flag(game: str, name: str, value: object) -> object:
    if not isinstance(value, bool):
        raise _bad_value(name, value, "true or false", "rules.option_flag")
    return value


def _is_int(value: object) -> bool:
    # JSON true/false arrive as bool, which Python counts as int.
    return isinstance(value, int) and not isinstance(value, bool)


def _trump_order(game: str, name: str, value: object) -> object:
    # "T14" is a name, not a phrase; accept the snake_case spelling too.
    if isinstance(value, str) and value.upper() in TRUMP_ORDERS:
        return value.upper()
    raise _bad_value(
        name, value, "T14 or T12; the grand order G is automatic", "kop.option_trump_order"
    )


def _declarer_target(game: str, name: str, value: object) -> object:
    if not _is_int(value) or value != DECLARER_TARGET:
        raise _bad_value(
            name,
            value,
            f"only {DECLARER_TARGET}: §7 names no alternative",
            "kop.option_declarer_target",
            target=DECLARER_TARGET,
        )
    return value


def _one_bez_wyjscia(name: str, value: object, root: str) -> int:
    if not _is_int(value) or value not in BEZ_WYJSCIA_RANGE:
        raise _bad_value(
            name,
            value,
            "an integer from 0 to 52; default 25, some clubs 26",
            "kop.option_bez_wyjscia_max",
            root=root,
            low=BEZ_WYJSCIA_RANGE.start,
            high=BEZ_WYJSCIA_RANGE.stop - 1,
        )
    assert isinstance(value, int)
    return value


def _bez_wyjscia_max(game: str, name: str, value: object) -> object:
    if not isinstance(value, Mapping):
        return _one_bez_wyjscia(name, value, name)
    for side in value:
        if side not in BEZ_WYJSCIA_SIDES:
            raise RuleError(
                f"{name}: {_show(side)} is not a side (declarers, defenders)",
                field=name,
                code="kop.option_bez_wyjscia_side",
                params={"option": name, "value": _show(side), "allowed": list(BEZ_WYJSCIA_SIDES)},
            )
    # A side the object leaves out keeps the §5.2 default, 25.
    sides = {
        side: _one_bez_wyjscia(f"{name}.{side}", value.get(side, 25), name)
        for side in BEZ_WYJSCIA_SIDES
    }
    if sides["declarers"] == sides["defenders"]:
        return sides["declarers"]  # one number says the same, and compares equal
    if isinstance(value, MappingProxyType) and dict(value) == sides:
        return value
    return MappingProxyType(sides)


def _contract_name(game: str, name: str, contract: object) -> str:
    names = [c.name for c in contracts_for(game)]
    if not isinstance(contract, str) or contract not in names:
        raise RuleError(
            f"{name}: {_show(contract)} is not a contract of {game} ({', '.join(names)})",
            field=name,
            code="kop.option_contract_name",
            params={"option": name, "value": _show(contract), "game": game, "allowed": names},
        )
    return contract


def _contract_factor(game: str, name: str, value: object) -> object:
    if not isinstance(value, Mapping):
        raise _bad_value(
            name,
            value,
            'an object by contract name, e.g. {"cicha": 1}',
            "kop.option_contract_factor",
            low=CONTRACT_FACTOR_RANGE.start,
            high=CONTRACT_FACTOR_RANGE.stop - 1,
        )
    factors = _default_factors(game)
    for contract, factor in value.items():
        _contract_name(game, name, contract)
        if not _is_int(factor) or factor not in CONTRACT_FACTOR_RANGE:
            raise _bad_value(
                f"{name}.{contract}",
                factor,
                "a whole number from 1 to 100",
                "kop.option_contract_factor",
                root=name,
                low=CONTRACT_FACTOR_RANGE.start,
                high=CONTRACT_FACTOR_RANGE.stop - 1,
            )
        factors[contract] = factor
    if isinstance(value, MappingProxyType) and dict(value) == factors:
        return value
    return MappingProxyType(factors)


def _contracts(game: str, name: str, value: object) -> object:
    if value is None:
        return None
    if not isinstance(value, list | tuple) or not value:
        raise _bad_value(name, value, "a non-empty list of contract names", "kop.option_contracts")
    seen: set[str] = set()
    for contract in value:
        seen_before = contract in seen
        seen.add(_contract_name(game, name, contract))
        if seen_before:
            raise _bad_value(name, contract, "each contract once", "kop.option_contracts_repeated")
    if "normal" not in seen:
        raise _bad_value(
            name, list(value), "normal must be in the list", "kop.option_contracts_normal"
        )
    every = tuple(c.name for c in contracts_for(game))
    if seen == set(every):
        return None  # every contract: the default, however it is spelt
    ordered = tuple(c for c in every if c in seen)
    return value if value == ordered else ordered


def _soloist_conflict(flag: bool, doubling: str) -> RuleError:
    return RuleError(
        f"soloist_may_double_first: {_show(flag)} contradicts soloist_doubling: "
        f"{_show(doubling)} (true means any, false not_first or never)",
        field="soloist_doubling",
        code="kop.option_soloist_doubling_conflict",
        params={"option": "soloist_doubling", "value": _show(doubling), "flag": _show(flag)},
    )


def _one_cap(name: str, value: object, root: str) -> int | None:
    if value is None or value == UNLIMITED:
        return None
    if _is_int(value) and isinstance(value, int) and value >= 0:
        return value
    raise _bad_value(
        name,
        value,
        'an integer from 0 up, or null / "unlimited"',
        "kop.option_doubling_cap",
        root=root,
    )


def _doubling_cap(game: str, name: str, value: object) -> object:
    if isinstance(value, Mapping):
        caps = _full_caps(game, OFFICIAL_DOUBLING_CAP)
        for contract, cap in value.items():
            if contract not in caps:
                raise RuleError(
                    f"{name}: {_show(contract)} is not a contract of {game} ({', '.join(caps)})",
                    field=name,
                    code="kop.option_cap_contract",
                    params={
                        "option": name,
                        "value": _show(contract),
                        "game": game,
                        "allowed": list(caps),
                    },
                )
            caps[contract] = _one_cap(f"{name}.{contract}", cap, name)
        if isinstance(value, MappingProxyType) and dict(value) == caps:
            return value
        return MappingProxyType(caps)
    return MappingProxyType(_full_caps(game, _one_cap(name, value, name)))


def _doubling_names(game: str, name: str, value: object) -> object:
    if (
        not isinstance(value, list | tuple)
        or not value
        or not all(isinstance(v, str) and v.strip() for v in value)
    ):
        raise _bad_value(
            name, value, "a non-empty list of names, kontra first", "kop.option_doubling_names"
        )
    return value if isinstance(value, tuple) else tuple(value)


_OPTION_PARSERS: Final[dict[str, Callable[[str, str, object], object]]] = {
    "trump_order": _trump_order,
    "declarer_target": _declarer_target,
    "bez_wyjscia_max": _bez_wyjscia_max,
    "margin_on_du": _flag,
    "baska_loss_double": _flag,
    "wesele_partner": _choice(*WESELE_PARTNERS),
    "wesele_bidder_may_double": _flag,
    "soloist_may_double_first": _flag,
    "doubling_count": _choice(*DOUBLING_COUNTS),
    "higher_bid_cancels_doublings": _flag,
    "doubling_cap": _doubling_cap,
    "doubling_names": _doubling_names,
    "auction_end": _choice(*AUCTION_ENDS),
    "wesele_first_call_only": _flag,
    "baska_bid": _choice(*BASKA_BIDS),
    "du_as_suffix": _flag,
    "contract_factor": _contract_factor,
    "contracts": _contracts,
    "soloist_doubling": _choice(*SOLOIST_DOUBLINGS),
}

#: Every option name ``parse_rules`` accepts ("game" must repeat the game).
OPTION_NAMES: Final = ("game", *_OPTION_PARSERS)


def _game_defaults(game: str) -> dict[str, object]:
    if game == "baska":
        return {
            "game": game,
            "trump_order": "T12",
            "baska_loss_double": True,
            "doubling_names": DOUBLING_NAMES_BASKA,
            "doubling_cap": _full_caps(game, OFFICIAL_DOUBLING_CAP),
            "contract_factor": _default_factors(game),
        }
    return {"game": game}


def collect_rules(game: str, options: object) -> tuple[KopRules | None, list[RuleError]]:
    """Parse options, reporting every bad one instead of stopping at the first.

    Returns the rules built from the options that were fine (bad ones keep
    their default), so a caller can go on checking deals, and the problems.
    The rules are ``None`` only when the game itself is unknown.
    """
    if game not in GAMES:
        return None, [_unknown_game(game)]
    problems: list[RuleError] = []
    values = _game_defaults(game)
    if not isinstance(options, Mapping):
        problems.append(
            RuleError(
                f"expected an object of options, got {_show(options)}",
                field="rules",
                code="rules.options_not_an_object",
                params={"value": _show(options)},
            )
        )
        options = {}
    assert isinstance(options, Mapping)
    for name, value in options.items():
        if name == "game":
            if value != game:
                problems.append(
                    _bad_value(
                        name,
                        value,
                        f"only {game}, the game being scored",
                        "kop.option_game_mismatch",
                        game=game,
                    )
                )
            continue
        parse = _OPTION_PARSERS.get(name) if isinstance(name, str) else None
        if parse is None:
            hint = get_close_matches(str(name), _OPTION_PARSERS, n=1)
            also = f"; did you mean {hint[0]}?" if hint else ""
            problems.append(
                RuleError(
                    f"{name}: not an option of {game}{also}",
                    field=str(name),
                    code="rules.option_misspelt" if hint else "rules.option_unknown",
                    params={"option": str(name), "game": game}
                    | ({"suggestion": hint[0]} if hint else {}),
                )
            )
            continue
        try:
            values[name] = parse(game, name, value)
        except RuleError as e:
            problems.append(e)
    flag, doubling = values.get("soloist_may_double_first"), values.get("soloist_doubling")
    if isinstance(flag, bool) and isinstance(doubling, str) and flag != (doubling == "any"):
        # Both spellings given (§7.1), with different meanings.
        problems.append(_soloist_conflict(flag, doubling))
        del values["soloist_may_double_first"]
    elif flag is True:
        values["soloist_doubling"] = "any"
    return KopRules(**values), problems  # type: ignore[arg-type]


def parse_rules(game: str, options: Mapping[str, object]) -> KopRules:
    """Validate §7 options for ``game``; the first bad one raises ``RuleError``."""
    rules, problems = collect_rules(game, options)
    if problems:
        raise problems[0]
    assert rules is not None
    return rules


def default_rules(game: str) -> KopRules:
    """The §7 defaults for "kop" or "baska"."""
    return parse_rules(game, {})


def rules_to_options(rules: KopRules, *, only_changed: bool = False) -> dict[str, object]:
    """JSON-ready options; ``parse_rules(rules.game, result) == rules``.

    ``game`` is left out (a sheet names it at the top). With ``only_changed``
    the options equal to the game's defaults are left out too.
    """
    defaults = default_rules(rules.game) if only_changed else None
    out: dict[str, object] = {}
    for name in _OPTION_PARSERS:
        value = getattr(rules, name)
        if defaults is not None and value == getattr(defaults, name):
            continue
        if name == "doubling_cap":
            caps = list(value.values())
            if all(c == caps[0] for c in caps):
                out[name] = UNLIMITED if caps[0] is None else caps[0]
            else:
                out[name] = {c: UNLIMITED if v is None else v for c, v in value.items()}
        elif name == "doubling_names":
            out[name] = list(value)
        elif name == "contracts":
            out[name] = list(rules.allowed_contracts)
        elif isinstance(value, Mapping):  # bez_wyjscia_max per side, contract_factor
            out[name] = dict(value)
        else:
            out[name] = value
    return out


# ---------------------------------------------------------------------------- doublings


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
        if not _is_int(seat) or seat not in SEATS:
            raise RuleError(
                f"{_show(seat)} is not a seat (1..4)",
                field="doubling_seats",
                code="kop.seat_invalid",
                params={"value": _show(seat)},
            )
    if doubling_count == "every_call":
        return len(doubling_seats)
    if doubling_count != "alternating_sides_only":
        raise _bad_value(
            "doubling_count",
            doubling_count,
            ", ".join(DOUBLING_COUNTS),
            "rules.option_choice",
            allowed=list(DOUBLING_COUNTS),
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


def dealer_for_deal(deal_no: int) -> int:
    """The seat that deals deal ``deal_no`` (1-based): seat 1 deals deal 1 (§8.2)."""
    if not _is_int(deal_no) or deal_no < 1:
        raise RuleError(
            f"{_show(deal_no)} is not a deal number (1, 2, ...)",
            field="deal_no",
            code="kop.deal_number_invalid",
            params={"value": _show(deal_no)},
        )
    return (deal_no - 1) % 4 + 1


# ------------------------------------------------------------------------ deals, results


@dataclass(frozen=True, kw_only=True)
class KopDeal:
    """The facts of one deal (§6.1). Give exactly one of doublings / doubling_seats."""

    contract: str
    declarers: tuple[int, ...]
    doublings: int | None = None
    doubling_seats: tuple[int, ...] | None = None
    declarer_points: int


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


class _Tables:
    __slots__ = ("by_contract", "every_call", "rules")

    def __init__(self, rules: KopRules) -> None:
        self.rules = rules
        self.every_call = rules.doubling_count == "every_call"
        # Only the allowed contracts: any other one falls to check_deal, which names it.
        self.by_contract = {
            c.name: _ContractTable(c, rules) for c in contracts_for(rules.game, rules)
        }


def _score(deal: KopDeal, tables: _Tables, retry: bool = True) -> KopResult:
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


def _score_checked(deal: KopDeal, tables: _Tables, retry: bool) -> KopResult:
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
    return _score(deal, rules._tables)


def score_table(deals: Iterable[KopDeal], rules: KopRules) -> TableResult:
    """Score a table's deals in order; a bad deal raises ``RuleError`` "deal n: ...".

    The error keeps the deal's code and params and adds ``params[IN_DEAL] = n``.
    """
    tables = rules._tables
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


# ---------------------------------------------------------------------------- checking


def check_deal(deal: KopDeal, rules: KopRules) -> list[RuleError]:
    """Every problem with a deal (empty if ``score_deal`` would accept it)."""
    problems: list[RuleError] = []
    contract = CONTRACTS.get(deal.contract) if isinstance(deal.contract, str) else None
    if contract is None or rules.game not in contract.games:
        names = [c.name for c in contracts_for(rules.game)]
        game = "Kop" if rules.game == "kop" else "Baśka"
        problems.append(
            RuleError(
                f"{_show(deal.contract)} is not a {game} contract ({', '.join(names)})",
                field="contract",
                code="kop.contract_unknown",
                params={"value": _show(deal.contract), "game": rules.game, "contracts": names},
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
                f"expected a list of seats, got {_show(declarers)}",
                field="declarers",
                code="kop.seats_not_a_list",
                params={"value": _show(declarers)},
            )
        )
    else:
        bad = [s for s in declarers if not _is_int(s) or s not in SEATS]
        if bad:
            problems.append(
                RuleError(
                    f"{_show(bad[0])} is not a seat (1..4)",
                    field="declarers",
                    code="kop.seat_invalid",
                    params={"value": _show(bad[0])},
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
        if not _is_int(k):
            problems.append(
                RuleError(
                    f"expected an integer, got {_show(k)}",
                    field="doublings",
                    code="kop.not_an_integer",
                    params={"value": _show(k)},
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
                    f"expected a list of seats, got {_show(seats)}",
                    field="doubling_seats",
                    code="kop.seats_not_a_list",
                    params={"value": _show(seats)},
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
    if not _is_int(p):
        problems.append(
            RuleError(
                f"expected an integer, got {_show(p)}",
                field="declarer_points",
                code="kop.not_an_integer",
                params={"value": _show(p)},
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
