"""``python manage.py rebuild_ratings [--game kop|baska|vint] [--model deal|table] [--check]``.

Rates every accepted tournament table and club evening again from scratch (after a change of
``RATINGS_MODEL``, or to verify). ``--check`` only brings the ratings up to date: what the
Celery tasks do.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import ratings
from tournaments.ranking.ratings import MODELS, RatingOptionError


class Command(BaseCommand):
    help = "Rebuild the club ratings from every accepted tournament table and club evening."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=ratings.rated_games(), help="one game (default: all)")
        parser.add_argument(
            "--model",
            choices=MODELS,
            help="Kop/Baśka model (default: RATINGS_MODEL; Vint has only its own)",
        )
        parser.add_argument(
            "--check", action="store_true", help="update incrementally instead of rebuilding"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = [options["game"]] if options["game"] else ratings.rated_games()
        for game in games:
            started = time.perf_counter()
            try:
                if options["check"]:
                    result = ratings.ratings_update(game=game, model=options["model"])
                else:
                    result = ratings.ratings_rebuild(game=game, model=options["model"])
            except RatingOptionError as exc:
                raise CommandError(str(exc)) from exc
            seconds = time.perf_counter() - started
            self.stdout.write(
                f"{game}: {result.kind}, {result.rated} tables rated, "
                f"{result.removed} taken back, {result.players} players "
                f"({result.model} model, {seconds:.2f} s)"
            )
