"""The read API's standings (``/api/v1/tournaments/SLUG/standings/``) as a ratio to
reading its stored rows, and a 304 revalidation, beside the standings page's figures.

A finished 400-player tournament (``bench_tournament.build``), its standings computed
once. In-process through Django's test client, as a reader without a token (the
throttles' limits raised: this is one address asking hundreds of times), once on SQLite
and once on PostgreSQL (if reachable), each on a throwaway test database. Floor: one
query reading the snapshot's rows (every kind, in order). Targets: the API's read at
most 3x its rows (it reads the same rows, plus the state read and the JSON), and its
304 at most the page's 304 x 2. Prints only.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from dbbench import on_each_database, throwaway_database

N = int(os.environ.get("BENCH_API_REQUESTS", "100"))
PLAYERS = 400
TARGET = 3.0


def median_ms(call) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(N):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def run_one(label: str) -> None:
    with throwaway_database():
        from bench_tournament import build
        from django.conf import settings
        from django.test import Client

        from tournaments.models import StandingsRow
        from tournaments.services import standings_recompute

        settings.API_RATE_ANONYMOUS = 10**9
        tournament = build(PLAYERS)
        standings_recompute(tournament_id=tournament.pk, version=tournament.results_version)
        snapshot = tournament.snapshots.order_by("-results_version").first()
        client = Client()
        api = f"/api/v1/tournaments/{tournament.slug}/standings/"
        page = f"/tournaments/{tournament.slug}/standings/"
        first = client.get(api)
        assert first.status_code == 200 and len(first.json()["individual"]) == PLAYERS
        etag = first["ETag"]
        page_etag = client.get(page)["ETag"]

        def rows() -> None:
            list(
                StandingsRow.objects.filter(snapshot_id=snapshot.pk)
                .order_by("kind", "position")
                .values_list("kind", "data")
            )

        floor = median_ms(rows)
        read = median_ms(lambda: client.get(api))
        not_modified = median_ms(lambda: client.get(api, HTTP_IF_NONE_MATCH=etag))
        page_read = median_ms(lambda: client.get(page))
        page_304 = median_ms(lambda: client.get(page, HTTP_IF_NONE_MATCH=page_etag))
        assert client.get(api, HTTP_IF_NONE_MATCH=etag).status_code == 304
        ratio = read / floor
        print(f"API standings, {PLAYERS} players, {label} (medians over {N} requests)")
        print(
            f"API standings read: {read:.1f} ms, floor {floor:.1f} ms (its rows read), "
            f"ratio {ratio:.2f}x, target <= {TARGET:.0f}x [{'ok' if ratio <= TARGET else 'over'}]"
            f"; the page (one page of 50 rows, its shared copy): {page_read:.1f} ms",
            flush=True,
        )
        print(
            f"API standings 304 revalidation: {not_modified:.1f} ms, the page's 304 "
            f"{page_304:.1f} ms, ratio {not_modified / page_304:.2f}x, target <= 2x "
            f"[{'ok' if not_modified <= 2 * page_304 else 'over'}]",
            flush=True,
        )


def main() -> int:
    if len(sys.argv) > 1:
        run_one(sys.argv[1])
    else:
        on_each_database(__file__, "API standings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
