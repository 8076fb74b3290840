"""Named actors for permission tests: director, scorer, member (public), outsider."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.roles import make_director, make_scorer
from scoring.services import Actor
from tests.factories import UserFactory


def _of_every_club(user, grant):
    """``user`` holds a role in every club of the test, those made later too: today's
    single-club installation, as the migration to clubs' roles leaves it (every director
    a director of every existing club). Tests of one club against another name their
    clubs (``tests/clubs/test_club_access.py``)."""
    from django.db.models.signals import post_save

    from clubs.models import Club

    if not Club.objects.exists():  # an installation has its club
        Club.objects.create(name="Home club")
    for club in Club.objects.all():
        grant(user, club)

    def granted(sender, instance, created, **kwargs):
        if created:
            grant(user, instance)

    post_save.connect(granted, sender=Club, weak=False, dispatch_uid=f"every-club-{user.pk}")
    return lambda: post_save.disconnect(sender=Club, dispatch_uid=f"every-club-{user.pk}")


@pytest.fixture
def director(db):
    user = UserFactory(username="dora-director")
    stop = _of_every_club(user, make_director)
    yield user
    stop()


@pytest.fixture
def scorer(db):
    user = UserFactory(username="sam-scorer")
    stop = _of_every_club(user, make_scorer)
    yield user
    stop()


@pytest.fixture
def member(db):
    """Signed in, but neither director nor scorer."""
    return UserFactory(username="mel-member")


@pytest.fixture
def director_client(director) -> Client:
    client = Client()
    client.force_login(director)
    return client


@pytest.fixture
def scorer_client(scorer) -> Client:
    client = Client()
    client.force_login(scorer)
    return client


@pytest.fixture
def member_client(member) -> Client:
    client = Client()
    client.force_login(member)
    return client


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with empty in-process caches: cached role sets are keyed by user id,
    shared pages by ids and versions, and ids repeat between rolled-back tests. (The
    integration tier's Redis cache shares its database with the Celery broker, so it is
    left alone; its ids do not repeat.)"""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for alias in caches:
        if isinstance(caches[alias], LocMemCache):
            caches[alias].clear()
    yield


def open_table_link(client: Client, session, *, seat: int = 1) -> Client:
    """``client`` scans the table card of ``session`` and says it sits at ``seat``."""
    from django.urls import reverse

    link = reverse("scoring:table_link", kwargs={"token": session.entry_token})
    picker = client.get(link)
    assert picker.status_code == 200 and b'name="seat"' in picker.content, picker.status_code
    response = client.post(link, {"seat": str(seat)})
    assert response.status_code == 302, response.status_code
    return client


def phone_of(client: Client) -> str:
    """The phone id ``client``'s cookie carries (signed: ``scoring.permissions``), read as
    the app reads it."""
    from django.test import RequestFactory

    from scoring.permissions import DEVICE_COOKIE, DEVICE_SALT

    request = RequestFactory().get("/")
    request.COOKIES[DEVICE_COOKIE] = client.cookies[DEVICE_COOKIE].value
    return request.get_signed_cookie(DEVICE_COOKIE, salt=DEVICE_SALT)


def phone(session, *, seat: int = 1) -> Client:
    """A phone with no account at ``seat`` of ``session`` (opened its table link)."""
    return open_table_link(Client(), session, seat=seat)


# A director accepting for a table (with a reason): for tests about what an acceptance
# does, not about who may accept (tests/tournaments/test_acceptance.py).
DIRECTOR_ACCEPTS = Actor(label="dora-director", is_director=True)
