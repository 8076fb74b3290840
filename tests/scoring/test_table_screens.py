"""What a table's page offers whom: the table's link and QR code for those who manage the
table (its club's directors, the scorer who started it), to hand to another player; the
"Accept" button only to a phone that may accept (a seat that wrote nothing, once there is
a deal to accept)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.actors import phone
from tests.factories import TableSessionFactory, UserFactory

pytestmark = pytest.mark.django_db


def page(client: Client, session) -> str:
    response = client.get(reverse("scoring:session", kwargs={"pk": session.pk}))
    assert response.status_code == 200
    return response.content.decode()


def test_the_scorer_who_starts_a_table_sees_its_link_and_qr_code(
    scorer, scorer_client, director_client
):
    session = TableSessionFactory(profile="kop-pagat", created_by=scorer, planned_deals=4)
    link = reverse("scoring:table_link", kwargs={"token": session.entry_token})
    for client in (scorer_client, director_client):
        html = page(client, session)
        box = html.split('id="table-link-box"')[1].split("</section>")[0]
        assert f"http://testserver{link}</code>" in box
        assert 'id="table-qr"><svg' in box


def test_nobody_else_sees_the_table_link(scorer):
    session = TableSessionFactory(profile="kop-pagat", created_by=scorer, planned_deals=4)
    other_scorer = UserFactory(username="olga-other")
    from clubs.roles import make_scorer

    make_scorer(other_scorer, session.club)
    other = Client()
    other.force_login(other_scorer)
    for client in (Client(), other, phone(session, seat=2)):
        html = page(client, session)
        assert 'id="table-link-box"' not in html
        assert session.entry_token not in html


def test_no_accept_button_before_any_deal_nor_on_the_phone_that_entered_them(scorer):
    session = TableSessionFactory(profile="kop-pagat", created_by=scorer, planned_deals=1)
    writer, checker = phone(session, seat=1), phone(session, seat=3)
    for client in (writer, checker):  # before any deal: nothing to accept
        html = page(client, session)
        assert 'id="accept-result"' not in html and 'id="accept-no-deals"' in html
    writer.post(
        reverse("scoring:deal_add", kwargs={"pk": session.pk}),
        {"contract": "normal", "declarers": ["1", "2"], "doublings": "0", "declarer_points": "64"},
    )
    assert 'id="accept-result"' not in page(writer, session)
    assert 'id="accept-result"' in page(checker, session)


def test_a_typing_slip_in_card_points_shows_no_other_side(scorer, scorer_client):
    session = TableSessionFactory(profile="kop-pagat", created_by=scorer, planned_deals=4)
    deal = {"contract": "normal", "declarers": ["1", "2"], "doublings": "0"}
    url = reverse("scoring:deal_add", kwargs={"pk": session.pk})
    for typed in ["610", "6" * 400, "-5"]:  # refused: the pad is drawn again as typed
        html = scorer_client.post(url, {**deal, "declarer_points": typed}).content.decode()
        assert 'id="other-points">—</output>' in html, typed
