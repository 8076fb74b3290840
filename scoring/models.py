"""Table sessions and deals.

Vocabulary: a **table session** is what one physical table plays in one sitting
(a Kop round of 32 deals, a Vint session of three rubbers). It has a game, a
**rule profile version** (options frozen when the session starts), four
players in **seat** order, and its **deals**. A deal stores the facts the
scorer gave plus what the engine computed from them; corrections and voids
keep the old values in the **deal history**.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from importlib import import_module

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.actors import actor_words
from scoring.games import GAME_PACKAGES, game_choices
from scoring.profiles import builtin_description, builtin_name


def new_token() -> str:
    return secrets.token_urlsafe(16)


class RuleProfile(models.Model):
    """A named option set a director picks; editing it makes a new version."""

    slug = models.SlugField(unique=True)
    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=10, choices=game_choices)
    builtin = models.BooleanField(default=False)
    description = models.TextField(blank=True)
    # The club whose directors edit it; none for a built-in (shared by every club).
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["game", "name"]
        verbose_name = _("rule profile")
        verbose_name_plural = _("rule profiles")

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The name in the active language (a built-in's is translated by slug)."""
        return builtin_name(self.slug, self.name)

    @property
    def display_description(self) -> str:
        return builtin_description(self.slug, self.description)

    @property
    def current(self) -> RuleProfileVersion:
        return self.versions.order_by("-version").first()  # type: ignore[return-value]


class RuleProfileVersion(models.Model):
    """One frozen set of options. Sessions point here, so edits never rescore them."""

    profile = models.ForeignKey(RuleProfile, on_delete=models.PROTECT, related_name="versions")
    version = models.PositiveIntegerField()
    options = models.JSONField(default=dict)
    tournament = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["profile", "version"]
        constraints = [
            models.UniqueConstraint(fields=["profile", "version"], name="profile_version_unique")
        ]

    def __str__(self) -> str:
        return f"{self.profile.display_name} v{self.version}"


# A session without a title of its own is named, in the reader's language, by the app
# that made it (a tournament table: "Cup: round 2, table 4"); scoring never imports it.
_title_makers: list[Callable[[TableSession], str | None]] = []


def title_register(maker: Callable[[TableSession], str | None]) -> None:
    """Add ``maker(session) -> its display title or None`` (once), from an AppConfig.ready()."""
    if maker not in _title_makers:
        _title_makers.append(maker)


class TableSession(models.Model):
    game = models.CharField(_("game"), max_length=10, choices=game_choices)
    profile_version = models.ForeignKey(
        RuleProfileVersion, on_delete=models.PROTECT, related_name="sessions"
    )
    title = models.CharField(_("title"), max_length=160, blank=True)
    # The club whose directors manage it and whose scorers may be given it (a tournament
    # table's is its tournament's club); none only for a session no club owns, which site
    # administrators alone manage.
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    scorers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")
    entry_token = models.CharField(max_length=40, unique=True, default=new_token)
    planned_deals = models.PositiveIntegerField(null=True, blank=True)
    locked_at = models.DateTimeField(null=True, blank=True)
    locked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The running state a save scores its deal against (``scoring.games``: each game says
    # its shape, Kop ``KopTally``, Vint ``VintTally``), kept by every write under the
    # session's row lock, so a save reads one row instead of the session's deals.
    # {} is a session without deals.
    tally = models.JSONField(default=dict, blank=True, editable=False)
    # How many times a write changed the session's deals (with the tally, in the same
    # statement): a pad drawn at revision r that saves one deal finds r + 1 and may answer
    # with the new deal's row alone (``scoring.views``); anything else, the whole pad.
    revision = models.PositiveIntegerField(default=0, editable=False)
    # A club session (no tournament's table) accepted by a player at another seat, or a
    # director with a reason (``scoring.services.session_accept``): the club ratings rate
    # it unless a director left it out (``rating_excluded_at``, the reason in the history).
    # A tournament table's acceptance is kept on its ``RoundTable``.
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_excluded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("table session")
        verbose_name_plural = _("table sessions")

    def __str__(self) -> str:
        if self.title:
            return self.title
        for maker in _title_makers:
            if made := maker(self):
                return made
        return f"{self.get_game_display()} #{self.pk}"

    @property
    def locked(self) -> bool:
        return self.locked_at is not None


class TableSeat(models.Model):
    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["session", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seat"], name="seat_unique"),
            models.UniqueConstraint(fields=["session", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.session} seat {self.seat}: {self.player}"


DEAL_ACTIONS = ("created", "edited", "voided")


class DealHistory(models.Model):
    """The table's audit trail: who changed which deal, when, why, and the values before
    and after; and, with ``deal_number`` 0, what happened to the whole table (locked,
    unlocked, accepted, its link revoked and reissued).

    Who acted is kept as ids, never only as a name: ``user`` for a signed-in account,
    ``phone`` (a random id the browser got when it first opened a table link) and
    ``seat`` (the seat that phone said it sits at) for a phone with the table link.
    ``actor`` is only the label shown to people.
    """

    ACTIONS = [
        # Said after "Deal 3:" (the first three) or "Table:" (the others) in the history:
        # a language with genders says them to fit ("Stolik: zamknięty").
        ("created", _("entered")),
        ("edited", _("corrected")),
        ("voided", _("voided")),
        ("locked", _("locked")),
        ("unlocked", _("unlocked")),
        ("accepted", _("accepted")),
        ("excluded", _("left out of the ratings")),
        ("included", _("rated again")),
        ("reissued", _("link revoked and reissued")),
        ("planned", _("planned deals changed")),
    ]
    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="history")
    rubber = models.PositiveSmallIntegerField(default=0)  # Vint: the deal's rubber; Kop: 0
    deal_number = models.PositiveIntegerField()  # 0: the row is about the whole table
    action = models.CharField(max_length=10, choices=ACTIONS)
    actor = models.CharField(max_length=150)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    phone = models.CharField(max_length=40, blank=True, default="")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.TextField(blank=True)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)
    # The pad's form carries a key made when it was rendered: the same form sent twice
    # (double tap, browser back and resubmit) finds its "created" row and stores nothing.
    submission_key = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["session", "-at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "submission_key"],
                condition=~models.Q(submission_key=""),
                name="history_submission_unique",
            )
        ]

    def __str__(self) -> str:
        return f"{self.session} deal {self.deal_number} {self.action} by {self.actor}"

    def actor_words(self) -> str:
        """Who acted, in the reader's language (the stored label stays English)."""
        return actor_words(self.actor)


# Each game's own rows (its deals) live in its package; they are this app's models.
for _package in GAME_PACKAGES:
    import_module(f"{_package}.models")
