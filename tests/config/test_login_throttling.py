"""Signing in and out, CSRF on a form post, and login throttling (django-axes, by user name
and address, and by address whatever the user names). (A director's password reset that
lifts a lockout: ``tests/clubs/test_members.py``; user names no account can have:
``tests/config/test_bad_input.py``.)"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.contrib.auth import hashers
from django.test import Client
from django.urls import reverse

from config import security
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

WRONG = {"username": "dora-director", "password": "not-the-password"}
DIRECTOR_PAGE = reverse("tournaments:player_add")


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


def fail_logins(client: Client, times: int, **data: str):
    response = None
    for _ in range(times):
        response = client.post("/accounts/login/", {**WRONG, **data})
    return response


def test_after_the_failure_limit_even_the_right_password_is_refused(client, director, settings):
    director.set_password("right-password-123")
    director.save()
    response = fail_logins(client, settings.AXES_FAILURE_LIMIT - 1)
    assert response.status_code == 200  # the form again, with its error
    response = fail_logins(client, 1)
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
    fail_logins(client, settings.AXES_FAILURE_LIMIT)
    from django.contrib.auth.backends import ModelBackend

    hashed = []
    original = ModelBackend.authenticate
    monkeypatch.setattr(
        ModelBackend,
        "authenticate",
        lambda self, *a, **k: hashed.append(1) or original(self, *a, **k),
    )
    assert fail_logins(client, 3).status_code == 429
    assert hashed == []


def test_the_lockout_is_per_user_name_and_address(client, director, scorer, settings):
    fail_logins(client, settings.AXES_FAILURE_LIMIT)
    # Another user name from the same address, and the same name from another address, may try.
    other_name = client.post("/accounts/login/", {**WRONG, "username": "sam-scorer"})
    assert other_name.status_code == 200
    elsewhere = Client(REMOTE_ADDR="10.0.0.7")
    assert elsewhere.post("/accounts/login/", WRONG).status_code == 200


def test_the_lockout_page_speaks_polish(client, director, settings):
    client.cookies["django_language"] = "pl"
    response = fail_logins(client, settings.AXES_FAILURE_LIMIT)
    assert response.status_code == 429
    assert "Zbyt wiele nieudanych logowań" in response.content.decode()


LOCKED_OUT = "registration/locked_out.html"


def _drawn(response) -> list[str]:
    return [t.name for t in response.templates]


def test_a_flood_of_refused_guesses_gets_one_page_drawn_per_language(client, director, settings):
    """Refusals answer from a kept copy: a flood costs the lockout's lookup, not a page
    drawn each time. The copy carries no one's CSRF token, and its language switch works."""
    first = fail_logins(client, settings.AXES_FAILURE_LIMIT)
    assert first.status_code == 429 and LOCKED_OUT in _drawn(first)
    again = fail_logins(client, 1)
    assert again.status_code == 429 and _drawn(again) == []  # the kept copy
    assert again.content == first.content
    assert "csrfmiddlewaretoken" not in again.content.decode()
    switched = Client(enforce_csrf_checks=True).post(
        "/i18n/setlang/", {"language": "pl", "next": "/accounts/login/"}
    )
    assert switched.status_code == 302
    client.cookies["django_language"] = "pl"
    polish = fail_logins(client, 1)
    assert polish.status_code == 429 and LOCKED_OUT in _drawn(polish)  # another language
    assert "Zbyt wiele nieudanych logowań" in polish.content.decode()
    assert _drawn(fail_logins(client, 1)) == []


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
    assert fail_logins(client, 1).status_code == 429 and len(kept) == 1  # no query: kept


def made_up_names(client: Client, times: int, start: int = 0):
    """A flood's guesses: a new user name each time, so no name's own count grows."""
    response = None
    for n in range(start, start + times):
        response = client.post("/accounts/login/", {**WRONG, "username": f"guess-{n}"})
    return response


@contextmanager
def hashes_counted() -> Iterator[list[str]]:
    """Every password hashed or checked, by the hasher in use."""
    hasher = type(hashers.get_hasher())
    calls: list[str] = []
    encode, verify = hasher.encode, hasher.verify
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hasher, "encode", lambda *a, **k: calls.append("encode") or encode(*a, **k))
        patch.setattr(hasher, "verify", lambda *a, **k: calls.append("verify") or verify(*a, **k))
        yield calls


def test_a_flood_of_made_up_names_locks_its_address(client, director, settings):
    limit = settings.AXES_ADDRESS_FAILURE_LIMIT
    assert limit == 30 and limit > settings.AXES_FAILURE_LIMIT  # the hall's margin
    assert made_up_names(client, limit - 1).status_code == 200  # the form again
    last = made_up_names(client, 1, start=limit)  # the failure that reaches the limit
    assert last.status_code == 429 and b"Too many failed logins" in last.content
    assert made_up_names(client, 1, start=limit + 1).status_code == 429
    # Any name from that address, even an account's right password; elsewhere, not.
    right = client.post(
        "/accounts/login/", {"username": "dora-director", "password": "pw-secret-123"}
    )
    assert right.status_code == 429 and "_auth_user_id" not in client.session
    elsewhere = Client(REMOTE_ADDR="10.0.0.7")
    right = {"username": "dora-director", "password": "pw-secret-123"}
    assert elsewhere.post("/accounts/login/", right).status_code == 302


def test_a_locked_out_address_is_refused_before_any_password_is_hashed(client, director, settings):
    with hashes_counted() as hashed:
        made_up_names(client, 3)
        assert hashed == ["encode"] * 3  # Django hashes for a name no account has, too
        made_up_names(client, settings.AXES_ADDRESS_FAILURE_LIMIT - 3, start=3)
        hashed.clear()
        assert made_up_names(client, 5, start=100).status_code == 429
        right = {"username": "dora-director", "password": "pw-secret-123"}
        assert client.post("/accounts/login/", right).status_code == 429
        # The admin site's login form, past the early refusal: django-axes' backend.
        assert client.post("/admin/login/", {**WRONG, "username": "guess-x"}).status_code == 429
    assert hashed == []


def test_a_refused_name_from_a_locked_address_is_refused_too(client, settings):
    made_up_names(client, settings.AXES_ADDRESS_FAILURE_LIMIT)
    assert client.post("/accounts/login/", {**WRONG, "username": "x" * 5000}).status_code == 429


def test_the_hall_behind_one_router_is_not_locked_by_its_typos(settings):
    """Ten scorers behind the hall's router (one address) mistype a few times each; each
    gets in, and their failures no longer count. Then two mistype again: nobody is
    locked out, whoever signs in next."""
    hall = Client(REMOTE_ADDR="192.168.1.1")
    names = [UserFactory(username=f"scorer-{n}").username for n in range(10)]
    for name in names:
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            assert hall.post("/accounts/login/", {**WRONG, "username": name}).status_code == 200
        phone = Client(REMOTE_ADDR="192.168.1.1")
        assert (
            phone.post(
                "/accounts/login/", {"username": name, "password": "pw-secret-123"}
            ).status_code
            == 302
        )
    assert 10 * (settings.AXES_FAILURE_LIMIT - 1) > settings.AXES_ADDRESS_FAILURE_LIMIT
    for name in names[:2]:
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            hall.post("/accounts/login/", {**WRONG, "username": name})
    late = Client(REMOTE_ADDR="192.168.1.1")
    right = {"username": names[9], "password": "pw-secret-123"}
    assert late.post("/accounts/login/", right).status_code == 302


def test_a_few_failures_from_an_address_do_not_lock_another_name(client, director, scorer):
    made_up_names(client, 6)
    fail_logins(client, 4)
    assert client.post("/accounts/login/", {**WRONG, "username": "sam-scorer"}).status_code == 200
    right = {"username": "sam-scorer", "password": "pw-secret-123"}
    assert client.post("/accounts/login/", right).status_code == 302
