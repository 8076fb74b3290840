"""What tournaments read of Vint tables: no planned deals (a session is its rubbers),
progress from the tally, and each seat's session total, net and rubbers won."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.games.interface import SeatResult, SessionIds, TableProgress
from scoring.games.vint.board import vint_scoreboard
from scoring.games.vint.ledger import tally_of
from scoring.games.vint.models import VintDeal
from scoring.models import TableSession
from scoring.selectors import counted_deals


class VintResults:
    family = "vint"

    def planned_deals(self, deals_per_round: int) -> int | None:
        return None  # a session is three rubbers, however many deals they take

    def counted_deals(self, session_ids: Sequence[int]) -> dict[int, int]:
        return counted_deals(VintDeal.objects.all(), session_ids)

    def progress(self, sessions: Sequence[TableSession]) -> dict[int, TableProgress]:
        """A Vint table has finished when its three rubbers have (no planned deal count):
        its tally says so (no rubber left to play), so no rubber is played again here."""
        counted = self.counted_deals([s.pk for s in sessions])
        return {
            s.pk: TableProgress(counted.get(s.pk, 0), None, tally_of(s)["rubber"] is None)
            for s in sessions
        }

    def seat_results(self, session_ids: SessionIds) -> dict[int, list[SeatResult]]:
        out: dict[int, list[SeatResult]] = {}
        for session in TableSession.objects.filter(pk__in=session_ids).select_related(
            "profile_version"
        ):
            board = vint_scoreboard(session=session)
            wins = dict.fromkeys(range(1, 5), 0)
            for rubber in board.started:
                winner = rubber.result.state.winner
                if winner:
                    for seat in ("N", "S") if winner == "NS" else ("E", "W"):
                        wins[rubber.seats[seat]] += 1
            out[session.pk] = sorted(
                (
                    SeatResult(
                        seat=s.seat,
                        player_id=s.player.pk,
                        points=s.total,
                        net=s.net,
                        wins=wins[s.seat],
                    )
                    for s in board.standings
                ),
                key=lambda r: r.seat,
            )
        return out
