"""Who may reach a director's page (``clubs.roles``: ``director_required``), and the
role cache that never outlives a change of group. (CSRF on the same page's form:
``tests/config/test_login_throttling.py``.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

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
