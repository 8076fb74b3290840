"""Writes for clubs and players (``<entity>_<action>``, keyword-only)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max

from clubs.models import Club, Player


@transaction.atomic
def player_create(*, club: Club, name: str, federation_id: str = "") -> Player:
    """Register a player under the next free club number (numbers are never reused)."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    last = Player.objects.filter(club=club).aggregate(m=Max("number"))["m"] or 0
    return Player.objects.create(
        club=club, number=last + 1, name=" ".join(name.split()), federation_id=federation_id
    )
