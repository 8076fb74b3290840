"""Who may reach a director's page (``clubs.roles``: ``director_required``), and the
role cache that never outlives a change of group. (CSRF on the same page's form:
``tests/config/test_login_throttling.py``.)"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from clubs.models import Membership
from clubs.roles import is_director, make_director
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db
DIRECTOR_PAGE = reverse("tournaments:player_add")


def test_outsider_is_sent_to_login(client):
    response = client.get(DIRECTOR_PAGE)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert "next=" in response.url


def test_signed_in_member_gets_403(member_client):
    assert member_client.get(DIRECTOR_PAGE).status_code == 403


def test_scorer_gets_403(scorer_client):
    assert scorer_client.get(DIRECTOR_PAGE).status_code == 403


def test_director_gets_the_page(director_client):
    assert director_client.get(DIRECTOR_PAGE).status_code == 200


def test_the_admin_site_is_the_site_administrators(director_client, director):
    # A director works on his club's pages, which check the club; the admin does not.
    director.is_staff = True
    director.save()
    assert director_client.get("/admin/").status_code == 302  # to the admin's login
    boss = get_user_model().objects.create_superuser("boss", password="boss-password-123")
    admin = Client()
    admin.force_login(boss)
    assert admin.get("/admin/").status_code == 200


def test_role_changes_take_effect_at_once_despite_the_role_cache(member_client, member):
    club = ClubFactory()
    assert member_client.get(DIRECTOR_PAGE).status_code == 403  # now cached as "no role"
    make_director(member, club)
    assert member_client.get(DIRECTOR_PAGE).status_code == 200
    Membership.objects.filter(user=member).delete()
    assert member_client.get(DIRECTOR_PAGE).status_code == 403


def test_a_role_taken_away_in_another_process_takes_effect_at_the_next_request(tmp_path):
    """``manage.py revoke`` in a process that never imports ``clubs.roles`` before the
    change (as a shell or a worker): the receiver connected in ``ready()`` drops the
    cached roles, so the next request refuses."""
    club = ClubFactory(name="Klub Kopa Kościan")
    user = UserFactory(username="ola")
    make_director(user, club)
    client = Client()
    client.force_login(user)
    assert client.get(DIRECTOR_PAGE).status_code == 200  # roles now cached
    call_command("revoke", "ola", club="Klub Kopa Kościan", role="director")
    assert client.get(DIRECTOR_PAGE).status_code == 403
    call_command("grant", "ola", club="Klub Kopa Kościan", role="scorer")
    assert not is_director(get_user_model().objects.get(pk=user.pk))
    assert Membership.objects.filter(user=user, club=club, role="scorer").exists()


def test_the_receivers_are_connected_at_startup_not_at_import_of_roles():
    from django.db.models.signals import post_delete, post_save

    from clubs.roles import forget_membership

    for signal in (post_save, post_delete):
        assert any(
            getattr(r[1], "__callback__", None) is forget_membership
            or (callable(r[1]) and r[1]() is forget_membership)
            for r in signal.receivers
        )
