"""``python manage.py simulate_tournament --game kop --players N --rounds R --seed S``.

Creates a tournament with registered players and plausible random deals in
every table of every round, accepted round by round, so that standings are
computed as in a real event. For the demo data, the benchmarks and the tests.
"""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club, Player
from clubs.services import player_create
from scoring import services as scoring_services
from scoring.games.kop.simulate import random_deals
from scoring.models import RuleProfile
from scoring.profile_services import profile_sync_builtin
from tournaments import services
from tournaments.models import Tournament

PROFILES = {"kop": "kop-koscian", "baska": "baska"}


def simulate(
    *,
    game: str,
    players: int,
    rounds: int,
    seed: int,
    deals: int = 32,
    name: str | None = None,
    club: Club | None = None,
    accept_rounds: int | None = None,
    people: list[Player] | None = None,
) -> Tournament:
    if game not in PROFILES:
        raise CommandError(f"--game must be one of {', '.join(PROFILES)} (Vint: not simulated)")
    if players < 4:
        raise CommandError("--players must be at least 4")
    profile_sync_builtin()
    rng = random.Random(seed)
    club = club or Club.objects.get_or_create(name="Simulated club")[0]
    tournament = services.tournament_create(
        name=name or f"Simulated {game} {players}x{rounds} (seed {seed})",
        game=game,
        profile_version=RuleProfile.objects.get(slug=PROFILES[game]).current,
        rounds=rounds,
        deals_per_round=deals,
        club=club,
        seed=seed,
    )
    existing = people or list(Player.objects.filter(club=club).order_by("number")[:players])
    for i in range(len(existing), players):
        existing.append(player_create(club=club, name=f"Player {i + 1:04d}"))
    for player in existing:
        entry = services.registration_add(tournament=tournament, player=player)
        services.registration_check_in(registration=entry)
    actor = scoring_services.Actor(label="simulation", is_director=True)
    for r in range(1, rounds + 1):
        rnd = services.round_generate(tournament=tournament)
        for table in rnd.tables.select_related("session"):
            scoring_services.deals_record(
                session=table.session, deals=random_deals(rng, deals, game), actor=actor
            )
        if accept_rounds is None or r <= accept_rounds:
            services.round_accept_all(rnd=rnd, actor=actor, reason="simulation")
        if accept_rounds is not None and r >= accept_rounds:
            break
    return tournament


class Command(BaseCommand):
    help = "Create a tournament with plausible random deals (demo, load tests, benchmarks)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default="kop", choices=sorted(PROFILES))
        parser.add_argument("--players", type=int, default=16)
        parser.add_argument("--rounds", type=int, default=5)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--deals", type=int, default=32, help="deals per round")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = simulate(
            game=options["game"],
            players=options["players"],
            rounds=options["rounds"],
            seed=options["seed"],
            deals=options["deals"],
        )
        self.stdout.write(f"{tournament.name}: /tournaments/{tournament.slug}/standings/")
