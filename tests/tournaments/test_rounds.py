"""Seating rounds: generated from the stored seed, never changing a played round."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import TableSession
from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments import services
from tournaments.models import Round, RoundTable

pytestmark = pytest.mark.django_db


def seat_and_accept(tournament):
    rnd = services.round_generate(tournament=tournament)
    for table in rnd.tables.all():
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    return rnd


def pairs_of(rnd):
    pairs = set()
    for table in rnd.tables.all():
        numbers = sorted(
            rnd.tournament.entries.get(player=s.player).number for s in table.session.seats.all()
        )
        pairs |= {(a, b) for a in numbers for b in numbers if a < b}
    return pairs


def test_round_one_seats_every_checked_in_player_at_tables_of_four(kop_tournament, sixteen):
    rnd = services.round_generate(tournament=kop_tournament)
    assert rnd.number == 1 and rnd.byes == []
    assert rnd.tables.count() == 4
    seated = [s.player_id for t in rnd.tables.all() for s in t.session.seats.all()]
    assert sorted(seated) == sorted(e.player_id for e in sixteen)
    session = rnd.tables.first().session
    assert session.planned_deals == 4 and session.profile_version == kop_tournament.profile_version
    assert rnd.algorithm and rnd.inputs["active"] == list(range(1, 17))


def test_sixteen_players_meet_each_other_exactly_once_in_five_rounds(kop_tournament, sixteen):
    seen: list[tuple[int, int]] = []
    for _ in range(5):
        seen += sorted(pairs_of(seat_and_accept(kop_tournament)))
    assert len(seen) == 120 == len(set(seen))


def test_next_round_waits_until_every_table_is_accepted(kop_tournament, sixteen):
    rnd = services.round_generate(tournament=kop_tournament)
    services.round_table_accept(table=rnd.tables.first(), actor=DIRECTOR_ACCEPTS, reason="on paper")
    with pytest.raises(services.TournamentError, match="3 table"):
        services.round_generate(tournament=kop_tournament)


def test_seating_is_reproducible_from_the_stored_seed(profiles, club, director):
    def seat_once(name):
        t = TournamentFactory(
            name=name,
            profile="kop-pagat",
            seed=99,
            deals_per_round=4,
            field=[PlayerFactory(club=club, name=f"{name} {i}") for i in range(1, 21)],
        )
        rnd = services.round_generate(tournament=t)
        return sorted(pairs_of(rnd)), rnd.byes

    assert seat_once("A") == seat_once("B")


def test_odd_field_sits_players_out_in_turn(kop_tournament, sixteen, club):
    RegistrationFactory(tournament=kop_tournament, player=PlayerFactory(club=club))
    byes = [seat_and_accept(kop_tournament).byes for _ in range(3)]
    assert all(len(b) == 1 for b in byes)
    assert len({b[0] for b in byes}) == 3  # nobody sits out twice while others have not


def test_late_arrival_and_withdrawal_never_change_a_played_round(kop_tournament, sixteen, club):
    first = seat_and_accept(kop_tournament)
    before = {t.pk: [s.player_id for s in t.session.seats.all()] for t in first.tables.all()}
    services.registration_withdraw(registration=sixteen[0], user=None, reason="Went home.")
    late = services.registration_add(tournament=kop_tournament, player=PlayerFactory(club=club))
    assert late.first_round == 2 and late.checked_in
    second = services.round_generate(tournament=kop_tournament)
    seated = {s.player_id for t in second.tables.all() for s in t.session.seats.all()}
    assert sixteen[0].player_id not in seated and late.player_id in seated
    after = {t.pk: [s.player_id for s in t.session.seats.all()] for t in first.tables.all()}
    assert after == before


def test_imported_seating_table_is_used_for_the_rounds(director_client, kop_tournament, sixteen):
    rows = ["round,table,seat,player"]
    tables = [[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]]
    for t, table in enumerate(tables, 1):
        for seat, number in enumerate(table, 1):
            rows.append(f"1,{t},{seat},{number}")
    url = reverse("tournaments:round_import", kwargs={"slug": kop_tournament.slug})
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("seating.csv", "\n".join(rows).encode(), "text/csv")
    response = director_client.post(url, {"csv_file": upload})
    assert response.status_code == 302
    rnd = services.round_generate(tournament=kop_tournament)
    assert rnd.source == "imported"
    first = rnd.tables.get(number=1).session
    assert [s.player.name for s in first.seats.order_by("seat")] == [
        "Gracz 01",
        "Gracz 05",
        "Gracz 09",
        "Gracz 13",
    ]


def test_imported_table_leaving_out_a_registered_player_is_refused_naming_them(
    director_client, kop_tournament, sixteen
):
    rows = ["round,table,seat,player"]
    for t, table in enumerate([[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]], 1):
        for seat, number in enumerate(table, 1):
            rows.append(f"1,{t},{seat},{number}")
    url = reverse("tournaments:round_import", kwargs={"slug": kop_tournament.slug})
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("seating.csv", "\n".join(rows).encode(), "text/csv")
    html = director_client.post(url, {"csv_file": upload}).content.decode()
    assert "Nothing was imported" in html
    assert "Gracz 04" in html  # player 4 is registered but not seated
    kop_tournament.refresh_from_db()
    assert kop_tournament.seating_plan is None


def test_round_page_table_cards_and_board(director_client, client, kop_tournament, sixteen):
    rnd = services.round_generate(tournament=kop_tournament)
    slug = kop_tournament.slug
    page = client.get(reverse("tournaments:round", kwargs={"slug": slug, "number": 1}))
    assert page.status_code == 200 and "Gracz 01" in page.content.decode()
    cards = director_client.get(
        reverse("tournaments:round", kwargs={"slug": slug, "number": 1}) + "?cards=1"
    ).content.decode()
    assert cards.count("<svg") == 4
    assert RoundTable.objects.first().session.entry_token in cards
    board = director_client.get(reverse("tournaments:board", kwargs={"slug": slug}))
    assert "0 of 4 tables accepted" in board.content.decode()
    assert Round.objects.count() == 1 and TableSession.objects.count() == 4
    del rnd


def test_who_met_whom_matrix(client, kop_tournament, sixteen):
    seat_and_accept(kop_tournament)
    seat_and_accept(kop_tournament)
    html = client.get(
        reverse("tournaments:meetings", kwargs={"slug": kop_tournament.slug})
    ).content.decode()
    assert "0 pairs met more than once." in html
    # 16 rows; each player met 3 others per round -> six 1s per row after two rounds
    assert html.count('<td class="num">1</td>') == 16 * 6


def test_board_shows_the_round_time_limit(director_client, kop_tournament, sixteen):
    kop_tournament.round_minutes = 90
    kop_tournament.save()
    rnd = services.round_generate(tournament=kop_tournament)
    board = director_client.get(
        reverse("tournaments:board", kwargs={"slug": kop_tournament.slug})
    ).content.decode()
    from datetime import timedelta

    from django.utils import timezone

    ends = timezone.localtime(rnd.created_at + timedelta(minutes=90))
    assert f"time limit {ends:%H:%M}" in board
    # ...and counts it down (static/js/clock.js reads these, as on the pads)
    assert "data-round-clock" in board
    assert f'data-start="{int(rnd.created_at.timestamp())}" data-minutes="90"' in board
    assert " of " in board.split('data-table="1"')[1].split("</tr>")[0]  # "0 of 32 deals"


# ------------------------------------------------------------- the start order (issue 11, 9)


def _field(profiles, club, *, seed, name, players):
    # registered in the same order every time
    return TournamentFactory(name=name, seed=seed, deals_per_round=4, club=club, field=players)


def _tables(rnd):
    return sorted(
        tuple(
            sorted(
                rnd.tournament.entries.get(player=s.player).number for s in t.session.seats.all()
            )
        )
        for t in rnd.tables.all()
    )


@pytest.fixture
def field(club):
    return [PlayerFactory(club=club, name=f"Friend {i:02d}") for i in range(1, 17)]


def test_round_one_is_drawn_from_the_seed_not_from_registration(profiles, club, field):
    one = services.round_generate(
        tournament=_field(profiles, club, seed=1, name="A", players=field)
    )
    two = services.round_generate(
        tournament=_field(profiles, club, seed=2, name="B", players=field)
    )
    again = services.round_generate(
        tournament=_field(profiles, club, seed=1, name="C", players=field)
    )
    assert _tables(one) != _tables(two)
    assert _tables(one) == _tables(again)  # the same seed seats the same tables
    assert one.inputs["order"] == again.inputs["order"] != list(range(1, 17))
    assert one.inputs["order_from"] == "seed"


def test_friends_registered_together_are_not_seated_together(profiles, club, field):
    # Start numbers 1-4 registered one after the other. In registration order the
    # 16-player design has the table 1-2-3-4 in one of its rounds whatever the seed
    # (the seed only reorders the rounds); drawn, four given players form one of the
    # design's 20 tables with a chance of 20 in 1820.
    for seed in range(4):
        t = _field(profiles, club, seed=seed, name=f"Cup {seed}", players=field)
        event = [table for _ in range(5) for table in _tables(seat_and_accept(t))]
        assert (1, 2, 3, 4) not in event, seed


def test_later_rounds_keep_round_ones_order_and_replay_from_the_stored_inputs(
    kop_tournament, sixteen
):
    first = seat_and_accept(kop_tournament)
    second = seat_and_accept(kop_tournament)
    assert second.inputs["order"] == first.inputs["order"]
    # The whole event still meets everybody once (16 x 5), whatever the order.
    seen = sorted(pairs_of(first)) + sorted(pairs_of(second))
    for _ in range(3):
        seen += sorted(pairs_of(seat_and_accept(kop_tournament)))
    assert len(seen) == 120 == len(set(seen))


def test_a_round_one_stored_before_the_draw_keeps_registration_order(kop_tournament, sixteen):
    first = seat_and_accept(kop_tournament)
    # As stored by the earlier version: no order, so positions were registration order.
    first.inputs = {"active": first.inputs["active"], "rounds_before": 0}
    first.save()
    from tournaments import adapters

    plan = adapters.seat_round(tournament=kop_tournament, active=list(range(1, 17)), round_number=2)
    assert plan.order == tuple(range(1, 17))


def test_the_director_may_give_the_seeding_order(director_client, kop_tournament, sixteen):
    order = [16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    url = reverse("tournaments:round_next", args=[kop_tournament.slug])
    response = director_client.post(url, {"seeding_order": "16 15 14 13 12 11 10 9 8 7 6 5 4 3 2"})
    assert response.status_code == 302 and not Round.objects.exists()
    page = director_client.get(response.url).content.decode()
    assert "Missing from the order: 1." in page
    response = director_client.post(url, {"seeding_order": ", ".join(map(str, order))})
    rnd = Round.objects.get()
    assert rnd.inputs["order"] == order and rnd.inputs["order_from"] == "director"
    from tournaments.seating import generate_schedule

    full = generate_schedule(16, 5, kop_tournament.seed)
    expected = sorted(tuple(sorted(order[i - 1] for i in table)) for table in full.rounds[0])
    assert _tables(rnd) == expected
    detail = director_client.get(reverse("tournaments:detail", args=[kop_tournament.slug]))
    assert 'name="seeding_order"' not in detail.content.decode()  # round 1 is seated
