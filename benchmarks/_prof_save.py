import cProfile
import os
import pstats
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
import bench_requests as br
from dbbench import throwaway_database

with throwaway_database():
    from django.conf import settings

    settings.ROOT_URLCONF = "floor_urls"
    from scoring import services
    from scoring.models import RuleProfile
    from tests.factories import ClubFactory, PlayerFactory

    services.profile_sync_builtin()
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(4)]
    session = services.session_create(
        game="kop",
        profile_version=RuleProfile.objects.get(slug="kop-koscian").current,
        players=players,
        planned_deals=2000,
    )
    client = br.phone_at(session)
    url = f"/sessions/{session.pk}/deals/"
    for i in range(20):
        br.timed(client, url, br.KOP_DEALS[i % 3])
    if sys.argv[1:] == ["vint"]:
        pass
    pr = cProfile.Profile()
    ts = []
    pr.enable()
    for i in range(200):
        ts.append(br.timed(client, url, br.KOP_DEALS[i % 3]))
    pr.disable()
    print("median", statistics.median(ts))
    st = pstats.Stats(pr)
    st.sort_stats("cumulative").print_stats(60)
