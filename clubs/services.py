"""Writes for clubs, players and member accounts (``<entity>_<action>``, keyword-only)."""

from __future__ import annotations

import secrets
from typing import Any

from axes.utils import reset as axes_reset
from django.core.exceptions import PermissionDenied
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


# A password a director reads out or writes on a slip: no 0/o, 1/l/i to mix up.
_READABLE = "abcdefghjkmnpqrstuvwxyz23456789"


def password_generate() -> str:
    """Three groups of four readable characters (about 59 bits), e.g. ``k7mq-x3fa-p9tw``."""
    return "-".join("".join(secrets.choice(_READABLE) for _ in range(4)) for _ in range(3))


@transaction.atomic
def member_password_reset(*, member: Any, by: Any) -> str:
    """A director gives a club member's account a new password and is shown it once.

    There is no e-mail in a hall, so no reset link: the director hands the new password
    over in person. The member's failed-login lockout is lifted and their other sessions
    end (the old password may be what leaked). Superusers are reset only by superusers."""
    if member.is_superuser and not by.is_superuser:
        raise PermissionDenied("Only a superuser may reset a superuser's password.")
    password = password_generate()
    member.set_password(password)
    member.save(update_fields=["password"])
    axes_reset(username=member.get_username())
    return password
