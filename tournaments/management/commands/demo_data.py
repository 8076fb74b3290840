"""Load the demo club (idempotent): ``python manage.py demo_data``."""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs.models import Club, Player
from clubs.roles import make_director, make_scorer
from clubs.services import player_create

DEMO_DIRECTOR = ("director", "tablescore-demo")
DEMO_SCORER = ("scorer", "tablescore-demo")
DEMO_PLAYERS = [
    "Anna Kowalska",
    "Bartek Nowak",
    "Celina Wiśniewska",
    "Darek Wójcik",
    "Ewa Kamińska",
    "Filip Lewandowski",
    "Grażyna Zielińska",
    "Henryk Szymański",
    "Irena Woźniak",
    "Jacek Dąbrowski",
    "Kasia Kozłowska",
    "Leszek Jankowski",
]


class Command(BaseCommand):
    help = "Create the demo club, its 12 players, a director and a scorer login."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        club, _created = Club.objects.get_or_create(
            name="Klub Kopa Kościan (demo)", defaults={"city": "Kościan"}
        )
        existing = set(Player.objects.filter(club=club).values_list("name", flat=True))
        for name in DEMO_PLAYERS:
            if name not in existing:
                player_create(club=club, name=name)
        User = get_user_model()
        director, made = User.objects.get_or_create(username=DEMO_DIRECTOR[0])
        if made:
            director.set_password(DEMO_DIRECTOR[1])
            director.save()
        make_director(director)
        scorer, made = User.objects.get_or_create(username=DEMO_SCORER[0])
        if made:
            scorer.set_password(DEMO_SCORER[1])
            scorer.save()
        make_scorer(scorer)
        for hook in DEMO_HOOKS:
            hook(club=club, director=director, stdout=self.stdout)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: {club.name}, {club.players.count()} players.\n"
                f"Demo director login: {DEMO_DIRECTOR[0]} / {DEMO_DIRECTOR[1]}\n"
                f"Demo scorer login:   {DEMO_SCORER[0]} / {DEMO_SCORER[1]}\n"
                f"Open {site_address()}"
            )
        )


def site_address() -> str:
    """Where ``make run`` serves the site: ``HOST`` and ``PORT`` as the Makefile reads them
    (127.0.0.1 and 8000 when unset)."""
    host = os.environ.get("HOST", "").strip() or "127.0.0.1"
    port = os.environ.get("PORT", "").strip()
    if not port.isdigit():
        port = "8000"
    return f"http://{host}:{port}/"


def _hooks() -> list[Any]:
    from scoring.demo import demo_kop_table, demo_vint_session
    from tournaments.demo import demo_tournament

    return [demo_kop_table, demo_vint_session, demo_tournament]


# Games and tournaments add their demo content here (a Kop table, a Vint session, ...).
DEMO_HOOKS: list[Any] = _hooks()
