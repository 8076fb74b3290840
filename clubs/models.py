"""Clubs and players, shared by scoring and tournaments.

Vocabulary: a **club** keeps a register of **players**; each player has a
stable **club number** that never changes or gets reused, so paper score pads
and seating tables can name players by number.

The tables keep the names they had in the tournaments app (``db_table``), so
moving the models here changed no row.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)

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
