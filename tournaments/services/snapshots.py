"""Standings snapshots: compute a tournament's standings for a results version and store
them with one row per player, pair or team beside the snapshot (what pages read)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, connection, transaction

from clubs.selectors import fold_name
from tournaments.bulk import json_text
from tournaments.models import StandingsRow, StandingsSnapshot, Tournament
from tournaments.services.leagues import standings_stored
from tournaments.sql import copy_rows
from tournaments.standings import standings_compute


def standings_recompute(*, tournament_id: int, version: int) -> StandingsSnapshot | None:
    """Compute and store standings; nothing to do if a snapshot that new already exists.

    It takes no lock on the tournament (every acceptance and correction updates that
    row), so they go on while it runs: it reads the results version and the results from
    one database snapshot (REPEATABLE READ on PostgreSQL), and labels what it stores with
    that version. A change that commits meanwhile counts a newer version and enqueues its
    own recompute. A stale or repeated run, or one that lost a race to a newer one, stores
    nothing: it finds a snapshot as new when it comes to write, or the snapshots' unique
    (tournament, version) refuses a second store of its version. Two runs of different
    versions that write at the same moment may both store; pages read the newest, and a
    run deletes only the rows of older snapshots than its own.
    """
    with _consistent_read():
        tournament = (
            Tournament.objects.select_related("profile_version").filter(pk=tournament_id).first()
        )
        if tournament is None or _snapshot_version(tournament_id) >= max(
            version, tournament.results_version
        ):
            return None
        data = standings_compute(tournament=tournament)
    version = tournament.results_version
    try:
        with transaction.atomic():
            if _snapshot_version(tournament_id) >= version:
                return None
            snapshot = StandingsSnapshot.objects.create(
                tournament_id=tournament_id, results_version=version, data=data
            )
            standings_rows_store(snapshot=snapshot, data=data)
            # Pages read only the newest snapshot's rows: older snapshots' go (their JSON
            # stays); a newer one's, stored meanwhile by another run, stay.
            StandingsRow.objects.filter(
                snapshot__tournament_id=tournament_id, snapshot__results_version__lt=version
            ).delete()
            return snapshot
    except IntegrityError:
        if _snapshot_version(tournament_id) >= version:  # another run stored it first
            return None
        raise


# The kinds of rows a standings document lists, each stored as ``StandingsRow`` rows.
STANDINGS_KINDS = ("individual", "pairs", "teams")


def standings_rows_store(*, snapshot: StandingsSnapshot, data: Any) -> None:
    """Store a snapshot's rows (``standings_rows``) at once: COPY on PostgreSQL (a
    4,000-player snapshot's rows in a third of the time of an INSERT; no model instance a
    row), the ORM's bulk insert elsewhere. The leagues counting the tournament are
    recomputed once the transaction commits (``leagues.standings_stored``)."""
    standings_stored(tournament_id=snapshot.tournament_id)
    if connection.vendor != "postgresql":
        StandingsRow.objects.bulk_create(standings_rows(snapshot=snapshot, data=data))
        return
    copy_rows(
        StandingsRow,
        ("snapshot", "kind", "position", "number", "folded", "data"),
        (
            (snapshot.pk, kind, position, row.get("number"), _folded(row), json_text(_plain(row)))
            for kind, position, row in _listed(data)
        ),
    )


def _listed(data: Any) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """A standings document's rows: (kind, position in the kind's order, row)."""
    for kind in STANDINGS_KINDS:
        for position, row in enumerate((data or {}).get(kind) or []):
            yield kind, position, row


def _folded(row: dict[str, Any]) -> str:
    return fold_name(str(row.get("name") or row.get("group") or ""))[:300]


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """What a standings table shows of a row: its plain values, not the rounds' detail
    (most of a Kop snapshot, read by the CSV and the round pages)."""
    return {k: v for k, v in row.items() if not isinstance(v, list | dict)}


def standings_rows(*, snapshot: StandingsSnapshot, data: Any) -> list[StandingsRow]:
    """A snapshot's rows, in its order, to store beside it (one bulk insert, in the
    snapshot's transaction): a player by start number and folded name, a pair or team
    by its folded name; each row's plain values (what the standings tables show)."""
    return [
        StandingsRow(
            snapshot=snapshot,
            kind=kind,
            position=position,
            number=row.get("number"),
            folded=_folded(row),
            data=_plain(row),
        )
        for kind, position, row in _listed(data)
    ]


def _snapshot_version(tournament_id: int) -> int:
    """The newest stored snapshot's results version (-1 for none): one indexed read."""
    newest = (
        StandingsSnapshot.objects.filter(tournament_id=tournament_id)
        .order_by("-results_version")
        .values_list("results_version", flat=True)
        .first()
    )
    return -1 if newest is None else newest


@contextmanager
def _consistent_read() -> Iterator[None]:
    """A read-only transaction that sees one database snapshot and takes no row locks
    (REPEATABLE READ on PostgreSQL; SQLite's transactions see one snapshot anyway). Inside
    an outer transaction (tests, eager tasks) it is just a savepoint of that one."""
    outer = connection.in_atomic_block
    with transaction.atomic():
        if not outer and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield
