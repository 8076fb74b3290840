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
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models.signals import m2m_changed, pre_delete
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

DIRECTORS = "directors"
SCORERS = "scorers"


ROLE_CACHE_SECONDS = 300


def _role_key(user_id: int) -> str:
    return f"tablescore:roles:{user_id}"


def _in_group(user: Any, name: str) -> bool:
    if isinstance(user, AnonymousUser) or not user.is_authenticated:
        return False
    groups = getattr(user, "_tablescore_groups", None)
    if groups is None:
        # Cached across requests (every scorer's save asks); dropped when memberships change.
        groups = cache.get(_role_key(user.pk))
        if groups is None:
            groups = set(user.groups.values_list("name", flat=True))
            cache.set(_role_key(user.pk), groups, ROLE_CACHE_SECONDS)
        user._tablescore_groups = groups
    return name in groups


@receiver(m2m_changed, sender=Group.user_set.through)
def _forget_roles(sender: Any, instance: Any, pk_set: Any, action: str, **kwargs: Any) -> None:
    """Drop the cached role sets of the users whose groups change (never the whole cache:
    in production it shares Redis with the Celery broker)."""
    if isinstance(instance, Group):
        if action == "pre_clear":  # the members are still there to be named
            user_ids = list(instance.user_set.values_list("pk", flat=True))
        elif action in ("post_add", "post_remove"):
            user_ids = list(pk_set or [])
        else:
            return
    elif action in ("post_add", "post_remove", "post_clear"):
        user_ids = [instance.pk]
    else:
        return
    cache.delete_many([_role_key(pk) for pk in user_ids])


@receiver(pre_delete, sender=Group)
def _forget_group(sender: Any, instance: Group, **kwargs: Any) -> None:
    """Deleting a group removes its members without ``m2m_changed``: forget their roles."""
    user_ids = list(instance.user_set.values_list("pk", flat=True))
    cache.delete_many([_role_key(pk) for pk in user_ids])


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
