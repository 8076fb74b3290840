"""The table's audit trail: locks and unlocks are history rows, deals and history are
read-only in the admin, reasons are capped at every entry point, and a scorer whose role in
the table's club ends stops writing at the next request."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from clubs.models import Membership
from clubs.roles import make_scorer
from scoring.games.kop.models import KopDeal
from scoring.models import DealHistory, TableSession
from tests.factories import UserFactory

DEAL = {"contract": "normal", "declarers": ["1", "3"], "doublings": "0", "declarer_points": "60"}


def url(name, session, **kw):
    return reverse(f"scoring:{name}", kwargs={"pk": session.pk, **kw})


@pytest.fixture
def superuser_client(db):
    client = Client()
    client.force_login(UserFactory(username="root", is_superuser=True, is_staff=True))
    return client


@pytest.fixture
def deal(kop_session, scorer_client):
    assert scorer_client.post(url("deal_add", kop_session), DEAL).status_code == 302
    return KopDeal.objects.get()


def test_lock_and_unlock_are_history_rows_with_who_when_and_why(
    kop_session, deal, director, director_client
):
    director_client.post(url("session_lock", kop_session), {"reason": "end of the evening"})
    director_client.post(url("session_lock", kop_session), {"unlock": "1", "reason": "typo"})
    locked, unlocked = (
        DealHistory.objects.get(session=kop_session, action=a) for a in ("locked", "unlocked")
    )
    assert (locked.user_id, locked.reason, locked.deal_number) == (
        director.pk,
        "end of the evening",
        0,
    )
    assert (unlocked.user_id, unlocked.reason) == (director.pk, "typo")
    assert unlocked.new["locked_by"] == director.pk  # who had locked it is not lost
    history = director_client.get(url("history", kop_session)).content.decode()
    assert "Table: locked" in history and "Table: unlocked" in history and "typo" in history


def test_the_deal_rows_record_the_account_that_wrote_them(kop_session, deal, scorer):
    row = DealHistory.objects.get(session=kop_session, action="created")
    assert (row.user_id, row.phone, row.seat) == (scorer.pk, "", None)


@pytest.mark.parametrize("model", ["kopdeal", "dealhistory"])
def test_the_admin_cannot_add_change_or_delete_deals_or_history(superuser_client, deal, model):
    pk = deal.pk if model == "kopdeal" else DealHistory.objects.get().pk
    base = f"/admin/scoring/{model}/"
    assert superuser_client.get(base).status_code == 200  # still shown
    assert superuser_client.get(f"{base}{pk}/change/").status_code == 200  # read-only view
    changed = superuser_client.post(f"{base}{pk}/change/", {"declarer_points": "10", "reason": "x"})
    assert changed.status_code == 403
    assert superuser_client.post(f"{base}{pk}/delete/", {"post": "yes"}).status_code == 403
    assert superuser_client.post(f"{base}add/", {}).status_code == 403
    bulk = superuser_client.post(base, {"action": "delete_selected", "_selected_action": [pk]})
    assert bulk.status_code in (200, 302)
    assert KopDeal.objects.get().declarer_points == 60
    assert DealHistory.objects.count() == 1


def test_the_admin_cannot_delete_a_session_or_its_round_table(superuser_client, kop_session, deal):
    response = superuser_client.post(
        f"/admin/scoring/tablesession/{kop_session.pk}/delete/", {"post": "yes"}
    )
    assert response.status_code == 403
    assert TableSession.objects.filter(pk=kop_session.pk).exists()
    assert KopDeal.objects.count() == 1


def test_a_scorer_whose_role_ends_cannot_save_to_their_own_session(
    kop_session, scorer, scorer_client
):
    assert kop_session.created_by == scorer
    assert scorer_client.post(url("deal_add", kop_session), DEAL).status_code == 302
    Membership.objects.filter(user=scorer, club_id=kop_session.club_id).delete()
    assert scorer_client.post(url("deal_add", kop_session), DEAL).status_code == 403
    assert KopDeal.objects.count() == 1
    make_scorer(scorer, kop_session.club)  # given back
    assert scorer_client.post(url("deal_add", kop_session), DEAL).status_code == 302
    # and taken away from the command line
    call_command("revoke", scorer.username, club=kop_session.club.name, role="scorer")
    assert scorer_client.post(url("deal_add", kop_session), DEAL).status_code == 403


def test_an_assigned_scorer_whose_role_ends_cannot_save(kop_session, db):
    other = UserFactory(username="assigned")
    make_scorer(other, kop_session.club)
    kop_session.scorers.add(other)
    client = Client()
    client.force_login(other)
    assert client.post(url("deal_add", kop_session), DEAL).status_code == 302
    Membership.objects.filter(user=other).delete()
    assert client.post(url("deal_add", kop_session), DEAL).status_code == 403


LONG = "x" * 501


def test_the_kop_correction_reason_is_capped(kop_session, deal, scorer_client):
    edit = url("deal_edit", kop_session, slot=1)
    page = scorer_client.post(edit, {**DEAL, "declarer_points": "20", "reason": LONG})
    assert page.status_code == 200  # the form again, with the error
    assert KopDeal.objects.get().declarer_points == 60
    assert not DealHistory.objects.filter(action="edited").exists()
    ok = scorer_client.post(edit, {**DEAL, "declarer_points": "20", "reason": "x" * 500})
    assert ok.status_code == 302 and KopDeal.objects.get().declarer_points == 20


def test_void_unlock_and_reissue_reasons_are_capped(kop_session, deal, director_client):
    director_client.post(url("deal_void", kop_session, slot=1), {"reason": LONG})
    assert not KopDeal.objects.get().voided
    director_client.post(url("session_lock", kop_session))
    director_client.post(url("session_lock", kop_session), {"unlock": "1", "reason": LONG})
    assert TableSession.objects.get(pk=kop_session.pk).locked
    token = TableSession.objects.get(pk=kop_session.pk).entry_token
    director_client.post(url("link_reissue", kop_session), {"reason": LONG})
    assert TableSession.objects.get(pk=kop_session.pk).entry_token == token
    assert all(len(r) <= 500 for r in DealHistory.objects.values_list("reason", flat=True))
