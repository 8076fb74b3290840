"""Read-only queries about a tournament's rounds and tables: what may be seated or
accepted next, the progress board, a player's rounds, who met whom."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from scoring.selectors import round_table_of
from tournaments.adapters import played_schedule
from tournaments.families import results_of
from tournaments.models import Registration, Round, RoundTable, Tournament
from tournaments.seating import meetings_matrix


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
    progress = results_of(rnd.tournament.game).progress([t.session for t in tables])
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
                "off_plan": progress[t.session_id].off_plan,
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


def newest_round(*, tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


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


def player_rounds(*, tournament: Tournament, entry: Registration) -> list[dict[str, Any]]:
    """A player's tables, round by round, with their points there (by player id)."""
    rows = []
    tables = list(
        RoundTable.objects.filter(round__tournament=tournament, session__seats__player=entry.player)
        .select_related("round", "session")
        .prefetch_related("session__seats__player")
        .order_by("round__number")
    )
    results = results_of(tournament.game).seat_results([t.session_id for t in tables])
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
