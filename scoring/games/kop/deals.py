"""A Kop or Baśka deal three ways: facts (the scoresheet format), an engine deal, a row.

``evaluate`` scores facts under a session's rules (``DealRejected`` with every problem by
field); ``fill_row`` is the one place a row takes an engine deal's facts and result, and
``facts_of`` reads them back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from scoring.engines import kop
from scoring.engines.errors import RuleError
from scoring.engines.shapes import KopDealJson
from scoring.errors import DealRejected, NeedsConfirmation
from scoring.games.kop.models import KopDeal
from scoring.problems import errors_by_field, problem_text
from scoring.shapes import KopDealSnapshot

if TYPE_CHECKING:
    from scoring.models import TableSession


def contract_label(name: str) -> str:
    """Clubs say "zolo", "cicha", "wesele" in any language; only "normal" is translated."""
    if name == "normal":
        return _("normal")
    contract = kop.CONTRACTS.get(name)
    return contract.label_pl if contract is not None else name


def contract_choices(game: str) -> list[tuple[str, str]]:
    """(contract, its name) of every contract of ``game`` (the profile editor's boxes)."""
    return [(c.name, contract_label(c.name)) for c in kop.contracts_for(game)]


_RULES_CACHE: dict[int, kop.KopRules] = {}


def kop_rules(session: TableSession) -> kop.KopRules:
    """The session's rules, parsed once per profile version (versions never change)."""
    version = session.profile_version
    rules = _RULES_CACHE.get(version.pk)
    if rules is None:
        rules = _RULES_CACHE[version.pk] = kop.parse_rules(session.game, version.options)
    return rules


def deal_from_facts(facts: Mapping[str, Any]) -> kop.KopDeal:
    seats = facts.get("doubling_seats")
    return kop.KopDeal(
        contract=facts["contract"],
        declarers=tuple(facts["declarers"]),
        doublings=facts.get("doublings"),
        doubling_seats=tuple(seats) if seats is not None else None,
        declarer_points=facts["declarer_points"],
    )


def facts_from_deal(deal: kop.KopDeal) -> KopDealJson:
    """An engine deal's facts, as the scoresheet format writes them (``deals_record``
    takes facts: a simulation or a test that makes engine deals hands them over so)."""
    facts: KopDealJson = {"contract": deal.contract, "declarers": list(deal.declarers)}
    if deal.doubling_seats is not None:
        facts["doubling_seats"] = list(deal.doubling_seats)
    elif deal.doublings is not None:
        facts["doublings"] = deal.doublings
    if deal.declarer_points is not None:
        facts["declarer_points"] = deal.declarer_points
    return facts


def facts_of(row: KopDeal) -> KopDealJson:
    """The facts of a stored deal, as in the scoresheet JSON format."""
    facts: KopDealJson = {"contract": row.contract, "declarers": list(row.declarers)}
    if row.doubling_seats is not None:
        facts["doubling_seats"] = list(row.doubling_seats)
    elif row.doublings is not None:
        facts["doublings"] = row.doublings
    facts["declarer_points"] = row.declarer_points
    return facts


def sheet_deal(row: KopDeal) -> KopDealJson:
    """A deal as the scoresheet writes it: its facts, and ``"voided": true`` when it was
    struck out (it keeps its place, so every later deal keeps its dealer)."""
    if not row.voided:
        # What the scorer confirmed goes along (the format's input ``warnings``).
        return {**facts_of(row), "warnings": list(row.warnings_confirmed or [])}
    # A deal imported as struck out with its contract alone has no declarers.
    facts: KopDealJson = facts_of(row) if row.declarers else {"contract": row.contract}
    facts["voided"] = True
    return facts


def fill_row(
    row: KopDeal, deal: kop.KopDeal, result: kop.KopResult, confirmed: Sequence[str]
) -> KopDeal:
    """The one place a stored row takes an engine deal's facts and result."""
    row.contract = deal.contract
    row.declarers = list(deal.declarers)
    row.doublings = deal.doublings
    row.doubling_seats = list(deal.doubling_seats) if deal.doubling_seats is not None else None
    # A deal imported as voided may lack its card points: 0 stands in (never shown).
    row.declarer_points = deal.declarer_points if deal.declarer_points is not None else 0
    row.warnings_confirmed = list(confirmed)
    row.value = result.value
    row.declarers_won = result.declarers_won
    row.k = result.k
    row.payment_1, row.payment_2, row.payment_3, row.payment_4 = result.payments
    return row


def evaluate(session: TableSession, facts: Mapping[str, Any]) -> tuple[kop.KopDeal, kop.KopResult]:
    """Score ``facts`` under the session's rules, or raise ``DealRejected``."""
    rules = kop_rules(session)
    try:
        deal = deal_from_facts(facts)
    except (KeyError, TypeError) as exc:
        raise DealRejected({"__all__": [_("Incomplete deal: %(what)s") % {"what": exc}]}) from None
    problems = kop.check_deal(deal, rules)
    if problems:
        raise DealRejected(errors_by_field(problems))
    try:
        result = kop.score_deal(deal, rules)
    except RuleError as exc:
        raise DealRejected(errors_by_field([exc])) from None
    return deal, result


def voided_result(deal: kop.KopDeal, rules: kop.KopRules) -> kop.KopResult:
    """What a struck-out deal shows (struck through) on the sheet: its result when its
    facts are complete, as for a deal voided at the table, else nothing."""
    if not kop.check_deal(deal, rules):
        return kop.score_deal(deal, rules)
    return kop.KopResult(value=0, declarers_won=False, k=0, margin=0, L=0, payments=(0, 0, 0, 0))


def warning_texts(result: kop.KopResult) -> list[str]:
    """The result's warnings as sentences for the scorer (the engine's English ones are
    what a confirmed deal stores)."""
    return [problem_text(p) for p in result.warning_problems]


def confirmed(result: kop.KopResult, confirm_warnings: bool) -> list[str]:
    """The warnings a deal stores as confirmed; ``NeedsConfirmation`` until they are."""
    if result.warnings and not confirm_warnings:
        raise NeedsConfirmation(warning_texts(result))
    return list(result.warnings)


def snapshot(row: KopDeal) -> KopDealSnapshot:
    """A deal's facts and result as the history keeps them."""
    return {
        **facts_of(row),
        "value": row.value,
        "payments": list(row.payments),
        "voided": row.voided,
    }
