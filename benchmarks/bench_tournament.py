"""Tournament standings at scale: 400 players (100 tables x 5 rounds x 32 deals = 16,000 deals),
1,000 and 4,000 players, on a throwaway SQLite test database (and PostgreSQL when reachable).

Each figure is printed beside its floor measured in the same run, and the ratio is what
counts (the machine may be shared):

- the full standings recompute (the Celery task's work: read the accepted tables, rank,
  store a snapshot and its rows for the paged page), best of 3, against reading the needed
  deal rows with raw SQL: <= 3x;
- the public standings page, one page of ``STANDINGS_PAGE_SIZE`` rows (median of 20,
  served from the cache of its results version), against reading one page of the stored
  rows (their count and the page's rows, what the page itself reads): <= 2x. The page
  no longer decodes the whole snapshot (issue 12), so reading the whole snapshot row is no
  longer its floor; the first request of a version and a search's jump to a player's page
  (shared by readers not signed in, as the page is) are printed beside the same floor,
  and so are the polls;
- the ``?status=1`` poll (median of 50), answered in full and revalidated with the ETag
  the browser holds (304, what the page's polling costs once it has one): <= 2 ms at any
  size.

``BENCH_PLAYERS`` (default "400,1000,4000") picks the sizes.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

from dbbench import figure, on_each_database, throwaway_database

SIZES = [int(s) for s in os.environ.get("BENCH_PLAYERS", "400,1000,4000").split(",")]
ROUNDS, DEALS = 5, 32


def build(players: int, seed: int = 1):  # type: ignore[no-untyped-def]
    """A finished tournament written in bulk (random foursomes: seating is benchmarked apart)."""
    from django.utils import timezone

    from clubs.models import Club, Person, Player
    from scoring import profile_services
    from scoring.engines import kop
    from scoring.engines.simulate import random_kop_deals
    from scoring.games.kop.models import KopDeal
    from scoring.models import RuleProfile, TableSeat, TableSession
    from tournaments.models import Registration, Round, RoundTable, Tournament

    profile_services.profile_sync_builtin()
    version = RuleProfile.objects.get(slug="kop-koscian").current
    rules = kop.parse_rules("kop", version.options)
    rng = random.Random(seed)
    club = Club.objects.create(name=f"Bench {players}")
    people = Player.objects.bulk_create(
        Player(club=club, number=i, name=person.name, person=person)
        for i, person in enumerate(
            Person.objects.bulk_create(
                Person(name=f"Player {i:05d}") for i in range(1, players + 1)
            ),
            1,
        )
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
        # Each table's deals first: its session stores their tally, as every write keeps it.
        played = []
        for _table in tables:
            deals = random_kop_deals(rng, DEALS)
            played.append(list(zip(deals, kop.score_table(deals, rules).results, strict=True)))
        sessions = TableSession.objects.bulk_create(
            TableSession(
                game="kop",
                profile_version=version,
                planned_deals=DEALS,
                locked_at=now,
                entry_token=f"b{players}-{r}-{t}",
                tally={
                    "totals": [sum(res.payments[i] for _d, res in table) for i in range(4)],
                    "counted": DEALS,
                    "last": DEALS,
                },
            )
            for t, table in enumerate(played)
        )
        TableSeat.objects.bulk_create(
            TableSeat(session=s, seat=i, player=p)
            for s, table in zip(sessions, tables, strict=True)
            for i, p in enumerate(table, 1)
        )
        rows = []
        for s, table in zip(sessions, played, strict=True):
            for n, (d, res) in enumerate(table, 1):
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
    from django.db import connection

    if connection.vendor == "postgresql":
        # Statistics as a live database has them (autovacuum analyzes after such a load),
        # so the planner sees this tournament's size and not an empty database's.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return tournament


def best_ms(fn, times: int = 3, before=None) -> float:  # type: ignore[no-untyped-def]
    """The fastest of ``times`` runs of ``fn`` in ms (``before`` runs untimed each time)."""
    best = float("inf")
    for _ in range(times):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def median_ms(fn, times: int) -> float:  # type: ignore[no-untyped-def]
    laps = []
    for _ in range(times):
        start = time.perf_counter()
        fn()
        laps.append((time.perf_counter() - start) * 1000)
    return statistics.median(laps)


def read_deal_rows(tournament_id: int) -> None:
    """The recompute's floor: the accepted tables' counted deal rows, raw SQL."""
    from django.db import connection

    from scoring.games.kop.models import KopDeal
    from tournaments.models import Round, RoundTable

    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.session_id, d.payment_1, d.payment_2, d.payment_3, d.payment_4 "
            f"FROM {KopDeal._meta.db_table} d "
            f"JOIN {RoundTable._meta.db_table} t ON t.session_id = d.session_id "
            f"JOIN {Round._meta.db_table} r ON r.id = t.round_id "
            f"WHERE r.tournament_id = %s AND t.accepted_at IS NOT NULL AND NOT d.voided",
            [tournament_id],
        )
        cursor.fetchall()


def run_one(label: str) -> None:
    with throwaway_database():
        for players in SIZES:
            one_size(players, label)


def one_size(players: int, label: str) -> None:
    from django.test import Client

    from tournaments.models import StandingsRow, StandingsSnapshot
    from tournaments.selectors import STANDINGS_PAGE_SIZE
    from tournaments.services import standings_recompute

    tournament = build(players)
    deals = players // 4 * ROUNDS * DEALS

    def drop() -> None:
        StandingsSnapshot.objects.filter(tournament=tournament).delete()

    recompute = best_ms(
        lambda: standings_recompute(
            tournament_id=tournament.pk, version=tournament.results_version
        ),
        before=drop,
    )
    floor = best_ms(lambda: read_deal_rows(tournament.pk), times=5)
    figure(
        f"standings recompute, {players} players, {deals:,} deals, {label}",
        recompute,
        floor,
        "<= 3",
        floor="the deal rows read with raw SQL",
    )

    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).get()
    rows = StandingsRow.objects.filter(snapshot=snapshot, kind="individual")

    def one_page_read() -> None:
        rows.count()
        list(rows.order_by("position").values_list("data", flat=True)[:STANDINGS_PAGE_SIZE])

    page_floor = best_ms(one_page_read, times=10)
    client = Client()
    url = f"/tournaments/{tournament.slug}/standings/"
    # The page a search's find opens: a player in the middle of the field.
    middle = rows.get(position=players // 2).number

    def page() -> None:
        assert client.get(url).status_code == 200

    def jump() -> None:
        assert client.get(url, {"player": str(middle)}).status_code == 200

    def poll() -> None:
        response = client.get(url + "?status=1", headers={"HX-Request": "true"})
        assert response.status_code in (200, 304)

    from django.core.cache import cache

    cache.clear()
    floor = "one page of rows read (count + page)"
    figure(
        f"standings page, first request of a results version, {players} players, {label}",
        median_ms(page, 1),
        page_floor,
        "none: once per version",
        floor=floor,
    )
    figure(
        f"standings page, {players} players, {label}",
        median_ms(page, 20),
        page_floor,
        "<= 2",
        floor=floor,
    )
    figure(
        f"standings page, jump to a found player's page, {players} players, {label}",
        median_ms(jump, 20),
        page_floor,
        "none: a search's answer, shared like the page",
        floor=floor,
    )
    figure(
        f"standings status poll, {players} players, {label}",
        median_ms(poll, 50),
        page_floor,
        "poll <= 2 ms",
        floor=floor,
    )
    held = client.get(url + "?status=1", headers={"HX-Request": "true"})["ETag"]

    def revalidated_poll() -> None:
        headers = {"HX-Request": "true", "If-None-Match": held}
        assert client.get(url + "?status=1", headers=headers).status_code == 304

    figure(
        f"standings status poll revalidated (304, as a browser polls), {players} players, {label}",
        median_ms(revalidated_poll, 50),
        page_floor,
        "poll <= 2 ms",
        floor=floor,
    )


def main() -> int:
    if len(sys.argv) > 1:
        run_one(sys.argv[1])
    else:
        on_each_database(__file__, "tournament standings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
