"""Writes for clubs, players and member accounts (``<entity>_<action>``, keyword-only)."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from axes.utils import reset as axes_reset
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import ApiToken, Club, ClubRecord, Membership, Person, Player
from clubs.roles import DIRECTOR, club_roles, directed_club_ids, directs, is_site_admin
from clubs.signals import person_merge_check, person_rows_changed


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
    """Register a player under the next free club number (numbers are never reused). The
    row stands for the person holding ``federation_id``, else for a new person
    (``Player.save``)."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    last = Player.objects.filter(club=club).aggregate(m=Max("number"))["m"] or 0
    return Player.objects.create(
        club=club, number=last + 1, name=" ".join(name.split()), federation_id=federation_id
    )


class MergeError(ValueError):
    """A merge or split of register rows that cannot be made; the message is for the
    director who asked."""


def _reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        raise MergeError(_("Say why: the reason goes into the clubs' records."))
    return reason


def _row_detail(player: Player) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club.name,
        "number": player.number,
        "federation_id": player.federation_id,
    }


def _persons_locked(*rows: Player) -> dict[int, Person]:
    """The persons of ``rows`` locked (in id order: two merges never wait on each other
    crosswise), with each row's person read again under the lock: a merge that moved a
    row meanwhile is seen. Returns persons by id; ``rows`` get their current person."""
    for _attempt in range(3):
        wanted = {p.pk: p.person_id for p in rows}
        locked = {
            person.pk: person
            for person in Person.objects.select_for_update()
            .filter(pk__in=set(wanted.values()))
            .order_by("pk")
        }
        now = dict(Player.objects.filter(pk__in=wanted).values_list("pk", "person_id"))
        if now == wanted:
            return locked
        for player in rows:
            player.person_id = now[player.pk]
    raise MergeError(_("These rows changed meanwhile; please try again."))


def _record(clubs: set[int], by: Any, action: str, detail: dict[str, Any]) -> None:
    ClubRecord.objects.bulk_create(
        ClubRecord(club_id=club, user=by, action=action, detail=detail) for club in sorted(clubs)
    )


@transaction.atomic
def player_merge(*, keep: Player, other: Player, by: Any, reason: str) -> Person:
    """Record that the register rows ``keep`` and ``other`` are one person: ``other``'s
    person, with every row it stands for, becomes ``keep``'s (its licence too, when
    ``keep``'s person holds none), and the emptied person is deleted. Both rows stay in
    their clubs' registers with their numbers; no table, deal or entry changes. Each club
    with a row of the merged person gets a record (``"merged"``: both rows, the person,
    the rows moved and the reason); the ratings are rated again from the moved rows'
    first game (``person_rows_changed``).

    ``by`` (None: a command) must direct both rows' clubs (the rows the director names;
    rows of a third club that already shared ``other``'s licence follow it, recorded
    there). Refused (``MergeError``, nothing written): a row with itself, two rows of one
    person already, two persons holding different licences, or rows that sat at one
    table (or are entered in one tournament): a person does not sit twice at a table."""
    if keep.pk == other.pk:
        raise MergeError(_("A register row is one person with itself already."))
    if by is not None and not (directs(by, keep.club_id) and directs(by, other.club_id)):
        raise PermissionDenied("Only a director of both rows' clubs may merge them.")
    why = _reason(reason)
    persons = _persons_locked(keep, other)
    if keep.person_id == other.person_id:
        raise MergeError(_("These two register rows are one person already."))
    kept, gone = persons[keep.person_id], persons[other.person_id]
    if kept.federation_id and gone.federation_id and kept.federation_id != gone.federation_id:
        raise MergeError(
            _(
                "The two hold different federation ids (%(a)s and %(b)s): one person holds one licence. Correct the wrong one first."  # noqa: E501
            )
            % {"a": kept.federation_id, "b": gone.federation_id}
        )
    keep_rows = list(Player.objects.filter(person=kept).values_list("pk", flat=True))
    moved = list(Player.objects.filter(person=gone).values_list("pk", flat=True))
    for _receiver, problem in person_merge_check.send(
        sender=Person, keep_rows=keep_rows, other_rows=moved
    ):
        if problem:
            raise MergeError(str(problem))
    Player.objects.filter(pk__in=moved).update(person=kept)
    licence = gone.federation_id
    gone.delete()  # nothing stands for it now; its ratings are rated again as kept's
    if licence and not kept.federation_id:
        kept.federation_id = licence
        kept.save(update_fields=["federation_id"])
    clubs = set(Player.objects.filter(person=kept).values_list("club_id", flat=True))
    detail = {
        "keep": _row_detail(keep),
        "other": _row_detail(other),
        "person": kept.pk,
        "person_gone": other.person_id,
        "rows_moved": moved,
        "reason": why,
    }
    _record(clubs, by, "merged", detail)
    other.person = kept
    person_rows_changed.send(sender=Person, rows=moved)
    return kept


@transaction.atomic
def player_split(*, player: Player, by: Any, reason: str) -> Person:
    """Take a merge back for one register row: ``player`` gets a new person of its own
    (the licence stays with the person it leaves); recorded (``"split"``) on each club
    with a row of the person it leaves; the ratings are rated again from its first game.
    ``by`` (None: a command) must direct ``player``'s club. Refused (``MergeError``) for
    the person's only row."""
    if by is not None and not directs(by, player.club_id):
        raise PermissionDenied("Only a director of this row's club may split it off.")
    why = _reason(reason)
    persons = _persons_locked(player)
    left = persons[player.person_id]
    rows = list(Player.objects.filter(person=left).values_list("pk", "club_id"))
    if len(rows) < 2:
        raise MergeError(_("This register row is its person's only one: nothing to split."))
    person = Person.objects.create(name=player.name)
    Player.objects.filter(pk=player.pk).update(person=person)
    player.person = person
    detail = {"row": _row_detail(player), "person_left": left.pk, "person": person.pk}
    _record({club for _pk, club in rows}, by, "split", {**detail, "reason": why})
    person_rows_changed.send(sender=Person, rows=[player.pk])
    return person


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


# --------------------------------------------------------------------- read API tokens

API_TOKEN_PREFIX = "ts_"
API_TOKENS_MAX = 20  # per account: enough for every website and script a director keeps


def api_token_digest(secret: str) -> str:
    """What is stored of a token's secret: a random secret needs no slow hash."""
    return hashlib.sha256(secret.encode()).hexdigest()


def api_token_create(*, user: Any, label: str) -> tuple[ApiToken, str]:
    """A new read-API token for ``user`` (a director: ``clubs.views.api_tokens``) and its
    secret, which is shown once and never stored."""
    if user.api_tokens.count() >= API_TOKENS_MAX:
        raise RoleError(_("You have too many API tokens: revoke one first."))
    secret = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        label=label.strip()[:80],
        prefix=secret[:10],
        digest=api_token_digest(secret),
    )
    return token, secret


def api_token_revoke(*, user: Any, pk: int) -> bool:
    """Revoke (delete) one of ``user``'s own tokens; False if there is no such token."""
    deleted, _rows = ApiToken.objects.filter(user=user, pk=pk).delete()
    return bool(deleted)


API_TOKEN_TOUCH_SECONDS = 300


def api_token_used(*, token: ApiToken) -> None:
    """Note when a token was last used (at most one write every few minutes a token)."""
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > (
        API_TOKEN_TOUCH_SECONDS
    ):
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
