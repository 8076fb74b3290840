"""The Kop scorer's page: preview, save, rejected entries, warnings, corrections, lock."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.games.kop.models import KopDeal
from scoring.models import DealHistory
from tests.actors import open_table_link
from tests.factories import TableSessionFactory

pytestmark = pytest.mark.django_db


def url(name, session, **kw):
    return reverse(f"scoring:{name}", kwargs={"pk": session.pk, **kw})


NORMAL_60 = {
    "contract": "normal",
    "declarers": ["1", "3"],
    "doublings": "0",
    "declarer_points": "60",
}


def test_scorer_saves_a_normal_deal_and_sees_the_totals(scorer_client, kop_session):
    response = scorer_client.post(url("deal_add", kop_session), NORMAL_60)
    assert response.status_code == 302
    deal = KopDeal.objects.get(session=kop_session)
    # E1 of kop.md: Old 1 & 3 take 60 -> +1 -1 +1 -1
    assert (deal.number, deal.value, deal.payments) == (1, 1, (1, -1, 1, -1))
    page = scorer_client.get(url("session", kop_session)).content.decode()
    assert 'data-total-seat="1">1<' in page and 'data-total-seat="2">-1<' in page
    assert "Deal 2" in page


def test_htmx_save_returns_the_pad_partial_with_a_fresh_form(scorer_client, kop_session):
    response = scorer_client.post(
        url("deal_add", kop_session), NORMAL_60, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="pad">')
    assert "Deal 1 saved." in html and "Save deal 2" in html
    assert "<html" not in html


def test_preview_shows_the_four_payments_before_saving(scorer_client, kop_session):
    # E17: zolo by seat 3, kontra by 4, rej by 3, soloist loses with 28 -> V 20
    data = {
        "contract": "zolo",
        "declarers": ["3"],
        "doubling_mode": "seats",
        "doubling_seats": "4 3",
        "declarer_points": "28",
    }
    response = scorer_client.post(url("preview", kop_session), data, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert 'data-preview-points="28"' in html  # the box's content: the box itself stays
    assert "V = 20" in html
    for seat, pay in [(1, "+20"), (2, "+20"), (3, "-60"), (4, "+20")]:
        assert f'data-preview-seat="{seat}">{pay}<' in html
    assert KopDeal.objects.count() == 0


def test_rejected_entry_keeps_what_was_typed_and_says_why(scorer_client, kop_session):
    data = {"contract": "normal", "declarers": ["1"], "doublings": "1", "declarer_points": "71"}
    response = scorer_client.post(url("deal_add", kop_session), data)
    html = response.content.decode()
    assert response.status_code == 200
    assert KopDeal.objects.count() == 0
    assert 'id="declarers-error"' in html
    assert 'value="71"' in html  # the points typed are still there
    assert 'value="normal" data-declarers="2" checked' in html
    assert 'name="declarers" value="1" checked' in html
    assert 'name="doublings" value="1" checked' in html


def test_missing_points_are_reported_beside_the_field(scorer_client, kop_session):
    data = {"contract": "normal", "declarers": ["1", "3"], "doublings": "0", "declarer_points": ""}
    html = scorer_client.post(url("deal_add", kop_session), data).content.decode()
    assert 'id="points-error"' in html
    assert KopDeal.objects.count() == 0


def test_doubling_over_the_cap_is_refused(scorer_client, kop_session):
    data = {**NORMAL_60, "doublings": "5"}
    html = scorer_client.post(url("deal_add", kop_session), data).content.decode()
    assert 'id="doublings-error"' in html
    assert KopDeal.objects.count() == 0


def test_impossible_card_points_need_confirmation(scorer_client, kop_session):
    data = {**NORMAL_60, "declarer_points": "90"}  # 90 cannot occur (kop.md Appendix A)
    html = scorer_client.post(url("deal_add", kop_session), data).content.decode()
    assert 'id="confirm-box"' in html
    assert KopDeal.objects.count() == 0
    response = scorer_client.post(url("deal_add", kop_session), {**data, "confirm": "on"})
    assert response.status_code == 302
    deal = KopDeal.objects.get()
    assert deal.declarer_points == 90 and deal.warnings_confirmed


def test_correction_with_reason_keeps_the_history(scorer_client, kop_session, scorer):
    scorer_client.post(url("deal_add", kop_session), NORMAL_60)
    edit = url("deal_edit", kop_session, slot=1)
    assert scorer_client.get(edit).status_code == 200
    corrected = {**NORMAL_60, "declarers": ["2", "4"], "reason": "queens were with 2 and 4"}
    assert scorer_client.post(edit, corrected).status_code == 302
    deal = KopDeal.objects.get()
    assert deal.payments == (-1, 1, -1, 1)
    entry = DealHistory.objects.get(action="edited")
    assert entry.actor == scorer.username
    assert entry.reason == "queens were with 2 and 4"
    assert entry.old["declarers"] == [1, 3] and entry.old["payments"] == [1, -1, 1, -1]
    assert entry.new["payments"] == [-1, 1, -1, 1]


def test_correction_without_reason_is_refused(scorer_client, kop_session):
    scorer_client.post(url("deal_add", kop_session), NORMAL_60)
    edit = url("deal_edit", kop_session, slot=1)
    html = scorer_client.post(edit, {**NORMAL_60, "declarer_points": "40"}).content.decode()
    assert "Say why" in html
    assert KopDeal.objects.get().declarer_points == 60


def test_void_with_reason_removes_the_deal_from_the_totals(scorer_client, kop_session):
    scorer_client.post(url("deal_add", kop_session), NORMAL_60)
    scorer_client.post(url("deal_add", kop_session), {**NORMAL_60, "declarer_points": "40"})
    response = scorer_client.post(url("deal_void", kop_session, slot=1), {"reason": "misdeal"})
    assert response.status_code == 302
    assert KopDeal.objects.get(number=1).voided
    page = scorer_client.get(url("session", kop_session)).content.decode()
    # only deal 2 counts: Old 1 & 3 lose with 40 -> -1 +1 -1 +1
    assert 'data-total-seat="1">-1<' in page
    assert DealHistory.objects.get(action="voided").reason == "misdeal"


def test_outsider_cannot_enter_deals(client, member_client, kop_session):
    assert client.post(url("deal_add", kop_session), NORMAL_60).status_code == 403
    assert member_client.post(url("deal_add", kop_session), NORMAL_60).status_code == 403
    assert KopDeal.objects.count() == 0
    # but everyone may read the sheet
    assert client.get(url("sheet", kop_session)).status_code == 200


def test_table_link_lets_a_player_without_an_account_enter(kop_session):
    client = Client()
    response = client.get(reverse("scoring:table_link", kwargs={"token": kop_session.entry_token}))
    assert response.status_code == 200 and "Which seat are you?" in response.content.decode()
    assert client.post(url("deal_add", kop_session), NORMAL_60).status_code == 403  # no seat yet
    open_table_link(client, kop_session, seat=2)
    assert client.post(url("deal_add", kop_session), NORMAL_60).status_code == 302
    assert KopDeal.objects.get().entered_by == "table link, seat 2"
    row = DealHistory.objects.get()
    assert (row.seat, len(row.phone), row.user_id) == (2, 16, None)
    # Opening the link again keeps the seat: the phone goes straight to the pad.
    again = client.get(reverse("scoring:table_link", kwargs={"token": kop_session.entry_token}))
    assert again.status_code == 302


def test_wrong_table_link_is_404(client):
    assert client.get(reverse("scoring:table_link", kwargs={"token": "nope"})).status_code == 404


def test_after_the_lock_nobody_changes_deals_until_the_director_unlocks(
    scorer_client, director_client, kop_session
):
    scorer_client.post(url("deal_add", kop_session), NORMAL_60)
    assert scorer_client.post(url("session_lock", kop_session)).status_code == 403
    assert director_client.post(url("session_lock", kop_session)).status_code == 302
    edit = url("deal_edit", kop_session, slot=1)
    for client in (scorer_client, director_client):  # the director too (issue 25)
        assert client.post(url("deal_add", kop_session), NORMAL_60).status_code == 403
        assert client.post(edit, {**NORMAL_60, "reason": "x"}).status_code == 403
        assert 'id="deal-form"' not in client.get(url("session", kop_session)).content.decode()
    assert KopDeal.objects.count() == 1
    unlock = {"unlock": "1", "reason": "declarers had 20, not 60"}
    assert director_client.post(url("session_lock", kop_session), unlock).status_code == 302
    response = director_client.post(edit, {**NORMAL_60, "declarer_points": "20", "reason": "fix"})
    assert response.status_code == 302
    assert KopDeal.objects.get().payments == (-2, 2, -2, 2)


def test_baska_session_offers_baska_contracts(scorer_client, baska_session):
    html = scorer_client.get(url("session", baska_session)).content.decode()
    assert 'value="grand_du"' in html and 'value="baska"' in html
    # E24: Baśka normal 52:52, Old lose -> x2
    scorer_client.post(url("deal_add", baska_session), {**NORMAL_60, "declarer_points": "52"})
    assert KopDeal.objects.get().payments == (-2, 2, -2, 2)


def test_kop_session_refuses_a_baska_contract(scorer_client, kop_session):
    data = {**NORMAL_60, "contract": "grand", "declarers": ["2"]}
    html = scorer_client.post(url("deal_add", kop_session), data).content.decode()
    assert "error" in html
    assert KopDeal.objects.count() == 0


def test_unknown_session_is_404(client):
    assert client.get(reverse("scoring:session", kwargs={"pk": 999})).status_code == 404


def test_a_kop_deal_posted_to_a_vint_session_is_read_as_vint_and_refused(
    director_client, profiles, four_players
):
    """One set of entry views: the session's game reads the form, so Kop facts sent to a
    Vint table are an incomplete Vint deal (nothing stored, no server error)."""
    from scoring.games.vint.models import VintDeal

    vint = TableSessionFactory(game="vint", players=four_players)
    response = director_client.post(url("deal_add", vint), NORMAL_60, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["X-Deal-Outcome"] == "rejected"
    assert not KopDeal.objects.exists() and not VintDeal.objects.exists()
    assert director_client.post(url("preview", vint), NORMAL_60).status_code == 200
    history = director_client.get(url("history", vint))
    # The one history page, with the Vint game's entries (none: nothing was stored).
    assert history.status_code == 200 and "scoring/history.html" in [
        t.name for t in history.templates
    ]
    assert history.context["history"] == []


def test_wesele_bidder_is_the_first_seat_tapped(scorer_client, kop_session):
    # Seat 3 bid wesele (tapped first), seat 1 holds the jack; seat 3 then doubled second:
    # R6 (the wesele bidder may not double) is a warning the scorer must confirm.
    data = {
        "contract": "wesele",
        "declarers": ["1", "3"],
        "declarer_order": "3 1",
        "doubling_mode": "seats",
        "doubling_seats": "2 3",
        "declarer_points": "60",
    }
    html = scorer_client.post(url("deal_add", kop_session), data).content.decode()
    assert 'id="confirm-box"' in html
    assert KopDeal.objects.count() == 0
    # Tapped the other way round, seat 1 is the bidder and seat 3's rej is allowed.
    response = scorer_client.post(url("deal_add", kop_session), {**data, "declarer_order": "1 3"})
    assert response.status_code == 302
    assert KopDeal.objects.get().declarers == [1, 3]
