"""Tournaments, rounds, standings, ratings and series.

Clubs and players live in the ``clubs`` app (``clubs/models.py``); the worker heartbeat
and the task outbox in ``ops`` (``ops/models.py``).
"""

from __future__ import annotations

import json
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.games import game_choices
from tournaments.bulk import json_text


class Tournament(models.Model):
    """A tournament: rounds of table sessions, seated by the seating generator.

    ``results_version`` counts accepted results and corrections; a standings
    snapshot records the version it was computed from, so the page can say
    whether a newer one is on its way.
    """

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(unique=True)
    game = models.CharField(_("game"), max_length=10, choices=game_choices)
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.SET_NULL)
    profile_version = models.ForeignKey(
        "scoring.RuleProfileVersion", on_delete=models.PROTECT, related_name="+"
    )
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"), default=5)
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"), default=32)
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), null=True, blank=True)
    seed = models.BigIntegerField(default=0)
    hide_standings = models.BooleanField(_("hide standings until the last round"), default=False)
    results_version = models.PositiveIntegerField(default=0)
    # An imported seating table (the club's own): rounds of tables of start numbers.
    seating_plan = models.JSONField(null=True, blank=True)
    # The competition options of ``shared/rules/competitions.md`` §10 that the rule
    # profile does not hold (big points and tie-breaks are the profile's): bye_score,
    # walkout_score, classes, team_size_min, team_size_max, team_counting, as the event
    # file writes them (``tournaments.ranking.competition.kop_options``); {}: the defaults.
    competition = models.JSONField(default=dict, blank=True)
    # The day it was played, when known (an imported event file's ``date``; leagues
    # compare it with licence dates).
    date = models.DateField(_("date"), null=True, blank=True)
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A player entered in a tournament under a start number that never changes."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField(_("start number"))
    checked_in = models.BooleanField(_("checked in"), default=False)
    first_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_after = models.PositiveSmallIntegerField(null=True, blank=True)
    pair = models.CharField(_("pair"), max_length=80, blank=True)
    team = models.CharField(_("team"), max_length=80, blank=True)
    # Codes of the tournament's classes (``Tournament.competition["classes"]``).
    classes = models.JSONField(default=list, blank=True)
    # Since when the player's licence (``Player.federation_id``) holds, as an imported
    # event file gave it (``licence.since``); leagues read it.
    licence_since = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player.name}"

    def plays_in(self, round_number: int) -> bool:
        if round_number < self.first_round:
            return False
        return self.withdrawn_after is None or round_number <= self.withdrawn_after


class Round(models.Model):
    """One round; its seating is stored with the seed, algorithm and inputs that made it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=12, default="generated")  # or "imported"
    seed = models.BigIntegerField(default=0)
    algorithm = models.CharField(max_length=80, blank=True)
    inputs = models.JSONField(default=dict)
    byes = models.JSONField(default=list)  # start numbers sitting out
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class RoundTable(models.Model):
    """A table of a round: its table session (private link) and whether it is accepted.

    Who accepted is kept as ids: the seat (and its player) of the phone that accepted,
    or the director's account when a director accepted for the table (with a reason, in
    the session's history). ``reopened_at``: a director unlocked the table after it was
    accepted, so it has to be accepted again.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    session = models.OneToOneField(
        "scoring.TableSession", on_delete=models.PROTECT, related_name="round_table"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    accepted_player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    accepted_user = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reopened_at = models.DateTimeField(null=True, blank=True)
    # A walkout (competitions.md §2.3): the seat that left and how many deals were played
    # before; the three who stay get the walkout score, the deals score nothing.
    walkout_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    walkout_after = models.PositiveSmallIntegerField(null=True, blank=True)
    # A short table (§2.4): the seat whose player never came; the three get the walkout
    # score, he is absent for the round.
    missing_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # A paper result instead of deals (an imported event file's table): Kop and Baśka
    # {"small_points": [four, by seat]}, Vint {"totals": [...], "rubbers_won": [...]};
    # the session then has no deals. None: the result is the session's deals.
    paper = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="round_table_unique")
        ]
        indexes = [
            # The tables still to accept: every standings page asks whether its
            # tournament has one, and finding none reads nothing however many it has.
            models.Index(
                fields=["round"],
                condition=models.Q(accepted_at__isnull=True),
                name="round_table_open",
            )
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class TournamentAction(models.Model):
    """The tournament's history of its director's mends: who (an account, by id), when,
    what (``action``), why, and the rows it touched by ids and start numbers
    (``details``), written in the same transaction as the change. The tournament page
    tells it in plain words (``tournaments.selectors.tournament_history``)."""

    ACTIONS = [
        ("edited", _("edited")),
        ("withdrawn", _("withdrawn")),
        ("reinstated", _("reinstated")),
        ("reseated", _("re-seated")),
        ("swapped", _("swapped")),
        ("substituted", _("substituted")),
        ("competition", _("competition options changed")),
        ("walkout", _("walkout recorded")),
        ("short", _("short table recorded")),
        ("table_normal", _("table played in full again")),
        ("adjusted", _("points adjusted")),
        ("unadjusted", _("adjustment removed")),
        ("classes", _("classes changed")),
        ("imported", _("imported from an event file")),
    ]
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="actions")
    user = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=12, choices=ACTIONS)
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "-at", "-id"]

    def __str__(self) -> str:
        return f"{self.tournament} {self.action} at {self.at}"


class Adjustment(models.Model):
    """A director's penalty or award to one player (competitions.md §5): big and small
    points (Kop, Baśka) or a net (Vint), whole numbers or exact halves, about a round or
    the whole event, always with a reason, shown under the standings. It changes the
    totals, never a place at a table."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="adjustments")
    entry = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="adjustments")
    round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    big = models.DecimalField(_("big points"), max_digits=7, decimal_places=1, default=0)
    small = models.DecimalField(_("small points"), max_digits=9, decimal_places=1, default=0)
    net = models.DecimalField(_("net"), max_digits=9, decimal_places=1, default=0)
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.entry} {self.big}/{self.small}/{self.net}: {self.reason}"


class WrittenJSONField(models.JSONField):
    """JSON stored as written: PostgreSQL's ``json`` (the text, checked) rather than
    ``jsonb`` (parsed into a binary tree on every write). For a document written once
    and always read whole, never searched inside: a 4,000-player standings snapshot
    (2.4 MB) is stored in half the time. Elsewhere (SQLite) a plain ``JSONField``."""

    def db_type(self, connection: Any) -> str | None:
        return "json" if connection.vendor == "postgresql" else super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        if self.encoder is None:  # a string: PostgreSQL casts it to json
            return json_text(value)
        return json.dumps(value, cls=self.encoder)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if not isinstance(value, str):  # psycopg decodes a json column itself
            return value
        return super().from_db_value(value, expression, connection)


class StandingsSnapshot(models.Model):
    """Standings as computed by the Celery task; the newest is served."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="snapshots")
    results_version = models.PositiveIntegerField()
    computed_at = models.DateTimeField(auto_now_add=True)
    data = WrittenJSONField()

    class Meta:
        ordering = ["tournament", "-results_version"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "results_version"], name="snapshot_version_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} standings v{self.results_version}"


class StandingsRow(models.Model):
    """One row of a snapshot's standings (individual, pairs or teams), written with the
    snapshot in one bulk insert: a standings page reads one page of rows (and finds a
    player by folded name or start number) instead of decoding the whole snapshot."""

    snapshot = models.ForeignKey(StandingsSnapshot, on_delete=models.CASCADE, related_name="rows")
    kind = models.CharField(max_length=12)  # "individual", "pairs" or "teams"
    position = models.PositiveIntegerField()  # 0-based, in the snapshot's order (by place)
    number = models.PositiveIntegerField(null=True)  # the start number (individual rows)
    folded = models.CharField(max_length=300)  # clubs.selectors.fold_name of the name
    data = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["snapshot", "kind", "position"], name="standings_row_position_unique"
            )
        ]
        indexes = [models.Index(fields=["snapshot", "kind", "number"], name="standings_row_number")]

    def __str__(self) -> str:
        return f"{self.snapshot} {self.kind} {self.position}"


# ------------------------------------------------------------------------------- ratings
#
# Club ratings per game (tournaments/ranking/ratings.py has the vocabulary). A rated
# **source** is one accepted tournament table or club evening; its **events** are each
# player's change over it; a player's **state** is their rating after their latest event.
# Sources are rated in the order (acceptance time, session id), so rating the new ones
# from the stored states gives what a full rebuild gives (tournaments/ratings/update.py).


class RatingRun(models.Model):
    """Per game: when its ratings were last computed, and by which model (also the lock
    row that keeps two updates of one game from interleaving)."""

    game = models.CharField(_("game"), max_length=10, choices=game_choices, unique=True)
    model = models.CharField(_("rating model"), max_length=12)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    kind = models.CharField(max_length=12, blank=True)  # "full" or "incremental"
    sources = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game"]

    def __str__(self) -> str:
        return f"{self.game} ratings ({self.model}) at {self.computed_at}"


class RatingSource(models.Model):
    """One rated table session (the cause of its players' changes): an accepted tournament
    table (``table`` set) or an accepted club evening's session (``table`` None), with the
    session's revision it was rated at, so a write after it was rated is noticed."""

    game = models.CharField(max_length=10, choices=game_choices)
    session = models.OneToOneField(
        "scoring.TableSession", on_delete=models.CASCADE, related_name="rating_source"
    )
    table = models.OneToOneField(
        RoundTable, null=True, blank=True, on_delete=models.CASCADE, related_name="rating"
    )
    at = models.DateTimeField()
    # ``TableSession.revision`` when rated (every write of its deals counts one): another
    # one now says it was written since. None: rated before revisions were kept (rated
    # again by the next update).
    revision = models.PositiveIntegerField(null=True)

    class Meta:
        ordering = ["game", "at", "session_id"]
        indexes = [models.Index(fields=["game", "at", "session"], name="rating_source_order")]

    def __str__(self) -> str:
        return f"{self.game} rating source {self.table}"


class RatingEvent(models.Model):
    """A person's rating before and after one source, and the games it counted. Ratings
    follow the person (``clubs.Person``), whichever register row sat at the table."""

    # No index of its own: the unique (source, person) below starts with it.
    source = models.ForeignKey(
        RatingSource, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    person = models.ForeignKey(
        "clubs.Person", on_delete=models.CASCADE, related_name="rating_events"
    )
    game = models.CharField(max_length=10, choices=game_choices)
    at = models.DateTimeField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["person", "game", "at", "source__session_id"]
        constraints = [
            models.UniqueConstraint(fields=["source", "person"], name="rating_event_unique")
        ]
        indexes = [models.Index(fields=["game", "person", "at"], name="rating_event_person")]

    def __str__(self) -> str:
        return f"{self.person} {self.game} {self.delta:+.2f}"

    @property
    def before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def after(self) -> float:
        return self.mu_after - 3 * self.sigma_after

    @property
    def delta(self) -> float:
        return self.after - self.before


class RatingState(models.Model):
    """A person's current rating in one game (after their latest event)."""

    # No index of its own: the unique (person, game) below starts with it.
    person = models.ForeignKey(
        "clubs.Person", on_delete=models.CASCADE, related_name="ratings", db_index=False
    )
    game = models.CharField(_("game"), max_length=10, choices=game_choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(_("games"), default=0)
    tables = models.PositiveIntegerField(_("tables"), default=0)
    last_event = models.ForeignKey(
        RatingEvent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["game", "person"]
        constraints = [
            models.UniqueConstraint(fields=["person", "game"], name="rating_state_unique")
        ]

    def __str__(self) -> str:
        return f"{self.person} {self.game} {self.display:.2f}"

    @property
    def display(self) -> float:
        return self.mu - 3 * self.sigma


# -------------------------------------------------------------------------------- series


class Series(models.Model):
    """A Grand Prix: several tournaments of one game, placings summed by a points table."""

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(unique=True)
    game = models.CharField(_("game"), max_length=10, choices=game_choices)
    points_table = models.JSONField(_("points for 1st, 2nd, ..."), default=list)
    min_tournaments = models.PositiveSmallIntegerField(_("minimum tournaments"), default=1)
    drop_worst = models.BooleanField(_("drop each player's worst result"), default=False)
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    tournaments = models.ManyToManyField(
        Tournament, through="SeriesTournament", related_name="series", blank=True
    )
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name


class SeriesTournament(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="legs")
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["series", "tournament__created_at", "tournament_id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_leg_unique")
        ]

    def __str__(self) -> str:
        return f"{self.series}: {self.tournament}"


# ------------------------------------------------------------------------------- leagues
#
# A league (competitions.md §8, tournaments/ranking/league.py has the vocabulary): a
# season of events (tournaments) of one game, organised by a club or an association,
# whose directors manage it. Its tables after each event are precomputed
# (``LeagueTable``/``LeagueRow``, ``tournaments.services.leagues.league_recompute``) from
# the events' stored standings rows, so a league page reads rows as a standings page does.


class League(models.Model):
    SUM, PLACEMENT = "sum", "placement"
    COUNTINGS = [
        (SUM, _("big points (sum)")),
        (PLACEMENT, _("points by place (Grand Prix)")),
    ]

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(unique=True)
    game = models.CharField(_("game"), max_length=10, choices=game_choices)
    organiser = models.ForeignKey(
        "clubs.Club", on_delete=models.PROTECT, related_name="leagues", verbose_name=_("organiser")
    )
    season = models.CharField(_("season"), max_length=20)
    counting = models.CharField(_("counting"), max_length=10, choices=COUNTINGS, default=SUM)
    points_table = models.JSONField(_("points for 1st, 2nd, ..."), default=list, blank=True)
    licences_required = models.BooleanField(_("licences required"), default=False)
    team_size_min = models.PositiveSmallIntegerField(_("fewest regular players"), default=4)
    team_size_max = models.PositiveSmallIntegerField(_("most regular players"), default=5)
    team_counting = models.PositiveSmallIntegerField(_("best results that count"), default=4)
    computed_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-season", "name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return f"{self.name} {self.season}"


class LeagueEvent(models.Model):
    """A tournament counted in a league (an event of its season)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="events")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="league_events"
    )

    class Meta:
        ordering = ["league", "tournament__date", "tournament__created_at", "tournament_id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "tournament"], name="league_event_unique")
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.tournament}"


class Licence(models.Model):
    """A player's licence, issued by a club or an association (``organiser``) on a day.
    It belongs to a register row (``player``) once linked: by the row's federation id
    equal to the licence number, or by a director."""

    organiser = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="licences")
    number = models.CharField(_("licence number"), max_length=40)
    name = models.CharField(_("name"), max_length=120)
    granted_on = models.DateField(_("granted on"))
    player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="licences"
    )

    class Meta:
        ordering = ["organiser", "number"]
        verbose_name = _("licence")
        verbose_name_plural = _("licences")
        constraints = [
            models.UniqueConstraint(fields=["organiser", "number"], name="licence_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


class LeagueTeam(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team"), max_length=80)

    class Meta:
        ordering = ["league", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="league_team_name_unique")
        ]

    def __str__(self) -> str:
        return self.name


class RosterMember(models.Model):
    """A regular player of a league team. ``league`` repeats the team's, so the database
    itself keeps a player on at most one team of a league."""

    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="members")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["team", "player"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="roster_player_unique")
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.player_id}"


class LineUp(models.Model):
    """A player of a team's line-up at one league event; ``substitute``: not on the
    team's roster (at most one a line-up, never one on another team's roster)."""

    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="lineups")
    event = models.ForeignKey(LeagueEvent, on_delete=models.CASCADE, related_name="lineups")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    substitute = models.BooleanField(default=False)

    class Meta:
        ordering = ["event", "team", "player"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="lineup_player_unique")
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.team}: {self.player_id}"


class LeagueTable(models.Model):
    """A league's tables after its ``after_event``-th held event (1-based, in date
    order); the highest is the final (or current) one."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="tables")
    after_event = models.PositiveSmallIntegerField()
    event = models.ForeignKey(LeagueEvent, on_delete=models.CASCADE, related_name="+")
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["league", "after_event"]
        constraints = [
            models.UniqueConstraint(fields=["league", "after_event"], name="league_table_unique")
        ]

    def __str__(self) -> str:
        return f"{self.league} after {self.after_event}"


class LeagueRow(models.Model):
    """One player's (``kind`` "individual", ``who`` a player id) or team's ("team",
    ``who`` a team id) row of a league table: the season so far, and ``line``, his
    result at the table's own event (None when he was not there; a team's names the
    members who counted)."""

    table = models.ForeignKey(LeagueTable, on_delete=models.CASCADE, related_name="rows")
    kind = models.CharField(max_length=12)  # "individual" or "team"
    position = models.PositiveIntegerField()  # 0-based, in the table's order
    who = models.PositiveIntegerField()
    rank = models.PositiveIntegerField(null=True)  # None: not ranked (too few events)
    tied = models.BooleanField(default=False)
    # Exact totals as text ("7/2"): shared big points are thirds and twelfths.
    big_points = models.CharField(max_length=24)
    small_points = models.CharField(max_length=24)
    event_wins = models.PositiveIntegerField(default=0)
    events = models.PositiveIntegerField(default=0)
    line = models.JSONField(null=True)

    class Meta:
        ordering = ["table", "kind", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "kind", "position"], name="league_row_position_unique"
            )
        ]
        indexes = [models.Index(fields=["table", "kind", "who"], name="league_row_who")]

    def __str__(self) -> str:
        return f"{self.table} {self.kind} {self.position}"
