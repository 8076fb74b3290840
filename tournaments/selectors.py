"""Read-only queries for clubs and players."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from tournaments.models import (
    Registration,
    Round,
    RoundTable,
    StandingsSnapshot,
    Tournament,
)

# ----------------------------------------------------------------------------- tournaments


def next_round_ready(*, tournament: Tournament) -> bool:
    """The next round may be seated when every table of the last one is accepted."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return tournament.entries.exists()
    if last.number >= tournament.rounds_planned:
        return False
    return not last.tables.filter(accepted_at__isnull=True).exists()


def round_tables(*, rnd: Round) -> list[dict[str, Any]]:
    from scoring.models import KopDeal

    tables = list(rnd.tables.select_related("session").prefetch_related("session__seats__player"))
    numbers = dict(rnd.tournament.entries.values_list("player_id", "number"))
    deal_counts = dict(
        KopDeal.objects.filter(session__round_table__round=rnd, voided=False)
        .values("session_id")
        .annotate(n=Count("pk"))
        .values_list("session_id", "n")
    )
    out = []
    for t in tables:
        seats = sorted(t.session.seats.all(), key=lambda s: s.seat)
        out.append(
            {
                "table": t,
                "seats": [(s.seat, numbers.get(s.player_id), s.player) for s in seats],
                "deals": deal_counts.get(t.session_id, 0),
                "planned": t.session.planned_deals,
            }
        )
    return out


def round_byes(*, rnd: Round) -> list[Registration]:
    return list(rnd.tournament.entries.filter(number__in=rnd.byes).select_related("player"))


def progress(*, tournament: Tournament) -> dict[str, Any]:
    rnd = tournament.rounds.order_by("-number").first()
    tables = round_tables(rnd=rnd) if rnd else []
    accepted = sum(1 for t in tables if t["table"].accepted_at)
    ends = None
    if rnd is not None and tournament.round_minutes:
        from datetime import timedelta

        ends = rnd.created_at + timedelta(minutes=tournament.round_minutes)
    return {
        "round": rnd,
        "round_ends": ends,
        "tables": tables,
        "accepted": accepted,
        "all_accepted": bool(tables) and accepted == len(tables),
        "can_start_next": next_round_ready(tournament=tournament),
    }


def latest_snapshot(*, tournament: Tournament) -> StandingsSnapshot | None:
    return tournament.snapshots.order_by("-results_version").first()


def standings_view(*, tournament: Tournament, viewer_is_director: bool) -> dict[str, Any]:
    snapshot = latest_snapshot(tournament=tournament)
    finished = tournament.rounds.filter(number__gte=tournament.rounds_planned).exists() and not (
        RoundTable.objects.filter(round__tournament=tournament, accepted_at__isnull=True).exists()
    )
    visible = viewer_is_director or not tournament.hide_standings or finished
    return {
        "snapshot": snapshot,
        "data": snapshot.data if snapshot else None,
        "current": snapshot is not None and snapshot.results_version >= tournament.results_version,
        "pending": snapshot is None or snapshot.results_version < tournament.results_version,
        "visible": visible,
        "hidden_for_public": tournament.hide_standings and not finished,
        "finished": finished,
    }


def standings_tables(*, tournament: Tournament, data: Any, request: Any) -> dict[str, Any]:
    from django_tables2 import RequestConfig

    from tournaments.tables import GroupStandingsTable, StandingsTable, VintStandingsTable

    if not data:
        return {}
    table_cls = VintStandingsTable if tournament.game == "vint" else StandingsTable
    individual = table_cls(data["individual"], prefix="ind-")
    individual.tournament_slug = tournament.slug
    RequestConfig(request, paginate=False).configure(individual)
    out: dict[str, Any] = {"individual_table": individual}
    for kind in ("pairs", "teams"):
        if data.get(kind):
            table = GroupStandingsTable(data[kind], prefix=f"{kind}-")
            RequestConfig(request, paginate=False).configure(table)
            out[f"{kind}_table"] = table
    return out


def standings_csv_rows(*, tournament: Tournament, data: Any) -> list[list[Any]]:
    if not data:
        return [["no standings yet"]]
    rows = data["individual"]
    keys = [k for k in rows[0] if k != "rounds_detail"] if rows else []
    return [keys, *[[r[k] for k in keys] for r in rows]]


def player_rounds(*, tournament: Tournament, entry: Registration) -> list[dict[str, Any]]:
    from scoring.models import KopDeal

    rows = []
    tables = (
        RoundTable.objects.filter(round__tournament=tournament, session__seats__player=entry.player)
        .select_related("round", "session")
        .order_by("round__number")
    )
    for t in tables:
        seat = t.session.seats.get(player=entry.player).seat
        small = sum(
            d.payments[seat - 1] for d in KopDeal.objects.filter(session=t.session, voided=False)
        )
        others = [s.player.name for s in t.session.seats.select_related("player") if s.seat != seat]
        rows.append(
            {
                "round": t.round.number,
                "table": t.number,
                "seat": seat,
                "small_points": small,
                "opponents": others,
                "session": t.session,
                "accepted": t.accepted_at is not None,
            }
        )
    return rows


def meetings(*, tournament: Tournament) -> dict[str, Any]:
    """The who-met-whom matrix of every seated round (tournaments.seating.meetings_matrix)."""
    from tournaments.adapters import played_schedule
    from tournaments.seating import meetings_matrix

    entries = {e.number: e for e in tournament.entries.select_related("player")}
    schedule = played_schedule(tournament)
    if schedule is None:
        return {"entries": list(entries.values()), "matrix": [], "repeats": 0}
    shown = [entries[n] for n in schedule.players if n in entries]
    return {
        "entries": shown,
        "matrix": list(zip(shown, meetings_matrix(schedule), strict=True)),
        "repeats": schedule.repeats,
    }


def round_results_table(
    *, tournament: Tournament, data: Any, round_number: int, request: Any
) -> Any:
    """The round's accepted results from the standings snapshot, as a sortable table."""
    from django_tables2 import RequestConfig

    from tournaments.tables import RoundResultsTable

    rows = []
    for row in (data or {}).get("individual", []):
        for entry in row.get("by_round", []):
            if entry["round"] == round_number:
                rows.append(
                    {
                        **entry,
                        "number": row["number"],
                        "name": row["name"],
                        "table": entry["table"] or "–",
                        "place": entry["place"] or "–",
                    }
                )
    rows.sort(key=lambda r: (str(r["table"]), str(r["place"])))
    table = RoundResultsTable(rows, prefix="round-")
    table.tournament_slug = tournament.slug
    RequestConfig(request, paginate=False).configure(table)
    return table
