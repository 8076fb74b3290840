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
   50 ms per round.

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
from dbbench import on_each_database, throwaway_database  # noqa: E402

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
    from scoring import services as scoring_services
    from scoring.engines.simulate import random_kop_deals
    from scoring.games.kop import bulk_record as kop_bulk_record
    from scoring.models import RuleProfile
    from tournaments import ratings
    from tournaments.models import Round, RoundTable, Tournament

    rng = random.Random(7)
    scoring_services.profile_sync_builtin()
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
    started = time.perf_counter()
    ratings.ratings_rebuild(game="kop")
    rebuild = time.perf_counter() - started

    event = Tournament.objects.create(
        name="Tonight", slug="tonight", game="kop", profile_version=version, seed=2
    )
    times = []
    for number in range(1, 11):
        play_round(event, number)
        started = time.perf_counter()
        result = ratings.ratings_update(game="kop", tournament_id=event.pk)
        times.append((time.perf_counter() - started) * 1000)
        assert result.kind == "incremental" and result.rated == per_round, result
    print(
        f"incremental update on {label} after a round of {per_round} tables ({PER_TABLE} deals "
        f"each) over {TABLES} rated tables: median {statistics.median(times):.1f} ms, "
        f"max {max(times):.1f} ms over {len(times)} rounds (target: <= 50 ms); "
        f"full rebuild of the {TABLES * PER_TABLE:,} deals through the service {rebuild:.1f} s "
        f"(setup {setup:.0f} s)",
        flush=True,
    )


def main() -> int:
    if len(sys.argv) > 1:
        incremental(sys.argv[1])
        return 0
    full_rebuild(DEALS)
    on_each_database(__file__, "incremental update")
    return 0


if __name__ == "__main__":
    sys.exit(main())
