"""``python manage.py seating --players N --rounds R [--seed S]``: a schedule as JSON.

Prints ``{"rounds": [[[1, 5, 9, 13], ...], ...], "repeats": <pairs that met more
than once>, ...}`` plus the sit-outs per round, the seed and the algorithm
version that reproduce it. Needs no database.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.seating.errors import SeatingError
from tournaments.seating.generate import generate_schedule


class Command(BaseCommand):
    help = "Print a seating schedule (foursomes per round) with the fewest repeat meetings found."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            schedule = generate_schedule(options["players"], options["rounds"], options["seed"])
        except SeatingError as exc:
            self.stderr.write(str(exc))
            sys.exit(2)
        out = {
            "rounds": [[list(t) for t in rnd] for rnd in schedule.rounds],
            "repeats": schedule.repeats,
            "byes": [list(b) for b in schedule.byes],
            "max_meetings": schedule.max_meetings,
            "seed": options["seed"],
            "algorithm_version": schedule.algorithm_version,
        }
        self.stdout.write(json.dumps(out))
