"""Clubs and players, shared by scoring and tournaments.

Vocabulary: a **club** keeps a register of **players**; each player has a
stable **club number** that never changes or gets reused, so paper score pads
and seating tables can name players by number.

The tables keep the names they had in the tournaments app (``db_table``), so
moving the models here changed no row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    """A club, or an association of clubs (``kind``): each owns its register, table
    sessions, tournaments, custom rule profiles, series and leagues, managed by its own
    directors (``Membership``). A club may belong to an association (``association``),
    whose leagues its tournaments may be events of."""

    CLUB, ASSOCIATION = "club", "association"
    KINDS = [(CLUB, _("club")), (ASSOCIATION, _("association of clubs"))]

    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    kind = models.CharField(_("kind"), max_length=12, choices=KINDS, default=CLUB, db_default=CLUB)
    association = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="member_clubs",
        limit_choices_to={"kind": "association"},
        verbose_name=_("association"),
    )

    class Meta:
        db_table = "tournaments_club"
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    number = models.PositiveIntegerField(_("club number"))
    name = models.CharField(_("name"), max_length=120)
    federation_id = models.CharField(_("federation id"), max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_player"
        ordering = ["club", "number"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["club", "number"], name="player_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.number})"


class Membership(models.Model):
    """A user's role in one club: ``director`` (manages the club's things and its
    members' roles) or ``scorer`` (enters deals at the club's tables given to them).
    One user may hold roles in several clubs. Site administrators (superusers) need none.
    Granted and revoked through ``clubs.services`` (each a ``ClubRecord``)."""

    DIRECTOR, SCORER = "director", "scorer"
    ROLES = [(DIRECTOR, _("director")), (SCORER, _("scorer"))]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=ROLES)
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "role", "user"]
        verbose_name = _("role in a club")
        verbose_name_plural = _("roles in clubs")
        constraints = [
            models.UniqueConstraint(fields=["user", "club", "role"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} @ {self.club_id}"


class ClubRecord(models.Model):
    """What was done to a club's people: a role granted or revoked, two register rows
    merged, a licence list imported. Kept for the club's directors to read."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="records")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=24)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("club record")
        verbose_name_plural = _("club records")

    def __str__(self) -> str:
        return f"{self.club_id} {self.action}"
