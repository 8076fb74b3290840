"""Real identities for access tests across clubs (issue 26): a site administrator, the
director and the scorer of club A, the director of club B, an account with no role,
anonymous; and the database's state, to show a refused request wrote nothing.

The ``people`` fixture is registered for every directory (``tests/conftest.py``):
``people.client("director_b").post(url)``; import ``database_state`` and ``refused``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.test import Client

from clubs.models import Club
from clubs.roles import make_director, make_scorer
from tests.factories import ClubFactory, UserFactory

# Tables a refused request may touch without changing anything of a club's.
_NOT_STATE = {"django_session", "axes_accessattempt", "axes_accesslog", "axes_accessfailurelog"}

WHO = ("site_admin", "director_a", "scorer_a", "director_b", "no_role", "anonymous")


@dataclass
class People:
    club_a: Club
    club_b: Club
    users: dict[str, Any] = field(default_factory=dict)

    def client(self, who: str) -> Client:
        client = Client(raise_request_exception=False)
        if self.users.get(who) is not None:
            client.force_login(self.users[who])
        return client


@pytest.fixture
def people(db) -> People:
    club_a = ClubFactory(name="Klub A")
    club_b = ClubFactory(name="Klub B")
    found = People(club_a=club_a, club_b=club_b)
    found.users["site_admin"] = UserFactory(username="site-admin", is_superuser=True)
    found.users["director_a"] = UserFactory(username="director-a")
    make_director(found.users["director_a"], club_a)
    found.users["scorer_a"] = UserFactory(username="scorer-a")
    make_scorer(found.users["scorer_a"], club_a)
    found.users["director_b"] = UserFactory(username="director-b")
    make_director(found.users["director_b"], club_b)
    found.users["no_role"] = UserFactory(username="no-role")
    found.users["anonymous"] = None
    return found


def database_state() -> str:
    """A digest of every row of every model's table (apart from sessions and login
    records): equal before and after means the request wrote nothing."""
    digest = hashlib.sha256()
    for model in sorted(apps.get_models(), key=lambda m: m._meta.db_table):
        if model._meta.db_table in _NOT_STATE or not model._meta.managed:
            continue
        # A login (``People.client``) stamps last_login: not a club's state.
        columns = [f.attname for f in model._meta.concrete_fields if f.name != "last_login"]
        for row in model._base_manager.order_by("pk").values_list(*columns):
            digest.update(repr(row).encode())
    return digest.hexdigest()


def refused(response: Any) -> bool:
    """403 or 404, or the login page for anonymous (302 to /accounts/login/)."""
    if response.status_code in (403, 404):
        return True
    return response.status_code == 302 and "/accounts/login/" in response.get("Location", "")
