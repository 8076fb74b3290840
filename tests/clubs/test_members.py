"""The club's members page: a director sets a new password for a member (and so lifts
their login lockout); nobody else may, never by GET, and never a superuser's."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client

from tests.config.test_login_throttling import fail_logins

pytestmark = pytest.mark.django_db


def test_a_director_sets_a_new_password_and_lifts_the_lockout(director_client, scorer, settings):
    Client().post("/accounts/login/", {"username": "sam-scorer", "password": "x"})
    locked = Client()
    fail_logins(locked, settings.AXES_FAILURE_LIMIT, username="sam-scorer")
    assert AccessAttempt.objects.filter(username="sam-scorer").exists()
    page = director_client.get("/accounts/members/")
    assert page.status_code == 200 and b"sam-scorer" in page.content

    response = director_client.post(f"/accounts/members/{scorer.pk}/password/")
    assert response.status_code == 200
    password = response.context["password"]
    assert password.encode() in response.content
    assert not AccessAttempt.objects.filter(username="sam-scorer").exists()
    logged_in = locked.post("/accounts/login/", {"username": "sam-scorer", "password": password})
    assert logged_in.status_code == 302
    scorer.refresh_from_db()
    assert scorer.check_password(password)


def test_only_directors_reset_passwords_and_never_by_get(
    scorer_client, member_client, director_client, client, member
):
    url = f"/accounts/members/{member.pk}/password/"
    assert scorer_client.post(url).status_code == 403
    assert member_client.get("/accounts/members/").status_code == 403
    assert client.post(url).status_code == 302  # to the login page
    assert director_client.get(url).status_code == 405
    member.refresh_from_db()
    assert member.check_password("pw-secret-123")


def test_a_director_cannot_reset_a_superusers_password(director_client):
    boss = get_user_model().objects.create_superuser("boss", password="boss-password-123")
    response = director_client.post(f"/accounts/members/{boss.pk}/password/")
    assert response.status_code == 403
    boss.refresh_from_db()
    assert boss.check_password("boss-password-123")
