"""Leagues at an association's scale (issue 26 item 7).

``simulate_association`` builds the association on a throwaway database: by default a
small one so ``make bench`` stays quick (20 clubs, 400 players, 1 season of 30 events of
120 players, 24 teams of five); ``BENCH_LEAGUES_FULL=1`` the issue's size (200 clubs,
2,000 players, 5 seasons of 30 events). Then, on the last season's league:

1. **Recompute after an event**: the last event's standings stored again (new rows), then
   ``leagues_recompute_for`` as the task runs it, the median of ``TIMES``; its floor,
   reading the rows it must read (every held event's stored standings rows, with
   ``held_events``). Target: at most 3x. And the same after the 10th event of a league of
   10 events against after the 30th of 30: the cost should follow the events (about 3x).
2. **Reading the league page** (final tables, every row with its line per event) through
   the test client; its floor, reading the page's ``LeagueRow`` rows with one query.
   Target: at most 5x (the page renders a cell per player per event).

Runs on SQLite, and on PostgreSQL when reachable. Prints only.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from dbbench import figure, on_each_database, throwaway_database  # noqa: E402

FULL = os.environ.get("BENCH_LEAGUES_FULL", "") not in ("", "0")
SIZE = (
    {"clubs": 200, "players": 2000, "seasons": 5, "events": 30, "field": 120, "teams": 24}
    if FULL
    else {"clubs": 20, "players": 400, "seasons": 1, "events": 30, "field": 120, "teams": 24}
)
TIMES = 5


def median_ms(run, times: int = TIMES) -> float:
    seen = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        seen.append((time.perf_counter() - start) * 1000)
    return statistics.median(seen)


def measure(label: str) -> None:
    with throwaway_database():
        from django.db import connection
        from django.test import Client

        from scoring import profile_services
        from tournaments.management.commands.simulate_association import simulate_association
        from tournaments.models import LeagueEvent, LeagueRow, LeagueTable
        from tournaments.services import leagues
        from tournaments.services.leagues import held_events
        from tournaments.simulation import GivenRow, standings_write

        profile_services.profile_sync_builtin()
        start = time.perf_counter()
        built = simulate_association(name="Bench", seed=26, **SIZE)
        print(
            f"{label}: association of {SIZE['clubs']} clubs, {SIZE['players']} players, "
            f"{SIZE['seasons']} x {SIZE['events']} events built in "
            f"{time.perf_counter() - start:.1f} s",
            flush=True,
        )
        league = built["leagues"][-1]
        events = list(LeagueEvent.objects.filter(league=league).select_related("tournament"))
        last = max(events, key=lambda e: e.tournament.date).tournament
        rows = [
            GivenRow(r.number, r.place, r.big_points, r.small_points)
            for r in (
                GivenRow(n, n, 25 - n % 26, 100 - n) for n in range(1, last.entries.count() + 1)
            )
        ]

        def recompute() -> None:
            standings_write(tournament=last, rows=rows)  # not timed apart: small
            leagues.leagues_recompute_for(tournament_id=last.pk)

        def write_only() -> None:
            standings_write(tournament=last, rows=rows)

        both = median_ms(recompute)
        write = median_ms(write_only)
        floor = median_ms(lambda: held_events(league))
        figure(
            f"{label}: league recompute after its last event ({len(events)} events)",
            both - write,
            floor,
            "3x",
            floor="the events' stored rows read",
        )

        # Linear in the events: a league of the season's first 10 events.
        first_ten = leagues.league_create(
            organiser=league.organiser, name="Ten", game="baska", season="x"
        )
        ordered = sorted(events, key=lambda e: e.tournament.date)
        LeagueEvent.objects.bulk_create(
            LeagueEvent(league=first_ten, tournament=e.tournament) for e in ordered[:10]
        )
        tenth = ordered[9].tournament
        ten_ms = median_ms(
            lambda: leagues.league_recompute(league=first_ten, tournament_id=tenth.pk)
        )
        all_ms = median_ms(lambda: leagues.league_recompute(league=league, tournament_id=last.pk))
        print(
            f"{label}: recompute after event 10 of 10: {ten_ms:.1f} ms; after event "
            f"{len(events)} of {len(events)}: {all_ms:.1f} ms; ratio {all_ms / ten_ms:.2f} "
            f"(events ratio {len(events) / 10:.1f}: linear)",
            flush=True,
        )

        client = Client()
        url = f"/leagues/{league.slug}/"
        assert client.get(url).status_code == 200
        page_ms = median_ms(lambda: client.get(url))
        final = LeagueTable.objects.filter(league=league).order_by("-after_event").first()

        def read_rows() -> None:
            list(
                LeagueRow.objects.filter(
                    table__league=league, table__after_event__lte=final.after_event
                ).values_list("kind", "who", "rank", "big_points", "small_points", "line")
            )

        figure(
            f"{label}: league page (final, "
            f"{LeagueRow.objects.filter(table=final).count()} rows x {len(events)} events)",
            page_ms,
            median_ms(read_rows),
            "5x",
            floor="its LeagueRow rows read",
        )
        connection.close()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        measure(sys.argv[1])
    else:
        on_each_database(__file__, "Leagues")
