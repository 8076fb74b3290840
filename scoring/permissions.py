"""Who may enter deals at a table session, and who they are.

Nobody may once the session is locked (accepted, or locked by its director): the director
unlocks it first, with a reason. Before that, directors may, and so may the session's
creator and its assigned scorers while they are scorers (a scorer removed from the group
stops at the next request), and any phone that opened the table's private link
(``/t/<token>/``) with no account.

How a phone with no account says who it is
-------------------------------------------
Opening the link asks "which seat are you?" (the table's four players). The answer
binds the **grant** -- kept in that browser's session -- to the seat, and the browser
gets a random **phone id** once. Every deal it writes is kept in the history with the
phone id and the seat; the table is accepted by a phone bound to another seat that
has written nothing there (``tournaments.services.round_table_accept``). Nothing but
an account proves a person; this makes a forged acceptance take a second browser and
a claim on another player's seat, both of which stay in the history.

A grant names the link it came from (a digest of the token) and the time it was made.
It ends when the link changes -- the director revokes and reissues it, or the table is
locked (a tournament table is locked when it is accepted, so a round's grants end when
the round closes) -- and at the latest ``TABLE_LINK_HOURS`` after it was made.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from clubs.roles import is_director, is_scorer
from scoring.models import TableSession
from scoring.services import Actor

LINK_KEY = "table_grants"
PHONE_KEY = "table_phone"


def link_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:20]


def phone_id(request: HttpRequest) -> str:
    """This browser's phone id, made the first time it opens a table link."""
    phone = request.session.get(PHONE_KEY)
    if not phone:
        phone = secrets.token_hex(8)
        request.session[PHONE_KEY] = phone
    return str(phone)


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
    if is_director(user):
        return Actor(label=user.get_username(), is_director=True, user_id=user_id)
    grant = link_grant(request, session)
    if grant is not None:
        seat = int(grant["seat"])
        name = f" ({user.get_username()})" if user.is_authenticated else ""
        return Actor(
            label=f"table link, seat {seat}{name}",
            user_id=user_id,
            phone=str(grant["phone"]),
            seat=seat,
        )
    if (
        user.is_authenticated
        and is_scorer(user)
        and (session.created_by_id == user.pk or session.scorers.filter(pk=user.pk).exists())
    ):
        return Actor(label=user.get_username(), user_id=user_id)
    return None


def can_write(actor: Actor | None, session: TableSession) -> bool:
    """Whether ``actor`` may enter and change deals at ``session`` now: nobody at a locked
    table (accepted, or locked by the director), not even its director, who unlocks it
    first with a reason."""
    return actor is not None and not session.locked
