"""Club ratings brought up to date: the incremental update the Celery tasks run, and the
rebuild from scratch.

Vocabulary (see the pure ``tournaments.ranking.ratings`` for rating, match and model): a
**source** is one accepted tournament table or club evening (``RatingSource``); sources
are rated in the order (acceptance time, session id). A source keeps the **revision** of
its session it was rated at (``TableSession.revision``, counted by every write of the
session's deals): a revision that moved since says the deals were written after they were
rated. ``ratings_update`` finds the first source that differs from what was rated (new,
written since, no longer accepted, accepted at another time, or out of the ratings now),
puts every player back to their rating before it (the ``before`` of their first event
from there on) and rates from there: so the incremental result is, float for float, the
full rebuild's.

Finding what changed reads the sources that changed and not the history: one read
compares each rated source's revision and acceptance with its session's and table's
(``tournaments.sql.changed_sources``), so no rated table's deals are read again. Its
cost is what changed plus one comparison per source in the database
(``benchmarks/bench_ratings.py``: a club evening's update over 100,000 stored deals within
1.5x of the one over 1,000).

A game's family says how its tables become matches (``tournaments.families``); nothing
here tests the game. A "player" of the rating (the pure module's word) is a **person**
(``clubs.Person``), keyed by id throughout, never by name: the seats' register rows are
read as their persons (``tournaments.sql.seat_persons``), so a person standing in two
clubs' registers has one rating of both rows' games. When rows change person (a
director's merge or split, ``clubs.services``), ``ratings_update(rows=...)`` rates again
from the first source one of them sat at: nothing before it changes.

Settings: ``RATINGS_MODEL`` ("deal", the default, or "table") for Kop and Baśka. A change
of ``RATINGS_MODEL`` takes effect with ``manage.py rebuild_ratings``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from tournaments.collector import without_cycle_collection
from tournaments.models import (
    RatingEvent,
    RatingRun,
    RatingSource,
    RatingState,
    Tournament,
)
from tournaments.ranking import ratings as core
from tournaments.ratings.common import configured_model, family_of
from tournaments.selectors import hiding_standings
from tournaments.sql import (
    EVENT_VALUES,
    Change,
    StoredSource,
    accepted_sources,
    changed_sources,
    insert_rows,
    rating_states,
    stored_events,
    stored_sources,
)


@dataclass(frozen=True)
class RatingUpdate:
    game: str
    model: str
    kind: str  # "full", "incremental" or "unchanged"
    rated: int  # sources rated in this run
    removed: int  # sources taken back to rate again (from the first change on)
    players: int  # persons whose stored rating was written (changed)


@dataclass(frozen=True)
class _Current:
    session_id: int
    table_id: int | None  # None: a club evening's session
    at: datetime
    revision: int


def hidden_tournaments(*, game: str) -> list[int]:
    """Tournaments whose standings are hidden until the last round is finished, and not
    finished yet: their tables are not rated (nor their places shown) until then, or the
    rating changes would tell the standings."""
    return hiding_standings(tournaments=Tournament.objects.filter(game=game))


# Every time column read here is a DateTimeField, written as the ORM writes it.
_AT = RatingSource._meta.get_field("at")


def _first_change(changes: list[Change]) -> tuple[datetime, int] | None:
    """The (time, session id) of the first source to rate again, or None if all are
    current: the earliest of the times the changed sources were rated at and the ones
    they are accepted at now (a new one: its acceptance)."""
    keys: list[tuple[datetime, int]] = []
    for change in changes:
        keys.append((change.at, change.session_id))
        if change.rated and change.now is not None and not change.out:
            keys.append((change.now, change.session_id))
    return min(keys) if keys else None


def _sources_from(
    stored: dict[int, StoredSource], changes: list[Change]
) -> list[tuple[datetime, int, int | None, int]]:
    """The sources to rate from the cut on, in rating order, as ``accepted_sources`` reads
    them, without reading the sessions again: the rated ones from the cut that did not
    change (stored), and the changed and new ones still to rate, as they are now (the cut
    is the earliest change, so each of them is at or after it)."""
    changed = {c.session_id for c in changes}
    out = [
        (source.at, session_id, source.table_id, source.revision)
        for session_id, source in stored.items()
        # (one rated before revisions were kept is a change: never here)
        if session_id not in changed and source.revision is not None
    ]
    out += [
        (c.now, c.session_id, c.table_id, c.revision)
        for c in changes
        if c.now is not None and not c.out
    ]
    return sorted(out)


def _lock_run(game: str) -> RatingRun:
    run = RatingRun.objects.select_for_update().filter(game=game).first()
    if run is not None:
        return run
    RatingRun.objects.get_or_create(game=game, defaults={"model": configured_model(game)})
    return RatingRun.objects.select_for_update().get(game=game)


def _first_source_of(game: str, rows: Sequence[int]) -> tuple[datetime, int] | None:
    """The (time, session id) of the first rated source of ``game`` where one of the
    register rows ``rows`` sat, or None."""
    if not rows:
        return None
    return (
        RatingSource.objects.filter(game=game, session__seats__player_id__in=rows)
        .order_by("at", "session_id")
        .values_list("at", "session_id")
        .first()
    )


@without_cycle_collection()
@transaction.atomic
def ratings_update(
    *, game: str, model: str | None = None, full: bool = False, rows: Sequence[int] = ()
) -> RatingUpdate:
    """Bring ``game``'s ratings up to date with the accepted tables and club evenings.

    Every source is checked (new, written since it was rated, acceptance moved or
    withdrawn, out of the ratings now) by one read that costs what changed. ``model``
    switches model (Kop/Baśka; Vint has one), which rebuilds everything; ``full``
    rebuilds anyway. ``rows``: register rows whose person changed (merged or split):
    everything from the first source one of them sat at is rated again. Running it again
    with nothing new changes nothing.
    """
    family = family_of(game)
    run = _lock_run(game)
    wanted = family.model(requested=model, stored=run.model if run.computed_at else None)
    if wanted != run.model or run.computed_at is None:
        full = True

    hidden = hidden_tournaments(game=game)
    since: list[Any] = []  # the cut's parameters: (acceptance, session) from which to rate
    changes: list[Change] = []
    if not full:
        changes = changed_sources(game, hidden)
        cut = min(
            (c for c in (_first_change(changes), _first_source_of(game, rows)) if c is not None),
            default=None,
        )
        if cut is None:
            return RatingUpdate(game, wanted, "unchanged", 0, 0, 0)
        at = _AT.get_db_prep_value(cut[0], connection)  # as stored (SQLite: UTC text)
        since = [at, at, cut[1]]

    # What is stored from the cut on: compared with what rating gives now, so that only
    # what differs is written (a rebuild of unchanged ratings writes nothing). One read of
    # the sources and one of their events; a full rebuild reads them all and starts
    # everybody at the prior, an update starts each player at their first event from the
    # cut on.
    stored_by_session = stored_sources(game, since)
    stored: dict[tuple[int, int], tuple[int, tuple[Any, ...]]] = {}
    start: dict[int, core.Rating] = {}
    games_back: Counter[int] = Counter()
    tables_back: Counter[int] = Counter()
    for session_id, event_id, player_id, same_at, *event in stored_events(game, since):
        # An event whose time is not its source's gets one no rating gives (None): it is
        # written again.
        values = (stored_by_session[session_id].at if same_at else None, *event)
        stored[(session_id, player_id)] = (event_id, values)
        if not full:  # the rating before the player's first event from the cut on
            start.setdefault(player_id, core.Rating(values[1], values[2]))
            games_back[player_id] += values[5]
            tables_back[player_id] += 1

    # The tournaments' tables and the club evenings to rate, in rating order, each with
    # its session's revision, read before its deals: a write between the two reads leaves
    # a revision older than the deals rated, which the next update rates again, never the
    # other way round. A rebuild reads them all; an update has them already.
    tables = accepted_sources(game, hidden) if full else _sources_from(stored_by_session, changes)
    matches = family.matches(wanted, [s for _at, s, _pk, _r in tables])
    todo = [_Current(s, pk, at, revision) for at, s, pk, revision in tables]
    # A full rebuild reads every state and starts everybody at the prior; an update, the
    # states of the players it replays or whose events it may take back.
    replay_players: set[int] = set()
    wanted_states: set[int] = set()
    if not full:
        replay_players = {p for ms in matches.values() for m in ms for p in m.players}
        wanted_states = {p for _s, p in stored} | replay_players
    states = rating_states(game, None if full else wanted_states)
    if not full:
        for p in replay_players:
            if p not in start and p in states:
                start[p] = core.Rating(states[p].mu, states[p].sigma)
    replay = core.Rater().replay(
        (core.Source(c.session_id, tuple(matches.get(c.session_id, ()))) for c in todo),
        start={p: r for p, r in start.items() if p in replay_players} if not full else {},
    )
    # Everybody whose state may change: rated from the cut on, before or now, or stored.
    touched = {p for _s, p in stored} | set(replay.games) | set(states)

    # Sources: insert the new, update the moved or written, delete the gone.
    source_pk: dict[int, int] = {}
    moved = []
    new_sources = []
    for c in todo:
        before = stored_by_session.get(c.session_id)
        if before is None:
            new_sources.append(c)
            continue
        source_pk[c.session_id] = before.pk
        if (before.at, before.revision) != (c.at, c.revision):
            moved.append((before.pk, c))
    for pk, c in moved:
        RatingSource.objects.filter(pk=pk).update(at=c.at, revision=c.revision)
    inserted = insert_rows(
        RatingSource,
        ("game", "session_id", "table_id", "at", "revision"),
        [(game, c.session_id, c.table_id, c.at, c.revision) for c in new_sources],
    )
    source_pk.update(zip((c.session_id for c in new_sources), inserted, strict=True))
    rated = {c.session_id for c in todo}
    gone = [source.pk for sid, source in stored_by_session.items() if sid not in rated]

    # Events: insert the new, update those that differ from the stored ones (one upsert),
    # delete the gone.
    at_of = {c.session_id: c.at for c in todo}
    event_pk: dict[tuple[int, int], int] = {}
    new_keys: list[tuple[int, int]] = []
    new_events: list[tuple[Any, ...]] = []
    updates: list[tuple[Any, ...]] = []
    for sc in replay.sources:
        source_id, at = source_pk[sc.key], at_of[sc.key]
        for ch in sc.changes:
            key = (sc.key, ch.player)
            values = (at, ch.before.mu, ch.before.sigma, ch.after.mu, ch.after.sigma, ch.games)
            old = stored.pop(key, None)
            if old is None:
                new_keys.append(key)
                new_events.append((source_id, ch.player, game, *values))
                continue
            event_pk[key] = old[0]
            if old[1] != values:
                updates.append((source_id, ch.player, game, *values))
    event_fields = ("source_id", "person_id", "game", *EVENT_VALUES)
    inserted = insert_rows(RatingEvent, event_fields, new_events)
    event_pk.update(zip(new_keys, inserted, strict=True))
    insert_rows(RatingEvent, event_fields, updates, update_on=("source_id", "person_id"))
    # Left over: events of sources gone, or of players no longer at a rated table.
    if stored:
        RatingEvent.objects.filter(pk__in=[pk for pk, _v in stored.values()]).delete()
    if gone:
        RatingSource.objects.filter(pk__in=gone).delete()

    newest: dict[int, int] = {}  # player -> their latest event, in rating order
    new_tables: Counter[int] = Counter()
    for sc in replay.sources:
        for ch in sc.changes:
            newest[ch.player] = event_pk[(sc.key, ch.player)]
            new_tables[ch.player] += 1
    orphans = [p for p in touched if p not in newest]
    kept_last: dict[int, int] = {}
    if orphans and not full:  # rated before the cut but not after it: their newest kept event
        for event_id, person_id in (
            RatingEvent.objects.filter(game=game, person_id__in=orphans)
            .order_by("person_id", "-at", "-source__session_id")
            .values_list("pk", "person_id")
        ):
            kept_last.setdefault(person_id, event_id)
    # One upsert for every state that differs (Django's bulk_update builds a CASE per row
    # and field: most of an update's time); a player left without events loses their state.
    upserts: list[tuple[Any, ...]] = []
    to_delete = []
    for p in touched:
        state = states.get(p)
        last = newest.get(p) or kept_last.get(p)
        if last is None:
            if state is not None:
                to_delete.append(state.pk)
            continue
        rating = replay.ratings.get(p) or start[p]
        games = replay.games.get(p, 0)
        tables_ = new_tables[p]
        if state is not None and not full:
            games += state.games - games_back[p]
            tables_ += state.tables - tables_back[p]
        wanted_state = (rating.mu, rating.sigma, games, tables_, last)
        if state is not None and wanted_state == (
            state.mu,
            state.sigma,
            state.games,
            state.tables,
            state.last_event_id,
        ):
            continue
        upserts.append((p, game, *wanted_state))
    if to_delete:
        RatingState.objects.filter(pk__in=to_delete).delete()
    insert_rows(
        RatingState,
        ("person_id", "game", "mu", "sigma", "games", "tables", "last_event_id"),
        upserts,
        update_on=("person_id", "game"),
    )
    run.model = wanted
    run.computed_at = timezone.now()
    run.kind = "full" if full else "incremental"
    run.sources = len(todo) if full else run.sources - len(gone) + len(new_sources)
    run.save(update_fields=["model", "computed_at", "kind", "sources"])
    return RatingUpdate(game, wanted, run.kind, len(todo), len(stored_by_session), len(upserts))


def ratings_update_for_tournament(*, tournament_id: int) -> RatingUpdate | None:
    """What the Celery task runs after a tournament's result was accepted or corrected."""
    game = Tournament.objects.filter(pk=tournament_id).values_list("game", flat=True).first()
    if game is None:
        return None
    return ratings_update(game=game)


def ratings_rebuild(*, game: str, model: str | None = None) -> RatingUpdate:
    """Rate every accepted table of ``game`` from scratch (``model`` defaults to the setting)."""
    return ratings_update(game=game, model=model or configured_model(game), full=True)
