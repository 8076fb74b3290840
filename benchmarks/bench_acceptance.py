"""Table acceptances while the standings are recomputed (issue 12: "each acceptance
<= 100 ms while recomputes run").

A 400-player Kop tournament (``bench_tournament.build``) has its last round's 100 tables
opened again. A director accepts 50 of them one after another (20 ms apart) with nothing
else running: the floor. Then a second process plays the Celery worker's part,
recomputing the standings over and over (each acceptance counts a new results version,
so it always has work), while the director accepts the other 50. The recompute takes no
lock on the tournament's row, which every acceptance updates, so an acceptance should
never wait for it. Printed: the median and the slowest acceptance beside the floor.

The task an acceptance enqueues is taken as sent (the worker process recomputes anyway):
what is measured is the acceptance's own transaction. PostgreSQL only: the recompute in
another process needs a database server (SQLite, the embedded default, takes one writer
at a time by design).
"""

from __future__ import annotations

import multiprocessing
import statistics
import sys
import time

from dbbench import on_each_database, throwaway_database

PLAYERS = 400
EACH = 50
TARGET_MS = 100.0
# Seconds between two acceptances: the 50 then span about a second, some twenty
# recomputes, so that acceptances meet the recompute at every stage of its run.
PACE = 0.02


def _recompute_forever(tournament_id: int, stop, runs) -> None:  # type: ignore[no-untyped-def]
    """The worker's part, in its own process: recompute until told to stop."""
    from django.db import connection

    from tournaments.models import Tournament
    from tournaments.services import standings_recompute

    connection.close()  # the parent's connection is not this process's to use
    while not stop.is_set():
        version = Tournament.objects.values_list("results_version", flat=True).get(pk=tournament_id)
        if standings_recompute(tournament_id=tournament_id, version=version) is not None:
            runs.value += 1  # a snapshot stored (else nothing newer to compute yet)
    connection.close()


def run_one(label: str) -> None:
    if label != "PostgreSQL":
        print(
            f"acceptances while standings recompute, {label}: not measured (the recompute "
            "runs in another process: a database server's part; SQLite takes one writer "
            "at a time)",
            flush=True,
        )
        return
    with throwaway_database():
        from bench_tournament import build
        from django.conf import settings
        from django.db import connection

        from ops import outbox
        from scoring import services as scoring_services
        from scoring.models import TableSession
        from tournaments import services as tournament_services
        from tournaments.models import RoundTable

        tournament = build(PLAYERS)
        last = RoundTable.objects.filter(round__tournament=tournament, round__number=5)
        TableSession.objects.filter(pk__in=last.values("session_id")).update(locked_at=None)
        last.update(accepted_at=None)
        tables = list(last.order_by("number"))
        director = scoring_services.Actor(label="bench director", is_director=True)
        # Tasks go to the broker as in production (not run in the request, as the test
        # settings run them without one), taken as sent: the worker below recomputes.
        settings.CELERY_TASK_ALWAYS_EAGER = False
        outbox._send = lambda name, args: True

        def accept(table: RoundTable) -> float:
            time.sleep(PACE)  # tables finish one after another, not all in one instant
            started = time.perf_counter()
            tournament_services.round_table_accept(
                table=table, actor=director, reason="bench: the table's sheet checked"
            )
            return (time.perf_counter() - started) * 1000

        alone = [accept(t) for t in tables[:EACH]]
        connection.close()  # not shared with the forked worker
        context = multiprocessing.get_context("fork")
        stop, runs = context.Event(), context.Value("i", 0)
        worker = context.Process(target=_recompute_forever, args=(tournament.pk, stop, runs))
        worker.start()
        try:
            while runs.value == 0:  # the worker is computing before the first acceptance
                if not worker.is_alive():
                    raise RuntimeError("the recomputing process stopped before its first run")
                time.sleep(0.01)
            busy = [accept(t) for t in tables[EACH : 2 * EACH]]
        finally:
            stop.set()
            worker.join(timeout=60)
        floor = statistics.median(alone)
        median, slowest = statistics.median(busy), max(busy)
        mark = "ok" if slowest <= TARGET_MS else "over"
        print(
            f"{EACH} table acceptances while standings recompute "
            f"({runs.value} snapshots stored meanwhile), "
            f"{PLAYERS} players, {label}: median {median:.1f} ms, slowest {slowest:.1f} ms, "
            f"floor {floor:.1f} ms (the same acceptances alone), ratio {median / floor:.2f} "
            f"(target each <= {TARGET_MS:.0f} ms) [{mark}]",
            flush=True,
        )


def main() -> int:
    if len(sys.argv) > 1:
        run_one(sys.argv[1])
    else:
        on_each_database(__file__, "acceptances while standings recompute")
    return 0


if __name__ == "__main__":
    sys.exit(main())
