"""The rule options of Kop and Baśka (``rules/kop.md`` §7, §7.1) and their parsing.

Vocabulary
----------
option
    One variant of §7 or a club regulation of §7.1, by its snake_case name
    (``bez_wyjscia_max``, ``doubling_cap``). ``parse_rules(game, options)``
    validates a mapping of them; an unknown name or value is a ``RuleError``
    naming the option. Omitted options take the game's defaults, which
    differ between Kop and Baśka (trump order, loss factor, doubling names).
rules
    A ``KopRules``: every option, validated when built. Per-rules lookup
    tables (``KopRules.tables``) are compiled once, so that scoring a deal
    only indexes and multiplies.
bez wyjścia threshold
    ``bez_wyjscia_max`` (default 25): a losing side with 1..this many points
    loses *bez wyjścia* (M = 2). §7.1 lets it differ by which side lost:
    losing declarers or losing defenders.
allowed contracts
    ``contracts`` (§7.1): the contracts a club plays; a deal with another is
    bad input. ``contract_factor`` replaces C for the contracts it names.
soloist doubling
    ``soloist_doubling`` says which doublings a soloist may make
    (``not_first``: R5; ``never``; ``any``); a breach is a warning. The §7
    flag ``soloist_may_double_first`` says the same ("any" or not) and is
    kept in step with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cached_property
from types import MappingProxyType
from typing import Final

from scoring.engines.errors import RuleError, show_value
from scoring.engines.kop.contracts import GAMES, contracts_for, is_int, unknown_game
from scoring.engines.kop.doublings import DOUBLING_COUNTS
from scoring.engines.kop.score import ScoringTables

#: Every problem code this module can emit (the ``rules.option_*`` codes are
#: shared with Vint; see ``errors.py``).
CODES: Final = frozenset(
    {
        "kop.option_bez_wyjscia_max",
        "kop.option_bez_wyjscia_side",
        "kop.option_cap_contract",
        "kop.option_contract_factor",
        "kop.option_contract_name",
        "kop.option_contracts",
        "kop.option_contracts_normal",
        "kop.option_contracts_repeated",
        "kop.option_declarer_target",
        "kop.option_doubling_cap",
        "kop.option_doubling_names",
        "kop.option_game_mismatch",
        "kop.option_soloist_doubling_conflict",
        "kop.option_trump_order",
        "rules.option_choice",
        "rules.option_flag",
        "rules.option_misspelt",
        "rules.option_unknown",
        "rules.options_not_an_object",
    }
)

DOUBLING_NAMES_KOP: Final = ("kontra", "rej", "bok", "słup")
DOUBLING_NAMES_BASKA: Final = ("kontra", "rekontra", "bok", "hirsz")
DOUBLING_NAMES_KOSCIAN: Final = ("kontra", "rej", "bok", "skok", "zub")
OFFICIAL_DOUBLING_CAP: Final = 4

TRUMP_ORDERS: Final = ("T14", "T12")
WESELE_PARTNERS: Final = ("highest_missing_jack", "named_jack")
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
            raise unknown_game(self.game)
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
    def tables(self) -> ScoringTables:
        """The lookup tables ``score`` reads, compiled from these rules on first use."""
        return ScoringTables(self)

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
        f"{name}: {show_value(value)} is not allowed ({allowed_text})",
        field=name,
        code=code,
        params={"option": name, "value": show_value(value), **params},
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


def _trump_order(game: str, name: str, value: object) -> object:
    # "T14" is a name, not a phrase; accept the snake_case spelling too.
    if isinstance(value, str) and value.upper() in TRUMP_ORDERS:
        return value.upper()
    raise _bad_value(
        name, value, "T14 or T12; the grand order G is automatic", "kop.option_trump_order"
    )


def _declarer_target(game: str, name: str, value: object) -> object:
    if not is_int(value) or value != DECLARER_TARGET:
        raise _bad_value(
            name,
            value,
            f"only {DECLARER_TARGET}: §7 names no alternative",
            "kop.option_declarer_target",
            target=DECLARER_TARGET,
        )
    return value


def _one_bez_wyjscia(name: str, value: object, root: str) -> int:
    if not is_int(value) or value not in BEZ_WYJSCIA_RANGE:
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
                f"{name}: {show_value(side)} is not a side (declarers, defenders)",
                field=name,
                code="kop.option_bez_wyjscia_side",
                params={
                    "option": name,
                    "value": show_value(side),
                    "allowed": list(BEZ_WYJSCIA_SIDES),
                },
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
            f"{name}: {show_value(contract)} is not a contract of {game} ({', '.join(names)})",
            field=name,
            code="kop.option_contract_name",
            params={"option": name, "value": show_value(contract), "game": game, "allowed": names},
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
        if not is_int(factor) or factor not in CONTRACT_FACTOR_RANGE:
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
        f"soloist_may_double_first: {show_value(flag)} contradicts soloist_doubling: "
        f"{show_value(doubling)} (true means any, false not_first or never)",
        field="soloist_doubling",
        code="kop.option_soloist_doubling_conflict",
        params={
            "option": "soloist_doubling",
            "value": show_value(doubling),
            "flag": show_value(flag),
        },
    )


def _one_cap(name: str, value: object, root: str) -> int | None:
    if value is None or value == UNLIMITED:
        return None
    if is_int(value) and isinstance(value, int) and value >= 0:
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
                    f"{name}: {show_value(contract)} is not a contract of {game} "
                    f"({', '.join(caps)})",
                    field=name,
                    code="kop.option_cap_contract",
                    params={
                        "option": name,
                        "value": show_value(contract),
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
        return None, [unknown_game(game)]
    problems: list[RuleError] = []
    values = _game_defaults(game)
    if not isinstance(options, Mapping):
        problems.append(
            RuleError(
                f"expected an object of options, got {show_value(options)}",
                field="rules",
                code="rules.options_not_an_object",
                params={"value": show_value(options)},
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
