"""Who may enter deals at a table session, and who they are.

Nobody may once the session is locked (accepted, or locked by its director): the director
unlocks it first, with a reason. Before that, the directors of the session's club may,
and so may the session's creator and its assigned scorers while they are scorers of that
club (a scorer whose role is taken away stops at the next request), and any phone that
opened the table's private link (``/t/<token>/``) with no account.

How a phone with no account says who it is
-------------------------------------------
Opening the link asks "which seat are you?" (the table's four players). The answer
binds the **grant** -- kept in that browser's session -- to the seat. The browser also
gets a random **phone id** once, in a signed cookie of its own (``DEVICE_COOKIE``) that
lives for years apart from the session: logging in or out, or the grant's end, keeps it.
Every deal a phone writes is kept in the history with its phone id and seat; the table
is accepted by a phone that has written nothing there, claiming a seat that has not
either (``scoring.acceptance.acceptance_check``): the phone that entered deals does not
accept under another seat, not after a logout either. Nothing but an account proves a
person: a second device (or a browser whose cookies were cleared, or a private window)
is a new phone, and its claim on another player's seat stays in the history.

A grant names the link it came from (a digest of the token) and the time it was made.
It ends when the link changes -- the director revokes and reissues it, or the table is
locked (a tournament table is locked when it is accepted, so a round's grants end when
the round closes) -- and at the latest ``TABLE_LINK_HOURS`` after it was made.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

from clubs.roles import directs, scores_for
from scoring.actors import link_label
from scoring.models import TableSession
from scoring.services import Actor

LINK_KEY = "table_grants"
# The phone id's cookie: signed (a phone cannot choose another's id), HTTP only, and kept
# for years, apart from the session that a logout flushes.
DEVICE_COOKIE = "tablescore_phone"
DEVICE_SALT = "tablescore.phone"
DEVICE_MAX_AGE = 10 * 365 * 24 * 3600
_PHONE_CHARS = frozenset("0123456789abcdef")


def link_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:20]


def phone_id(request: HttpRequest) -> str:
    """This browser's phone id: the one its cookie carries, else a new one, which
    ``PhoneCookieMiddleware`` gives it with this request's answer."""
    phone = getattr(request, "phone_id", "")
    if phone:
        return str(phone)
    try:
        phone = request.get_signed_cookie(DEVICE_COOKIE, salt=DEVICE_SALT) or ""
    except (KeyError, signing.BadSignature):
        phone = ""
    if len(phone) != 16 or not set(phone) <= _PHONE_CHARS:
        phone = secrets.token_hex(8)
        request.phone_id_new = True  # type: ignore[attr-defined]
    request.phone_id = phone  # type: ignore[attr-defined]
    return phone


class PhoneCookieMiddleware:
    """Gives a browser the phone id ``phone_id`` made for it during the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, "phone_id_new", False):
            response.set_signed_cookie(
                DEVICE_COOKIE,
                request.phone_id,  # type: ignore[attr-defined]
                salt=DEVICE_SALT,
                max_age=DEVICE_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response


def grant_link(request: HttpRequest, session: TableSession, *, seat: int) -> None:
    """Let this browser enter deals at ``session`` as the player at ``seat``."""
    grants = dict(request.session.get(LINK_KEY, {}))
    grants[str(session.pk)] = {
        "link": link_digest(session.entry_token),
        "seat": seat,
        "at": time.time(),
        "phone": phone_id(request),
    }
    request.session[LINK_KEY] = grants


def link_grant(request: HttpRequest, session: TableSession) -> dict[str, Any] | None:
    """This browser's grant for ``session`` while it holds, else None (and it is dropped)."""
    grants = request.session.get(LINK_KEY) or {}
    grant = grants.get(str(session.pk))
    if not isinstance(grant, dict):
        return None
    fresh = time.time() - float(grant.get("at", 0)) < settings.TABLE_LINK_HOURS * 3600
    if fresh and grant.get("link") == link_digest(session.entry_token):
        return grant
    grants = {k: v for k, v in grants.items() if k != str(session.pk)}
    request.session[LINK_KEY] = grants
    return None


def entry_actor(request: HttpRequest, session: TableSession) -> Actor | None:
    """The actor who may write to ``session`` from this request, or None."""
    user = request.user
    user_id = user.pk if user.is_authenticated else None
    if directs(user, session.club_id):
        return Actor(label=user.get_username(), is_director=True, user_id=user_id)
    grant = link_grant(request, session)
    if grant is not None:
        seat = int(grant["seat"])
        name = user.get_username() if user.is_authenticated else ""
        return Actor(
            label=link_label(seat, name),
            user_id=user_id,
            phone=str(grant["phone"]),
            seat=seat,
        )
    if (
        user.is_authenticated
        and scores_for(user, session.club_id)
        and (session.created_by_id == user.pk or session.scorers.filter(pk=user.pk).exists())
    ):
        return Actor(label=user.get_username(), user_id=user_id)
    return None


def can_write(actor: Actor | None, session: TableSession) -> bool:
    """Whether ``actor`` may enter and change deals at ``session`` now: nobody at a locked
    table (accepted, or locked by the director), not even its director, who unlocks it
    first with a reason."""
    return actor is not None and not session.locked
