"""Kop's and Baśka's deal rows (``scoring.models`` imports them: the app's models)."""

from __future__ import annotations

from django.db import models

from scoring.games.interface import Slot


class KopDeal(models.Model):
    """A Kop/Baśka deal: the facts given and the computed value and payments."""

    session = models.ForeignKey(
        "scoring.TableSession", on_delete=models.CASCADE, related_name="kop_deals"
    )
    number = models.PositiveIntegerField()
    # Facts
    contract = models.CharField(max_length=12)
    declarers = models.JSONField()
    doublings = models.PositiveSmallIntegerField(null=True, blank=True)
    doubling_seats = models.JSONField(null=True, blank=True)
    declarer_points = models.PositiveSmallIntegerField()
    warnings_confirmed = models.JSONField(default=list, blank=True)
    # Computed by scoring.engines.kop
    value = models.IntegerField()
    declarers_won = models.BooleanField()
    k = models.PositiveSmallIntegerField()
    payment_1 = models.IntegerField()
    payment_2 = models.IntegerField()
    payment_3 = models.IntegerField()
    payment_4 = models.IntegerField()
    voided = models.BooleanField(default=False)
    entered_by = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="kop_deal_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.session} deal {self.number}"

    @property
    def slot(self) -> Slot:
        return Slot(0, self.number)

    @property
    def payments(self) -> tuple[int, int, int, int]:
        return (self.payment_1, self.payment_2, self.payment_3, self.payment_4)
