"""Input no view could take is refused with a page that says why, and nothing is written:
an upload too large to send (refused before its body is read), an address whose query
holds a NUL, a table link's seat of thousands of digits (issue 25)."""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scoring.models import DealHistory
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def test_an_upload_over_the_limit_is_refused_before_it_is_read(director_client, kop_tournament):
    url = reverse("tournaments:round_import", kwargs={"slug": kop_tournament.slug})
    big = io.BytesIO(b"1,1,1,1\n" * (settings.UPLOAD_MAX_BYTES // 8 + 1))
    big.name = "seating.csv"
    response = director_client.post(url, {"csv_file": big})
    assert response.status_code == 413
    page = response.content.decode()
    assert "at most 2.5 MB" in page and "Nothing was saved" in page
    assert not kop_tournament.rounds.exists()


def test_the_refusal_is_in_the_readers_language(director_client, kop_tournament):
    url = reverse("tournaments:round_import", kwargs={"slug": kop_tournament.slug})
    big = io.BytesIO(b"x" * (settings.UPLOAD_MAX_BYTES + 1))
    big.name = "seating.csv"
    director_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
    page = director_client.post(url, {"csv_file": big}).content.decode()
    assert "at most" not in page and "2,5 MB" in page


@pytest.mark.parametrize("query", ["q=%00", "q=a%00b", "%00=1", "player=12%00"])
def test_a_nul_in_the_address_is_a_400_with_a_message(client, kop_tournament, query):
    url = reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug})
    response = client.get(f"{url}?{query}")
    assert response.status_code == 400
    assert "cannot be used" in response.content.decode()


def test_a_nul_in_the_find_your_table_search_is_a_400(client, kop_tournament):
    url = reverse("tournaments:find", kwargs={"slug": kop_tournament.slug})
    assert client.get(f"{url}?q=Ala%00").status_code == 400


def test_a_seat_of_thousands_of_digits_is_asked_again_not_a_500(kop_table):
    link = reverse("scoring:table_link", args=[kop_table.session.entry_token])
    phone = Client()
    response = phone.post(link, {"seat": "9" * 5000})
    assert response.status_code == 200
    assert "Choose your seat at this table." in response.content.decode()
    assert not DealHistory.objects.exists()
    # A real seat still works.
    assert phone.post(link, {"seat": "2"}).status_code == 302


def test_an_ordinary_search_still_works(client, kop_tournament):
    url = reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug})
    assert client.get(f"{url}?q=Ala").status_code == 200
    assert Registration.objects.count() == 0


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("dora\x00", "This user name cannot be used: type it again."),
        ("d" * 5000, "This user name is too long: type it again."),
    ],
)
@pytest.mark.parametrize("login", ["/accounts/login/", "/admin/login/"])
def test_a_login_with_a_name_no_account_can_have_is_the_forms_error_not_a_500(
    client, director, username, message, login, monkeypatch
):
    """Issue 26: a NUL in the user name, or 5,000 characters, reached django-axes' lockout
    records (PostgreSQL stores no NUL; the column holds 255) and answered 500. The login
    form refuses it itself, saying why, without authenticating (no password hashed) and
    without typing the name into the form again; nothing is recorded."""
    from axes.models import AccessAttempt
    from django.contrib.auth.backends import ModelBackend

    from tests.strict_db import postgres_rules

    authenticated = []
    monkeypatch.setattr(ModelBackend, "authenticate", lambda *a, **k: authenticated.append(1))
    with postgres_rules():
        refused = client.post(login, {"username": username, "password": "x"})
    page = refused.content.decode()
    assert refused.status_code == 200 and 'name="username"' in page
    assert message in page
    assert "\x00" not in page and "d" * 151 not in page
    assert authenticated == [] and not AccessAttempt.objects.exists()


def test_a_refused_name_is_refused_in_polish(client, director):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
    page = client.post(reverse("login"), {"username": "dora\x00", "password": "x"})
    assert "Tej nazwy użytkownika nie można użyć" in page.content.decode()


def test_a_wrong_password_is_still_the_form_again_with_the_name_typed(client, director):
    again = client.post(reverse("login"), {"username": "dora-director", "password": "wrong"})
    page = again.content.decode()
    assert again.status_code == 200 and 'value="dora-director"' in page
    assert "Please enter a correct" in page
