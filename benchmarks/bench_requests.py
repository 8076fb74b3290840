"""Server time of one deal-save request, form post to htmx partial returned, as a ratio
to its floor measured in the same run: a bare view doing one INSERT behind the same
middleware, CSRF check and table link (``floor_urls.bare_insert``).

Runs in-process through Django's test client (no network) with CSRF enforced, from a
phone that opened the table link, once on SQLite and once on PostgreSQL (if reachable),
each on a throwaway test database. Prints "figure, floor, ratio, target" per game; the
target is a save at most 3x its floor (issue 24: through the ORM).
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import time
from urllib.parse import urlencode

from dbbench import on_each_database, throwaway_database

N = int(os.environ.get("BENCH_REQUESTS", "200"))
TARGET = 3.0
KOP_DEALS = [
    {"contract": "normal", "declarers": ["1", "3"], "doublings": "1", "declarer_points": "60"},
    {
        "contract": "zolo",
        "declarers": ["2"],
        "doubling_mode": "seats",
        "doubling_seats": "1 3",
        "declarer_points": "28",
    },
    {"contract": "cicha", "declarers": ["4"], "doublings": "0", "declarer_points": "70"},
]


def phone_at(session):  # type: ignore[no-untyped-def]
    """A phone that opened the table link, with its CSRF token (checks enforced)."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    link = f"/t/{session.entry_token}/"
    client.get(link)
    token = client.cookies["csrftoken"].value
    response = client.post(link, {"seat": "1", "csrfmiddlewaretoken": token})
    assert response.status_code == 302, response.status_code
    client.defaults["HTTP_X_CSRFTOKEN"] = token
    client.defaults["HTTP_HX_REQUEST"] = "true"
    client.pad_revision = str(session.revision)
    return client


REVISION = re.compile(rb'name="pad_revision" id="pad-revision" value="(\d+)"')


def timed(client, url: str, data: dict) -> float:  # type: ignore[no-untyped-def]
    """One post as the pad sends it: a form drawn empty asks for the short answer and
    says the revision it was drawn at (taken from the answer before)."""
    revision = getattr(client, "pad_revision", None)
    if revision is not None and "/bench/bare/" not in url:
        data = {**data, "pad_answer": "short", "pad_revision": revision}
    # Form-encoded, as the pad sends it (htmx and the offline queue; the test client would
    # send multipart, which costs the server more to parse than the phone ever makes it).
    body = urlencode(data, doseq=True)
    start = time.perf_counter()
    response = client.post(url, body, content_type="application/x-www-form-urlencoded")
    elapsed = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, (url, response.status_code, response.content[:300])
    found = REVISION.search(response.content)
    if found:
        client.pad_revision = found.group(1).decode()
    return elapsed


def run_one(label: str) -> None:
    with throwaway_database():
        from django.conf import settings

        settings.ROOT_URLCONF = "floor_urls"
        from scoring import profile_services, services
        from scoring.models import RuleProfile
        from tests.factories import ClubFactory, PlayerFactory

        profile_services.profile_sync_builtin()
        club = ClubFactory()
        players = [PlayerFactory(club=club) for _ in range(4)]
        session = services.session_create(
            game="kop",
            profile_version=RuleProfile.objects.get(slug="kop-koscian").current,
            players=players,
            planned_deals=N,
        )
        client = phone_at(session)
        url, bare = f"/sessions/{session.pk}/deals/", f"/bench/bare/{session.pk}/"
        for i in range(10):  # warm-up: templates compiled, connections open
            timed(client, url, KOP_DEALS[i % 3])
            timed(client, bare, KOP_DEALS[i % 3])
        kop_times, floor_times = [], []
        for i in range(N):  # interleaved, so that both see the same machine
            kop_times.append(timed(client, url, KOP_DEALS[i % 3]))
            floor_times.append(timed(client, bare, KOP_DEALS[i % 3]))
        vint, vint_floor = vint_times(players)
        late, late_floor = vint_times(players, rubber=3)
        floor = statistics.median(floor_times)
        print(f"figure, floor, ratio, target ({label}, medians over {N} requests)")
        report(f"Kop deal save on {label}", kop_times, floor)
        report(f"Vint deal save on {label}", vint, statistics.median(vint_floor))
        report(f"Vint deal save in rubber 3 on {label}", late, statistics.median(late_floor))


def vint_times(players, rubber: int = 1) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """Rubber 1 of vint.md §6.2 (9 deals incl. a misère and an all-pass) at fresh tables,
    each save followed by a floor request at the same table. With ``rubber=3`` the same
    deals are the table's third rubber, after §6's first two (recorded unmeasured)."""
    import json
    from pathlib import Path

    from scoring import services
    from scoring.models import RuleProfile
    from tests.scoring.test_vint_entry import RUBBER_1

    sheet = Path(__file__).parent.parent / "tests" / "fixtures" / "sheets" / "vint_session.json"
    before = [d for r in json.loads(sheet.read_text())["rubbers"][: rubber - 1] for d in r["deals"]]
    version = RuleProfile.objects.get(slug="vint").current
    times: list[float] = []
    floor: list[float] = []
    while len(times) < N:
        session = services.session_create(game="vint", profile_version=version, players=players)
        actor = services.Actor(label="bench", seat=1)
        for facts in before:
            services.deal_record(session=session, facts=facts, actor=actor, confirm_warnings=True)
        client = phone_at(session)
        url, bare = f"/sessions/{session.pk}/deals/", f"/bench/bare/{session.pk}/"
        for data in RUBBER_1:
            times.append(timed(client, url, {"rubber": str(rubber), **data}))
            floor.append(timed(client, bare, {"contract": data["contract"]}))
    return times, floor


def report(what: str, times: list[float], floor: float) -> None:
    median = statistics.median(times)
    p95 = sorted(times)[int(len(times) * 0.95) - 1]
    ratio = median / floor
    mark = "ok" if ratio <= TARGET else "over"
    print(
        f"{what}: {median:.1f} ms (p95 {p95:.1f}), floor {floor:.1f} ms, "
        f"ratio {ratio:.1f}x, target <= {TARGET:.0f}x [{mark}]",
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
