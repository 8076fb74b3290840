"""A Vint deal three ways: facts (the scoresheet format), an engine deal, a row; and the
seats of a rubber.

``deal_check`` turns facts into an engine deal under a session's rules (``DealRejected``
with every problem by field); ``entries_json`` is what a scored deal writes on its row.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from django.utils.translation import gettext as _

from scoring.engines import vint
from scoring.engines.errors import RuleError
from scoring.engines.shapes import VintDealJson
from scoring.engines.vint_sheet import deal_to_json
from scoring.errors import DealRejected
from scoring.games.vint.models import VintDeal, VintRubber
from scoring.problems import errors_by_field
from scoring.shapes import VintDealSnapshot

if TYPE_CHECKING:
    from scoring.models import TableSession

RUBBERS = vint.SESSION_RUBBERS  # a session's rubbers under session_structure "rotated"
SEAT_SIDE = {"N": "NS", "E": "EW", "S": "NS", "W": "EW"}

# The seat numbers (TableSeat.seat) of players A..D in each rubber, N E S W,
# as vint.session_partnerships seats them.
_PLAYERS = ("A", "B", "C", "D")


def vint_rules_for(session: TableSession) -> vint.VintRules:
    return _rules(json.dumps(session.profile_version.options, sort_keys=True))


@lru_cache(maxsize=64)
def _rules(options_json: str) -> vint.VintRules:
    # Options are frozen per profile version, so parsing once per option set is enough.
    return vint.parse_rules(json.loads(options_json))


def standard_seats(rubber: int) -> dict[str, int]:
    """Seat numbers by N, E, S, W for ``rubber`` of a session started in the app.

    Rubbers 1..3 give each player each partner once; a fourth rubber, which only
    ``session_structure="free"`` allows (A31), starts the rotation again.
    """
    seating = vint.session_partnerships(_PLAYERS)[(rubber - 1) % RUBBERS]
    return {seat: _PLAYERS.index(name) + 1 for seat, name in seating.as_dict().items()}


def seats_of(row: VintRubber) -> dict[str, int]:
    return {"N": row.north, "E": row.east, "S": row.south, "W": row.west}


def seating_of(seats: Mapping[str, int], names: Mapping[int, str]) -> vint.Seating:
    """The engine's seating: player names by seat, from seat numbers and the session's names."""
    return vint.Seating(names[seats["N"]], names[seats["E"]], names[seats["S"]], names[seats["W"]])


def deal_from_facts(facts: Mapping[str, Any]) -> vint.VintDeal:
    """A ``VintDeal`` from facts in the format (not validated: ``deal_problems`` does that)."""
    contract = facts.get("contract")
    dumps = [(d.get("seat"), d.get("trick")) for d in facts.get("ace_dumps") or ()]
    if contract == "pass":
        tricks = facts.get("tricks") or {}
        return vint.all_pass_deal(tricks.get("NS"), tricks.get("EW"), ace_dumps=dumps)
    honours = facts.get("honours")
    grand = facts.get("grand_aces")
    return vint.contract_deal(
        str(contract),
        facts.get("declarer"),  # type: ignore[arg-type]
        facts.get("declarer_tricks"),  # type: ignore[arg-type]
        doubling=facts.get("doubling", 0),
        honours=(honours["side"], honours["count"]) if honours else None,
        grand_aces=(grand["side"], grand["count"]) if grand else None,
        aces_in_hand=[(h["seat"], h["count"]) for h in facts.get("aces_in_hand") or ()],
        sequences=[(s["seat"], s["suit"], s["length"]) for s in facts.get("sequences") or ()],
        ace_dumps=dumps,
    )


def entry_json(entry: vint.Entry) -> dict[str, Any]:
    out: dict[str, Any] = {
        "side": entry.side,
        "where": entry.where,
        "kind": entry.kind,
        "points": entry.points,
    }
    if entry.count:
        out["count"] = entry.count
    if entry.seat:
        out["seat"] = entry.seat
    if entry.suit:
        out["suit"] = entry.suit
    return out


def entries_json(outcome: vint.DealOutcome) -> dict[str, Any]:
    """What a deal wrote on the sheet and where the rubber stands after it."""
    state = outcome.state
    return {
        "above": {"NS": outcome.above_ns, "EW": outcome.above_ew},
        "below": {"NS": outcome.below_ns, "EW": outcome.below_ew},
        "items": [entry_json(e) for e in outcome.all_entries],
        "games": {"NS": state.games_ns, "EW": state.games_ew},
        "games_won": list(outcome.games_won),
        "part": {"NS": state.part_ns, "EW": state.part_ew},
        "phase": outcome.phase,
        "extra_deal": outcome.extra_deal,
        "rubber_winner": state.winner,
        "finished": state.finished,
    }


def deal_check(session: TableSession, facts: Mapping[str, Any]) -> vint.VintDeal:
    """The engine deal for ``facts``, or ``DealRejected`` with every problem by field."""
    rules = vint_rules_for(session)
    try:
        deal = deal_from_facts(facts)
    except RuleError as exc:
        raise DealRejected(errors_by_field([exc])) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise DealRejected({"__all__": [_("Incomplete deal: %(what)s") % {"what": exc}]}) from None
    problems = vint.deal_problems(deal, rules)
    if problems:
        raise DealRejected(errors_by_field(problems))
    return deal


def stored_facts(deal: vint.VintDeal, *, voided: bool) -> VintDealJson:
    """A sheet's deal as a row keeps its facts (a voided one with only what it gave)."""
    facts = deal_to_json(deal, voided=voided)
    facts.pop("voided", None)
    return facts


def snapshot(row: VintDeal) -> VintDealSnapshot:
    entries = row.entries or {}
    return {
        "rubber": row.rubber,
        "number": row.number,
        "facts": cast(VintDealJson, dict(row.facts)),  # as deal_to_json stored them
        "above": entries.get("above"),
        "below": entries.get("below"),
        "voided": row.voided,
    }
