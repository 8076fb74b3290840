"""What tournaments read of Kop and Baśka tables: deals planned, progress, seat results.

A seat's result is its small points, the seat total every write keeps in the session's
tally: no deal row is read (160,000 of them at a 4,000-player event).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from scoring.games.interface import SeatResult, SessionIds, TableProgress
from scoring.games.kop.models import KopDeal
from scoring.models import TableSeat, TableSession
from scoring.selectors import counted_deals


class KopResults:
    family = "kop"

    def planned_deals(self, deals_per_round: int) -> int | None:
        return deals_per_round

    def counted_deals(self, session_ids: Sequence[int]) -> dict[int, int]:
        return counted_deals(KopDeal.objects.all(), session_ids)

    def progress(self, sessions: Sequence[TableSession]) -> dict[int, TableProgress]:
        counted = self.counted_deals([s.pk for s in sessions])
        out = {}
        for s in sessions:
            deals, planned = counted.get(s.pk, 0), s.planned_deals
            out[s.pk] = TableProgress(deals, planned, bool(planned and deals >= planned))
        return out

    def seat_results(self, session_ids: SessionIds) -> dict[int, list[SeatResult]]:
        """Per session, the four seats' small points from its tally (two queries: the
        sessions' tallies and their seats)."""
        tallies = dict(TableSession.objects.filter(pk__in=session_ids).values_list("pk", "tally"))
        out: dict[int, list[SeatResult]] = defaultdict(list)
        for session_id, seat, player_id in (
            TableSeat.objects.filter(session_id__in=session_ids)
            .order_by("session_id", "seat")
            .values_list("session_id", "seat", "player_id")
        ):
            totals = (tallies.get(session_id) or {}).get("totals") or (0, 0, 0, 0)
            points = totals[seat - 1]
            out[session_id].append(SeatResult(seat, player_id, points, points))
        return dict(out)
