"""Server time of one deal-save request, form post to htmx partial returned.

Runs in-process through Django's test client (no network), once on SQLite and
once on PostgreSQL (if reachable), each on a throwaway test database. Prints
the median and 95th percentile; the target is a median of at most 15 ms.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from dbbench import on_each_database, throwaway_database

N = int(os.environ.get("BENCH_REQUESTS", "200"))


def run_one(label: str) -> None:
    with throwaway_database():
        from django.test import Client

        from clubs.roles import make_director
        from scoring import services
        from scoring.models import RuleProfile
        from tests.factories import ClubFactory, PlayerFactory, UserFactory

        services.profile_sync_builtin()
        club = ClubFactory()
        players = [PlayerFactory(club=club) for _ in range(4)]
        session = services.session_create(
            game="kop",
            profile_version=RuleProfile.objects.get(slug="kop-koscian").current,
            players=players,
            planned_deals=N,
        )
        user = UserFactory(username="bench")
        make_director(user)
        client = Client()
        client.force_login(user)
        url = f"/sessions/{session.pk}/deals/"
        deals = [
            {
                "contract": "normal",
                "declarers": ["1", "3"],
                "doublings": "1",
                "declarer_points": "60",
            },
            {
                "contract": "zolo",
                "declarers": ["2"],
                "doubling_mode": "seats",
                "doubling_seats": "1 2",
                "declarer_points": "28",
            },
            {"contract": "cicha", "declarers": ["4"], "doublings": "0", "declarer_points": "70"},
        ]
        for i in range(10):  # warm-up: templates compiled, connections open
            client.post(url, deals[i % 3], headers={"HX-Request": "true"})
        times = []
        for i in range(N):
            start = time.perf_counter()
            response = client.post(url, deals[i % 3], headers={"HX-Request": "true"})
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200 and b"saved" in response.content
        report(f"Kop deal-save request on {label}", times)
        report(f"Vint deal-save request on {label}", vint_times(client, players))


def vint_times(client, players) -> list[float]:  # type: ignore[no-untyped-def]
    """Rubber 1 of vint.md §6.2 (9 deals incl. a misère and an all-pass) at fresh tables."""
    from scoring import services
    from scoring.models import RuleProfile
    from tests.scoring.test_vint_entry import RUBBER_1

    version = RuleProfile.objects.get(slug="vint").current
    times: list[float] = []
    while len(times) < N:
        session = services.session_create(game="vint", profile_version=version, players=players)
        url = f"/sessions/{session.pk}/vint/deals/"
        for data in RUBBER_1:
            start = time.perf_counter()
            response = client.post(url, {"rubber": "1", **data}, headers={"HX-Request": "true"})
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, response.content[:500]
    return times


def report(what: str, times: list[float]) -> None:
    times = sorted(times)
    median = statistics.median(times)
    p95 = times[int(len(times) * 0.95) - 1]
    print(
        f"{what}: median {median:.1f} ms, p95 {p95:.1f} ms over {len(times)} saves "
        "(target: median <= 15 ms)",
        flush=True,
    )


def main() -> int:
    if len(sys.argv) > 1:
        run_one(sys.argv[1])
    else:
        on_each_database(__file__, "deal-save request")
    return 0


if __name__ == "__main__":
    sys.exit(main())
