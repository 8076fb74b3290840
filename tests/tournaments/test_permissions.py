"""Who may reach a director's page; CSRF protection on form posts."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory

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


def test_director_may_use_the_admin_site(director_client):
    assert director_client.get("/admin/").status_code == 200


def test_post_without_csrf_token_is_refused(director):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    club = ClubFactory()
    response = client.post(DIRECTOR_PAGE, {"club": club.pk, "name": "Anna Kowalska"})
    assert response.status_code == 403
    assert club.players.count() == 0


def test_login_and_logout_pages(client, director):
    assert client.get(reverse("login")).status_code == 200
    response = client.post(
        reverse("login"), {"username": director.username, "password": "pw-secret-123"}
    )
    assert response.status_code == 302
    assert client.get(DIRECTOR_PAGE).status_code == 200
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(DIRECTOR_PAGE).status_code == 302


def test_role_changes_take_effect_at_once_despite_the_role_cache(member_client, member):
    from django.contrib.auth.models import Group

    from clubs.roles import make_director

    assert member_client.get(DIRECTOR_PAGE).status_code == 403  # now cached as "no role"
    make_director(member)
    assert member_client.get(DIRECTOR_PAGE).status_code == 200
    Group.objects.get(name="directors").user_set.remove(member)
    assert member_client.get(DIRECTOR_PAGE).status_code == 403


def test_clearing_a_group_drops_its_members_cached_roles(director_client, director):
    from django.contrib.auth.models import Group

    assert director_client.get(DIRECTOR_PAGE).status_code == 200
    Group.objects.get(name="directors").user_set.clear()
    assert director_client.get(DIRECTOR_PAGE).status_code == 403
