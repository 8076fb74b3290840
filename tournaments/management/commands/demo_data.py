"""Load the demo club (idempotent): ``python manage.py demo_data``.

The demo logins have a password printed in the README, so with ``DJANGO_DEBUG=false``
the command refuses to run; ``--force`` runs it anyway and gives the logins random
passwords, printed once (a production site must never accept the demo password:
``tournaments.checks`` warns if it does).
"""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from clubs.models import Club, Player
from clubs.roles import make_director, make_scorer
from clubs.services import player_create
from tournaments.demo_logins import DEMO_DIRECTOR, DEMO_SCORER

DEMO_PLAYERS = [
    # The longest names first: they sit at the demo Kop table and in the tournament, so
    # every page is seen (and tested at 320 px) with names that do not fit a button.
    "Aleksandra Przybyszewska-Wiśniewska",
    "Przemysław Brzęczyszczykiewicz",
    "Małgorzata Szczepańska",
    "Krzysztof Grzegorzewski",
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

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Run with DJANGO_DEBUG=false too; the logins then get random passwords.",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        production = not settings.DEBUG
        if production and not options["force"]:
            raise CommandError(
                "demo_data refuses to run with DJANGO_DEBUG=false: its logins have a "
                "published password. Use --force to load it with random passwords."
            )
        passwords = {
            DEMO_DIRECTOR[0]: _random_password() if production else DEMO_DIRECTOR[1],
            DEMO_SCORER[0]: _random_password() if production else DEMO_SCORER[1],
        }
        club, _created = Club.objects.get_or_create(
            name="Klub Kopa Kościan (demo)", defaults={"city": "Kościan"}
        )
        existing = set(Player.objects.filter(club=club).values_list("name", flat=True))
        for name in DEMO_PLAYERS:
            if name not in existing:
                player_create(club=club, name=name)
        User = get_user_model()
        director, made_director = User.objects.get_or_create(username=DEMO_DIRECTOR[0])
        # In production an existing login gets a new random password too: it may still have
        # the published one from an earlier run.
        if made_director or production:
            director.set_password(passwords[DEMO_DIRECTOR[0]])
            director.save()
        make_director(director, club)
        scorer, made_scorer = User.objects.get_or_create(username=DEMO_SCORER[0])
        if made_scorer or production:
            scorer.set_password(passwords[DEMO_SCORER[0]])
            scorer.save()
        make_scorer(scorer, club)
        for hook in DEMO_HOOKS:
            hook(club=club, director=director, stdout=self.stdout)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: {club.name}, {club.players.count()} players.\n"
                f"Demo director login: {DEMO_DIRECTOR[0]} / {passwords[DEMO_DIRECTOR[0]]}\n"
                f"Demo scorer login:   {DEMO_SCORER[0]} / {passwords[DEMO_SCORER[0]]}\n"
                f"Open {site_address()}"
            )
        )


def _random_password() -> str:
    return secrets.token_urlsafe(12)


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
