"""``manage.py grant USERNAME --club "CLUB NAME" --role director|scorer``."""

from __future__ import annotations

from typing import Any

from clubs.management.commands._role import RoleCommand
from clubs.models import Club
from clubs.services import role_grant


class Command(RoleCommand):
    help = "Give an account a role in a club (director or scorer)."
    verb = "granted"

    def change(self, *, user: Any, club: Club, role: str) -> bool:
        return role_grant(user=user, club=club, role=role)
