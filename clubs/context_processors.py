from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from clubs.roles import is_director, is_scorer, is_site_admin


def roles(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    return {
        "is_director": is_director(user),
        "is_scorer": is_scorer(user),
        # The header's Admin link: the admin site is the site administrators' alone.
        "can_admin": is_site_admin(user),
    }
