"""Clubs and players, shared by scoring and tournaments.

Vocabulary: a **club** keeps a register of **players**; each player has a
stable **club number** that never changes or gets reused, so paper score pads
and seating tables can name players by number. A register row is a **player**; the
human being behind it is a **person**: one person may stand in several clubs'
registers (or twice in one), linked by the federation id (licence number) the
federation issued, or by a director's merge (``clubs.services.player_merge``, never
silently). Ratings, league tables and player pages follow the person.

The tables keep the names they had in the tournaments app (``db_table``), so
moving the models here changed no row.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, models, transaction
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
    # Whether the public (the site's pages and the read API) may see its players'
    # federation ids (licence numbers): off unless the club says so.
    publishes_federation_ids = models.BooleanField(
        _("federation ids are public"), default=False, db_default=False
    )

    class Meta:
        db_table = "tournaments_club"
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Person(models.Model):
    """One human being, whichever registers they stand in (``Player.person``). Holds the
    federation id (licence number) that links register rows: a new row with that id
    joins this person (``Player.save``); an edited row never does by itself."""

    name = models.CharField(_("name"), max_length=120)
    federation_id = models.CharField(_("federation id"), max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("persons")
        constraints = [
            models.UniqueConstraint(
                fields=["federation_id"],
                condition=~models.Q(federation_id=""),
                name="person_federation_id_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name


def person_for(*, name: str, federation_id: str) -> Person:
    """The person a new register row stands for: the one holding ``federation_id``, else
    a new one (holding it). Called inside the row's transaction: the person found is
    locked until the row is written, so a merge taking it away finishes first (and its
    licence is then found on the person it went to). Two rows made at once with one new
    id meet at the unique constraint: the second then takes the first's person."""
    federation_id = federation_id.strip()
    if not federation_id:
        return Person.objects.create(name=name)
    held = Person.objects.select_for_update().filter(federation_id=federation_id).first()
    if held is not None:
        return held
    try:
        with transaction.atomic():
            return Person.objects.create(name=name, federation_id=federation_id)
    except IntegrityError:
        return Person.objects.select_for_update().get(federation_id=federation_id)


class Player(models.Model):
    """A club's register row: who a club knows by a number (``person``: who it is)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    person = models.ForeignKey(
        Person, on_delete=models.PROTECT, related_name="players", verbose_name=_("person")
    )
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

    @transaction.atomic
    def save(self, *args: Any, **kwargs: Any) -> None:
        # A new row stands for the person holding its federation id, else a new person;
        # an existing row keeps its person whatever its federation id becomes (a link to
        # another person is a director's merge).
        fields = kwargs.get("update_fields")
        if self.person_id is None:
            self.person = person_for(name=self.name, federation_id=self.federation_id)
        elif self.federation_id.strip() and (fields is None or "federation_id" in fields):
            # A licence written on a row whose person holds none becomes the person's,
            # unless another person holds it (then only a merge links them).
            try:
                with transaction.atomic():
                    Person.objects.filter(pk=self.person_id, federation_id="").update(
                        federation_id=self.federation_id.strip()
                    )
            except IntegrityError:
                pass  # held by another person: the register row stays with its own
        super().save(*args, **kwargs)


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


class ApiToken(models.Model):
    """A key to the read API (``api``) for one account: it reads what that account may
    read on the site (a director's hidden standings of their own clubs). Only the
    SHA-256 ``digest`` of the secret is kept: the secret is shown once, when made
    (``clubs.services.api_token_create``); ``prefix`` (its first characters) lets its
    owner tell tokens apart. Revoking deletes the row."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    label = models.CharField(_("label"), max_length=80)
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "-created_at", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.user_id} {self.prefix}…"
