"""What ``grant`` and ``revoke`` share: the arguments and finding the user and club."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club, Membership
from clubs.services import RoleError


class RoleCommand(BaseCommand):
    verb = ""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--club", required=True, help="the club's name, as it is written")
        parser.add_argument(
            "--role", required=True, choices=[Membership.DIRECTOR, Membership.SCORER]
        )

    def change(self, *, user: Any, club: Club, role: str) -> bool:
        raise NotImplementedError

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        try:
            user = users.get(**{users.model.USERNAME_FIELD: options["username"]})
        except users.model.DoesNotExist:
            raise CommandError(f"No account named {options['username']!r}.") from None
        club = Club.objects.filter(name=options["club"]).first()
        if club is None:
            names = ", ".join(Club.objects.values_list("name", flat=True)[:20]) or "none"
            raise CommandError(f"No club named {options['club']!r} (clubs: {names}).")
        try:
            changed = self.change(user=user, club=club, role=options["role"])
        except RoleError as error:
            raise CommandError(str(error)) from None
        state = "done" if changed else "nothing to do"
        self.stdout.write(f"{self.verb} {options['role']} of {club.name}: {user} ({state})")
