"""factory_boy factories for rows, shared by the Django tiers.

A row with invariants of its own is made by the service that keeps them, never by
``objects.create``: a tournament by ``tournament_create`` (its slug, its profile's game),
its entries by ``registration_add`` (start numbers, late arrivals), a round and its tables
by ``round_generate`` (the seating stored with its seed), a table session by
``session_create`` (four seats, a fresh tally) and deals by the write path
(``deal_record``, ``deals_record``: the tally, the history, the announcement). Each
factory's ``_create`` calls that service with the factory's fields as its arguments, so
``TournamentFactory(game="vint", rounds=1)`` reads like the call it makes.

A rule profile is named by its built-in slug (``profile="kop-pagat"``); without one, the
game's default (``DEFAULT_PROFILE``, what a new table or tournament starts from).

Rated play (``play_round``, ``play_rounds_then_rate``) seats rounds, enters random deals
and accepts the tables through the same services, then runs the ratings as the site
would; ``ratings_snapshot`` is what a test compares one ratings run with another by.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, Player
from scoring import profile_services
from scoring import services as scoring_services
from scoring.engines.simulate import random_kop_deals
from scoring.games.kop.models import KopDeal
from scoring.games.vint.models import VintDeal
from scoring.models import RuleProfile, RuleProfileVersion, TableSession
from tournaments import ratings
from tournaments import services as tournament_services
from tournaments.models import (
    RatingEvent,
    RatingSource,
    RatingState,
    Registration,
    Round,
    RoundTable,
    Tournament,
)

# The built-in profile a game's tables and tournaments start from (the forms' default).
DEFAULT_PROFILE = {"kop": "kop-koscian", "baska": "baska", "vint": "vint"}
# Whoever enters a factory's deals: a director (writes at any table, even a locked one).
DEAL_ACTOR = scoring_services.Actor(label="scorer", is_director=True)
# kop.md E12 (cicha by seat 1 wins: +12 -4 -4 -4) and E16 (zolo by seat 3 wins: -5 -5 +15 -5)
CICHA_1 = {"contract": "cicha", "declarers": [1], "doublings": 0, "declarer_points": 61}
ZOLO_3 = {"contract": "zolo", "declarers": [3], "doublings": 0, "declarer_points": 70}
# vint.md §6.2, rubber 1's first deal: 4H by N, ten tricks, NS five honours.
VINT_FACTS = {
    "contract": "4H",
    "declarer": "N",
    "doubling": 0,
    "declarer_tricks": 10,
    "honours": {"side": "NS", "count": 5},
}


def builtin_version(slug: str) -> RuleProfileVersion:
    """The current version of the built-in profile ``slug`` (the built-ins synced first
    when a flushed database lost them: a ``transaction=True`` test's)."""
    profile = RuleProfile.objects.filter(slug=slug).first()
    if profile is None:
        profile_services.profile_sync_builtin()
        profile = RuleProfile.objects.get(slug=slug)
    return profile.current


def _version(o: Any) -> RuleProfileVersion:
    return builtin_version(o.profile or DEFAULT_PROFILE[o.game])


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")

    @factory.post_generation
    def password(self, create, extracted, **kwargs):
        self.set_password(extracted or "pw-secret-123")
        if create:
            self.save(update_fields=["password"])


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.Sequence(lambda n: f"Player {n} Surname{n}")


def club_players(names: Sequence[str] = (), *, club: Club | None = None) -> list[Player]:
    """Four new players of one club (``club``, else a new one), named ``names`` if given."""
    club = club or ClubFactory()
    if names:
        return [PlayerFactory(club=club, name=name) for name in names]
    return PlayerFactory.create_batch(4, club=club)


class RuleProfileFactory(factory.django.DjangoModelFactory):
    """A club's own profile (no version yet: ``RuleProfileVersionFactory`` makes one)."""

    class Meta:
        model = RuleProfile

    slug = factory.Sequence(lambda n: f"house-{n}")
    name = factory.Sequence(lambda n: f"House rules {n}")
    game = "kop"


class RuleProfileVersionFactory(factory.django.DjangoModelFactory):
    """The next version of a profile (of a new one by default) with these ``options``:
    stored as given, so a test may store what the editor would refuse."""

    class Meta:
        model = RuleProfileVersion

    profile = factory.SubFactory(RuleProfileFactory)
    version = factory.LazyAttribute(lambda o: o.profile.versions.count() + 1)
    options = factory.Dict({})
    tournament = factory.Dict({})


class TournamentFactory(factory.django.DjangoModelFactory):
    """A tournament through ``tournament_create`` (its arguments are the fields);
    ``field=16`` or ``field=["Anna", ...]`` (or players) registers and checks in that
    field, start numbers in that order, new players of the tournament's club."""

    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    class Params:
        profile = None  # a built-in profile's slug; default: the game's

    name = factory.Sequence(lambda n: f"Cup {n}")
    game = "kop"
    profile_version = factory.LazyAttribute(_version)
    rounds = 5
    deals_per_round = 32
    # Every tournament is a club's (issue 26): the first club, as the migration to clubs
    # gave one to every tournament of a one-club installation (a new club if none).
    club = factory.LazyFunction(lambda: Club.objects.order_by("pk").first() or ClubFactory())
    seed = 7
    hide_standings = False
    round_minutes = None
    created_by = None

    @classmethod
    def _create(cls, model_class: type[Tournament], *args: Any, **kwargs: Any) -> Tournament:
        return tournament_services.tournament_create(**kwargs)

    @factory.post_generation
    def field(self, create, extracted, **kwargs):
        if extracted:
            register_field(self, extracted)


def register_field(
    tournament: Tournament, field: int | Iterable[str | Player]
) -> list[Registration]:
    """``field`` (a number of new players, their names, or players) registered and
    checked in at ``tournament``; new players are of its club (else a new one)."""
    club = tournament.club or ClubFactory()
    if isinstance(field, int):
        field = [PlayerFactory(club=club) for _ in range(field)]
    return [
        RegistrationFactory(
            tournament=tournament,
            player=p if isinstance(p, Player) else PlayerFactory(club=club, name=p),
        )
        for p in field
    ]


class RegistrationFactory(factory.django.DjangoModelFactory):
    """An entry through ``registration_add``, checked in (``checked_in=False``: not)."""

    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(
        PlayerFactory,
        club=factory.LazyAttribute(lambda p: p.factory_parent.tournament.club or ClubFactory()),
    )
    checked_in = True

    @classmethod
    def _create(cls, model_class: type[Registration], *args: Any, **kwargs: Any) -> Registration:
        checked_in = kwargs.pop("checked_in")
        entry = tournament_services.registration_add(**kwargs)
        if checked_in:
            tournament_services.registration_check_in(registration=entry)
        return entry


class RoundFactory(factory.django.DjangoModelFactory):
    """The tournament's next round, seated by ``round_generate`` (a new tournament by
    default; a tournament with nobody registered gets ``field`` checked in first, four
    new players by default: one table)."""

    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    field = 4
    order = None

    @classmethod
    def _create(cls, model_class: type[Round], *args: Any, **kwargs: Any) -> Round:
        tournament, field, order = kwargs["tournament"], kwargs["field"], kwargs["order"]
        if not tournament.entries.exists():
            register_field(tournament, field)
        return tournament_services.round_generate(tournament=tournament, order=order)


class RoundTableFactory(factory.django.DjangoModelFactory):
    """Table ``number`` (1) of a round seated by ``RoundFactory`` (a new one by default:
    round 1 of a new tournament of four), with its session."""

    class Meta:
        model = RoundTable

    round = factory.SubFactory(RoundFactory)
    number = 1

    @classmethod
    def _create(cls, model_class: type[RoundTable], *args: Any, **kwargs: Any) -> RoundTable:
        return kwargs["round"].tables.select_related("session").get(number=kwargs["number"])


class TableSessionFactory(factory.django.DjangoModelFactory):
    """A table session through ``session_create`` (its arguments are the fields): four
    new players of one club by default, on the game's default built-in profile."""

    class Meta:
        model = TableSession

    class Params:
        profile = None  # a built-in profile's slug; default: the game's

    game = "kop"
    profile_version = factory.LazyAttribute(_version)
    players = factory.LazyFunction(club_players)
    title = ""
    created_by = None
    planned_deals = None

    @classmethod
    def _create(cls, model_class: type[TableSession], *args: Any, **kwargs: Any) -> TableSession:
        return scoring_services.session_create(**kwargs)


class _DealFactory(factory.django.DjangoModelFactory):
    """A deal through the write path (``deal_record``): ``facts`` as a pad sends them,
    entered by ``actor`` (a director by default), warnings confirmed unless
    ``confirm_warnings=False``; ``extra`` as the pad's (a Vint deal's ``rubber``)."""

    class Meta:
        abstract = True

    actor = DEAL_ACTOR
    confirm_warnings = True
    extra = None

    @classmethod
    def _create(cls, model_class: type[Any], *args: Any, **kwargs: Any) -> Any:
        return scoring_services.deal_record(**kwargs).row


class KopDealFactory(_DealFactory):
    """A Kop (or Baśka) deal: ``CICHA_1`` unless ``facts`` say otherwise."""

    class Meta:
        model = KopDeal

    session = factory.SubFactory(TableSessionFactory, game="kop")
    facts = factory.LazyFunction(lambda: dict(CICHA_1))


class VintDealFactory(_DealFactory):
    """A Vint deal: vint.md §6.2's first unless ``facts`` say otherwise."""

    class Meta:
        model = VintDeal

    session = factory.SubFactory(TableSessionFactory, game="vint")
    facts = factory.LazyFunction(lambda: dict(VINT_FACTS))


def record_deals(*, session: TableSession, facts: Iterable[dict[str, Any]], actor=DEAL_ACTOR):
    """Many deals entered at once, as played (``deals_record``: all or nothing, warnings
    confirmed): the deal rows."""
    return scoring_services.deals_record(session=session, deals=list(facts), actor=actor)


def record_kop_deals(*, session, deals, entered_by="scorer"):
    """Engine deals (``scoring.engines.kop.KopDeal``, e.g. ``random_kop_deals``) entered at
    a Kop or Baśka table at once, through the write path (``deals_record``)."""
    from scoring.games.kop.deals import facts_from_deal

    return scoring_services.deals_record(
        session=session,
        deals=[facts_from_deal(deal) for deal in deals],
        actor=scoring_services.Actor(label=entered_by, is_director=True),
    )


# ------------------------------------------------------------------ rated play

# The task an acceptance enqueues for its tournament's ratings (``ops.outbox.PendingTask``).
RATINGS_TASK = "tournaments.tasks.ratings_update"
# Whoever enters the deals of rated play (the label of their history rows).
PLAY_ACTOR = scoring_services.Actor(label="test", is_director=True)


def rating_callbacks(callbacks: Iterable[Any]) -> list[Any]:
    """The on-commit callbacks that enqueue the ratings task (others, e.g. standings, not)."""
    return [cb for cb in callbacks if getattr(cb, "task", None) == RATINGS_TASK]


def _director_accepts() -> scoring_services.Actor:
    from tests.actors import DIRECTOR_ACCEPTS  # tests.actors imports this module

    return DIRECTOR_ACCEPTS


def amend_accepted(
    *, session: TableSession, change: Callable[[], Any], reason: str = "a correction"
) -> Any:
    """A director's change at an accepted table, as the app allows it (issue 25: a locked
    table is locked for everyone): unlock it with a reason, ``change()``, accept it again
    (a tournament's table from its round, a club session as one). ``change``'s value."""
    from scoring.acceptance import session_accept

    director = _director_accepts()
    scoring_services.session_unlock(session=session, actor=director, reason=reason)
    done = change()
    table = RoundTable.objects.filter(session=session).first()
    if table is not None:
        tournament_services.round_table_accept(table=table, actor=director, reason=reason)
    else:
        session_accept(session=session, actor=director, reason=reason)
    return done


def play_round(
    tournament: Tournament, rng: random.Random, capture: Callable[[], Any], deals: int = 4
) -> Round:
    """Seat a round, record ``deals`` random deals at each table, accept each table and
    run the ratings task that each acceptance enqueued (only that one: standings have
    their own tests). ``capture`` is pytest-django's ``django_capture_on_commit_callbacks``
    (a test's transaction never commits)."""
    rnd = tournament_services.round_generate(tournament=tournament)
    # The round plays ``deals`` deals (a table takes no deal beyond its planned ones).
    TableSession.objects.filter(round_table__round=rnd).update(planned_deals=deals)
    for table in rnd.tables.select_related("session").order_by("number"):
        record_kop_deals(
            session=table.session,
            deals=random_kop_deals(rng, deals),
            entered_by=PLAY_ACTOR.label,
        )
    for table in rnd.tables.order_by("number"):
        with capture() as callbacks:
            tournament_services.round_table_accept(
                table=table, actor=_director_accepts(), reason="on paper"
            )
        for cb in rating_callbacks(callbacks):
            cb()
    return rnd


def play_rounds_then_rate(
    tournament: Tournament, rounds: int, deals: int = 4, seed: int = 1
) -> None:
    """``rounds`` rounds seated, ``deals`` random deals at each table (``seed``), each
    round accepted at once; then one ratings update of Kop (not the tasks the acceptances
    enqueued: ``play_round`` runs those)."""
    rng = random.Random(seed)
    for _ in range(rounds):
        rnd = tournament_services.round_generate(tournament=tournament)
        for table in rnd.tables.select_related("session"):
            record_kop_deals(
                session=table.session,
                deals=random_kop_deals(rng, deals),
                entered_by=PLAY_ACTOR.label,
            )
        tournament_services.round_accept_all(rnd=rnd, actor=_director_accepts(), reason="on paper")
    ratings.ratings_update(game="kop")


def ratings_snapshot(game: str = "kop") -> tuple[list, list, list]:
    """A game's ratings as stored: the states, the events and the sources (sorted), to
    compare an incremental update with a rebuild, float for float."""
    states = sorted(
        RatingState.objects.filter(game=game).values_list(
            "person_id", "mu", "sigma", "games", "tables", "last_event__source__session_id"
        )
    )
    events = sorted(
        RatingEvent.objects.filter(game=game).values_list(
            "source__session_id",
            "person_id",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "games",
            "at",
        )
    )
    sources = list(
        RatingSource.objects.filter(game=game)
        .order_by("at", "session_id")
        .values_list("session_id", "table_id", "at", "revision")
    )
    return states, events, sources


#: The rule profile editor's tournament fields as the editor first shows them (5/3/1/0, Kościan's).
KOSCIAN = {
    "big_points_1": "5",
    "big_points_2": "3",
    "big_points_3": "1",
    "big_points_4": "0",
    "tie_break_1": "small_points",
    "tie_break_2": "round_wins",
    "tie_break_3": "second_places",
    "tie_break_4": "third_places",
}
