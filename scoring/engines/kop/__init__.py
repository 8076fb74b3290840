"""Scoring engine for Kop (Wielkopolska) and Baśka (Kashubia).

The specification is ``shared/rules/kop.md``; section numbers in this
package refer to it. One module per chapter of the rules, each defining its
own vocabulary:

``contracts``
    The game: cards and their points, seats, the contracts and their
    factors, the card-point totals that can occur, the dealer (§1, §3,
    §8.2, Appendix A).
``doublings``
    How many doublings count (R3) and what they are called (§2.3, §2.4).
``deal``
    A deal's facts as the scorer records them, and their checks (§6.1).
``score``
    A deal's value V = C * 2^k * M * L and who pays whom; a table's deals
    and running totals; the warnings a scorer confirms (§5, §6.2).
``options``
    The rule options and their parsing: ``KopRules`` (§7, §7.1). The rules
    compile the tables that ``score`` reads, once per rules.

Callers use the package (``from scoring.engines import kop``;
``kop.score_table``): the names below are its API. The hot path is
``score.score_table`` (see ``benchmarks/bench_kop_engine.py``).
"""

from __future__ import annotations

from typing import Final

from scoring.engines.kop import contracts, deal, doublings, options, score
from scoring.engines.kop.contracts import (
    ATTAINABLE_BY_TRICKS,
    CARD_POINTS,
    CONTRACTS,
    GAMES,
    SEATS,
    SUITS,
    TOTAL_POINTS,
    TRICKS_PER_DEAL,
    Contract,
    contracts_for,
    dealer_for_deal,
    is_attainable,
)
from scoring.engines.kop.deal import KopDeal, check_deal
from scoring.engines.kop.doublings import DOUBLING_COUNTS, doubling_name, effective_doublings
from scoring.engines.kop.options import (
    AUCTION_ENDS,
    BASKA_BIDS,
    BEZ_WYJSCIA_RANGE,
    BEZ_WYJSCIA_SIDES,
    CONTRACT_FACTOR_RANGE,
    DECLARER_TARGET,
    DOUBLING_NAMES_BASKA,
    DOUBLING_NAMES_KOP,
    DOUBLING_NAMES_KOSCIAN,
    OFFICIAL_DOUBLING_CAP,
    OPTION_NAMES,
    SOLOIST_DOUBLINGS,
    TRUMP_ORDERS,
    UNLIMITED,
    WESELE_PARTNERS,
    KopRules,
    collect_rules,
    default_rules,
    parse_rules,
    rules_to_options,
)
from scoring.engines.kop.score import KopResult, TableResult, score_deal, score_table

#: Every problem code the engine can emit (errors and warnings); see
#: ``errors.py``. The Django layer has a sentence for each.
CODES: Final = contracts.CODES | doublings.CODES | deal.CODES | score.CODES | options.CODES

__all__ = [
    "ATTAINABLE_BY_TRICKS",
    "AUCTION_ENDS",
    "BASKA_BIDS",
    "BEZ_WYJSCIA_RANGE",
    "BEZ_WYJSCIA_SIDES",
    "CARD_POINTS",
    "CODES",
    "CONTRACTS",
    "CONTRACT_FACTOR_RANGE",
    "DECLARER_TARGET",
    "DOUBLING_COUNTS",
    "DOUBLING_NAMES_BASKA",
    "DOUBLING_NAMES_KOP",
    "DOUBLING_NAMES_KOSCIAN",
    "GAMES",
    "OFFICIAL_DOUBLING_CAP",
    "OPTION_NAMES",
    "SEATS",
    "SOLOIST_DOUBLINGS",
    "SUITS",
    "TOTAL_POINTS",
    "TRICKS_PER_DEAL",
    "TRUMP_ORDERS",
    "UNLIMITED",
    "WESELE_PARTNERS",
    "Contract",
    "KopDeal",
    "KopResult",
    "KopRules",
    "TableResult",
    "check_deal",
    "collect_rules",
    "contracts_for",
    "dealer_for_deal",
    "default_rules",
    "doubling_name",
    "effective_doublings",
    "is_attainable",
    "parse_rules",
    "rules_to_options",
    "score_deal",
    "score_table",
]
