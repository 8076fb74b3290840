"""``manage.py simulate_association``: an association of clubs and its league seasons,
built for measuring (issue 26 item 7; ``benchmarks/bench_leagues.py``).

Defaults: 200 member clubs, 2,000 licensed players, 5 seasons of 30 events each, every
event a Baśka tournament of one member club whose standings (``--field`` players) are
written as given (``tournaments.simulation.standings_write``), not played; each season a
league (counting ``sum``, licences required) of ``--teams`` teams of five, whose tables
are computed once, when the season's events are in.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from clubs.models import Club, Person, Player
from scoring.models import RuleProfile
from tournaments.models import LeagueEvent, Licence, Registration, RosterMember
from tournaments.services import leagues, tournament_create
from tournaments.simulation import GivenRow, standings_write


class Command(BaseCommand):
    help = "Build a simulated association: clubs, players, licences, league seasons."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--name", default="Simulated Association")
        parser.add_argument("--clubs", type=int, default=200)
        parser.add_argument("--players", type=int, default=2000)
        parser.add_argument("--seasons", type=int, default=5)
        parser.add_argument("--events", type=int, default=30)
        parser.add_argument("--field", type=int, default=120)
        parser.add_argument("--teams", type=int, default=24)
        parser.add_argument("--seed", type=int, default=26)

    def handle(self, *args: Any, **o: Any) -> None:
        built = simulate_association(
            name=o["name"],
            clubs=o["clubs"],
            players=o["players"],
            seasons=o["seasons"],
            events=o["events"],
            field=o["field"],
            teams=o["teams"],
            seed=o["seed"],
        )
        self.stdout.write(
            f"{built['association'].name}: {o['clubs']} clubs, {o['players']} players, "
            f"{len(built['leagues'])} leagues of {o['events']} events"
        )


def simulate_association(
    *,
    name: str,
    clubs: int,
    players: int,
    seasons: int,
    events: int,
    field: int,
    teams: int,
    seed: int,
) -> dict[str, Any]:
    """Build it (see the module); returns the association and its leagues."""
    rng = random.Random(seed)
    version = RuleProfile.objects.get(slug="baska").current
    with transaction.atomic():
        association = Club.objects.create(name=name, kind=Club.ASSOCIATION)
        members = Club.objects.bulk_create(
            Club(name=f"{name} club {i + 1}", association=association) for i in range(clubs)
        )
        # Rows made in bulk are given their persons here (``Player.save`` is not called).
        persons = Person.objects.bulk_create(
            Person(name=f"Player {i + 1}", federation_id=f"S{i + 1}") for i in range(players)
        )
        people = Player.objects.bulk_create(
            Player(
                club=members[i % clubs],
                number=i // clubs + 1,
                name=f"Player {i + 1}",
                federation_id=f"S{i + 1}",
                person=persons[i],
            )
            for i in range(players)
        )
        first_year = 2020
        Licence.objects.bulk_create(
            Licence(
                organiser=association,
                number=p.federation_id,
                name=p.name,
                granted_on=datetime.date(first_year, 1, 1)
                + datetime.timedelta(days=rng.randrange(365 * seasons)),
                player=p,
            )
            for p in people
        )
    made = []
    for season in range(seasons):
        year = first_year + season
        league = leagues.league_create(
            organiser=association,
            name=f"{name} league",
            game="baska",
            season=str(year),
            licences_required=True,
        )
        rostered = rng.sample(people, min(len(people), teams * 5))
        for t in range(teams):
            team = leagues.team_create(league=league, name=f"Team {t + 1}")
            RosterMember.objects.bulk_create(
                RosterMember(team=team, league=league, player=p)
                for p in rostered[t * 5 : t * 5 + 5]
            )
        for e in range(events):
            host = members[rng.randrange(clubs)]
            day = datetime.date(year, 1, 1) + datetime.timedelta(days=e * 365 // events)
            tournament = tournament_create(
                name=f"GP {year} {e + 1}", game="baska", profile_version=version, club=host
            )
            tournament.date = day
            tournament.save(update_fields=["date"])
            entrants = rng.sample(people, min(field, len(people)))
            Registration.objects.bulk_create(
                Registration(tournament=tournament, player=p, number=n, checked_in=True)
                for n, p in enumerate(entrants, 1)
            )
            standings_write(tournament=tournament, rows=_standings(rng, len(entrants)))
            LeagueEvent.objects.create(league=league, tournament=tournament)
        leagues.league_recompute(league=league)
        made.append(league)
    return {"association": association, "leagues": made}


def _standings(rng: random.Random, n: int) -> list[GivenRow]:
    """Five rounds' worth of big points (0-25) and small points, ranked; ties share."""
    scored = sorted(
        ((rng.randrange(26), rng.randrange(-200, 201), number) for number in range(1, n + 1)),
        key=lambda s: (-s[0], -s[1], s[2]),
    )
    rows, place = [], 0
    for i, (big, small, number) in enumerate(scored):
        if i == 0 or (big, small) != scored[i - 1][:2]:
            place = i + 1
        rows.append(GivenRow(number, place, big, small, firsts=int(place == 1)))
    return rows
