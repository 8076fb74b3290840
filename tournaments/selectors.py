"""Read-only queries for tournaments: rounds, progress, standings, meetings."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext
from django_tables2 import RequestConfig

from scoring.games import game_for
from scoring.selectors import round_table_of
from tournaments.adapters import played_schedule
from tournaments.models import (
    Registration,
    Round,
    RoundTable,
    StandingsSnapshot,
    Tournament,
)
from tournaments.seating import meetings_matrix
from tournaments.tables import STANDINGS_TABLES, GroupStandingsTable, RoundResultsTable

# ----------------------------------------------------------------------------- tournaments


def next_round_ready(*, tournament: Tournament) -> bool:
    """The next round may be seated when every table of the last one is accepted."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return tournament.entries.exists()
    if last.number >= tournament.rounds_planned:
        return False
    return not last.tables.filter(accepted_at__isnull=True).exists()


def round_time_up(*, rnd: Round) -> bool:
    """The round had a time limit and it has passed."""
    minutes = rnd.tournament.round_minutes
    return bool(minutes) and timezone.now() >= rnd.created_at + timedelta(minutes=minutes or 0)


def table_ready(*, table: RoundTable, finished: bool) -> bool:
    """A table may be accepted by its players once it has played its planned deals
    (``finished`` from the game's progress) or its round's time is up (the profile's rule
    then closes an unfinished rubber); before that only a director accepts, with a reason."""
    return finished or round_time_up(rnd=table.round)


def round_tables(*, rnd: Round) -> list[dict[str, Any]]:
    tables = list(rnd.tables.select_related("session").prefetch_related("session__seats__player"))
    numbers = dict(rnd.tournament.entries.values_list("player_id", "number"))
    progress = game_for(rnd.tournament.game).progress([t.session for t in tables])
    out = []
    for t in tables:
        seats = sorted(t.session.seats.all(), key=lambda s: s.seat)
        out.append(
            {
                "table": t,
                "seats": [(s.seat, numbers.get(s.player_id), s.player) for s in seats],
                "deals": progress[t.session_id].deals,
                "planned": progress[t.session_id].planned,
                "finished": progress[t.session_id].finished,
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
        ends = rnd.created_at + timedelta(minutes=tournament.round_minutes)
    return {
        "round": rnd,
        "round_ends": ends,
        "tables": tables,
        "accepted": accepted,
        "all_accepted": bool(tables) and accepted == len(tables),
        "can_start_next": next_round_ready(tournament=tournament),
    }


def latest_snapshot(*, tournament: Tournament, with_data: bool = True) -> StandingsSnapshot | None:
    """The newest snapshot; without ``with_data`` its JSON is neither read nor decoded
    (2.4 MB at 4,000 players), only its version and time."""
    snapshots = tournament.snapshots.order_by("-results_version")
    return (snapshots if with_data else snapshots.defer("data")).first()


def tournament_finished(*, tournament: Tournament) -> bool:
    """The last planned round is seated and every table of the tournament accepted."""
    return tournament.rounds.filter(number__gte=tournament.rounds_planned).exists() and not (
        RoundTable.objects.filter(round__tournament=tournament, accepted_at__isnull=True).exists()
    )


def session_results_hidden(session: Any) -> bool:
    """``scoring.visibility`` checker: a table of a tournament that hides its standings
    hides its sheet, history and exports too until the tournament is finished."""
    table = round_table_of(session)
    if table is None:
        return False
    tournament = table.round.tournament
    return tournament.hide_standings and not tournament_finished(tournament=tournament)


def session_title(session: Any) -> str | None:
    """``scoring.models.title_register`` maker: a tournament table's title, built when shown
    (so it is in the reader's language; none is stored)."""
    table = round_table_of(session)
    if table is None:
        return None
    return gettext("%(tournament)s: round %(round)s, table %(table)s") % {
        "tournament": table.round.tournament.name,
        "round": table.round.number,
        "table": table.number,
    }


def standings_status(*, slug: str) -> dict[str, Any] | None:
    """What the standings page's status line shows, for its poll: one small indexed read
    (the newest snapshot's version and time with the tournament's version), never the
    snapshot's JSON. None for an unknown tournament."""
    newest = (
        StandingsSnapshot.objects.filter(tournament__slug=slug)
        .order_by("-results_version")
        .values("results_version", "computed_at", "tournament__results_version", "tournament_id")
        .first()
    )
    if newest is None:
        pk = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
        if pk is None:
            return None
        return {
            "tournament": {"slug": slug, "id": pk},
            "snapshot": None,
            "pending": True,
            "current": False,
        }
    current = newest["results_version"] >= newest["tournament__results_version"]
    return {
        "tournament": {"slug": slug, "id": newest["tournament_id"]},
        "snapshot": {
            "results_version": newest["results_version"],
            "computed_at": newest["computed_at"],
        },
        "version": newest["tournament__results_version"],
        "current": current,
        "pending": not current,
    }


def standings_view(
    *, tournament: Tournament, viewer_is_director: bool, with_data: bool = True
) -> dict[str, Any]:
    """The newest snapshot and who may see it; ``with_data=False`` leaves its JSON unread
    (``data`` is then None: read it with ``snapshot_data`` when it is needed)."""
    snapshot = latest_snapshot(tournament=tournament, with_data=with_data)
    finished = tournament_finished(tournament=tournament)
    visible = viewer_is_director or not tournament.hide_standings or finished
    return {
        "snapshot": snapshot,
        "data": snapshot.data if snapshot and with_data else None,
        "current": snapshot is not None and snapshot.results_version >= tournament.results_version,
        "pending": snapshot is None or snapshot.results_version < tournament.results_version,
        "visible": visible,
        "hidden_for_public": tournament.hide_standings and not finished,
        "finished": finished,
    }


def snapshot_data(*, snapshot: StandingsSnapshot) -> Any:
    """A snapshot's JSON (read now if the snapshot was read without it)."""
    return StandingsSnapshot.objects.values_list("data", flat=True).get(pk=snapshot.pk)


def standings_tables(*, tournament: Tournament, data: Any, request: Any) -> dict[str, Any]:
    if not data:
        return {}
    table_cls = STANDINGS_TABLES[game_for(tournament.game).family]
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


ROUND_COLUMNS = ("table", "small_points", "big_points", "place")


def standings_csv_rows(*, tournament: Tournament, data: Any) -> list[list[Any]]:
    """The individual standings, one row a player: the snapshot's plain values, then per
    round (when the game has rounds of tables) the table, small and big points and place.

    A shared place is written "3=" (the page shows "=3"): a cell starting with "=" is a
    formula to a spreadsheet, and "3=" is how a results list in print writes a tie."""
    if not data:
        return [["no standings yet"]]
    rows = data["individual"]
    if not rows:
        return [["no standings yet"]]
    keys = [k for k, v in rows[0].items() if not isinstance(v, list | dict)]
    rounds = sorted({e["round"] for r in rows for e in r.get("by_round", [])})
    header = [*keys, *[f"round {n} {c}" for n in rounds for c in ROUND_COLUMNS]]
    out: list[list[Any]] = [header]
    for row in rows:
        by_round = {e["round"]: e for e in row.get("by_round", [])}
        cells = [csv_rank(row[k]) if k == "rank" else row[k] for k in keys]
        for n in rounds:
            entry = by_round.get(n, {})
            cells += ["" if entry.get(c) is None else entry[c] for c in ROUND_COLUMNS]
        out.append(cells)
    return out


def csv_rank(label: Any) -> Any:
    """A rank label for a CSV cell: "=3" (tied third) becomes "3="."""
    text = str(label)
    return f"{text[1:]}=" if text.startswith("=") else label


def player_rounds(*, tournament: Tournament, entry: Registration) -> list[dict[str, Any]]:
    """A player's tables, round by round, with their points there (by player id)."""
    rows = []
    tables = list(
        RoundTable.objects.filter(round__tournament=tournament, session__seats__player=entry.player)
        .select_related("round", "session")
        .prefetch_related("session__seats__player")
        .order_by("round__number")
    )
    results = game_for(tournament.game).seat_results([t.session_id for t in tables])
    for t in tables:
        mine = next(r for r in results.get(t.session_id, []) if r.player_id == entry.player_id)
        seat, small = mine.seat, mine.points
        others = [s.player.name for s in t.session.seats.all() if s.seat != seat]
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
    """None when the game's standings have no round-by-round entries (Vint sessions)."""
    individual = (data or {}).get("individual", [])
    if not any("by_round" in row for row in individual):
        return None
    rows = []
    for row in individual:
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
