"""A worker killed (SIGKILL) in the middle of a standings recompute (issue 28, item 6): once
a worker is back, with nothing else changing, the standings are current within a minute.

The worker is caught inside the recompute without a test hook: the test holds a lock on the
snapshots' table, so the recompute waits at its first read of it (seen in
``pg_stat_activity``); the worker is killed there, the lock released, a new worker started.
The recompute's message sits unacknowledged in Redis (acknowledged late) until the
visibility timeout; the new worker's first heartbeat finds the standings behind the results
and queues the recompute again (``tournaments.services.standings_catch_up``).
"""

from __future__ import annotations

import os
import signal
import socket

import psycopg
import pytest
from django.db import connection

from config.celery import app
from tests.factories import ClubFactory, TournamentFactory
from tests.integration.conftest import (
    served_database_url,
    session_worker_running,
    wait_for,
    worker_start,
)
from tournaments import services
from tournaments.models import StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

QUEUE = "celery"


@pytest.fixture
def session_worker_paused():
    """The session's shared worker (if a test started it) stops taking tasks meanwhile, so
    the recompute goes to this test's own worker."""
    names = [f"it@{socket.gethostname()}"]
    running = session_worker_running()
    if running:
        app.control.cancel_consumer(QUEUE, destination=names, reply=True, timeout=5)
    yield
    if running:
        app.control.add_consumer(QUEUE, destination=names, reply=True, timeout=5)


def _conninfo() -> str:
    db = connection.settings_dict
    return (
        f"host={db['HOST'] or '127.0.0.1'} port={db['PORT'] or 5432} "
        f"user={db['USER'] or 'postgres'} dbname={db['NAME']}"
    )


def _waiting_on_the_lock(watcher: psycopg.Connection) -> bool:
    row = watcher.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE %s",
        ["%tournaments_standingssnapshot%"],
    ).fetchone()
    return bool(row and row[0])


def _current(tournament: Tournament) -> bool:
    version = Tournament.objects.values_list("results_version", flat=True).get(pk=tournament.pk)
    return StandingsSnapshot.objects.filter(tournament=tournament, results_version=version).exists()


def test_a_recompute_killed_with_its_worker_is_redone_once_a_worker_is_back(
    session_worker_paused, django_db_blocker, tmp_path
):
    tournament = TournamentFactory(name="Crash Cup", club=ClubFactory(), field=8)
    log, url = tmp_path / "worker.log", served_database_url(django_db_blocker)
    first = worker_start(hostname="crash1@%h", log=log, url=url)
    holder = psycopg.connect(_conninfo(), autocommit=False)
    # Its own connection: a transaction sees pg_stat_activity as it was at its start.
    watcher = psycopg.connect(_conninfo(), autocommit=True)
    try:
        holder.execute("LOCK TABLE tournaments_standingssnapshot IN ACCESS EXCLUSIVE MODE")
        version = services.results_changed(tournament=tournament)  # queued on commit
        wait_for(lambda: _waiting_on_the_lock(watcher), timeout=60)

        os.kill(first.pid, signal.SIGKILL)  # inside the recompute
        first.wait(timeout=30)
        holder.rollback()  # the lock goes; nobody is left to recompute
    finally:
        holder.close()
        watcher.close()
        if first.poll() is None:
            first.kill()
    assert not _current(tournament)

    second = worker_start(hostname="crash2@%h", log=log, url=url)
    try:
        wait_for(lambda: _current(tournament), timeout=60, interval=0.5)
    finally:
        second.terminate()
        second.wait(timeout=30)
    tournament.refresh_from_db()
    assert tournament.results_version == version  # nothing else changed meanwhile
