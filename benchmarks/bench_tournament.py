"""Tournament standings at scale: 400 players (100 tables x 5 rounds x 32 deals = 16,000 deals)
and 4,000 players, on a throwaway SQLite test database (and PostgreSQL when reachable).

Prints: the full standings recompute (the Celery task's work: read the accepted tables,
rank, store a snapshot) and the standings page's server time (serving the stored
snapshot). Targets at 400 players: recompute <= 1 s, page <= 100 ms.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

from dbbench import on_each_database, throwaway_database

SIZES = [int(s) for s in os.environ.get("BENCH_PLAYERS", "400,4000").split(",")]
ROUNDS, DEALS = 5, 32


def build(players: int, seed: int = 1):  # type: ignore[no-untyped-def]
    """A finished tournament written in bulk (random foursomes: seating is benchmarked apart)."""
    from django.utils import timezone

    from clubs.models import Club, Player
    from scoring import services as scoring_services
    from scoring.engines import kop
    from scoring.engines.simulate import random_kop_deals
    from scoring.models import KopDeal, RuleProfile, TableSeat, TableSession
    from tournaments.models import Registration, Round, RoundTable, Tournament

    scoring_services.profile_sync_builtin()
    version = RuleProfile.objects.get(slug="kop-koscian").current
    rules = kop.parse_rules("kop", version.options)
    rng = random.Random(seed)
    club = Club.objects.create(name=f"Bench {players}")
    people = Player.objects.bulk_create(
        Player(club=club, number=i, name=f"Player {i:05d}") for i in range(1, players + 1)
    )
    tournament = Tournament.objects.create(
        name=f"Bench {players}",
        slug=f"bench-{players}",
        game="kop",
        profile_version=version,
        rounds_planned=ROUNDS,
        deals_per_round=DEALS,
        seed=seed,
    )
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, number=p.number, checked_in=True)
        for p in people
    )
    now = timezone.now()
    for r in range(1, ROUNDS + 1):
        rnd = Round.objects.create(tournament=tournament, number=r, seed=seed)
        order = list(people)
        rng.shuffle(order)
        tables = [order[i : i + 4] for i in range(0, players, 4)]
        sessions = TableSession.objects.bulk_create(
            TableSession(
                game="kop",
                profile_version=version,
                planned_deals=DEALS,
                locked_at=now,
                entry_token=f"b{players}-{r}-{t}",
            )
            for t in range(len(tables))
        )
        TableSeat.objects.bulk_create(
            TableSeat(session=s, seat=i, player=p)
            for s, table in zip(sessions, tables, strict=True)
            for i, p in enumerate(table, 1)
        )
        rows = []
        for s in sessions:
            deals = random_kop_deals(rng, DEALS)
            for n, (d, res) in enumerate(
                zip(deals, kop.score_table(deals, rules).results, strict=True), 1
            ):
                rows.append(
                    KopDeal(
                        session=s,
                        number=n,
                        contract=d.contract,
                        declarers=list(d.declarers),
                        doublings=d.doublings,
                        declarer_points=d.declarer_points,
                        value=res.value,
                        declarers_won=res.declarers_won,
                        k=res.k,
                        payment_1=res.payments[0],
                        payment_2=res.payments[1],
                        payment_3=res.payments[2],
                        payment_4=res.payments[3],
                    )
                )
        KopDeal.objects.bulk_create(rows, batch_size=5000)
        RoundTable.objects.bulk_create(
            RoundTable(round=rnd, number=t, session=s, accepted_at=now)
            for t, s in enumerate(sessions, 1)
        )
    tournament.results_version = ROUNDS * len(tables)
    tournament.save()
    return tournament


def run_one(label: str) -> None:
    with throwaway_database():
        from django.test import Client

        from tournaments.models import StandingsSnapshot
        from tournaments.services import standings_recompute

        for players in SIZES:
            tournament = build(players)
            times = []
            for _ in range(3):
                StandingsSnapshot.objects.filter(tournament=tournament).delete()
                start = time.perf_counter()
                standings_recompute(tournament_id=tournament.pk, version=tournament.results_version)
                times.append(time.perf_counter() - start)
            deals = players // 4 * ROUNDS * DEALS
            target = " (target <= 1 s)" if players == 400 else ""
            print(
                f"standings recompute, {players} players, {deals:,} deals, {label}: "
                f"{min(times):.2f} s best of 3{target}",
                flush=True,
            )
            client = Client()
            url = f"/tournaments/{tournament.slug}/standings/"
            client.get(url)
            page = []
            for _ in range(10):
                start = time.perf_counter()
                response = client.get(url)
                page.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200
            target = " (target <= 100 ms)" if players == 400 else ""
            print(
                f"standings page, {players} players, {label}: median "
                f"{statistics.median(page):.0f} ms{target}",
                flush=True,
            )


def main() -> int:
    if len(sys.argv) > 1:
        run_one(sys.argv[1])
    else:
        on_each_database(__file__, "tournament standings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
