"""The standings recompute on PostgreSQL with real threads: it takes no lock on the
tournament, so a table acceptance made while it computes or writes goes through at once;
it stores a snapshot only if none as new exists (the snapshots' unique version decides
between two runs writing at once), so a stale, repeated or overtaken run stores nothing.

A recompute is held in the middle of its computing or of its write (``Held``: the
function waits for an event) while another thread acts; the acceptance runs with
``lock_timeout`` set, so waiting for any row lock at all would fail it instead of slowing
it down.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from scoring import profile_services
from scoring.models import RuleProfile
from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import ClubFactory, PlayerFactory
from tournaments import services
from tournaments.models import StandingsRow, StandingsSnapshot, Tournament
from tournaments.services import acceptance, snapshots

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tournament(monkeypatch):
    """Eight checked-in players, round 1 seated (two tables); no task is enqueued (each
    test runs the recompute itself)."""
    monkeypatch.setattr(acceptance, "enqueue_on_commit", lambda *a, **k: None)
    profile_services.profile_sync_builtin()
    club = ClubFactory()
    tournament = services.tournament_create(
        name="Lock Cup",
        game="kop",
        profile_version=RuleProfile.objects.get(slug="kop-koscian").current,
        rounds=2,
        deals_per_round=4,
        club=club,
        seed=3,
    )
    for i in range(8):
        entry = services.registration_add(
            tournament=tournament, player=PlayerFactory(club=club, name=f"P{i}")
        )
        services.registration_check_in(registration=entry)
    services.round_generate(tournament=tournament)
    return tournament


class Held:
    """``standings_recompute`` in a thread, held inside ``snapshots.<name>`` until released:
    inside its computing (``standings_compute``, the default) or its write
    (``standings_rows_store``: its snapshot inserted, its rows not yet)."""

    def __init__(
        self,
        monkeypatch,
        tournament: Tournament,
        version: int,
        name: str = "standings_compute",
    ) -> None:
        self.inside = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()
        self.result: list[object] = []
        original = getattr(snapshots, name)

        def held(**kwargs):  # type: ignore[no-untyped-def]
            if threading.current_thread() is self.thread:
                self.inside.set()
                assert self.release.wait(30), "never released"
            return original(**kwargs)

        monkeypatch.setattr(snapshots, name, held)
        self.thread = threading.Thread(target=self._run, args=(tournament.pk, version))

    def _run(self, tournament_id: int, version: int) -> None:
        try:
            self.result.append(
                services.standings_recompute(tournament_id=tournament_id, version=version)
            )
        finally:
            self.finished.set()
            connection.close()

    def __enter__(self) -> Held:
        self.thread.start()
        assert self.inside.wait(30), "the recompute never got there"
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.thread.join(30)


def _versions(tournament: Tournament) -> list[int]:
    return sorted(
        StandingsSnapshot.objects.filter(tournament=tournament).values_list(
            "results_version", flat=True
        )
    )


def test_an_acceptance_goes_through_while_a_recompute_computes(monkeypatch, tournament):
    first, second = tournament.rounds.get().tables.order_by("number")
    services.round_table_accept(table=first, actor=DIRECTOR_ACCEPTS, reason="on paper")
    seen = Tournament.objects.get(pk=tournament.pk).results_version
    with Held(monkeypatch, tournament, seen) as held:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '50ms'")  # waiting at all fails
            services.round_table_accept(table=second, actor=DIRECTOR_ACCEPTS, reason="on paper")
        assert not held.finished.is_set()  # accepted while the recompute was computing
    assert held.finished.is_set()
    # It stored what it read, under the version it read; the acceptance is a newer one.
    snapshot = held.result[0]
    assert isinstance(snapshot, StandingsSnapshot) and snapshot.results_version == seen
    assert len(snapshot.data["individual"]) == 4  # the first table only
    newest = Tournament.objects.get(pk=tournament.pk).results_version
    assert newest > seen
    services.standings_recompute(tournament_id=tournament.pk, version=newest)
    assert _versions(tournament) == [seen, newest]


def test_an_acceptance_goes_through_while_a_recompute_writes(monkeypatch, tournament):
    """The write takes no lock on the tournament's row either, which every acceptance
    updates (its results version): an acceptance never waits for a recompute."""
    first, second = tournament.rounds.get().tables.order_by("number")
    services.round_table_accept(table=first, actor=DIRECTOR_ACCEPTS, reason="on paper")
    seen = Tournament.objects.get(pk=tournament.pk).results_version
    with Held(monkeypatch, tournament, seen, "standings_rows_store") as held:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '50ms'")  # waiting at all fails
            services.round_table_accept(table=second, actor=DIRECTOR_ACCEPTS, reason="on paper")
        assert not held.finished.is_set()  # accepted while the recompute was writing
    snapshot = held.result[0]
    assert isinstance(snapshot, StandingsSnapshot) and snapshot.results_version == seen
    assert snapshot.rows.count() == 4


def test_two_recomputes_of_one_version_store_it_once(monkeypatch, tournament):
    """Without a lock, the snapshots' unique version decides: the second run to write
    waits for the first one's commit, is refused and stores nothing."""
    table = tournament.rounds.get().tables.get(number=1)
    services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    version = Tournament.objects.get(pk=tournament.pk).results_version
    with Held(monkeypatch, tournament, version, "standings_rows_store") as held:
        # Past the check (nothing stored yet), now it inserts the same version: it waits
        # for the held run's commit, then is refused.
        other: list[object] = []
        runner = threading.Thread(
            target=lambda: (
                other.append(
                    services.standings_recompute(tournament_id=tournament.pk, version=version)
                ),
                connection.close(),
            )
        )
        runner.start()
        runner.join(0.5)
        assert runner.is_alive()  # waiting for the held run's snapshot to commit or not
    runner.join(30)
    assert isinstance(held.result[0], StandingsSnapshot)
    assert other == [None]
    assert _versions(tournament) == [version]
    assert StandingsRow.objects.filter(snapshot__tournament=tournament).count() == 4


def test_a_repeated_or_stale_recompute_stores_nothing(tournament):
    table = tournament.rounds.get().tables.get(number=1)
    services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    version = Tournament.objects.get(pk=tournament.pk).results_version
    assert services.standings_recompute(tournament_id=tournament.pk, version=version)
    assert services.standings_recompute(tournament_id=tournament.pk, version=version) is None
    assert services.standings_recompute(tournament_id=tournament.pk, version=version - 1) is None
    assert _versions(tournament) == [version]


def test_a_recompute_overtaken_by_a_newer_one_leaves_the_newest(monkeypatch, tournament):
    first, second = tournament.rounds.get().tables.order_by("number")
    services.round_table_accept(table=first, actor=DIRECTOR_ACCEPTS, reason="on paper")
    old = Tournament.objects.get(pk=tournament.pk).results_version
    with Held(monkeypatch, tournament, old) as held:
        services.round_table_accept(table=second, actor=DIRECTOR_ACCEPTS, reason="on paper")
        new = Tournament.objects.get(pk=tournament.pk).results_version
        services.standings_recompute(tournament_id=tournament.pk, version=new)
    assert held.result == [None]  # it found the newer snapshot when it came to write
    assert _versions(tournament) == [new]
    newest = StandingsSnapshot.objects.get(tournament=tournament)
    assert len(newest.data["individual"]) == 8
    # Its rows were stored with it, once: the overtaken run wrote none.
    stored = newest.rows.filter(kind="individual").order_by("position")
    plain = [{k: v for k, v in r.items() if k != "by_round"} for r in newest.data["individual"]]
    assert [r.data for r in stored] == plain
    assert StandingsRow.objects.filter(snapshot__tournament=tournament).count() == 8


def test_a_snapshot_is_stored_as_written_json_compressed_with_lz4(tournament):
    """The snapshot column is PostgreSQL ``json`` (no jsonb parse on each write) with lz4,
    and what is stored reads back as the same document."""
    services.results_changed(tournament=tournament)
    tournament.refresh_from_db()
    stored = services.standings_recompute(tournament_id=tournament.pk, version=1)
    assert stored is not None
    again = StandingsSnapshot.objects.get(pk=stored.pk)
    assert again.data == snapshots.standings_compute(tournament=tournament)
    assert StandingsSnapshot.objects.values_list("data", flat=True).get(pk=stored.pk) == again.data
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT atttypid::regtype::text, attcompression FROM pg_attribute "
            "WHERE attrelid = 'tournaments_standingssnapshot'::regclass AND attname = 'data'"
        )
        assert cursor.fetchone() == ("json", "l")


def test_the_rows_stored_by_unnest_are_the_rows_the_orm_would_store(tournament):
    """PostgreSQL stores a snapshot's rows in one ``unnest`` statement; they are what
    ``standings_rows`` builds for the other databases: players, pairs and teams."""
    data = {
        "individual": [
            {"rank": "=1", "place": 1, "number": 7, "name": "Łukasz Żółć", "by_round": [{}]},
            {"rank": "=1", "place": 1, "number": 3, "name": "Ann"},
        ],
        "pairs": [{"rank": "1", "group": "Żubry", "members": "Ann, Łukasz Żółć"}],
    }
    snapshot = StandingsSnapshot.objects.create(
        tournament=tournament, results_version=99, data=data
    )
    services.standings_rows_store(snapshot=snapshot, data=data)
    fields = ("kind", "position", "number", "folded", "data")
    stored = list(snapshot.rows.order_by("kind", "position").values_list(*fields))
    built = sorted(
        (
            tuple(getattr(r, f) for f in fields)
            for r in services.standings_rows(snapshot=snapshot, data=data)
        ),
        key=lambda r: (r[0], r[1]),
    )
    assert stored == built
    assert stored[0][:4] == ("individual", 0, 7, "lukasz zolc")
