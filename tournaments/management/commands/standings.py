"""``python manage.py standings TOURNAMENT_ID [--json]``: the current standings."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.standings import standings_compute


class Command(BaseCommand):
    help = "Print a tournament's standings computed from the accepted results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(pk=options["tournament_id"])
        except Tournament.DoesNotExist:
            raise CommandError(f"no tournament with id {options['tournament_id']}") from None
        data = standings_compute(tournament=tournament)
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        for row in data["individual"]:
            points = row.get("big_points", row.get("net"))
            self.stdout.write(f"{row['rank']:>4} {row['number']:>4} {row['name']:<30} {points}")
