"""Kop and Baśka behind the ``Game`` protocol (Baśka is Kop's variant: same engine,
same rows, its own contracts and defaults).

Vocabulary (``scoring/engines/kop.py`` has the game's own): a deal's **facts** are
what the scorer gave (contract, declarers by seat, doublings as a count or as the
seats in order, the declarers' card points), stored as in the scoresheet JSON format;
the engine computes the **value** and the four **payments** (seat 1..4), which sum to
zero. A player's **small points** at a table are their payments summed over the
counted (not voided) deals.
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext as _

from scoring.engines import kop
from scoring.engines.errors import RuleError
from scoring.engines.kop_sheet import read_kop_sheet
from scoring.engines.shapes import KopDealJson, KopSheetJson
from scoring.errors import DealRejected, NeedsConfirmation
from scoring.forms import KopDealForm
from scoring.games import (
    GameBase,
    SeatResult,
    SessionIds,
    Slot,
    TableProgress,
    register,
)
from scoring.imports import import_session
from scoring.models import DealHistory, KopDeal, TableSeat, TableSession
from scoring.problems import kop_contract_label, problem_text
from scoring.rows import rows_where
from scoring.selectors import deal_history, errors_by_field, sheet_players
from scoring.shapes import KopDealSnapshot, KopTally
from scoring.signals import deal_changed

RECENT_ROWS = 8  # deals shown under the pad


contract_label = kop_contract_label


def declarer_hint(contract: str) -> str:
    hints = {
        "normal": gettext("Tap the two players who held the black queens (♣Q ♠Q)."),
        "wesele": gettext("Tap the wesele pair: the bidder and the holder of the called jack."),
        "cicha": gettext("Tap the player who held both black queens."),
    }
    return hints.get(contract, gettext("Tap the soloist."))


_RULES_CACHE: dict[int, kop.KopRules] = {}


def kop_rules(session: TableSession) -> kop.KopRules:
    """The session's rules, parsed once per profile version (versions never change)."""
    version = session.profile_version
    rules = _RULES_CACHE.get(version.pk)
    if rules is None:
        rules = _RULES_CACHE[version.pk] = kop.parse_rules(session.game, version.options)
    return rules


# ------------------------------------------------------------------------- row <-> engine


def deal_from_facts(facts: Mapping[str, Any]) -> kop.KopDeal:
    seats = facts.get("doubling_seats")
    return kop.KopDeal(
        contract=facts["contract"],
        declarers=tuple(facts["declarers"]),
        doublings=facts.get("doublings"),
        doubling_seats=tuple(seats) if seats is not None else None,
        declarer_points=facts["declarer_points"],
    )


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


def snapshot(row: KopDeal) -> KopDealSnapshot:
    """A deal's facts and result as the history keeps them."""
    return {
        **facts_of(row),
        "value": row.value,
        "payments": list(row.payments),
        "voided": row.voided,
    }


# ------------------------------------------------------------------------- the tally
# A session keeps its seat totals, its count of counted deals and its highest deal
# number (``TableSession.tally``): a save adds its deal's payments to them, a correction
# or void moves them by the difference, so no write sums the session's deals again.


def tally_of(session: TableSession) -> KopTally:
    """The session's stored tally ({} until its first deal: nothing yet)."""
    t = session.tally
    if not t:
        return {"totals": [0, 0, 0, 0], "counted": 0, "last": 0}
    return {"totals": list(t["totals"]), "counted": t["counted"], "last": t["last"]}


def tally_move(tally: KopTally, payments: Sequence[int], sign: int) -> None:
    """Count a deal's payments in (``sign`` 1) or out (-1)."""
    tally["totals"] = [t + sign * p for t, p in zip(tally["totals"], payments, strict=True)]
    tally["counted"] += sign


def tally_compute(session_id: int) -> KopTally:
    """The tally from the session's rows, from scratch (one query)."""
    tally: KopTally = {"totals": [0, 0, 0, 0], "counted": 0, "last": 0}
    for number, voided, *payments in KopDeal.objects.filter(session_id=session_id).values_list(
        "number", "voided", "payment_1", "payment_2", "payment_3", "payment_4"
    ):
        tally["last"] = max(tally["last"], number)
        if not voided:
            tally_move(tally, payments, 1)
    return tally


def _next_number(session: TableSession) -> int:
    return tally_of(session)["last"] + 1


def warning_texts(result: kop.KopResult) -> list[str]:
    """The result's warnings as sentences for the scorer (the engine's English ones are
    what a confirmed deal stores)."""
    return [problem_text(p) for p in result.warning_problems]


def _confirmed(result: kop.KopResult, confirm_warnings: bool) -> list[str]:
    if result.warnings and not confirm_warnings:
        raise NeedsConfirmation(warning_texts(result))
    return list(result.warnings)


# ----------------------------------------------------------------------------- the sheet


@dataclass(frozen=True)
class KopSheetRow:
    deal: KopDeal
    dealer: int
    contract_label: str
    doubling_label: str
    running: tuple[int, int, int, int]

    @property
    def payment_cells(self) -> tuple[int | str, ...]:
        """The four payments as the pad's list shows them: a dash for a voided deal."""
        return ("—",) * 4 if self.deal.voided else self.deal.payments


@dataclass(frozen=True)
class KopScoreboard:
    session: TableSession
    players: list[Any]
    rows: list[KopSheetRow]
    totals: tuple[int, int, int, int]
    deals_played: int
    next_number: int
    next_dealer: int


def _sheet_row(deal: KopDeal, rules: kop.KopRules, running: Sequence[int]) -> KopSheetRow:
    return KopSheetRow(
        deal=deal,
        dealer=kop.dealer_for_deal(deal.number),
        contract_label=contract_label(deal.contract),
        doubling_label=kop.doubling_name(deal.k, rules) if deal.k else "",
        running=(running[0], running[1], running[2], running[3]),
    )


def seat_points(session_ids: SessionIds) -> list[tuple[int, int, int, int]]:
    """``(session id, seat, player id, small points)`` of every seat of the sessions, in
    session and seat order: one query of the seats and each session's tally (the seat
    totals every write keeps; no deal row is read: 160,000 of them at a 4,000-player
    event)."""
    params: list[Any]
    if isinstance(session_ids, QuerySet):
        subquery, query_params = session_ids.query.sql_with_params()
        within, params = f"IN ({subquery})", list(query_params)
    else:
        params = list(session_ids)
        if not params:
            return []
        within = f"IN ({', '.join(['%s'] * len(params))})"
    q = connection.ops.quote_name
    seats, sessions = q(TableSeat._meta.db_table), q(TableSession._meta.db_table)
    sql = (
        # The tally with the session's first seat only: decoded once a session.
        "SELECT s.session_id, s.seat, s.player_id, CASE WHEN s.seat = 1 THEN t.tally END "
        f"FROM {seats} s "  # noqa: S608
        f"JOIN {sessions} t ON t.id = s.session_id WHERE s.session_id {within} "
        "ORDER BY s.session_id, s.seat"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()  # at once, not row by row
    rows: list[tuple[int, int, int, int]] = []
    totals: list[int] = []
    last = None
    for session_id, seat, player_id, tally in found:
        if session_id != last:
            stored = json.loads(tally) if isinstance(tally, str) else tally
            totals, last = (stored or {}).get("totals") or [0, 0, 0, 0], session_id
        rows.append((session_id, seat, player_id, totals[seat - 1]))
    return rows


def scoreboard(*, session: TableSession, last: int | None = None) -> KopScoreboard:
    """Totals and sheet rows; with ``last``, rows only for the newest ``last`` deals.

    The pad shows the newest deals only, so it asks the database for the sums
    and the last rows instead of reading a whole 32-deal round on every save.
    """
    rules = kop_rules(session)
    deals_qs = KopDeal.objects.filter(session=session)
    rows: list[KopSheetRow] = []
    top: int
    if last is None:
        t = [0, 0, 0, 0]
        played = 0
        deals = list(deals_qs.order_by("number"))
        for deal in deals:
            if not deal.voided:
                played += 1
                t = [a + b for a, b in zip(t, deal.payments, strict=True)]
            rows.append(_sheet_row(deal, rules, t))
        top = deals[-1].number if deals else 0
    else:
        tally = tally_of(session)  # kept by every write: no sums over the session's rows
        t, played = tally["totals"], tally["counted"]
        newest = (
            rows_where(KopDeal, "session_id = %s ORDER BY number DESC LIMIT %s", [session.pk, last])
            if last
            else []
        )
        running = list(t)
        for deal in newest:  # newest first: undo each deal to get the totals before it
            rows.append(_sheet_row(deal, rules, running))
            if not deal.voided:
                running = [a - b for a, b in zip(running, deal.payments, strict=True)]
        rows.reverse()
        top = tally["last"]
    next_number = top + 1
    return KopScoreboard(
        session=session,
        players=sheet_players(session),
        rows=rows,
        totals=(t[0], t[1], t[2], t[3]),
        deals_played=played,
        next_number=next_number,
        next_dealer=kop.dealer_for_deal(next_number),
    )


@functools.lru_cache(maxsize=256)
def _pad_choices(game: str, rules: kop.KopRules, cap: int | None, language: str) -> dict[str, Any]:
    """The pad's fixed choices for a game, rules and language: built once, not on every save.

    Only the contracts the rules allow are offered (``contracts``, rules/kop.md §7.1).
    """
    allowed = kop.contracts_for(game, rules)
    return {
        "contracts": [(c.name, contract_label(c.name), c.declarers) for c in allowed],
        "doubling_counts": [
            (k, kop.doubling_name(k, rules) if k else "0")
            for k in range(0, (cap if cap is not None else 6) + 1)
        ],
        "hints_json": json.dumps({c.name: declarer_hint(c.name) for c in allowed}),
    }


def _ints(values: Any) -> list[int]:
    out = []
    for v in values or []:
        try:
            out.append(int(v))
        except (TypeError, ValueError):
            continue
    return out


# ------------------------------------------------------------------------------ the game


class KopGame(GameBase):
    """Kop (Greater Poland) or Baśka (Kashubia): ``code`` picks the engine's variant."""

    family = "kop"
    deal_model = KopDeal
    session_template = "scoring/kop_session.html"
    sheet_template = "scoring/kop_sheet.html"
    history_template = "scoring/history.html"
    edit_template = "scoring/kop_deal_edit.html"
    preview_template = "scoring/_kop_preview.html#preview"
    aside_template = ""
    paper_pad = True

    def __init__(self, code: str, label: str) -> None:
        self.code, self.label = code, label

    def rules(self, session: TableSession) -> kop.KopRules:
        return kop_rules(session)

    def planned_deals(self, deals_per_round: int) -> int | None:
        return deals_per_round

    # ----------------------------------------------------------------- entry

    def form(self, session: TableSession, data: Any = None, **kwargs: Any) -> KopDealForm:
        return KopDealForm(data, game=session.game, rules=kop_rules(session), **kwargs)

    def form_facts(self, form: Any) -> dict[str, Any] | None:
        return form.facts() if form.is_valid() else None

    def form_extra(self, form: Any) -> dict[str, Any]:
        return {}

    def form_for_deal(self, session: TableSession, row: KopDeal) -> KopDealForm:
        initial: dict[str, Any] = {
            "contract": row.contract,
            "declarers": row.declarers,
            "declarer_points": row.declarer_points,
            "doublings": row.doublings or 0,
        }
        if row.doubling_seats is not None:
            initial["doubling_mode"] = "seats"
            initial["doubling_seats"] = " ".join(str(s) for s in row.doubling_seats)
        return KopDealForm(game=session.game, rules=kop_rules(session), initial=initial)

    def pad_context(
        self, request: Any, session: TableSession, form: Any = None, *, editing: Any = None
    ) -> dict[str, Any]:
        context = self.saved_context(request, session, None)
        assert context is not None  # noqa: S101 -- a Kop pad is never drawn again whole
        rules = kop_rules(session)
        if form is None:
            form = KopDealForm(
                game=session.game,
                rules=rules,
                initial={"contract": "normal", "doublings": 0},
            )
        contract = form["contract"].value() or "normal"
        cap = rules.doubling_cap.get(contract) if rules.doubling_cap else None
        points = form["declarer_points"].value()
        try:
            other_points: int | str = 104 - int(points) if points not in (None, "") else "—"
        except (TypeError, ValueError):
            other_points = "—"
        try:
            selected_doublings = int(form["doublings"].value() or 0)
        except (TypeError, ValueError):
            selected_doublings = 0
        context.update(
            selected_contract=contract,
            selected_declarers=_ints(form["declarers"].value()),
            selected_doublings=selected_doublings,
            selected_mode="seats" if form["doubling_mode"].value() == "seats" else "count",
            other_points=other_points,
            form=form,
            **_pad_choices(session.game, rules, cap, get_language()),
            hint=declarer_hint(contract),
            editing=editing,
        )
        return context

    def saved_context(
        self,
        request: Any,
        session: TableSession,
        row: Any,
        before: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The pad's parts a new deal changes: totals, the next deal and its dealer, and the
        newest rows; after a save (``row``, the deal stored) only that deal's row, which
        the phone puts on top of the rows it shows (a Kop pad's fields stay as they are)."""
        if row is not None and row.number > 1:
            board = scoreboard(session=session, last=0)
            rows: dict[str, Any] = {"new_row": _sheet_row(row, kop_rules(session), board.totals)}
        else:
            board = scoreboard(session=session, last=RECENT_ROWS)
            rows = {"last_rows": list(reversed(board.rows))}
        return {
            "totals_pairs": list(zip(board.players, board.totals, strict=True)),
            "next_dealer_name": board.players[board.next_dealer - 1].name,
            "next_slot": Slot(0, board.next_number),
            "board": board,
            **rows,
            "recent_keep": RECENT_ROWS,
            "edit_url_prefix": reverse("scoring:deal_edit", args=[session.pk, 0])[:-2],
        }

    def preview_context(self, request: Any, session: TableSession, form: Any) -> dict[str, Any]:
        context: dict[str, Any] = {"preview_errors": [], "result": None, "form": form}
        if form.is_valid():
            try:
                _deal, result = evaluate(session, form.facts())
            except DealRejected as exc:
                context["preview_errors"] = [m for msgs in exc.errors.values() for m in msgs]
            else:
                context["result"] = result
                context["warnings"] = warning_texts(result)
                context["preview_pairs"] = list(
                    zip(sheet_players(session), result.payments, strict=True)
                )
        else:
            context["preview_errors"] = [
                m for field, msgs in form.errors.items() for m in msgs if field != "declarer_points"
            ] or [_("Waiting for the card points.")]
        return context

    # ----------------------------------------------------------------- write

    def next_slot(self, session: TableSession) -> Slot:
        return Slot(0, _next_number(session))

    def closed_message(self, session: TableSession, extra: Mapping[str, Any]) -> str:
        return ""  # a Kop session takes deals until it is locked

    def deal_at(self, session: TableSession, slot: Slot) -> KopDeal | None:
        if slot.rubber:
            return None
        return KopDeal.objects.filter(session=session, number=slot.number).first()

    def slot_of(self, row: KopDeal) -> Slot:
        return Slot(0, row.number)

    def append(
        self,
        session: TableSession,
        slot: Slot,
        facts: Mapping[str, Any],
        *,
        entered_by: str,
        confirm_warnings: bool,
        extra: Mapping[str, Any],
    ) -> KopDeal:
        deal, result = evaluate(session, facts)
        confirmed = _confirmed(result, confirm_warnings)
        row = fill_row(
            KopDeal(session=session, number=slot.number, entered_by=entered_by),
            deal,
            result,
            confirmed,
        )
        tally = tally_of(session)
        tally_move(tally, row.payments, 1)
        tally["last"] = max(tally["last"], row.number)
        session.tally = tally
        return row

    def correct(
        self,
        session: TableSession,
        row: KopDeal,
        facts: Mapping[str, Any],
        *,
        confirm_warnings: bool,
    ) -> None:
        deal, result = evaluate(session, facts)
        confirmed = _confirmed(result, confirm_warnings)
        tally = tally_of(session)
        if not row.voided:
            tally_move(tally, row.payments, -1)
        fill_row(row, deal, result, confirmed)
        row.voided = False
        row.save()
        tally_move(tally, row.payments, 1)
        session.tally = tally

    def void(self, session: TableSession, row: KopDeal) -> None:
        if not row.voided:
            tally = tally_of(session)
            tally_move(tally, row.payments, -1)
            session.tally = tally
        row.voided = True
        row.save(update_fields=["voided", "updated_at"])

    def tally_compute(self, session: TableSession) -> KopTally:
        return tally_compute(session.pk)

    def tally_new(self) -> KopTally:
        return {"totals": [0, 0, 0, 0], "counted": 0, "last": 0}

    def snapshot(self, row: KopDeal) -> KopDealSnapshot:
        return snapshot(row)

    def summary(self, row: KopDeal) -> str:
        seats = "+".join(str(s) for s in row.declarers)
        pays = " ".join(f"{p:+d}" for p in row.payments)
        return _("%(contract)s, seats %(seats)s, %(points)s points: %(payments)s") % {
            "contract": contract_label(row.contract),
            "seats": seats,
            "points": row.declarer_points,
            "payments": pays,
        }

    # ------------------------------------------------------------------ read

    def seat_results(self, session_ids: SessionIds) -> dict[int, list[SeatResult]]:
        out: dict[int, list[SeatResult]] = defaultdict(list)
        for sid, seat, player_id, points in seat_points(session_ids):
            out[sid].append(SeatResult(seat, player_id, points, points))
        return dict(out)

    def progress(self, sessions: Sequence[TableSession]) -> dict[int, TableProgress]:
        counted = self.counted_deals([s.pk for s in sessions])
        out = {}
        for s in sessions:
            deals, planned = counted.get(s.pk, 0), s.planned_deals
            out[s.pk] = TableProgress(deals, planned, bool(planned and deals >= planned))
        return out

    def sheet_context(self, session: TableSession) -> dict[str, Any]:
        return {"board": scoreboard(session=session)}

    def history(self, session: TableSession, slot: Slot | None = None) -> list[DealHistory]:
        return list(deal_history(session=session, slot=slot))

    def sheet_json(self, session: TableSession) -> KopSheetJson:
        """The session as a scoresheet (``shared/formats/scoresheet-json.md``) that re-imports."""
        sheet: KopSheetJson = {
            "game": session.game,
            # Every option spelled out: the sheet means the same whatever profile an
            # import finds for it, and exports again byte for byte.
            "rules": kop.rules_to_options(kop_rules(session)),
            "players": [p.name for p in sheet_players(session)],
            "deals": [
                sheet_deal(d) for d in KopDeal.objects.filter(session=session).order_by("number")
            ],
        }
        read_kop_sheet(sheet)  # what would not re-import fails here, not at the import
        return sheet

    def csv_rows(self, session: TableSession) -> list[list[Any]]:
        """One row per deal (voided ones marked), then the totals. Columns by seat."""
        board = scoreboard(session=session)
        seats = [f"{n} {p.name}" for n, p in enumerate(board.players, 1)]
        rows: list[list[Any]] = [
            [
                "deal",
                "dealer",
                "contract",
                "declarers",
                "doublings",
                "declarer_points",
                "value",
                "declarers_won",
                *[f"payment {s}" for s in seats],
                *[f"total {s}" for s in seats],
                "voided",
            ]
        ]
        for r in board.rows:
            d = r.deal
            # A voided deal keeps its facts but pays nothing: blank result cells, so a
            # spreadsheet's sum is right, and the running totals carry on unchanged.
            if d.voided:
                result: list[Any] = ["", "", "", "", "", ""]
            else:
                result = [d.value, _("won") if d.declarers_won else _("lost"), *d.payments]
            rows.append(
                [
                    d.number,
                    r.dealer,
                    d.contract,
                    " ".join(str(s) for s in d.declarers),
                    d.k,
                    d.declarer_points,
                    *result,
                    *r.running,
                    _("voided") if d.voided else "",
                ]
            )
        rows.append(["total", "", "", "", "", "", "", "", *board.totals, *board.totals, ""])
        return rows

    @transaction.atomic
    def import_sheet(self, data: Mapping[str, Any], *, user: Any, title: str) -> TableSession:
        """A session from a Kop or Baśka scoresheet: all of it, or nothing (``SheetError``)."""
        sheet = read_kop_sheet(dict(data))  # SheetError lists every problem; nothing written
        session = import_session(
            game=self.code,
            rules=data.get("rules", {}),
            names=list(data["players"]),
            user=user,
            title=title,
            planned_deals=len(sheet.counted) or None,
        )
        bulk_record(
            session=session,
            deals=sheet.deals,
            voided=sheet.voided,
            entered_by=user.get_username() if user else "import",
        )
        return session


@transaction.atomic
def bulk_record(
    *,
    session: TableSession,
    deals: Sequence[kop.KopDeal],
    entered_by: str,
    voided: Collection[int] = (),
) -> list[KopDeal]:
    """Append many deals at once (a typed-in paper pad, an import, a simulation); all or
    nothing. Warnings count as confirmed: the deals were played and written down.

    ``voided`` are the positions (1-based) in ``deals`` of deals struck out: they are
    stored in their places as voided rows and count for nothing."""
    session = TableSession.objects.select_for_update(of=("self",)).get(pk=session.pk)
    rules = kop_rules(session)
    counted = [d for n, d in enumerate(deals, 1) if n not in voided]
    table = kop.score_table(counted, rules)  # RuleError "deal n: ..." rejects the whole batch
    results = iter(table.results)
    start = _next_number(session)
    rows = []
    for n, deal in enumerate(deals, 1):
        row = KopDeal(session=session, number=start + n - 1, entered_by=entered_by)
        if n in voided:
            row = fill_row(row, deal, _voided_result(deal, rules), ())
            row.voided = True
        else:
            result = next(results)
            row = fill_row(row, deal, result, result.warnings)
        rows.append(row)
    KopDeal.objects.bulk_create(rows)
    tally = tally_of(session)
    for r in rows:
        if not r.voided:  # a struck-out deal shows its payments and counts for nothing
            tally_move(tally, r.payments, 1)
    tally["last"] = max([tally["last"], *(r.number for r in rows)])
    session.tally = tally
    TableSession.objects.filter(pk=session.pk).update(tally=tally, revision=F("revision") + 1)
    DealHistory.objects.bulk_create(
        DealHistory(
            session=session,
            deal_number=r.number,
            action="created",
            actor=entered_by,
            new=snapshot(r),
        )
        for r in rows
    )
    deal_changed.send(sender=TableSession, session=session, action="created", slot=None)
    return rows


def _voided_result(deal: kop.KopDeal, rules: kop.KopRules) -> kop.KopResult:
    """What a struck-out deal shows (struck through) on the sheet: its result when its
    facts are complete, as for a deal voided at the table, else nothing."""
    if not kop.check_deal(deal, rules):
        return kop.score_deal(deal, rules)
    return kop.KopResult(value=0, declarers_won=False, k=0, margin=0, L=0, payments=(0, 0, 0, 0))


KOP = register(KopGame("kop", "Kop"))
BASKA = register(KopGame("baska", "Baśka"))
