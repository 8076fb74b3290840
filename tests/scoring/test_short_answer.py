"""A save's short answer: a pad drawn empty gets back only what the new deal changed.

The pad's form, drawn empty, asks for it (``pad_answer=short`` by hx-vals) and says the
session's revision it was drawn at; when nothing else was written since, the answer is
the parts swapped in by id (``hx-swap-oob``): the message, the totals, the next deal's
head, number, key and revision, an empty preview, and for Kop the new deal's row alone
(the phone puts it on top of the rows it shows). Otherwise the whole pad, as before.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services
from scoring.games.interface import Slot
from scoring.models import TableSession
from tests.scoring.test_vint_entry import RUBBER_1

pytestmark = pytest.mark.django_db

NORMAL_60 = {
    "contract": "normal",
    "declarers": ["1", "3"],
    "doublings": "0",
    "declarer_points": "60",
}
ZOLO_28 = {"contract": "zolo", "declarers": ["2"], "doublings": "1", "declarer_points": "28"}
HX = {"HX-Request": "true"}


def revision(session: TableSession) -> str:
    return str(TableSession.objects.get(pk=session.pk).revision)


def save(client, session, data, *, short=True, drawn_at=None):  # type: ignore[no-untyped-def]
    post = dict(data)
    if short:
        post.update(pad_answer="short", pad_revision=drawn_at or revision(session))
    response = client.post(f"/sessions/{session.pk}/deals/", post, headers=HX)
    assert response.status_code == 200
    return response, response.content.decode()


def oob_ids(html: str) -> list[str]:
    return re.findall(r'<[a-z0-9]+ [^>]*id="([a-z-]+)"[^>]*hx-swap-oob', html)


def test_a_page_drawn_empty_asks_for_the_short_answer(scorer_client, kop_session):
    page = scorer_client.get(reverse("scoring:session", args=[kop_session.pk])).content.decode()
    assert """hx-vals='{"pad_answer": "short"}'""" in page
    assert 'name="pad_revision" id="pad-revision" value="0"' in page


def test_the_short_answer_holds_the_changed_parts_and_no_form(scorer_client, kop_session):
    save(scorer_client, kop_session, NORMAL_60)  # the first deal: its answer draws the rows
    response, html = save(scorer_client, kop_session, ZOLO_28)
    assert response["X-Pad-Answer"] == "short" and response["HX-Reswap"] == "none"
    assert response["X-Deal-Outcome"] == "saved" and response["X-Deal-Number"] == "2"
    assert "<form" not in html and 'id="pad"' not in html
    assert oob_ids(html) == [
        "saved-msg",
        "expected-number",
        "submission-key",
        "pad-revision",
        "save-deal",
        "totals",
        "deal-head",
        "preview",
        "deal-count",
    ]
    assert "Deal 2 saved." in html and "Save deal 3" in html and "Deal 3" in html
    assert 'name="expected_number" id="expected-number" value="3"' in html
    assert 'name="pad_revision" id="pad-revision" value="2"' in html
    # the new row alone, to go on top of the rows the phone shows
    assert 'hx-swap-oob="afterbegin:#recent-rows"' in html
    assert html.count("<tr") == 1 and "<td>2</td>" in html
    # the totals as the session's tally has them after both deals
    session = TableSession.objects.get(pk=kop_session.pk)
    for seat, total in enumerate(session.tally["totals"], 1):
        assert f'data-total-seat="{seat}">{total}<' in html
    assert "2 of 32 deals played" in html
    assert 'id="preview" hx-swap-oob="innerHTML"' in html


def test_the_first_deal_draws_the_rows_whole(scorer_client, kop_session):
    response, html = save(scorer_client, kop_session, NORMAL_60)
    assert response["X-Pad-Answer"] == "short"
    assert '<section class="recent" id="recent" hx-swap-oob="true">' in html
    assert 'id="recent-rows" data-keep="8"' in html


def test_a_pad_drawn_before_another_write_gets_the_whole_pad(scorer_client, kop_session):
    drawn_at = revision(kop_session)
    services.deal_record(
        session=kop_session,
        facts={"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60},
        actor=services.Actor(label="director", is_director=True),
    )
    response, html = save(scorer_client, kop_session, ZOLO_28, drawn_at=drawn_at)
    # stored (the form said no expected number), but the pad the phone shows is a deal
    # behind: it is drawn again whole
    assert response["X-Deal-Outcome"] == "saved"
    assert "X-Pad-Answer" not in response
    assert html.lstrip().startswith('<div id="pad">') and 'id="deal-form"' in html


def test_a_correction_since_the_pad_was_drawn_gets_the_whole_pad(scorer_client, kop_session):
    save(scorer_client, kop_session, NORMAL_60)
    drawn_at = revision(kop_session)
    services.deal_correct(
        session=kop_session,
        slot=Slot(0, 1),
        facts={"contract": "normal", "declarers": [2, 4], "doublings": 0, "declarer_points": 70},
        actor=services.Actor(label="director", is_director=True),
        reason="wrong side",
    )
    response, html = save(scorer_client, kop_session, ZOLO_28, drawn_at=drawn_at)
    assert "X-Pad-Answer" not in response and 'id="deal-form"' in html


def test_without_the_ask_or_sent_twice_the_answer_is_the_whole_pad(scorer_client, kop_session):
    response, html = save(scorer_client, kop_session, NORMAL_60, short=False)
    assert "X-Pad-Answer" not in response and 'id="deal-form"' in html
    keyed = {**ZOLO_28, "submission_key": "the-same-key-0123456789", "expected_number": "2"}
    first, _ = save(scorer_client, kop_session, keyed)
    assert first["X-Pad-Answer"] == "short"
    again, html = save(scorer_client, kop_session, keyed, drawn_at="1")
    assert again["X-Deal-Outcome"] == "replayed" and "X-Pad-Answer" not in again
    assert 'id="deal-form"' in html


def test_a_refused_save_draws_the_form_with_the_values_and_no_ask(scorer_client, kop_session):
    response, html = save(scorer_client, kop_session, {**NORMAL_60, "declarer_points": "105"})
    assert response["X-Deal-Outcome"] == "rejected"
    assert 'value="105"' in html and "pad_answer" not in html


def test_vint_mid_rubber_short_answer_and_whole_pad_when_the_rubber_asks(
    scorer_client, vint_session
):
    first, html = save(scorer_client, vint_session, {"rubber": "1", **RUBBER_1[0]})
    # the pad drawn for the first deal asked for the first dealer; after it, it does not
    assert "X-Pad-Answer" not in first and 'name="first_dealer"' not in html
    assert """hx-vals='{"pad_answer": "short"}'""" in html
    response, html = save(scorer_client, vint_session, {"rubber": "1", **RUBBER_1[1]})
    assert response["X-Pad-Answer"] == "short" and "<form" not in html
    parts = {"saved-msg", "totals", "deal-head", "expected-number", "rubber-heading"}
    assert parts | {"session-totals"} <= set(oob_ids(html)) and "recent" not in oob_ids(html)
    assert "Rubber 1, deal 2 saved." in html and "Save deal 3" in html
    # deal 2's row alone, for the top of the rubber's rows (deal 1's is on the phone)
    top = r'<tbody hx-swap-oob="afterbegin:#recent-rows">\s*<tr[^>]*>\s*<td>(\d+)'
    rows = re.findall(top, html)
    assert rows == ["2"] and html.count("<tr") == 1
    # 5D by W made (vint.md §6.2 deal 2): EW 2,000 + 300 above, 55 below; the session
    # totals are the rubber's columns so far (Anna 1,250, Boris 2,367)
    assert re.search(r'data-session-total="Boris">2367<', html)
    assert re.search(r'data-session-total="Anna">1250<', html)
