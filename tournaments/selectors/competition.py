"""What the director's competition page shows: the players with their classes and teams,
each team's line-up and whether its size is within the limits, the adjustments, and a
round's tables with their walkouts and short tables."""

from __future__ import annotations

from typing import Any

from scoring.models import TableSeat
from tournaments.models import Adjustment, Round, RoundTable, Tournament


def competition_page(*, tournament: Tournament, size_min: int, size_max: int) -> dict[str, Any]:
    """The players (start number, name, classes, team, withdrawn), the teams with their
    members and whether their size fits ``size_min``..``size_max``, the adjustments and
    the rounds seated."""
    entries = list(
        tournament.entries.order_by("number").values(
            "number", "player__name", "classes", "team", "withdrawn_after"
        )
    )
    teams: dict[str, list[Any]] = {}
    for e in entries:
        if e["team"]:
            teams.setdefault(e["team"], []).append(e)
    return {
        "entries": entries,
        "teams": [
            {
                "name": name,
                "members": members,
                "size": len(members),
                "fits": size_min <= len(members) <= size_max,
            }
            for name, members in sorted(teams.items())
        ],
        "adjustments": list(
            Adjustment.objects.filter(tournament=tournament)
            .select_related("entry__player")
            .order_by("created_at", "id")
        ),
        "rounds": list(tournament.rounds.order_by("number").values_list("number", flat=True)),
    }


def round_situations(*, rnd: Round) -> list[dict[str, Any]]:
    """The round's tables in order: each seat (seat, start number, name) and what the
    table records (a walkout: who and after which deal; a short table: who never came)."""
    numbers = dict(rnd.tournament.entries.values_list("player_id", "number"))
    seats: dict[int, list[tuple[int, int, str]]] = {}
    for session_id, seat, player_id, name in (
        TableSeat.objects.filter(session__round_table__round=rnd)
        .order_by("seat")
        .values_list("session_id", "seat", "player_id", "player__name")
    ):
        seats.setdefault(session_id, []).append((seat, numbers.get(player_id, 0), name))
    out = []
    for table in RoundTable.objects.filter(round=rnd).order_by("number"):
        table_seats = seats.get(table.session_id, [])
        by_seat = {s: (n, name) for s, n, name in table_seats}
        out.append(
            {
                "table": table,
                "seats": table_seats,
                "walkout": by_seat.get(table.walkout_seat) if table.walkout_seat else None,
                "missing": by_seat.get(table.missing_seat) if table.missing_seat else None,
            }
        )
    return out
