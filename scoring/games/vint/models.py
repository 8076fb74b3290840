"""Vint's rubber and deal rows (``scoring.models`` imports them: the app's models)."""

from __future__ import annotations

from django.db import models

from scoring.games.interface import Slot

VINT_SEAT_CHOICES = [("N", "N"), ("E", "E"), ("S", "S"), ("W", "W")]


class VintRubber(models.Model):
    """One rubber of a Vint session: who sits where, and who deals first.

    ``north`` .. ``west`` are the session's seat numbers (``TableSeat.seat``,
    1..4 = players A..D). A session started in the app follows
    ``vint.session_partnerships`` (rubber 1 A+C v B+D, rubber 2 A+B v C+D,
    rubber 3 A+D v B+C); an imported sheet keeps its own seating. The row is
    made when the rubber's first deal is saved (or on import), so a rubber
    with no row has not started.
    """

    session = models.ForeignKey(
        "scoring.TableSession", on_delete=models.CASCADE, related_name="vint_rubbers"
    )
    number = models.PositiveSmallIntegerField()
    north = models.PositiveSmallIntegerField()
    east = models.PositiveSmallIntegerField()
    south = models.PositiveSmallIntegerField()
    west = models.PositiveSmallIntegerField()
    first_dealer = models.CharField(max_length=1, choices=VINT_SEAT_CHOICES, default="N")

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="vint_rubber_unique")
        ]

    def __str__(self) -> str:
        return f"{self.session} rubber {self.number}"


class VintDeal(models.Model):
    """A Vint deal: the facts given and the entries the engine computed from them.

    ``facts`` is the deal exactly as in the scoresheet JSON format
    (``contract``, ``declarer``, ``doubling``, ``declarer_tricks``, holdings,
    ``ace_dumps``; or ``"contract": "pass"`` with ``tricks``). ``entries`` is
    what it wrote on the sheet given the rubber so far: ``above`` / ``below``
    per side, the itemized ``items`` (rubber and extra-game bonuses included),
    ``games`` after the deal, the sides that drew a line (``games_won``),
    ``phase`` (main / extra) and ``extra_deal`` (1..4). Because the rubber's
    state depends on every earlier deal, a change to one deal recomputes the
    entries of all later deals of its rubber. A voided deal keeps its facts
    and number but counts for nothing (``entries`` is empty).
    """

    session = models.ForeignKey(
        "scoring.TableSession", on_delete=models.CASCADE, related_name="vint_deals"
    )
    rubber = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    facts = models.JSONField()
    entries = models.JSONField(default=dict, blank=True)
    voided = models.BooleanField(default=False)
    entered_by = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["session", "rubber", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "rubber", "number"], name="vint_deal_number_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.session} rubber {self.rubber} deal {self.number}"

    @property
    def slot(self) -> Slot:
        return Slot(self.rubber, self.number)
