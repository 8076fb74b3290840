"""A director mends a tournament, with a record (issue 25, part 4): the tournament edited,
a player withdrawn and reinstated, the newest round re-seated, two players swapped, a
substitute put in for a no-show. Each writes one history row in plain words; each
refusal writes nothing; only directors may (a scorer gets 403, a stranger the login)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from clubs.models import Player
from scoring.models import RuleProfile
from tests.actors import DIRECTOR_ACCEPTS as DIRECTOR
from tests.factories import KopDealFactory, PlayerFactory, UserFactory
from tournaments import selectors, services
from tournaments.models import Registration, Round, Tournament, TournamentAction

REASON = "Agreed with the players."


def seat(tournament: Tournament) -> Round:
    return services.round_generate(tournament=tournament)


def tables_of(rnd: Round) -> list[list[int]]:
    """Each table's start numbers in seat order."""
    numbers = dict(rnd.tournament.entries.values_list("player_id", "number"))
    return [
        [numbers[s.player_id] for s in t.session.seats.order_by("seat")]
        for t in rnd.tables.order_by("number")
    ]


def table_of(rnd: Round, number: int):
    """The round's table of start number ``number``."""
    return next(t for t in rnd.tables.order_by("number") if number in tables_of_one(t))


def tables_of_one(table) -> list[int]:
    numbers = dict(table.round.tournament.entries.values_list("player_id", "number"))
    return [numbers[s.player_id] for s in table.session.seats.order_by("seat")]


def profile(slug: str):
    return RuleProfile.objects.get(slug=slug)


def edit(tournament: Tournament, **changes):
    args = {
        "tournament": tournament,
        "user": None,
        "name": tournament.name,
        "rounds": tournament.rounds_planned,
        "deals_per_round": tournament.deals_per_round,
        "hide_standings": tournament.hide_standings,
        "profile_version": tournament.profile_version,
        "reason": "",
        "recompute": False,
    }
    return services.tournament_edit(**{**args, **changes})


def history_texts(tournament: Tournament) -> list[str]:
    return [h["text"] for h in selectors.tournament_history(tournament=tournament)]


# ---------------------------------------------------------------------------- edit


def test_before_the_start_everything_changes_without_a_reason(kop_tournament, director):
    wolsztyn = profile("kop-wolsztyn").current
    edit(
        kop_tournament,
        user=director,
        name="Kościan Cup 2026",
        rounds=6,
        deals_per_round=8,
        hide_standings=True,
        profile_version=wolsztyn,
    )
    t = Tournament.objects.get(pk=kop_tournament.pk)
    assert (t.name, t.rounds_planned, t.deals_per_round, t.hide_standings) == (
        "Kościan Cup 2026",
        6,
        8,
        True,
    )
    assert t.profile_version_id == wolsztyn.pk
    row = TournamentAction.objects.get()
    assert (row.action, row.user, row.reason) == ("edited", director, "")
    assert row.details["changed"]["rounds_planned"] == [5, 6]
    assert row.details["changed"]["deals_per_round"] == [4, 8]
    text = history_texts(t)[0]
    assert "rounds: 5 → 6" in text and "deals per round: 4 → 8" in text
    assert "Kościan Cup → Kościan Cup 2026" in text
    assert "standings hidden until the last round: no → yes" in text
    assert "Wolsztyn" in text
    assert "rounds_planned" not in text and "profile_version" not in text


def test_nothing_changed_is_refused(kop_tournament):
    with pytest.raises(services.TournamentError, match="Nothing was changed"):
        edit(kop_tournament)
    assert not TournamentAction.objects.exists()


def test_after_the_start_a_reason_is_required_and_open_tables_plan_the_new_deals(
    kop_tournament, sixteen, director
):
    rnd = seat(kop_tournament)
    with pytest.raises(services.TournamentError, match="Say why"):
        edit(kop_tournament, deals_per_round=6)
    assert Tournament.objects.get(pk=kop_tournament.pk).deals_per_round == 4
    assert not TournamentAction.objects.exists()
    edit(kop_tournament, user=director, deals_per_round=6, reason="Time enough for six.")
    assert {t.session.planned_deals for t in rnd.tables.select_related("session")} == {6}
    assert TournamentAction.objects.get().reason == "Time enough for six."


def test_rounds_cannot_go_below_the_rounds_seated(kop_tournament, sixteen):
    rnd = seat(kop_tournament)
    for t in rnd.tables.all():
        services.round_table_accept(table=t, actor=DIRECTOR, reason="on paper")
    seat(kop_tournament)
    with pytest.raises(services.TournamentError, match="2 rounds are already seated"):
        edit(kop_tournament, rounds=1, reason=REASON)
    edit(kop_tournament, rounds=2, reason=REASON)
    assert Tournament.objects.get(pk=kop_tournament.pk).rounds_planned == 2


def test_deals_per_round_cannot_go_below_the_deals_a_table_played(kop_tournament, sixteen):
    rnd = seat(kop_tournament)
    table = rnd.tables.order_by("number").first()
    KopDealFactory(session=table.session)
    KopDealFactory(session=table.session)
    with pytest.raises(services.TournamentError, match="already played 2 deals"):
        edit(kop_tournament, deals_per_round=1, reason=REASON)
    assert Tournament.objects.get(pk=kop_tournament.pk).deals_per_round == 4
    edit(kop_tournament, deals_per_round=2, reason=REASON)
    assert Tournament.objects.get(pk=kop_tournament.pk).deals_per_round == 2


def test_a_new_profile_after_the_first_deal_needs_the_recompute_confirmed(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    rnd = seat(kop_tournament)
    played, fresh = rnd.tables.order_by("number")[:2]
    KopDealFactory(session=played.session)
    old = kop_tournament.profile_version
    wolsztyn = profile("kop-wolsztyn").current
    version = Tournament.objects.get(pk=kop_tournament.pk).results_version
    with pytest.raises(services.TournamentError, match="Tick the confirmation"):
        edit(kop_tournament, profile_version=wolsztyn, reason=REASON)
    assert Tournament.objects.get(pk=kop_tournament.pk).profile_version_id == old.pk
    assert not TournamentAction.objects.exists()
    with django_capture_on_commit_callbacks() as callbacks:
        edit(kop_tournament, profile_version=wolsztyn, reason=REASON, recompute=True)
    t = Tournament.objects.get(pk=kop_tournament.pk)
    assert t.profile_version_id == wolsztyn.pk
    assert t.results_version == version + 1  # a new results version: standings recomputed
    assert any(getattr(cb, "task", "") == services.STANDINGS_RECOMPUTE for cb in callbacks)
    played.session.refresh_from_db()
    fresh.session.refresh_from_db()
    assert played.session.profile_version_id == old.pk  # its deal was scored by the old rules
    assert fresh.session.profile_version_id == wolsztyn.pk
    assert TournamentAction.objects.get().details["recomputed"] is True
    assert "The standings were recomputed." in history_texts(t)[0]


# ---------------------------------------------------------------- withdraw, reinstate


def test_withdraw_then_reinstate_each_kept_with_who_and_why(kop_tournament, sixteen, director):
    seat(kop_tournament)
    entry = sixteen[2]
    with pytest.raises(services.TournamentError, match="Say why"):
        services.registration_withdraw(registration=entry, user=director, reason="  ")
    assert Registration.objects.get(pk=entry.pk).withdrawn_after is None
    version = Tournament.objects.get(pk=kop_tournament.pk).results_version
    services.registration_withdraw(registration=entry, user=director, reason="Went home ill.")
    assert Registration.objects.get(pk=entry.pk).withdrawn_after == 1
    # The standings mark him: a new results version, so no cached page keeps the old one.
    assert Tournament.objects.get(pk=kop_tournament.pk).results_version == version + 1
    with pytest.raises(services.TournamentError, match="already withdrawn"):
        services.registration_withdraw(registration=entry, user=director, reason="again")
    services.registration_reinstate(registration=entry, user=director, reason="Felt better.")
    assert Registration.objects.get(pk=entry.pk).withdrawn_after is None
    assert Tournament.objects.get(pk=kop_tournament.pk).results_version == version + 2
    with pytest.raises(services.TournamentError, match="has not withdrawn"):
        services.registration_reinstate(registration=entry, user=director, reason="again")
    rows = list(TournamentAction.objects.order_by("id").values_list("action", "reason", "user"))
    assert rows == [
        ("withdrawn", "Went home ill.", director.pk),
        ("reinstated", "Felt better.", director.pk),
    ]
    assert history_texts(kop_tournament) == [
        "Gracz 03 (no. 3) reinstated: seated again from the next round.",
        "Gracz 03 (no. 3) withdrawn after round 1.",
    ]


# -------------------------------------------------------------------------- re-seat


def test_reseat_takes_todays_check_ins(kop_tournament, sixteen, director):
    rnd = seat(kop_tournament)
    assert len(tables_of(rnd)) == 4 and rnd.byes == []
    services.registration_check_in(registration=sixteen[15], present=False)
    new = services.round_reseat(rnd=rnd, user=director, reason="No. 16 had not come.")
    assert new.number == 1
    assert Round.objects.filter(tournament=kop_tournament).count() == 1
    seated = [n for t in tables_of(new) for n in t]
    # 15 present: three tables of four and three sitting out; no. 16 nowhere.
    assert len(tables_of(new)) == 3 and len(new.byes) == 3
    assert sorted(seated + new.byes) == list(range(1, 16))
    row = TournamentAction.objects.get()
    assert row.action == "reseated" and row.details["round"] == 1
    assert len(row.details["before"]["tables"]) == 4 and len(row.details["after"]["tables"]) == 3
    assert history_texts(kop_tournament) == ["Round 1 seated again."]


def test_reseat_is_refused_once_a_table_has_a_deal(kop_tournament, sixteen, director):
    rnd = seat(kop_tournament)
    before = tables_of(rnd)
    KopDealFactory(session=rnd.tables.order_by("number").last().session)
    with pytest.raises(services.TournamentError, match="Table 4 has already started"):
        services.round_reseat(rnd=rnd, user=director, reason=REASON)
    assert tables_of(Round.objects.get(pk=rnd.pk)) == before
    assert not TournamentAction.objects.exists()


def test_a_played_round_is_never_changed(kop_tournament, sixteen, director):
    first = seat(kop_tournament)
    for t in first.tables.all():
        services.round_table_accept(table=t, actor=DIRECTOR, reason="on paper")
    seat(kop_tournament)
    a, b = tables_of(first)[0][0], tables_of(first)[1][0]
    with pytest.raises(services.TournamentError, match="Only the newest round"):
        services.round_reseat(rnd=first, user=director, reason=REASON)
    with pytest.raises(services.TournamentError, match="Only the newest round"):
        services.seats_swap(rnd=first, user=director, first=a, second=b, reason=REASON)
    assert not TournamentAction.objects.exists()


# ----------------------------------------------------------------------------- swap


def test_two_players_swap_tables(kop_tournament, sixteen, director):
    rnd = seat(kop_tournament)
    before = tables_of(rnd)
    a, b = before[0][1], before[2][3]  # seat 2 of table 1, seat 4 of table 3
    services.seats_swap(rnd=rnd, user=director, first=a, second=b, reason=REASON)
    after = tables_of(rnd)
    assert after[0] == [before[0][0], b, before[0][2], before[0][3]]
    assert after[2] == [before[2][0], before[2][1], before[2][2], a]
    assert after[1] == before[1] and after[3] == before[3]
    row = TournamentAction.objects.get()
    assert row.details == {"round": 1, "players": [a, b], "tables": [1, 3], "seats": [2, 4]}
    name = {e.number: e.player.name for e in sixteen}
    assert history_texts(kop_tournament) == [
        f"Round 1: {name[a]} (no. {a}) moved from table 1 to table 3 and "
        f"{name[b]} (no. {b}) from table 3 to table 1."
    ]


def test_swap_refusals_write_nothing(kop_tournament, sixteen, director):
    rnd = seat(kop_tournament)
    before = tables_of(rnd)
    same = before[0][:2]
    with pytest.raises(services.TournamentError, match="same table"):
        services.seats_swap(rnd=rnd, user=director, first=same[0], second=same[1], reason=REASON)
    with pytest.raises(services.TournamentError, match="two different players"):
        services.seats_swap(rnd=rnd, user=director, first=1, second=1, reason=REASON)
    with pytest.raises(services.TournamentError, match="No player has start number 99"):
        services.seats_swap(rnd=rnd, user=director, first=1, second=99, reason=REASON)
    with pytest.raises(services.TournamentError, match="Say why"):
        services.seats_swap(
            rnd=rnd, user=director, first=before[0][0], second=before[1][0], reason=""
        )
    KopDealFactory(session=rnd.tables.get(number=2).session)
    with pytest.raises(services.TournamentError, match="Table 2 has already started"):
        services.seats_swap(
            rnd=rnd, user=director, first=before[0][0], second=before[1][0], reason=REASON
        )
    assert tables_of(rnd) == before
    assert not TournamentAction.objects.exists()


# ----------------------------------------------------------------------- substitute


def test_a_new_player_substitutes_for_a_no_show(kop_tournament, sixteen, director):
    rnd = seat(kop_tournament)
    absent = tables_of(rnd)[1][2]  # seat 3 of table 2
    sub = services.seat_substitute(
        rnd=rnd, user=director, absent=absent, new_name="  Zofia   Nowa ", reason=REASON
    )
    assert (sub.number, sub.player.name, sub.first_round, sub.checked_in) == (
        17,
        "Zofia Nowa",
        1,
        True,
    )
    assert tables_of(rnd)[1][2] == 17
    assert not Registration.objects.get(tournament=kop_tournament, number=absent).checked_in
    row = TournamentAction.objects.get()
    assert row.details == {
        "round": 1,
        "table": 2,
        "seat": 3,
        "out": absent,
        "in": 17,
        "registered": True,
    }
    assert history_texts(kop_tournament) == [
        f"Round 1, table 2: Zofia Nowa (no. 17) plays instead of Gracz {absent:02d} "
        f"(no. {absent}), who is absent this round."
    ]


def test_a_player_sitting_out_substitutes_and_leaves_the_bye(kop_tournament, sixteen, club):
    extra = services.registration_add(tournament=kop_tournament, player=PlayerFactory(club=club))
    services.registration_check_in(registration=extra)
    rnd = seat(kop_tournament)  # 17 present: four tables, one sits out
    assert len(rnd.byes) == 1
    out_of_play = rnd.byes[0]
    player = Registration.objects.get(tournament=kop_tournament, number=out_of_play).player
    absent = tables_of(rnd)[0][0]
    services.seat_substitute(rnd=rnd, user=None, absent=absent, player=player, reason=REASON)
    rnd.refresh_from_db()
    assert rnd.byes == [] and tables_of(rnd)[0][0] == out_of_play
    assert Registration.objects.filter(tournament=kop_tournament).count() == 17


def test_substitute_refusals_write_nothing(kop_tournament, sixteen, director):
    rnd = seat(kop_tournament)
    before = tables_of(rnd)
    seated_elsewhere = Registration.objects.get(
        tournament=kop_tournament, number=before[1][0]
    ).player
    absent = before[0][0]
    with pytest.raises(services.TournamentError, match="already has a seat in this round"):
        services.seat_substitute(
            rnd=rnd, user=director, absent=absent, player=seated_elsewhere, reason=REASON
        )
    with pytest.raises(services.TournamentError, match="Choose a registered player"):
        services.seat_substitute(rnd=rnd, user=director, absent=absent, reason=REASON)
    KopDealFactory(session=rnd.tables.get(number=1).session)
    with pytest.raises(services.TournamentError, match="Table 1 has already started"):
        services.seat_substitute(
            rnd=rnd, user=director, absent=absent, new_name="Zofia", reason=REASON
        )
    assert tables_of(rnd) == before
    assert not Player.objects.filter(name="Zofia").exists()
    assert Registration.objects.get(tournament=kop_tournament, number=absent).checked_in
    assert not TournamentAction.objects.exists()


def test_the_absent_player_scores_nothing_that_round_and_the_substitute_does(
    kop_tournament, sixteen, director
):
    from tournaments.standings import standings_compute

    rnd = seat(kop_tournament)
    absent = tables_of(rnd)[0][0]
    services.seat_substitute(rnd=rnd, user=director, absent=absent, new_name="Zofia", reason=REASON)
    for t in rnd.tables.all():
        KopDealFactory(session=t.session)
        services.round_table_accept(table=t, actor=DIRECTOR, reason="on paper")
    rows = {r["number"]: r for r in standings_compute(tournament=kop_tournament)["individual"]}
    assert rows[17]["rounds"] == 1
    assert absent not in rows or rows[absent]["rounds"] == 0


# -------------------------------------------------------------------------- views


def urls(tournament: Tournament) -> list[str]:
    return [
        reverse("tournaments:edit", args=[tournament.slug]),
        reverse("tournaments:entry_withdrawal", args=[tournament.slug, 1]),
        reverse("tournaments:round_mend", args=[tournament.slug, 1]),
    ]


def test_only_a_director_mends(client, scorer_client, kop_tournament, sixteen):
    seat(kop_tournament)
    for url in urls(kop_tournament):
        assert scorer_client.get(url).status_code == 403
        assert scorer_client.post(url, {"action": "withdraw", "reason": "x"}).status_code == 403
        anonymous = client.post(url, {"action": "withdraw", "reason": "x"})
        assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert not TournamentAction.objects.exists()
    assert Registration.objects.get(tournament=kop_tournament, number=1).withdrawn_after is None


def test_a_post_without_the_csrf_token_is_refused(director, kop_tournament, sixteen):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(director)
    url = reverse("tournaments:entry_withdrawal", args=[kop_tournament.slug, 1])
    assert browser.post(url, {"action": "withdraw", "reason": "x"}).status_code == 403
    assert not TournamentAction.objects.exists()


def test_the_edit_page_keeps_what_was_typed_and_says_why(director_client, kop_tournament, sixteen):
    seat(kop_tournament)
    url = reverse("tournaments:edit", args=[kop_tournament.slug])
    page = director_client.get(url).content.decode()
    assert 'value="Kościan Cup"' in page and "csrfmiddlewaretoken" in page
    data = {
        "name": "Renamed",
        "rounds": "0",
        "deals_per_round": "abc",
        "profile": profile("kop-koscian").pk,
    }
    response = director_client.post(url, data)
    assert response.status_code == 200
    assert 'value="Renamed"' in response.content.decode()
    response = director_client.post(url, {**data, "rounds": "5", "deals_per_round": "4"})
    assert response.status_code == 200
    assert "Say why: the reason goes into the tournament&#x27;s history." in (
        response.content.decode()
    )
    assert Tournament.objects.get(pk=kop_tournament.pk).name == "Kościan Cup"
    response = director_client.post(
        url, {**data, "rounds": "5", "deals_per_round": "4", "reason": "A typo."}
    )
    assert response.status_code == 302
    assert Tournament.objects.get(pk=kop_tournament.pk).name == "Renamed"


def test_withdraw_asks_first_then_the_page_offers_reinstate_and_tells_the_history(
    director_client, kop_tournament, sixteen
):
    detail = reverse("tournaments:detail", args=[kop_tournament.slug])
    url = reverse("tournaments:entry_withdrawal", args=[kop_tournament.slug, 3])
    assert url in director_client.get(detail).content.decode()
    confirm = director_client.get(url).content.decode()
    assert "Withdraw a player" in confirm and "Gracz 03" in confirm
    assert Registration.objects.get(tournament=kop_tournament, number=3).withdrawn_after is None
    refused = director_client.post(url, {"action": "withdraw", "reason": ""})
    assert refused.status_code == 200 and "Say why" in refused.content.decode()
    assert Registration.objects.get(tournament=kop_tournament, number=3).withdrawn_after is None
    done = director_client.post(url, {"action": "withdraw", "reason": "Left early."})
    assert done.status_code == 302
    assert Registration.objects.get(tournament=kop_tournament, number=3).withdrawn_after == 0
    # A second tap of the same form is refused, not turned into a reinstatement.
    again = director_client.post(url, {"action": "withdraw", "reason": "Left early."})
    assert again.status_code == 200 and "already withdrawn" in again.content.decode()
    page = director_client.get(detail).content.decode()
    assert 'id="reinstate-3"' in page
    assert "Gracz 03 (no. 3) withdrawn before the first round." in page
    assert "Left early." in page and "dora-director" in page
    assert director_client.get(url).content.decode().count("Reinstate a player") >= 1
    director_client.post(url, {"action": "reinstate", "reason": "Came back."})
    assert Registration.objects.get(tournament=kop_tournament, number=3).withdrawn_after is None


def test_the_history_is_the_directors_only(client, director_client, kop_tournament, sixteen):
    services.registration_withdraw(registration=sixteen[0], user=None, reason="Secret reason")
    detail = reverse("tournaments:detail", args=[kop_tournament.slug])
    assert "Secret reason" in director_client.get(detail).content.decode()
    assert "Secret reason" not in client.get(detail).content.decode()


def test_the_round_page_swaps_and_seats_a_substitute(director_client, kop_tournament, sixteen):
    rnd = seat(kop_tournament)
    url = reverse("tournaments:round_mend", args=[kop_tournament.slug, 1])
    page = director_client.get(url)
    assert page.status_code == 200
    before = tables_of(rnd)
    a, b = before[0][0], before[1][0]
    swap = {"action": "swap", "swap-first": a, "swap-second": b, "swap-reason": REASON}
    assert director_client.post(url, swap).status_code == 302
    assert tables_of(rnd)[0][0] == b and tables_of(rnd)[1][0] == a
    bad = director_client.post(url, {**swap, "swap-second": "999"})
    assert bad.status_code == 200 and "Select a valid choice" in bad.content.decode()
    same = director_client.post(url, {**swap, "swap-first": b, "swap-second": before[0][1]})
    assert same.status_code == 200 and "same table" in same.content.decode()
    sub = {
        "action": "substitute",
        "substitute-absent": before[2][0],
        "substitute-new_name": "Zofia Nowa",
        "substitute-reason": REASON,
    }
    assert director_client.post(url, sub).status_code == 302
    assert tables_of(rnd)[2][0] == 17
    assert TournamentAction.objects.count() == 2
    assert (
        director_client.post(url, {"action": "reseat", "reseat-reason": REASON}).status_code == 302
    )
    assert TournamentAction.objects.count() == 3


def test_a_table_with_a_deal_refuses_a_swap_on_the_page(director_client, kop_tournament, sixteen):
    rnd = seat(kop_tournament)
    KopDealFactory(session=rnd.tables.get(number=1).session)
    before = tables_of(rnd)
    url = reverse("tournaments:round_mend", args=[kop_tournament.slug, 1])
    swap = {
        "action": "swap",
        "swap-first": before[0][0],
        "swap-second": before[1][0],
        "swap-reason": REASON,
    }
    response = director_client.post(url, swap)
    assert response.status_code == 200
    assert "Table 1 has already started: it has a deal or a result." in response.content.decode()
    assert tables_of(rnd) == before


# ------------------------------------------------------------------ the Admin link


@pytest.fixture
def admin_href():
    return f'href="{reverse("admin:index")}"'


def test_a_director_without_admin_rights_sees_no_admin_link(director_client, admin_href, db):
    page = director_client.get(reverse("tournaments:index")).content.decode()
    assert admin_href not in page


def test_only_a_site_administrator_sees_the_link_and_the_admin(admin_href, director, db):
    """The admin site does not check clubs, so it is the superusers' alone: a staff
    account or a director holding model permissions from the single-club days is
    neither shown the link nor let in (issue 26)."""
    superuser = UserFactory(username="root", is_staff=True, is_superuser=True)
    staff = UserFactory(username="clerk", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_tournament"))
    director.is_staff = True
    director.save()
    director.user_permissions.add(Permission.objects.get(codename="change_tournament"))
    for user, allowed in ((superuser, True), (staff, False), (director, False)):
        browser = Client()
        browser.force_login(user)
        page = browser.get(reverse("tournaments:index")).content.decode()
        assert (admin_href in page) is allowed, user
        assert browser.get(reverse("admin:index")).status_code == (200 if allowed else 302)


def test_an_older_round_offers_no_mend(director_client, kop_tournament, sixteen):
    first = seat(kop_tournament)
    for t in first.tables.all():
        services.round_table_accept(table=t, actor=DIRECTOR, reason="on paper")
    seat(kop_tournament)
    old = reverse("tournaments:round", args=[kop_tournament.slug, 1])
    new = reverse("tournaments:round", args=[kop_tournament.slug, 2])
    assert 'id="mend-round"' not in director_client.get(old).content.decode()
    assert 'id="mend-round"' in director_client.get(new).content.decode()
    page = director_client.get(reverse("tournaments:round_mend", args=[kop_tournament.slug, 1]))
    assert "Only the newest round can be changed" in page.content.decode()
    assert 'name="action"' not in page.content.decode()
    missing = reverse("tournaments:round_mend", args=[kop_tournament.slug, 9])
    assert director_client.get(missing).status_code == 404


def test_a_reason_too_long_or_with_a_nul_is_refused_on_the_page(
    director_client, kop_tournament, sixteen
):
    url = reverse("tournaments:entry_withdrawal", args=[kop_tournament.slug, 2])
    for reason in ("x" * 501, "bad\x00reason"):
        response = director_client.post(url, {"action": "withdraw", "reason": reason})
        assert response.status_code == 200
    assert Registration.objects.get(tournament=kop_tournament, number=2).withdrawn_after is None
    assert not TournamentAction.objects.exists()


def test_the_edit_page_asks_for_the_recompute_once_a_deal_is_stored(
    director_client, kop_tournament, sixteen
):
    url = reverse("tournaments:edit", args=[kop_tournament.slug])
    assert 'name="recompute"' not in director_client.get(url).content.decode()
    rnd = seat(kop_tournament)
    KopDealFactory(session=rnd.tables.order_by("number").first().session)
    assert 'name="recompute"' in director_client.get(url).content.decode()
    data = {
        "name": "Kościan Cup",
        "rounds": "5",
        "deals_per_round": "4",
        "profile": profile("kop-wolsztyn").pk,
        "reason": "Wrong rules chosen.",
    }
    refused = director_client.post(url, data)
    assert refused.status_code == 200 and "Tick the confirmation" in refused.content.decode()
    assert Tournament.objects.get(pk=kop_tournament.pk).profile_version.profile.slug == (
        "kop-koscian"
    )
    assert director_client.post(url, {**data, "recompute": "on"}).status_code == 302
    assert Tournament.objects.get(pk=kop_tournament.pk).profile_version.profile.slug == (
        "kop-wolsztyn"
    )


def test_reseating_round_one_keeps_the_directors_start_order(kop_tournament, sixteen, club):
    order = list(range(16, 0, -1))
    rnd = services.round_generate(tournament=kop_tournament, order=order)
    services.registration_check_in(registration=sixteen[0], present=False)  # no. 1 is away
    late = services.registration_add(tournament=kop_tournament, player=PlayerFactory(club=club))
    services.registration_check_in(registration=late)  # no. 17 came; round 1 not played yet
    new = services.round_reseat(rnd=rnd, user=None, reason="No. 1 away, no. 17 here.")
    assert new.inputs["order_from"] == "director"
    assert new.inputs["order"] == [*range(16, 1, -1), 17]
    assert Registration.objects.get(pk=late.pk).first_round == 1  # plays the round seated again
    assert 17 in [n for t in tables_of(new) for n in t] + new.byes
    assert TournamentAction.objects.get().details["joined"] == [17]
