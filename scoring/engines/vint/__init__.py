"""Scoring engine for Vint, Estonian form (after Parlett).

The specification is ``shared/rules/vint.md``; section numbers in this
package refer to it, option names (A1..A31) to its §7 table, written in
snake_case as in ``shared/formats/scoresheet-json.md``.

One module per chapter of the rules, each defining its own vocabulary:

``table``
    Seats, sides (partnerships), tricks and the dealer's rotation (§1).
``options``
    The rule options and their parsing: ``VintRules`` (§7).
``facts``
    A deal's facts as the scorer records them: contract, declarer,
    doubling, tricks, holdings, ace dumps (``VintDeal``, §2, §3, §5), and
    what a failed check says about one of them (``DealProblem``).
``checks``
    The entry checks of §5 that each kind of deal needs (``deal_problems``).
``card_checks``
    The entry checks of the holdings and ace dumps: where the aces can be.
``score``
    One deal above and below the line: trick points, the contract result,
    honours, aces, sequences, ace dumps, the all-pass deal (§4.2-§4.8).
``rubber``
    Games, lines, the rubber and its extra deals and bonuses, closing an
    unfinished rubber, a rubber's totals (§4.9).
``session``
    A session of rubbers: partnerships, each player's total and net
    (§1, §4.10, §4.11).

Each depends only on the ones above it. Callers use the package
(``from scoring.engines import vint``; ``vint.rubber_apply``): the names
below are its API. The hot path is ``score.score_deal`` and
``rubber.rubber_apply`` (see ``benchmarks/bench_vint_engine.py``).
"""

from __future__ import annotations

from typing import Final

from scoring.engines.vint import card_checks, checks, facts, options, rubber, session, table
from scoring.engines.vint.checks import check_deal, deal_problems
from scoring.engines.vint.facts import (
    DENOMINATIONS,
    LEVELS,
    SUITS,
    AceDump,
    AcesInHand,
    Contract,
    DealProblem,
    Denomination,
    Holding,
    Suit,
    SuitSequence,
    TrickSplit,
    VintDeal,
    all_pass_deal,
    contract_deal,
    parse_contract,
)
from scoring.engines.vint.options import (
    DEFAULT_RULES,
    OPTIONS,
    VintRules,
    collect_rules,
    parse_rules,
    rules_problems,
    rules_to_options,
)
from scoring.engines.vint.rubber import (
    EXTRA_DEALS,
    EXTRA_GAME_UNIT,
    GAME_POINTS,
    NEW_RUBBER,
    RUBBER_BONUS,
    DealOutcome,
    Phase,
    RubberResult,
    RubberState,
    RubberSums,
    rubber_apply,
    rubber_close,
    rubber_result,
    score_rubber,
)
from scoring.engines.vint.score import (
    MADE,
    OVERTRICK,
    SPECIAL,
    UNDERTRICK,
    DealEntries,
    Entry,
    EntryKind,
    Where,
    score_deal,
)
from scoring.engines.vint.session import (
    SESSION_RUBBERS,
    Seating,
    SessionResult,
    rubber_player_totals,
    session_partnerships,
    session_problems,
    session_result,
)
from scoring.engines.vint.table import (
    OTHER_SIDE,
    SEATS,
    SEATS_OF,
    SIDE_OF,
    SIDES,
    TRICKS,
    Seat,
    Side,
    dealer_of,
    next_seat,
)

#: Every problem code the engine can emit; see ``errors.py``. The Django
#: layer has a sentence for each.
CODES: Final = (
    table.CODES
    | options.CODES
    | facts.CODES
    | checks.CODES
    | card_checks.CODES
    | rubber.CODES
    | session.CODES
)

__all__ = [
    "CODES",
    "DEFAULT_RULES",
    "DENOMINATIONS",
    "EXTRA_DEALS",
    "EXTRA_GAME_UNIT",
    "GAME_POINTS",
    "LEVELS",
    "MADE",
    "NEW_RUBBER",
    "OPTIONS",
    "OTHER_SIDE",
    "OVERTRICK",
    "RUBBER_BONUS",
    "SEATS",
    "SEATS_OF",
    "SESSION_RUBBERS",
    "SIDES",
    "SIDE_OF",
    "SPECIAL",
    "SUITS",
    "TRICKS",
    "UNDERTRICK",
    "AceDump",
    "AcesInHand",
    "Contract",
    "DealEntries",
    "DealOutcome",
    "DealProblem",
    "Denomination",
    "Entry",
    "EntryKind",
    "Holding",
    "Phase",
    "RubberResult",
    "RubberState",
    "RubberSums",
    "Seat",
    "Seating",
    "SessionResult",
    "Side",
    "Suit",
    "SuitSequence",
    "TrickSplit",
    "VintDeal",
    "VintRules",
    "Where",
    "all_pass_deal",
    "check_deal",
    "collect_rules",
    "contract_deal",
    "deal_problems",
    "dealer_of",
    "next_seat",
    "parse_contract",
    "parse_rules",
    "rubber_apply",
    "rubber_close",
    "rubber_player_totals",
    "rubber_result",
    "rules_problems",
    "rules_to_options",
    "score_deal",
    "score_rubber",
    "session_partnerships",
    "session_problems",
    "session_result",
]
