"""Who may do what.

Three roles on top of Django's auth:

* **director** -- a member of the ``directors`` group (or a superuser): creates
  sessions and tournaments, corrects results, uses the admin site.
* **scorer** -- a member of the ``scorers`` group: enters results for the
  table sessions they are given (and anyone holding a table's private link).
* **public** -- everyone else, signed in or not: reads published results.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AnonymousUser, Group
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

DIRECTORS = "directors"
SCORERS = "scorers"


def _in_group(user: Any, name: str) -> bool:
    if isinstance(user, AnonymousUser) or not user.is_authenticated:
        return False
    cache = getattr(user, "_tablescore_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True))
        user._tablescore_groups = cache
    return name in cache


def is_director(user: Any) -> bool:
    return bool(getattr(user, "is_superuser", False)) or _in_group(user, DIRECTORS)


def is_scorer(user: Any) -> bool:
    return is_director(user) or _in_group(user, SCORERS)


def make_director(user: Any) -> None:
    """Give ``user`` the director role; directors use the admin site too."""
    group, _created = Group.objects.get_or_create(name=DIRECTORS)
    user.groups.add(group)
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])


def make_scorer(user: Any) -> None:
    group, _created = Group.objects.get_or_create(name=SCORERS)
    user.groups.add(group)


View = Callable[..., HttpResponse]


def director_required(view: View) -> View:
    """Anonymous users go to the login page; signed-in non-directors get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_director(request.user):
            raise PermissionDenied("Only a tournament director may do this.")
        return view(request, *args, **kwargs)

    return wrapper
