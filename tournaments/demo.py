"""Demo content for ``manage.py demo_data``: a 16-player Kop tournament in progress."""

from __future__ import annotations

import random
from typing import Any

from clubs.models import Club
from clubs.services import player_create
from scoring import services as scoring_services
from scoring.actors import LINK_LABEL
from scoring.games.kop.simulate import random_deals
from tournaments import services
from tournaments.models import Tournament

DEMO_NAME = "Demo: Kościan Cup (in progress)"


def demo_tournament(*, club: Any, director: Any, stdout: Any) -> None:
    """Two rounds played and accepted, round 3 seated with two tables part-way through."""
    if Tournament.objects.filter(name=DEMO_NAME).exists():
        return
    from tournaments.management.commands.simulate_tournament import simulate

    guest_club, _created = Club.objects.get_or_create(name="Goście (demo)")
    guests = [
        guest_club.players.filter(name=name).first() or player_create(club=guest_club, name=name)
        for name in ("Marek Gość", "Nina Gość", "Olek Gość", "Patrycja Gość")
    ]
    people = [*club.players.order_by("number")[:12], *guests]
    tournament = simulate(
        game="kop",
        players=16,
        rounds=5,
        seed=2026,
        deals=32,
        name=DEMO_NAME,
        club=club,
        accept_rounds=2,
        people=people,
    )
    tournament.created_by = director
    tournament.save(update_fields=["created_by"])
    rnd = services.round_generate(tournament=tournament)
    rng = random.Random(3)
    actor = scoring_services.Actor(label=LINK_LABEL)
    for table, deals in zip(rnd.tables.select_related("session")[:2], (12, 20), strict=False):
        scoring_services.deals_record(
            session=table.session, deals=random_deals(rng, deals), actor=actor
        )
    stdout.write(f"Tournament in progress: /tournaments/{tournament.slug}/")
