"""The Vint scorer's page: rubber 1 of vint.md §6.2 deal by deal through the views,
the preview, rejected entries, the fifth extra deal, corrections and voids that
rescore the rest of the rubber, the lock and who may enter deals.

Expected figures are typed from ``shared/rules/vint.md`` (§6.1, §6.2) or, for
corrections the document does not cover, worked out by hand in the comments.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.games.vint.models import VintDeal, VintRubber
from scoring.models import DealHistory, TableSession
from tests.actors import phone

pytestmark = pytest.mark.django_db


def url(name, session, **kw):
    return reverse(f"scoring:{name}", kwargs={"pk": session.pk, **kw})


def contract(c, declarer, tricks, doubling=0, **more):
    return {
        "contract": c,
        "declarer": declarer,
        "doubling": str(doubling),
        "declarer_tricks": str(tricks),
        **{k: str(v) for k, v in more.items()},
    }


# vint.md §6.2, rubber 1: Anna (N) + Carl (S) v Boris (E) + Dina (W), first dealer N.
# What the scorer taps for each deal.
RUBBER_1 = [
    contract("4H", "N", 10, honours_side="NS", honours_count=5),
    contract("5D", "W", 11, honours_side="EW", honours_count=6),
    contract("6C", "S", 12, honours_side="NS", honours_count=8, seq_H_seat="S", seq_H_length=3),
    contract("4S", "E", 9, honours_side="EW", honours_count=6),
    contract("4G", "N", 11, grand_aces_side="NS", grand_aces_count=3),
    contract("4M", "E", 3, dump_1_seat="W", dump_1_trick=6),
    {"contract": "pass", "ns_tricks": "5", "dump_1_seat": "S", "dump_1_trick": "10"},
    contract("6H", "N", 12, honours_side="NS", honours_count=8, seq_H_seat="N", seq_H_length=4),
    contract("5G", "W", 11, grand_aces_side="EW", grand_aces_count=3),
]
# The §6.2 table: NS above, NS below, EW above, EW below (the above items summed as
# the document lists them), games NS-EW, dealer, phase, and the running columns
# Anna, Boris, Carl, Dina.
RUBBER_1_SHEET = [
    (1000 + 200, 40, 0, 12, (0, 0), "N", "main", (1240, 12, 1240, 12)),
    (0, 10, 2000 + 300, 55, (0, 1), "E", "main", (1250, 2367, 1250, 2367)),
    (3000 + 480 + 100, 72, 0, 6, (1, 1), "S", "main", (4902, 2373, 4902, 2373)),
    (400, 16, 240, 36, (1, 1), "W", "main", (5318, 2649, 5318, 2649)),
    (1000 + 120 + 400, 44, 0, 8, (2, 1), "N", "main", (6882, 2657, 6882, 2657)),
    (0, 12, 1000 + 600, 40, (2, 1), "E", "extra 1", (6894, 4297, 6894, 4297)),
    (300 + 1000, 0, 0, 0, (2, 1), "S", "extra 2", (8194, 4297, 8194, 4297)),
    (3000 + 480 + 400 + 600, 72, 0, 6, (3, 1), "W", "extra 3", (12746, 4303, 12746, 4303)),
    (0, 10, 2000 + 150, 55, (3, 1), "N", "extra 4", (12756, 6508, 12756, 6508)),
]


def page(client, session):
    return client.get(url("session", session)).content.decode()


def rubber_totals(html):
    return [
        int(re.search(rf'data-rubber-total="{seat}">(-?\d+)<', html).group(1)) for seat in "NESW"
    ]


def sheet_total(html, rubber, seat):
    return int(re.search(rf'data-sheet-total="{rubber}-{seat}">(-?\d+)<', html).group(1))


def record(client, session, deals, rubber=1):
    for data in deals:
        response = client.post(url("deal_add", session), {"rubber": str(rubber), **data})
        assert response.status_code == 302, response.content.decode()[:3000]


def test_rubber_1_of_the_document_deal_by_deal(scorer_client, vint_session):
    html = page(scorer_client, vint_session)
    assert "Rubber 1 · deal 1" in html and "dealer</" not in html
    assert "NS: Anna + Carl · EW: Boris + Dina" in html
    for n, (data, expected) in enumerate(zip(RUBBER_1, RUBBER_1_SHEET, strict=True), 1):
        ns_above, ns_below, ew_above, ew_below, games, dealer, phase, columns = expected
        html = page(scorer_client, vint_session)
        assert f"Rubber 1 · deal {n}</strong>" in html
        assert f"dealer: {dealer} (" in html
        if phase.startswith("extra"):
            assert f"extra deal {phase[-1]} of 4" in html
        record(scorer_client, vint_session, [data])
        deal = VintDeal.objects.get(session=vint_session, rubber=1, number=n)
        e = deal.entries
        assert (e["above"]["NS"], e["below"]["NS"]) == (ns_above, ns_below), n
        assert (e["above"]["EW"], e["below"]["EW"]) == (ew_above, ew_below), n
        assert (e["games"]["NS"], e["games"]["EW"]) == games, n
        assert e["phase"] == phase.split()[0]
        if n < 9:  # after deal 9 the pad moves on to rubber 2; the sheet is read below
            assert rubber_totals(page(scorer_client, vint_session)) == list(columns), n

    sheet = scorer_client.get(url("sheet", vint_session)).content.decode()
    # Totals: NS 12480 + 276 = 12756, EW 6290 + 218 = 6508; partners' columns alike.
    assert [sheet_total(sheet, 1, s) for s in "NESW"] == [12756, 6508, 12756, 6508]
    # The game lines of §6.2's sheet.
    for note in ["EW game 1 (67)", "NS game 1 (72)", "NS game 2 (60)", "NS game 3 (84)"]:
        assert note in sheet
    assert sheet.count('class="game-line"') == 4
    # Deal 8's entries above the line, newest item first as on the paper sheet.
    row = re.search(r"<tr><th>d8</th>(.*?)</tr>", sheet).group(1)
    assert re.findall(r">(\d+)</span>", row)[:4] == ["600", "400", "480", "3000"]
    assert "extra deal 4 of 4" in sheet and "rubber bonus" in sheet
    assert "finished, won by NS" in sheet
    # After the fourth extra deal the pad moves on to rubber 2: Anna (N) + Boris (S).
    html = page(scorer_client, vint_session)
    assert "Rubber 2 · deal 1" in html
    assert "NS: Anna + Boris · EW: Carl + Dina" in html
    # Rubber 1 ended with N dealing; rubber 2 starts with the seat after it.
    assert 'name="first_dealer" value="E" checked' in html


def test_a_fifth_extra_deal_is_refused_and_the_input_kept(scorer_client, vint_session):
    record(scorer_client, vint_session, RUBBER_1)
    fifth = contract("4S", "S", 10, honours_side="NS", honours_count=5)
    response = scorer_client.post(url("deal_add", vint_session), {"rubber": "1", **fifth})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Rubber 1 is over: its fourth extra deal was deal 9." in html
    assert "The next deal belongs to rubber 2." in html
    assert VintDeal.objects.filter(session=vint_session).count() == 9
    assert 'value="4S" data-kind="suit" checked' in html
    assert 'name="declarer_tricks" id="id_declarer_tricks"' in html and 'value="10"' in html
    # The pad now offers rubber 2: saving again puts the deal there.
    assert 'name="rubber" value="2"' in html
    record(scorer_client, vint_session, [fifth], rubber=2)
    assert VintDeal.objects.get(session=vint_session, rubber=2).number == 1
    assert VintRubber.objects.get(session=vint_session, number=2).first_dealer == "E"


def test_htmx_save_returns_a_fresh_pad(scorer_client, vint_session):
    response = scorer_client.post(
        url("deal_add", vint_session),
        {"rubber": "1", **RUBBER_1[0]},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="pad">')
    assert "Rubber 1, deal 1 saved." in html and "Save deal 2" in html
    assert "<html" not in html


def test_preview_shows_the_entries_of_each_side_before_saving(scorer_client, vint_session):
    # E7: 4 misère by E, EW take 2 tricks; E's ♠A lost on trick 5, N's ♦A on trick 9.
    data = contract("4M", "E", 2, dump_1_seat="E", dump_1_trick=5, dump_2_seat="N", dump_2_trick=9)
    response = scorer_client.post(
        url("preview", vint_session), data, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert 'id="preview"' not in html  # only the box's content: the box stays in place
    assert 'data-preview-above="EW">1500<' in html  # 1000 made + 500 ace dump
    assert 'data-preview-below="EW">44<' in html
    assert 'data-preview-above="NS">900<' in html
    assert 'data-preview-below="NS">8<' in html
    assert VintDeal.objects.count() == 0


def test_preview_says_what_is_still_missing(scorer_client, vint_session):
    html = scorer_client.post(
        url("preview", vint_session), {"contract": "5C"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Tap the declarer" in html and "honour units" in html


def test_preview_of_the_deal_that_wins_the_rubber(scorer_client, vint_session):
    record(scorer_client, vint_session, RUBBER_1[:4])
    html = scorer_client.post(url("preview", vint_session), RUBBER_1[4]).content.decode()
    assert 'data-preview-above="NS">1520<' in html  # 1000 made; 120 grand aces; 400 rubber
    assert "rubber bonus" in html and "NS win game 2" in html


def test_rejected_entry_keeps_what_was_typed_and_says_why(scorer_client, vint_session):
    # N holding four aces gives NS at least 5 honour units: EW cannot hold 6.
    data = contract("5D", "W", 11, honours_side="EW", honours_count=6, hand_seat="N", hand_count=4)
    response = scorer_client.post(url("deal_add", vint_session), {"rubber": "1", **data})
    html = response.content.decode()
    assert response.status_code == 200
    assert VintDeal.objects.count() == 0
    assert 'id="honours-error"' in html and "honour units" in html
    assert 'value="5D" data-kind="suit" checked' in html
    assert 'name="declarer" value="W" checked' in html
    assert 'name="honours_side" value="EW" checked' in html
    assert 'name="honours_count" value="6" checked' in html
    assert '<option value="N" selected>N Anna</option>' in html
    assert 'value="11"' in html
    assert '<details class="need k-suit k-grand extras" open>' in html


def test_missing_fields_are_reported_beside_them(scorer_client, vint_session):
    html = scorer_client.post(
        url("deal_add", vint_session), {"rubber": "1", "contract": "4H"}
    ).content.decode()
    assert 'id="declarer-error"' in html and 'id="tricks-error"' in html
    assert 'id="honours-error"' in html
    html = scorer_client.post(url("deal_add", vint_session), {"rubber": "1"}).content.decode()
    assert 'id="contract-error"' in html
    assert VintDeal.objects.count() == 0


def test_all_pass_tricks_out_of_range_are_refused(scorer_client, vint_session):
    data = {"rubber": "1", "contract": "pass", "ns_tricks": "14"}
    html = scorer_client.post(url("deal_add", vint_session), data).content.decode()
    assert 'id="tricks-error"' in html and "NS tricks must be from 0 to 13, not 14." in html
    assert (
        'name="ns_tricks" id="id_ns_tricks" min="0" max="13" inputmode="numeric" value="14"' in html
    )
    assert VintDeal.objects.count() == 0


def test_all_pass_tricks_that_are_not_a_number_are_refused(scorer_client, vint_session):
    # Used to raise TypeError (13 - None) in the form: found by mypy.
    data = {"rubber": "1", "contract": "pass", "ns_tricks": "7.5"}
    response = scorer_client.post(url("deal_add", vint_session), data)
    assert response.status_code == 200
    assert 'id="tricks-error"' in response.content.decode()
    assert VintDeal.objects.count() == 0


def test_fields_the_contract_does_not_use_are_ignored(scorer_client, vint_session):
    # Honours typed, then grand chosen: the honours stay on the pad but do not count.
    data = contract("4G", "N", 11, honours_side="NS", honours_count=5, dump_1_seat="E")
    record(scorer_client, vint_session, [data])
    assert VintDeal.objects.get().facts == {
        "contract": "4G",
        "declarer": "N",
        "doubling": 0,
        "declarer_tricks": 11,
    }


def test_correcting_an_early_deal_rescores_the_later_ones(scorer_client, vint_session, scorer):
    record(scorer_client, vint_session, RUBBER_1[:3])
    assert VintDeal.objects.get(number=2).entries["games_won"] == ["EW"]
    edit = url("deal_edit", vint_session, slot="1.1")
    html = scorer_client.get(edit).content.decode()
    assert 'value="4H" data-kind="suit" checked' in html and 'data-preview-above="NS">1200<' in html
    # Deal 1 really made 12 tricks: NS 48 and EW 4 below (4 per trick). Then deal 2
    # leaves EW on 4 + 55 = 59 (no game) and NS on 48 + 10 = 58; deal 3 brings NS
    # to 130 and EW to 65, both past 60: the higher total (NS) takes the game.
    corrected = {**RUBBER_1[0], "declarer_tricks": "12", "reason": "two more tricks"}
    assert scorer_client.post(edit, corrected).status_code == 302
    d1, d2, d3 = VintDeal.objects.filter(session=vint_session).order_by("number")
    assert (d1.entries["below"]["NS"], d1.entries["below"]["EW"]) == (48, 4)
    assert d2.entries["games_won"] == [] and d2.entries["games"] == {"NS": 0, "EW": 0}
    assert d3.entries["games_won"] == ["NS"] and d3.entries["games"] == {"NS": 1, "EW": 0}
    # Anna: 1200 + 48, + 10, + 3580 + 72 = 4910; Boris: 4, + 2300 + 55, + 6 = 2365.
    assert rubber_totals(page(scorer_client, vint_session)) == [4910, 2365, 4910, 2365]
    entry = DealHistory.objects.get(session=vint_session, action="edited")
    assert entry.actor == scorer.username and entry.reason == "two more tricks"
    assert entry.old["facts"]["declarer_tricks"] == 10 and entry.old["rubber"] == 1
    assert entry.new["facts"]["declarer_tricks"] == 12
    assert entry.old["below"] == {"NS": 40, "EW": 12}
    assert entry.new["below"] == {"NS": 48, "EW": 4}
    history = scorer_client.get(url("history", vint_session)).content.decode()
    assert "Rubber 1, deal 1: corrected" in history and "two more tricks" in history


def test_correction_needs_a_reason(scorer_client, vint_session):
    record(scorer_client, vint_session, RUBBER_1[:1])
    edit = url("deal_edit", vint_session, slot="1.1")
    html = scorer_client.post(edit, {**RUBBER_1[0], "declarer_tricks": "11"}).content.decode()
    assert 'id="reason-error"' in html and "Say why" in html
    assert VintDeal.objects.get().facts["declarer_tricks"] == 10


def test_a_correction_that_ends_the_rubber_early_is_refused(scorer_client, vint_session):
    record(scorer_client, vint_session, RUBBER_1)
    # Deal 4 as 7♥ made by N: NS 91 below, their second game, so the rubber would
    # end with deal 8 and deal 9 would come after its end.
    edit = url("deal_edit", vint_session, slot="1.4")
    data = {**contract("7H", "N", 13, honours_side="NS", honours_count=5), "reason": "misread"}
    html = scorer_client.post(edit, data).content.decode()
    assert "would end with its deal 8" in html and "Deal 9 was played after it" in html
    assert VintDeal.objects.get(number=4).facts["contract"] == "4S"
    assert not DealHistory.objects.filter(action="edited").exists()


def test_void_takes_the_deal_out_and_rescores_the_rubber(scorer_client, vint_session):
    record(scorer_client, vint_session, RUBBER_1[:3])
    response = scorer_client.post(url("deal_void", vint_session, slot="1.2"), {"reason": "misdeal"})
    assert response.status_code == 302
    d2 = VintDeal.objects.get(number=2)
    assert d2.voided and d2.entries == {}
    # Without deal 2: deal 3 brings NS to 40 + 72 (game), EW stays at 12 + 6.
    d3 = VintDeal.objects.get(number=3)
    assert d3.entries["games"] == {"NS": 1, "EW": 0}
    html = page(scorer_client, vint_session)
    assert rubber_totals(html) == [1240 + 3652, 18, 1240 + 3652, 18]
    # The voided deal keeps its place in the rotation (scoresheet-json.md, "voided"):
    # deal 3 was dealt by S, deal 4 goes to W.
    assert "dealer: W (" in html
    assert DealHistory.objects.get(action="voided").reason == "misdeal"
    sheet = scorer_client.get(url("sheet", vint_session)).content.decode()
    assert 'class="voided"' in sheet


def test_void_needs_a_reason(scorer_client, vint_session):
    record(scorer_client, vint_session, RUBBER_1[:1])
    response = scorer_client.post(url("deal_void", vint_session, slot="1.1"), {})
    assert response.status_code == 302
    assert not VintDeal.objects.get().voided


def test_outsider_cannot_enter_deals(client, member_client, vint_session):
    data = {"rubber": "1", **RUBBER_1[0]}
    assert client.post(url("deal_add", vint_session), data).status_code == 403
    assert member_client.post(url("deal_add", vint_session), data).status_code == 403
    assert member_client.post(url("preview", vint_session), data).status_code == 403
    assert VintDeal.objects.count() == 0
    # Everyone may read the pad page (without the form) and the sheet.
    assert 'id="deal-form"' not in client.get(url("session", vint_session)).content.decode()
    assert client.get(url("sheet", vint_session)).status_code == 200


def test_table_link_lets_a_player_without_an_account_enter(vint_session):
    client = phone(vint_session, seat=3)
    data = {"rubber": "1", **RUBBER_1[0]}
    assert client.post(url("deal_add", vint_session), data).status_code == 302
    assert VintDeal.objects.get().entered_by == "table link, seat 3"


def test_after_the_lock_nobody_changes_deals_until_the_director_unlocks(
    scorer_client, director_client, vint_session
):
    record(scorer_client, vint_session, RUBBER_1[:1])
    assert director_client.post(url("session_lock", vint_session)).status_code == 302
    data = {"rubber": "1", **RUBBER_1[1]}
    edit = url("deal_edit", vint_session, slot="1.1")
    void = url("deal_void", vint_session, slot="1.1")
    for client in (scorer_client, director_client):  # the director too (issue 25)
        assert client.post(url("deal_add", vint_session), data).status_code == 403
        assert client.post(edit, {**RUBBER_1[0], "reason": "x"}).status_code == 403
        assert client.post(void, {"reason": "x"}).status_code == 403
        assert "locked: nothing changes until the director unlocks it" in page(client, vint_session)
        assert 'id="deal-form"' not in page(client, vint_session)
    unlock = {"unlock": "1", "reason": "the scorer typed 10 for 11"}
    assert director_client.post(url("session_lock", vint_session), unlock).status_code == 302
    response = director_client.post(edit, {**RUBBER_1[0], "declarer_tricks": "11", "reason": "fix"})
    assert response.status_code == 302
    assert VintDeal.objects.get().facts["declarer_tricks"] == 11
    assert director_client.post(url("deal_add", vint_session), data).status_code == 302


def test_new_table_page_starts_a_vint_session(scorer_client, profiles, vint_players):
    data = {
        "title": "Vint evening",
        "club": str(vint_players[0].club_id),
        "profile": str(profiles["vint"].pk),
        **{f"seat_{i}": str(p.pk) for i, p in enumerate(vint_players, 1)},
    }
    response = scorer_client.post(reverse("scoring:session_new"), data)
    assert response.status_code == 302
    session = TableSession.objects.get(title="Vint evening")
    assert session.game == "vint"
    html = scorer_client.get(response["Location"]).content.decode()
    assert "Rubber 1 · deal 1" in html and 'id="deal-form"' in html
    assert "Rubber 3: Anna + Dina v Boris + Carl" in html


def test_unknown_deal_is_404(scorer_client, vint_session):
    edit = url("deal_edit", vint_session, slot="1.5")
    assert scorer_client.get(edit).status_code == 404


def _fields_state():
    """Every attribute of the Vint form's declared fields and their widgets."""
    from scoring.games.vint.forms import VintDealForm

    return {
        name: (repr(sorted(vars(f).items())), repr(sorted(vars(f.widget).items())))
        for name, f in VintDealForm.base_fields.items()
    }


def test_the_pad_forms_share_their_fields_and_nothing_changes_them(scorer_client, vint_session):
    """The Vint form's instances share its fields (``forms.SharedFields``): a page, a
    refusal, a preview, a correction page and a save must leave every field as declared."""
    from scoring.games.vint.forms import VintDealForm

    assert VintDealForm().fields["contract"] is VintDealForm().fields["contract"]
    before = _fields_state()
    record(scorer_client, vint_session, RUBBER_1[:2])
    page(scorer_client, vint_session)
    refused = {"rubber": "1", **contract("4H", "N", 14, honours_side="NS")}
    scorer_client.post(url("deal_add", vint_session), refused, HTTP_HX_REQUEST="true")
    scorer_client.post(url("preview", vint_session), refused, HTTP_HX_REQUEST="true")
    scorer_client.get(url("deal_edit", vint_session, slot="1.1"))
    scorer_client.post(url("deal_edit", vint_session, slot="1.1"), refused)
    assert _fields_state() == before
