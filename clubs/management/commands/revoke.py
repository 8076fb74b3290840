"""``manage.py revoke USERNAME --club "CLUB NAME" --role director|scorer``."""

from __future__ import annotations

from typing import Any

from clubs.management.commands._role import RoleCommand
from clubs.models import Club
from clubs.services import role_revoke


class Command(RoleCommand):
    help = "Take an account's role in a club away."
    verb = "revoked"

    def change(self, *, user: Any, club: Club, role: str) -> bool:
        return role_revoke(user=user, club=club, role=role)
