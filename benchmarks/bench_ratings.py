"""Club ratings: a full rebuild with the pure function, and one incremental update.

1. Full rebuild: ``BENCH_RATING_DEALS`` (default 1,000,000) synthetic Kop deals among 500
   players, tables of 32 deals, rated per deal by ``tournaments.ranking.ratings`` (rows to
   deals, deals to matches, matches to ratings; the deals are drawn beforehand as compact
   codes so drawing them is not measured). Target: at most 60 s for 1,000,000 deals; a
   smaller count prints the measured time and its linear extrapolation.
2. Incremental update: on a throwaway test database (SQLite, and PostgreSQL if reachable),
   a club history of ``BENCH_RATING_TABLES`` (default 500) rated tables of 32 deals, then
   rounds of 10 tables accepted one at a time, each followed by
   ``tournaments.ratings.ratings_update`` as the Celery task calls it. Target: at most
   50 ms per round (beside it, its floor: the round's deal rows read with raw SQL and
   rated by the pure code).
3. ``rebuild_ratings`` through the service on that history, first with nothing rated and
   then again with everything rated (it then writes nothing), each the median of three,
   against the pure rating code on the same deals. Target: at most 1.5x.

Prints only; never fails on a slow machine.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from array import array
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from dbbench import figure, on_each_database, throwaway_database  # noqa: E402

DEALS = int(os.environ.get("BENCH_RATING_DEALS", "1000000"))
TABLES = int(os.environ.get("BENCH_RATING_TABLES", "500"))
TARGET_DEALS = 1_000_000
PLAYERS = 500
PER_TABLE = 32
# Declaring sides by seat mask (bit s-1 set: seat s declares): six pairs, four soloists.
PAIRS = (0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100)
SOLOS = (0b0001, 0b0010, 0b0100, 0b1000)


def draw(deals: int, seed: int = 1) -> tuple[array[int], array[int]]:
    """Seats per table (4 player ids) and one code per deal: seat mask | won << 4."""
    rng = random.Random(seed)
    tables = -(-deals // PER_TABLE)
    seats = array("H")
    codes = array("B")
    for _ in range(tables):
        seats.extend(rng.sample(range(PLAYERS), 4))
    for _ in range(deals):
        mask = rng.choice(SOLOS) if rng.random() < 0.24 else rng.choice(PAIRS)
        codes.append(mask | (16 if rng.random() < 0.62 else 0))
    return seats, codes


def full_rebuild(deals: int) -> None:
    from tournaments.ranking import ratings as core

    seats, codes = draw(deals)
    split = {
        mask: (
            tuple(i for i in range(4) if mask >> i & 1),
            tuple(i for i in range(4) if not mask >> i & 1),
        )
        for mask in PAIRS + SOLOS
    }

    def sources() -> Iterator[core.Source]:
        for t in range(len(seats) // 4):
            players = seats[4 * t : 4 * t + 4]
            table_deals = []
            for code in codes[t * PER_TABLE : (t + 1) * PER_TABLE]:
                ours, theirs = split[code & 15]
                table_deals.append(
                    core.KopDeal(
                        tuple(players[i] for i in ours),
                        tuple(players[i] for i in theirs),
                        bool(code & 16),
                    )
                )
            table = core.KopTable(tuple(table_deals), tuple((p, 0) for p in players))
            yield core.Source(t, tuple(core.kop_matches(table, "deal")))

    started = time.perf_counter()
    replay = core.Rater().replay(sources())
    seconds = time.perf_counter() - started
    rated = sum(replay.games.values()) // 4
    line = (
        f"full rebuild (pure, per deal): {rated:,} deals among {len(replay.ratings)} players "
        f"in {seconds:.1f} s ({seconds / rated * 1e6:.1f} µs a deal)"
    )
    if rated != TARGET_DEALS:
        line += f"; at that rate {TARGET_DEALS:,} deals take {seconds / rated * TARGET_DEALS:.0f} s"
    print(line + " (target: 1,000,000 deals <= 60 s)", flush=True)


def incremental(label: str) -> None:
    with throwaway_database():
        _incremental(label)


def _incremental(label: str) -> None:
    from django.utils import timezone

    from clubs.models import Club, Player
    from scoring import profile_services
    from scoring import services as scoring_services
    from scoring.engines.simulate import random_kop_deals
    from scoring.models import RuleProfile
    from tests.factories import record_kop_deals as kop_bulk_record
    from tournaments import ratings
    from tournaments.models import (
        RatingRun,
        RatingSource,
        RatingState,
        Round,
        RoundTable,
        Tournament,
    )
    from tournaments.ranking import ratings as core

    rng = random.Random(7)
    profile_services.profile_sync_builtin()
    version = RuleProfile.objects.get(slug="kop-koscian").current
    club = Club.objects.create(name="Bench club")
    players = Player.objects.bulk_create(
        Player(club=club, number=i, name=f"Player {i:03d}") for i in range(1, 201)
    )
    actor = scoring_services.Actor(label="bench", is_director=True)
    per_round = 10

    def play_round(tournament: Tournament, number: int) -> None:
        rnd = Round.objects.create(tournament=tournament, number=number)
        field = rng.sample(players, 4 * per_round)
        for t in range(per_round):
            session = scoring_services.session_create(
                game="kop", profile_version=version, players=field[4 * t : 4 * t + 4]
            )
            kop_bulk_record(
                session=session, deals=random_kop_deals(rng, PER_TABLE), entered_by=actor.label
            )
            RoundTable.objects.create(round=rnd, number=t + 1, session=session)
        RoundTable.objects.filter(round=rnd).update(accepted_at=timezone.now())

    started = time.perf_counter()
    history = Tournament.objects.create(
        name="History", slug="history", game="kop", profile_version=version, seed=1
    )
    for number in range(1, TABLES // per_round + 1):
        play_round(history, number)
    setup = time.perf_counter() - started

    def pure(session_ids: list[int]) -> float:
        """The floor: the pure rating code (deals to matches to ratings) on these tables,
        in acceptance order, built from the rows beforehand (not timed); in ms."""
        tables = ratings.kop_tables(session_ids)
        model = ratings.configured_model("kop")
        started = time.perf_counter()
        core.Rater().replay(
            core.Source(s, tuple(core.kop_matches(tables[s], model))) for s in session_ids
        )
        return (time.perf_counter() - started) * 1000

    history_ids = list(
        RoundTable.objects.filter(round__tournament=history)
        .order_by("accepted_at", "pk")
        .values_list("session_id", flat=True)
    )
    floor = min(pure(history_ids) for _ in range(3))
    # Each rebuild three times (the ratings wiped before each first one, not timed), the
    # median kept: one sample on a shared machine says more about its neighbours.
    firsts, agains = [], []
    for _ in range(3):
        for model in (RatingState, RatingSource, RatingRun):
            model.objects.all().delete()  # a source's events go with it
        firsts.append(timed(lambda: ratings.ratings_rebuild(game="kop")))
        again, queries = timed_with_queries(lambda: ratings.ratings_rebuild(game="kop"))
        agains.append(again)
    first, again = statistics.median(firsts), statistics.median(agains)
    deals = f"{len(history_ids) * PER_TABLE:,} deals"
    figure(
        f"rebuild_ratings on {label}, {deals}, none rated before, median of 3",
        first,
        floor,
        "<= 1.5",
        floor="the pure rating code on the same deals",
    )
    figure(
        f"rebuild_ratings on {label}, {deals}, all rated already ({queries} writes), median of 3",
        again,
        floor,
        "<= 1.5",
        floor="the pure rating code on the same deals",
    )

    event = Tournament.objects.create(
        name="Tonight", slug="tonight", game="kop", profile_version=version, seed=2
    )
    times, floors = [], []
    for number in range(1, 11):
        play_round(event, number)
        started = time.perf_counter()
        result = ratings.ratings_update(game="kop", tournament_id=event.pk)
        times.append((time.perf_counter() - started) * 1000)
        assert result.kind == "incremental" and result.rated == per_round, result
        round_ids = list(
            RoundTable.objects.filter(round__tournament=event, round__number=number)
            .order_by("accepted_at", "pk")
            .values_list("session_id", flat=True)
        )
        floors.append(read_deals_ms(round_ids) + pure(round_ids))
    figure(
        f"ratings incremental update on {label}, a round of {per_round} tables "
        f"({PER_TABLE} deals each) over {TABLES} rated tables, median of {len(times)} "
        f"(setup {setup:.0f} s)",
        statistics.median(times),
        statistics.median(floors),
        "update <= 50 ms",
        floor="the round's deal rows read with raw SQL and rated by the pure code",
    )


def timed(fn) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def timed_with_queries(fn) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    """ms, and how many INSERT/UPDATE/DELETE statements ``fn`` sent."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        ms = timed(fn)
    writes = [
        q
        for q in queries.captured_queries
        if q["sql"].lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")
        and "ratingrun" not in q["sql"].lower()
    ]
    return ms, len(writes)


def read_deals_ms(session_ids: list[int]) -> float:
    from django.db import connection

    from scoring.games.kop.models import KopDeal

    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT session_id, number, declarers, declarers_won, voided, payment_1, "
            f"payment_2, payment_3, payment_4 FROM {KopDeal._meta.db_table} "
            f"WHERE session_id IN ({', '.join(str(int(s)) for s in session_ids)})"
        )
        cursor.fetchall()
    return (time.perf_counter() - started) * 1000


def main() -> int:
    if len(sys.argv) > 1:
        incremental(sys.argv[1])
        return 0
    full_rebuild(DEALS)
    on_each_database(__file__, "incremental update")
    return 0


if __name__ == "__main__":
    sys.exit(main())
