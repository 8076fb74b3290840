"""Who may enter deals at a table session.

Directors always may (also after the session is locked). Before the lock, so
may the session's creator, its assigned scorers, and anyone who opened the
table's private link (``/t/<token>/``): the link grants entry for that browser
session, with no account.
"""

from __future__ import annotations

from django.http import HttpRequest

from clubs.roles import is_director
from scoring.models import TableSession
from scoring.services import Actor

LINK_KEY = "table_links"


def grant_link(request: HttpRequest, session: TableSession) -> None:
    granted = set(request.session.get(LINK_KEY, []))
    granted.add(session.pk)
    request.session[LINK_KEY] = sorted(granted)


def entry_actor(request: HttpRequest, session: TableSession) -> Actor | None:
    """The actor who may write to ``session`` from this request, or None."""
    user = request.user
    if is_director(user):
        return Actor(label=user.get_username(), is_director=True)
    if user.is_authenticated and (
        session.created_by_id == user.pk or session.scorers.filter(pk=user.pk).exists()
    ):
        return Actor(label=user.get_username())
    if session.pk in request.session.get(LINK_KEY, []):
        name = user.get_username() if user.is_authenticated else ""
        return Actor(label=f"table link{f' ({name})' if name else ''}")
    return None


def can_write(actor: Actor | None, session: TableSession) -> bool:
    return actor is not None and (actor.is_director or not session.locked)
