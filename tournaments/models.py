"""Clubs, players, and (later) tournaments.

Vocabulary: a **club** keeps a register of **players**; each player has a
stable **club number** that never changes or gets reused, so paper score pads
and seating tables can name players by number.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)

    class Meta:
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
        ordering = ["club", "number"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["club", "number"], name="player_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.number})"


class WorkerHeartbeat(models.Model):
    """Written by the ``heartbeat_record`` task: proof that a worker runs tasks.

    ``/health`` shows the newest one, so a director can tell whether standings
    will be recomputed (a stalled worker is otherwise invisible).
    """

    beat_at = models.DateTimeField()
    hostname = models.CharField(max_length=200)
    token = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["-beat_at"]
        get_latest_by = "beat_at"

    def __str__(self) -> str:
        return f"{self.hostname} at {self.beat_at:%Y-%m-%d %H:%M:%S}"
