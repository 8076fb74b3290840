"""System checks: a production site must not accept the demo logins' published password."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.checks import CheckMessage, Warning
from django.db import DatabaseError

from tournaments.demo_logins import DEMO_LOGINS


def demo_passwords_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if settings.DEBUG:
        return []
    names = {name for name, _password in DEMO_LOGINS}
    passwords = {password for _name, password in DEMO_LOGINS}
    try:
        users = list(get_user_model().objects.filter(username__in=names, is_active=True))
    except DatabaseError:  # no database or no tables yet: nobody can log in either
        return []
    found = [u.username for u in users if any(u.check_password(p) for p in passwords)]
    if not found:
        return []
    return [
        Warning(
            f"The demo login(s) {', '.join(sorted(found))} still have the published demo "
            "password while DJANGO_DEBUG=false.",
            hint="Change the password (manage.py changepassword NAME) or deactivate the "
            "account; `demo_data --force` gives the demo logins random passwords.",
            id="tablescore.W001",
        )
    ]
