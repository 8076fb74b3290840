"""Demo content for ``manage.py demo_data``: a Kop table with deals in it."""

from __future__ import annotations

from typing import Any

from scoring import profile_services, services
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
    profile_services.profile_sync_builtin()
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
        services.deal_record(session=session, facts=facts, actor=actor, confirm_warnings=True)
    stdout.write(f"Kop demo table: /sessions/{session.pk}/")


def _vint_demo_deals() -> list[tuple[int, dict[str, Any]]]:
    """vint.md §6.2 (rubber 1, complete) and the first three deals of §6.3 (rubber 2)."""
    h = {"seat": "S", "suit": "H", "length": 3}
    return [
        (1, {"contract": "4H", "declarer": "N", "doubling": 0, "declarer_tricks": 10,
             "honours": {"side": "NS", "count": 5}}),
        (1, {"contract": "5D", "declarer": "W", "doubling": 0, "declarer_tricks": 11,
             "honours": {"side": "EW", "count": 6}}),
        (1, {"contract": "6C", "declarer": "S", "doubling": 0, "declarer_tricks": 12,
             "honours": {"side": "NS", "count": 8}, "sequences": [h]}),
        (1, {"contract": "4S", "declarer": "E", "doubling": 0, "declarer_tricks": 9,
             "honours": {"side": "EW", "count": 6}}),
        (1, {"contract": "4G", "declarer": "N", "doubling": 0, "declarer_tricks": 11,
             "grand_aces": {"side": "NS", "count": 3}}),
        (1, {"contract": "4M", "declarer": "E", "doubling": 0, "declarer_tricks": 3,
             "ace_dumps": [{"seat": "W", "trick": 6}]}),
        (1, {"contract": "pass", "tricks": {"NS": 5, "EW": 8},
             "ace_dumps": [{"seat": "S", "trick": 10}]}),
        (1, {"contract": "6H", "declarer": "N", "doubling": 0, "declarer_tricks": 12,
             "honours": {"side": "NS", "count": 8},
             "sequences": [{"seat": "N", "suit": "H", "length": 4}]}),
        (1, {"contract": "5G", "declarer": "W", "doubling": 0, "declarer_tricks": 11,
             "grand_aces": {"side": "EW", "count": 3}}),
        (2, {"contract": "5S", "declarer": "E", "doubling": 0, "declarer_tricks": 11,
             "honours": {"side": "EW", "count": 6}}),
        (2, {"contract": "4D", "declarer": "S", "doubling": 1, "declarer_tricks": 9,
             "honours": {"side": "NS", "count": 5}}),
        (2, {"contract": "6H", "declarer": "N", "doubling": 0, "declarer_tricks": 12,
             "honours": {"side": "NS", "count": 6}}),
    ]  # fmt: skip


def demo_vint_session(*, club: Any, director: Any, stdout: Any) -> None:
    """A Vint session: rubber 1 of vint.md §6.2 complete, rubber 2 started."""
    title = "Demo: Vint session"
    if TableSession.objects.filter(title=title).exists():
        return
    profile_services.profile_sync_builtin()
    profile = RuleProfile.objects.get(slug="vint")
    # The longest names (the first four), so the sheet is seen with the widest columns.
    players = list(club.players.order_by("number")[:4])
    session = services.session_create(
        game="vint",
        profile_version=profile.current,
        players=players,
        title=title,
        created_by=director,
    )
    actor = services.Actor(label=director.get_username(), is_director=True)
    for rubber, facts in _vint_demo_deals():
        services.deal_record(session=session, facts=facts, actor=actor, extra={"rubber": rubber})
    stdout.write(f"Vint demo session: /sessions/{session.pk}/")
