"""Who may do what: roles held in a club.

* **site administrator** -- a superuser: manages clubs, names each club's first
  director, uses the admin site; may do anything any director may.
* **director of a club** -- a ``Membership`` with role ``director``: manages that club's
  register, table sessions, tournaments, series, leagues, custom rule profiles and its
  members' roles, and nothing of another club's.
* **scorer of a club** -- role ``scorer``: enters deals at that club's table sessions
  they are given (and anyone holding a table's private link may, with no account).
* **public** -- everyone else, signed in or not: reads published results.

One user may hold roles in several clubs. A view that needs "a director of some club"
is wrapped in ``director_required``; the object it changes is then checked against
its club with ``require_director_of`` (403, and nothing written).

Roles are read once per request and cached across requests (a scorer's every save
asks). The cache is dropped by receivers connected in ``ClubsConfig.ready()``, so a
change made anywhere -- a page, ``manage.py grant``, a shell, a worker -- takes effect
on the next request.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from clubs.models import Club, Membership

DIRECTOR = Membership.DIRECTOR
SCORER = Membership.SCORER
ROLE_CACHE_SECONDS = 300

# club id -> the roles held there
Roles = dict[int, frozenset[str]]


def _role_key(user_id: int) -> str:
    return f"tablescore:club-roles:{user_id}"


def forget_roles(user_ids: Any) -> None:
    """Drop the cached roles of ``user_ids`` (never the whole cache: in production it
    shares Redis with the Celery broker)."""
    cache.delete_many([_role_key(pk) for pk in user_ids])


def forget_membership(sender: Any, instance: Membership, **kwargs: Any) -> None:
    """``post_save``/``post_delete`` of a ``Membership`` (connected in ``ready()``)."""
    forget_roles([instance.user_id])


def club_roles(user: Any) -> Roles:
    """The clubs where ``user`` holds a role, and which (empty for anonymous)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return {}
    roles = getattr(user, "_tablescore_roles", None)
    if roles is None:
        roles = cache.get(_role_key(user.pk))
        if roles is None:
            found: dict[int, set[str]] = {}
            for club_id, role in Membership.objects.filter(user_id=user.pk).values_list(
                "club_id", "role"
            ):
                found.setdefault(club_id, set()).add(role)
            roles = {club: frozenset(r) for club, r in found.items()}
            cache.set(_role_key(user.pk), roles, ROLE_CACHE_SECONDS)
        user._tablescore_roles = roles
    return roles


def is_site_admin(user: Any) -> bool:
    return bool(getattr(user, "is_superuser", False)) and bool(getattr(user, "is_active", False))


def _club_id(club: Club | int | None) -> int | None:
    return club.pk if isinstance(club, Club) else club


def directs(user: Any, club: Club | int | None) -> bool:
    """Whether ``user`` manages ``club``'s things. Nothing owned by no club is managed
    by anyone but a site administrator."""
    if is_site_admin(user):
        return True
    club_id = _club_id(club)
    return club_id is not None and DIRECTOR in club_roles(user).get(club_id, ())


def scores_for(user: Any, club: Club | int | None) -> bool:
    """Whether ``user`` is a scorer (or a director) of ``club``."""
    if directs(user, club):
        return True
    club_id = _club_id(club)
    return club_id is not None and SCORER in club_roles(user).get(club_id, ())


def is_director(user: Any) -> bool:
    """A director of at least one club (or a site administrator): the director's menus."""
    return is_site_admin(user) or any(DIRECTOR in r for r in club_roles(user).values())


def is_scorer(user: Any) -> bool:
    """A scorer or director of at least one club (or a site administrator)."""
    return is_site_admin(user) or bool(club_roles(user))


def directed_club_ids(user: Any) -> frozenset[int] | None:
    """The ids of the clubs ``user`` directs; ``None`` for a site administrator (all)."""
    if is_site_admin(user):
        return None
    return frozenset(c for c, r in club_roles(user).items() if DIRECTOR in r)


def directed_clubs(user: Any) -> QuerySet[Club]:
    """The clubs ``user`` directs, by name: a form's choice of club."""
    ids = directed_club_ids(user)
    return Club.objects.all() if ids is None else Club.objects.filter(pk__in=ids)


def owned_by_directed(qs: QuerySet[Any], user: Any, field: str = "club") -> QuerySet[Any]:
    """``qs`` narrowed to the rows whose ``field`` is a club ``user`` directs."""
    ids = directed_club_ids(user)
    return qs if ids is None else qs.filter(**{f"{field}__in": ids})


def require_director_of(user: Any, club: Club | int | None) -> None:
    """403 unless ``user`` directs ``club`` (a director of another club changes nothing)."""
    if not directs(user, club):
        raise PermissionDenied("Only a director of this club may do this.")


def make_director(user: Any, club: Club) -> None:
    """Give ``user`` the director role in ``club`` (demo data, tests; a page or a command
    goes through ``clubs.services.role_grant``, which keeps a record)."""
    Membership.objects.get_or_create(user=user, club=club, role=DIRECTOR)


def make_scorer(user: Any, club: Club) -> None:
    Membership.objects.get_or_create(user=user, club=club, role=SCORER)


View = Callable[..., HttpResponse]


def director_required(view: View) -> View:
    """Anonymous users go to the login page; signed-in users who direct no club get 403.
    The view still checks the club of what it changes (``require_director_of``)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_director(request.user):
            raise PermissionDenied("Only a tournament director may do this.")
        return view(request, *args, **kwargs)

    return wrapper
