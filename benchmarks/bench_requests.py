"""Server time of one deal-save request, form post to htmx partial returned.

Runs in-process through Django's test client (no network), once on SQLite and
once on PostgreSQL (if reachable), each on a throwaway test database. Prints
the median and 95th percentile; the target is a median of at most 15 ms.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tablescore")
N = int(os.environ.get("BENCH_REQUESTS", "200"))


def _pg_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=2):
            return True
    except OSError:
        return False


def run_one(label: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.test_settings"
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    # Not setup_test_environment(): its instrumented template rendering would be measured too.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        from scoring import services
        from scoring.models import RuleProfile
        from tests.factories import ClubFactory, PlayerFactory, UserFactory
        from tournaments.roles import make_director

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
        times.sort()
        median = statistics.median(times)
        p95 = times[int(len(times) * 0.95) - 1]
        print(
            f"deal-save request on {label}: median {median:.1f} ms, p95 {p95:.1f} ms "
            f"over {N} saves (target: median <= 15 ms)",
            flush=True,
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def main() -> int:
    if len(sys.argv) > 1:
        run_one(sys.argv[1])
        return 0
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    subprocess.check_call([sys.executable, __file__, "SQLite"], env=env, cwd=ROOT)
    if _pg_reachable():
        subprocess.check_call(
            [sys.executable, __file__, "PostgreSQL"], env={**env, "DATABASE_URL": PG_URL}, cwd=ROOT
        )
    else:
        print("deal-save request on PostgreSQL: not measured (PostgreSQL unreachable)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
