"""A Vint rubber's end in one line, on the pad before the next rubber's empty columns and
on the sheet: who won the rubber and by how many points (§6.2's rubber 1: N–S 12,756
against E–W 6,508)."""

from __future__ import annotations

import pytest

from tests.scoring.test_vint_entry import RUBBER_1, page, record, url

pytestmark = pytest.mark.django_db

LINE = "Rubber 1 won by N–S by 6,248"


def test_the_rubber_result_stands_above_the_next_rubbers_columns(scorer_client, vint_session):
    record(scorer_client, vint_session, RUBBER_1[:-1])
    assert 'id="rubber-result"' not in page(scorer_client, vint_session)  # still on
    record(scorer_client, vint_session, RUBBER_1[-1:])
    html = page(scorer_client, vint_session)
    assert "Rubber 2 · deal 1" in html
    totals = html.split('id="totals"')[1].split("</div>\n")[0]
    assert f'id="rubber-result">{LINE}</p>' in totals
    assert totals.index(LINE) < totals.index('data-rubber-total="N">0<')
    sheet = scorer_client.get(url("sheet", vint_session)).content.decode()
    assert f'data-rubber-result="1"><strong>{LINE}</strong>' in sheet
