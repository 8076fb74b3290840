"""Login throttling (django-axes, by user name and address) and a director's password reset."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client

from config import security

pytestmark = pytest.mark.django_db

WRONG = {"username": "dora-director", "password": "not-the-password"}


def _fail(client: Client, times: int, **data: str):
    response = None
    for _ in range(times):
        response = client.post("/accounts/login/", {**WRONG, **data})
    return response


def test_after_the_failure_limit_even_the_right_password_is_refused(client, director, settings):
    director.set_password("right-password-123")
    director.save()
    response = _fail(client, settings.AXES_FAILURE_LIMIT - 1)
    assert response.status_code == 200  # the form again, with its error
    response = _fail(client, 1)
    assert response.status_code == 429
    assert b"Too many failed logins" in response.content
    right = client.post(
        "/accounts/login/", {"username": "dora-director", "password": "right-password-123"}
    )
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_locked_out_attempt_is_refused_before_any_password_is_hashed(
    client, director, settings, monkeypatch
):
    _fail(client, settings.AXES_FAILURE_LIMIT)
    from django.contrib.auth.backends import ModelBackend

    hashed = []
    original = ModelBackend.authenticate
    monkeypatch.setattr(
        ModelBackend,
        "authenticate",
        lambda self, *a, **k: hashed.append(1) or original(self, *a, **k),
    )
    assert _fail(client, 3).status_code == 429
    assert hashed == []


def test_the_lockout_is_per_user_name_and_address(client, director, scorer, settings):
    _fail(client, settings.AXES_FAILURE_LIMIT)
    # Another user name from the same address, and the same name from another address, may try.
    other_name = client.post("/accounts/login/", {**WRONG, "username": "sam-scorer"})
    assert other_name.status_code == 200
    elsewhere = Client(REMOTE_ADDR="10.0.0.7")
    assert elsewhere.post("/accounts/login/", WRONG).status_code == 200


def test_the_lockout_page_speaks_polish(client, director, settings):
    client.cookies["django_language"] = "pl"
    response = _fail(client, settings.AXES_FAILURE_LIMIT)
    assert response.status_code == 429
    assert "Zbyt wiele nieudanych logowań" in response.content.decode()


def test_a_director_sets_a_new_password_and_lifts_the_lockout(director_client, scorer, settings):
    Client().post("/accounts/login/", {"username": "sam-scorer", "password": "x"})
    locked = Client()
    _fail(locked, settings.AXES_FAILURE_LIMIT, username="sam-scorer")
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


LOCKED_OUT = "registration/locked_out.html"


def _drawn(response) -> list[str]:
    return [t.name for t in response.templates]


def test_a_flood_of_refused_guesses_gets_one_page_drawn_per_language(client, director, settings):
    """Refusals answer from a kept copy: a flood costs the lockout's lookup, not a page
    drawn each time. The copy carries no one's CSRF token, and its language switch works."""
    first = _fail(client, settings.AXES_FAILURE_LIMIT)
    assert first.status_code == 429 and LOCKED_OUT in _drawn(first)
    again = _fail(client, 1)
    assert again.status_code == 429 and _drawn(again) == []  # the kept copy
    assert again.content == first.content
    assert "csrfmiddlewaretoken" not in again.content.decode()
    switched = Client(enforce_csrf_checks=True).post(
        "/i18n/setlang/", {"language": "pl", "next": "/accounts/login/"}
    )
    assert switched.status_code == 302
    client.cookies["django_language"] = "pl"
    polish = _fail(client, 1)
    assert polish.status_code == 429 and LOCKED_OUT in _drawn(polish)  # another language
    assert "Zbyt wiele nieudanych logowań" in polish.content.decode()
    assert _drawn(_fail(client, 1)) == []


def test_a_signed_in_visitor_locked_out_gets_a_page_of_their_own(director_client, settings):
    """Through the admin's login form (django-axes refuses there after the request went
    through the whole stack, so it knows who is signed in): a page drawn for them."""
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        page = director_client.post("/admin/login/", WRONG)
    for _ in range(2):
        page = director_client.post("/admin/login/", WRONG)
        assert page.status_code == 429 and LOCKED_OUT in _drawn(page)  # for them, each time
        assert "Log out" in page.content.decode()


def test_a_refusal_at_an_address_with_a_query_is_drawn_for_it_and_not_kept(
    client, director, settings, monkeypatch
):
    """Queries a stranger makes up must not multiply the kept pages."""
    kept = []
    monkeypatch.setattr(security, "keep_page_copy", lambda key, *a: kept.append(key))
    for n in range(settings.AXES_FAILURE_LIMIT + 2):
        page = client.post(f"/accounts/login/?next=/tournaments/{n}/", WRONG)
    assert page.status_code == 429 and LOCKED_OUT in _drawn(page)
    assert f'value="/accounts/login/?next=/tournaments/{n}/"' in page.content.decode()
    assert kept == []
    assert _fail(client, 1).status_code == 429 and len(kept) == 1  # no query: kept
