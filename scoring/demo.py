"""Demo content for ``manage.py demo_data``: a Kop table with deals in it."""

from __future__ import annotations

from typing import Any

from scoring import services
from scoring.models import RuleProfile, TableSession

# kop.md §6.3 E1, E7, E12, E16, E3, E15: a plausible start of a Kościan-style evening.
KOP_DEMO_DEALS: list[dict[str, Any]] = [
    {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60},
    {"contract": "normal", "declarers": [1, 3], "doublings": 1, "declarer_points": 70},
    {"contract": "cicha", "declarers": [1], "doublings": 0, "declarer_points": 61},
    {"contract": "zolo", "declarers": [3], "doublings": 0, "declarer_points": 70},
    {"contract": "normal", "declarers": [2, 4], "doublings": 0, "declarer_points": 80},
    {"contract": "wesele", "declarers": [2, 4], "doublings": 1, "declarer_points": 40},
]


def demo_kop_table(*, club: Any, director: Any, stdout: Any) -> None:
    title = "Demo: Kop table 1"
    if TableSession.objects.filter(title=title).exists():
        return
    services.profile_sync_builtin()
    profile = RuleProfile.objects.get(slug="kop-koscian")
    players = list(club.players.order_by("number")[:4])
    session = services.session_create(
        game="kop",
        profile_version=profile.current,
        players=players,
        title=title,
        created_by=director,
        planned_deals=32,
    )
    actor = services.Actor(label=director.get_username(), is_director=True)
    for facts in KOP_DEMO_DEALS:
        services.kop_deal_record(session=session, facts=facts, actor=actor, confirm_warnings=True)
    stdout.write(f"Kop demo table: /sessions/{session.pk}/")
