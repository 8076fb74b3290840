from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from clubs.roles import is_director, is_scorer


def can_use_admin(user: Any) -> bool:
    """Whether Django's admin shows ``user`` anything: a staff account (the admin's own
    test) with at least one permission (a superuser has them all). A director without
    any is not offered a page that says "You don't have permission"."""
    if not (getattr(user, "is_active", False) and getattr(user, "is_staff", False)):
        return False
    return bool(user.is_superuser or user.get_all_permissions())


def roles(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    return {
        "is_director": is_director(user),
        "is_scorer": is_scorer(user),
        # Asked only by the header's Admin link, when it is drawn (a template calls it).
        "can_admin": lambda: can_use_admin(user),
    }
