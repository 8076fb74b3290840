"""Set up what ``make loadtest`` drives (run inside Django with the load test's database):
a Kop tournament of 98 tables (392 players) with its first round seated, and signed-in
director sessions for the acceptances. Prints the plan as JSON on stdout.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from clubs.models import Club, Player
    from clubs.roles import make_director
    from scoring import profile_services
    from scoring.models import RuleProfile
    from tournaments import services

    tables, accepters = int(sys.argv[1]), int(sys.argv[2])
    profile_services.profile_sync_builtin()
    club = Club.objects.create(name="Load club")
    from django.contrib.auth import get_user_model

    director = get_user_model().objects.create_user("load-director", password=None)
    make_director(director, club)
    tournament = services.tournament_create(
        name="Load cup",
        game="kop",
        profile_version=RuleProfile.objects.get(slug="kop-koscian").current,
        rounds=1,
        deals_per_round=32,
        club=club,
        seed=12,
        created_by=director,
    )
    for i in range(1, 4 * tables + 1):
        player = Player.objects.create(club=club, name=f"Player {i:03d}", number=i)
        entry = services.registration_add(tournament=tournament, player=player)
        services.registration_check_in(registration=entry)
    round_ = services.round_generate(tournament=tournament)
    sessions = []
    for _ in range(accepters):
        store = SessionStore()
        store[SESSION_KEY] = str(director.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
        store[HASH_SESSION_KEY] = director.get_session_auth_hash()
        store.create()
        sessions.append(store.session_key)
    plan = {
        "slug": tournament.slug,
        "tournament": tournament.pk,
        "tables": [
            {"id": t.pk, "session": t.session_id, "token": t.session.entry_token}
            for t in round_.tables.select_related("session").order_by("number")
        ],
        "director_sessions": sessions,
    }
    print(json.dumps(plan))
    return 0


if __name__ == "__main__":
    sys.exit(main())
