"""Writes for clubs, players and member accounts (``<entity>_<action>``, keyword-only)."""

from __future__ import annotations

import secrets
from typing import Any

from axes.utils import reset as axes_reset
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs.models import Club, ClubRecord, Membership, Player
from clubs.roles import DIRECTOR, club_roles, directed_club_ids, directs, is_site_admin


def club_or_first(club: Club | None) -> Club:
    """``club``; for a thing of no club (a tournament made by a command before clubs
    owned things), the first club, made if there is none. A user's request names its
    club instead (the form's choice, the tournament's club)."""
    if club is not None:
        return club
    first = Club.objects.order_by("pk").first()
    return first if first is not None else Club.objects.create(name=_("Club"))


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


class RoleError(ValueError):
    """A role change that cannot be made; the message is for the person who asked."""


@transaction.atomic
def role_grant(*, user: Any, club: Club, role: str, by: Any = None) -> bool:
    """Give ``user`` ``role`` in ``club`` (a record kept); False when already held.
    ``by`` (None: the command line) must direct ``club``."""
    if role not in (Membership.DIRECTOR, Membership.SCORER):
        raise RoleError(_("Unknown role: %(role)s.") % {"role": role})
    if by is not None and not directs(by, club):
        raise PermissionDenied("Only a director of this club may give its roles.")
    if not user.is_active:
        raise RoleError(_("This account is switched off."))
    _membership, created = Membership.objects.get_or_create(user=user, club=club, role=role)
    if created:
        ClubRecord.objects.create(
            club=club,
            user=by,
            action="granted",
            detail={"user": user.pk, "username": user.get_username(), "role": role},
        )
    return created


@transaction.atomic
def role_revoke(*, user: Any, club: Club, role: str, by: Any = None) -> bool:
    """Take ``role`` in ``club`` from ``user`` (a record kept); False when not held.
    A club keeps at least one director: the last one's role is not taken away here
    (a site administrator names another first)."""
    if by is not None and not directs(by, club):
        raise PermissionDenied("Only a director of this club may take its roles away.")
    # The club's row, locked: two directors revoking each other at once leave one.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    held = Membership.objects.filter(user=user, club=club, role=role)
    if not held.exists():
        return False
    if role == DIRECTOR and by is not None and not is_site_admin(by):
        others = Membership.objects.filter(club=club, role=DIRECTOR).exclude(user=user)
        if not others.exists():
            raise RoleError(_("A club keeps at least one director."))
    held.delete()
    ClubRecord.objects.create(
        club=club,
        user=by,
        action="revoked",
        detail={"user": user.pk, "username": user.get_username(), "role": role},
    )
    return True


def outranks(member: Any, by: Any) -> bool:
    """Whether ``member`` holds a right ``by`` does not: a superuser over a director, or
    a director of a club ``by`` does not direct. Nobody resets such a member's password."""
    if is_site_admin(by):
        return False
    if member.is_superuser:
        return True
    mine = directed_club_ids(by) or frozenset()
    return any(DIRECTOR in roles and club not in mine for club, roles in club_roles(member).items())


def manages_member(member: Any, by: Any) -> bool:
    """Whether ``by`` manages ``member``'s account: a site administrator manages all; a
    director, the accounts holding a role in a club he directs."""
    if is_site_admin(by):
        return True
    mine = directed_club_ids(by) or frozenset()
    return any(club in mine for club in club_roles(member))


@transaction.atomic
def member_password_reset(*, member: Any, by: Any) -> str:
    """A director gives a club member's account a new password and is shown it once.

    There is no e-mail in a hall, so no reset link: the director hands the new password
    over in person. The member's failed-login lockout is lifted and their other sessions
    end (the old password may be what leaked). A director resets only the accounts of
    his own clubs' members, and never one holding a right he has not (``outranks``)."""
    if not manages_member(member, by) or outranks(member, by):
        raise PermissionDenied("Only a director with at least this member's rights may.")
    password = password_generate()
    member.set_password(password)
    member.save(update_fields=["password"])
    axes_reset(username=member.get_username())
    return password
