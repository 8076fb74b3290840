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


@pytest.mark.parametrize("username", ["dora\x00", "d" * 5000])
def test_a_login_with_a_name_no_account_can_have_is_a_400_not_a_500(client, director, username):
    """Issue 26: a NUL in the user name, or 5,000 characters, reached django-axes' lockout
    records (PostgreSQL stores no NUL; the column holds 255): refused before it, saying so."""
    from tests.strict_db import postgres_rules

    with postgres_rules():
        refused = client.post(reverse("login"), {"username": username, "password": "x"})
        assert refused.status_code == 400
        assert "This user name cannot be used" in refused.content.decode()
        # An ordinary wrong password is still the login form again, with its message.
        again = client.post(reverse("login"), {"username": "dora", "password": "wrong"})
    assert again.status_code == 200 and 'name="username"' in again.content.decode()
