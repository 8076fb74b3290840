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
4. A club evening's rating update (``ratings_update`` as the task after a club session's
   acceptance calls it) over a rated history of ``BENCH_RATING_EVENING_DEALS`` (default
   1,000, 10,000 and 100,000) stored deals: club evenings of 32 deals written in bulk, each
   history in a database of its own; then one more evening accepted and rated at a time in
   each, in turns (this machine's neighbours move a figure by more than the margin within a
   minute), the median of ``EVENINGS_TIMED``; beside it its floor, the evening's deal rows
   read with raw SQL and rated by the pure code. Its cost must follow what changed, not the
   history: target, the 100,000-deal figure at most 1.5x the 1,000-deal one (each figure
   also as its ratio to its floor).

Prints only; never fails on a slow machine.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from array import array
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from dbbench import (  # noqa: E402
    another_database,
    figure,
    on_each_database,
    throwaway_database,
    using,
)

DEALS = int(os.environ.get("BENCH_RATING_DEALS", "1000000"))
TABLES = int(os.environ.get("BENCH_RATING_TABLES", "500"))
EVENING_DEALS = [
    int(n) for n in os.environ.get("BENCH_RATING_EVENING_DEALS", "1000,10000,100000").split(",")
]
EVENINGS_TIMED = 11
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
    with throwaway_database():
        _club_evenings(label)


def _incremental(label: str) -> None:
    from django.utils import timezone

    from clubs.models import Club, Person, Player
    from scoring import profile_services
    from scoring import services as scoring_services
    from scoring.engines.simulate import random_kop_deals
    from scoring.models import RuleProfile
    from tests.factories import record_kop_deals as kop_bulk_record
    from tournaments import ratings
    from tournaments.families.kop import kop_tables
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
        Player(club=club, number=i, name=person.name, person=person)
        for i, person in enumerate(
            Person.objects.bulk_create(Person(name=f"Player {i:03d}") for i in range(1, 201)),
            1,
        )
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
        tables = kop_tables(session_ids)
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
        result = ratings.ratings_update(game="kop")
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


class EveningClub:
    """A club whose history is ``size`` stored deals of accepted, rated club evenings
    (written in bulk as the write path leaves them: tally, revision), in the database the
    default alias stands for while it is built (``using``); ``evening`` adds one more
    accepted evening and times its rating update beside its floor."""

    def __init__(self, size: int, seed: int) -> None:
        from django.db import connection
        from django.utils import timezone

        from clubs.models import Club, Person, Player
        from scoring.engines import kop
        from scoring.models import RuleProfile
        from scoring.profile_services import profile_sync_builtin
        from tournaments import ratings

        self.rng = random.Random(seed)
        profile_sync_builtin()
        self.version = RuleProfile.objects.get(slug="kop-koscian").current
        self.rules = kop.parse_rules("kop", self.version.options)
        club = Club.objects.create(name="Evening club")
        self.players = Player.objects.bulk_create(
            Player(club=club, number=i, name=person.name, person=person)
            for i, person in enumerate(
                Person.objects.bulk_create(Person(name=f"Player {i:03d}") for i in range(1, 201)),
                1,
            )
        )
        self.made = 0
        start = timezone.now() - timedelta(days=365)  # a minute apart, in the past
        self.write(-(-size // PER_TABLE), lambda n: start + timedelta(minutes=n))
        ratings.ratings_rebuild(game="kop")
        if connection.vendor == "postgresql":
            # Statistics as a live database has them (autovacuum analyzes after a load).
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

    def write(self, count: int, at: Callable[[int], datetime]) -> list[int]:
        """``count`` accepted club evenings of ``PER_TABLE`` scored deals; their ids."""
        from scoring.engines import kop
        from scoring.engines.simulate import random_kop_deals
        from scoring.games.kop.models import KopDeal
        from scoring.models import TableSeat, TableSession

        tables, played = [], []
        for _ in range(count):
            deals = random_kop_deals(self.rng, PER_TABLE)
            tables.append(self.rng.sample(self.players, 4))
            results = kop.score_table(deals, self.rules).results
            played.append(list(zip(deals, results, strict=True)))
        made = self.made
        sessions = TableSession.objects.bulk_create(
            TableSession(
                game="kop",
                profile_version=self.version,
                planned_deals=PER_TABLE,
                entry_token=f"evening-{made + i}",
                tally={
                    "totals": [sum(r.payments[s] for _d, r in table) for s in range(4)],
                    "counted": PER_TABLE,
                    "last": PER_TABLE,
                },
                revision=PER_TABLE,
                locked_at=at(made + i),
                accepted_at=at(made + i),
                accepted_seat=1,
            )
            for i, table in enumerate(played)
        )
        self.made += count
        TableSeat.objects.bulk_create(
            TableSeat(session=s, seat=i, player=p)
            for s, four in zip(sessions, tables, strict=True)
            for i, p in enumerate(four, 1)
        )
        KopDeal.objects.bulk_create(
            (
                KopDeal(
                    session=s,
                    number=n,
                    contract=d.contract,
                    declarers=list(d.declarers),
                    doublings=d.doublings,
                    declarer_points=d.declarer_points,
                    value=r.value,
                    declarers_won=r.declarers_won,
                    k=r.k,
                    payment_1=r.payments[0],
                    payment_2=r.payments[1],
                    payment_3=r.payments[2],
                    payment_4=r.payments[3],
                )
                for s, table in zip(sessions, played, strict=True)
                for n, (d, r) in enumerate(table, 1)
            ),
            batch_size=5000,
        )
        return [s.pk for s in sessions]

    def evening(self) -> tuple[float, float]:
        """One more evening accepted now and the update the task runs for it: (its ms,
        its floor's ms)."""
        from django.utils import timezone

        from tournaments import ratings

        (session_id,) = self.write(1, lambda _n: timezone.now())
        started = time.perf_counter()
        result = ratings.ratings_update(game="kop")
        ms = (time.perf_counter() - started) * 1000
        assert result.kind == "incremental" and result.rated == 1, result
        return ms, self.floor_ms(session_id)

    def floor_ms(self, session_id: int) -> float:
        """The evening's deal rows read with raw SQL and rated by the pure code (the
        rows made into the pure module's tables beside it, not timed)."""
        from scoring.games.kop.models import KopDeal
        from scoring.models import TableSeat
        from tournaments.ranking import ratings as core

        read = read_deals_ms([session_id])
        seats = dict(TableSeat.objects.filter(session_id=session_id).values_list("seat", "player"))
        deals = []
        for declarers, won in (
            KopDeal.objects.filter(session_id=session_id)
            .order_by("number")
            .values_list("declarers", "declarers_won")
        ):
            ours = tuple(seats[int(s)] for s in declarers)
            theirs = tuple(p for s, p in sorted(seats.items()) if p not in ours)
            deals.append(core.KopDeal(ours, theirs, won))
        table = core.KopTable(tuple(deals), tuple((p, 0) for p in seats.values()))
        started = time.perf_counter()
        core.Rater().replay([core.Source(session_id, tuple(core.kop_matches(table, "deal")))])
        return read + (time.perf_counter() - started) * 1000


def _club_evenings(label: str) -> None:
    """Part 4: a club evening's update over 1k, 10k and 100k stored deals, each history in
    a database of its own, their evenings timed in turns (one each, round after round), so
    that this machine's drift weighs on every size alike."""
    with ExitStack() as stack:
        aliases = ["default"]
        aliases += [
            stack.enter_context(another_database(f"evenings{n}"))
            for n in range(1, len(EVENING_DEALS))
        ]
        clubs = {}
        for n, (alias, size) in enumerate(zip(aliases, EVENING_DEALS, strict=True)):
            with using(alias):
                clubs[size] = EveningClub(size, seed=11 + n)
        times: dict[int, list[float]] = {size: [] for size in EVENING_DEALS}
        floors: dict[int, list[float]] = {size: [] for size in EVENING_DEALS}
        turn = list(zip(aliases, EVENING_DEALS, strict=True))
        for n in range(EVENINGS_TIMED):
            for alias, size in turn[n % len(turn) :] + turn[: n % len(turn)]:  # each first
                with using(alias):
                    ms, floor_ms = clubs[size].evening()
                times[size].append(ms)
                floors[size].append(floor_ms)
    results = {size: statistics.median(ts) for size, ts in times.items()}
    for size in EVENING_DEALS:
        figure(
            f"club evening's rating update on {label}, {PER_TABLE} deals over {size:,} "
            f"stored deals, median of {EVENINGS_TIMED}",
            results[size],
            statistics.median(floors[size]),
            f"the figure <= 1.5x the one over {EVENING_DEALS[0]:,}",
            floor="the evening's deal rows read with raw SQL and rated by the pure code",
        )
    if len(results) > 1:
        small, large = min(results), max(results)
        print(
            f"club evening's rating update on {label}: {large:,} stored deals "
            f"{results[large]:.1f} ms against {small:,} {results[small]:.1f} ms, "
            f"ratio {results[large] / results[small]:.2f} (target <= 1.5)",
            flush=True,
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
