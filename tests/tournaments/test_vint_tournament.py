"""A Vint tournament round is a three-rubber session; standings rank the session nets."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring import profile_services
from scoring import services as scoring_services
from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import RoundTableFactory, TournamentFactory, amend_accepted
from tests.scoring.test_vint_exchange import ACTOR, RUBBER_1, RUBBER_2, RUBBER_3
from tournaments import services
from tournaments.models import StandingsSnapshot

pytestmark = pytest.mark.django_db
VINT_FIELD = ["Anna", "Boris", "Carl", "Dina"]


def test_vint_round_standings_follow_the_session_nets(
    director_client, profiles, club, director, django_capture_on_commit_callbacks
):
    tournament = TournamentFactory(
        name="Vint evening",
        game="vint",
        rounds=1,
        club=club,
        seed=1,
        created_by=director,
        field=VINT_FIELD,
    )
    # The club's own seating: Anna, Boris, Carl, Dina in seats 1-4 (as in vint.md §6).
    csv = "round,table,seat,player\n1,1,1,1\n1,1,2,2\n1,1,3,3\n1,1,4,4\n"
    director_client.post(
        reverse("tournaments:round_import", kwargs={"slug": tournament.slug}),
        {"csv_file": SimpleUploadedFile("s.csv", csv.encode(), "text/csv")},
    )
    rnd = services.round_generate(tournament=tournament)
    table = rnd.tables.get()
    session = table.session
    assert session.game == "vint"
    for number, deals in enumerate([RUBBER_1, RUBBER_2, RUBBER_3], 1):
        for n, facts in enumerate(deals):
            first = "N" if (number, n) == (3, 0) else None
            scoring_services.deal_record(
                session=session,
                facts=facts,
                actor=ACTOR,
                extra={"rubber": number, "first_dealer": first},
            )
    with django_capture_on_commit_callbacks(execute=True):
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    data = StandingsSnapshot.objects.get(tournament=tournament).data
    # vint.md §6.4 session standings: Carl +13417, Boris +854, Dina -7102, Anna -7169
    assert [(r["name"], r["net"]) for r in data["individual"]] == [
        ("Carl", 13417),
        ("Boris", 854),
        ("Dina", -7102),
        ("Anna", -7169),
    ]
    assert [r["total_points"] for r in data["individual"]] == [46868, 34305, 26349, 26282]
    page = director_client.get(reverse("tournaments:standings", kwargs={"slug": tournament.slug}))
    assert "13417" in page.content.decode()


def test_a_rubber_cut_short_by_the_time_limit_is_closed_by_the_profile_rule(
    profiles, club, django_capture_on_commit_callbacks
):
    from scoring import services as scoring_services

    house = profile_services.profile_save(
        profile=None,
        name="Vint, time-limit bonus",
        game="vint",
        options={"unfinished_rubber_bonus": "200_per_game_lead"},
        tournament={"big_points": [5, 3, 1, 0], "tie_breaks": ["small_points"]},
    )
    tournament = TournamentFactory(
        name="Timed Vint",
        game="vint",
        profile_version=house,
        rounds=1,
        club=club,
        seed=1,
        round_minutes=90,
        field=VINT_FIELD,
    )
    table = RoundTableFactory(round__tournament=tournament)
    # Only the first two deals of §6.2's rubber 1: EW have won a game (87), NS none.
    for facts in RUBBER_1[:2]:
        scoring_services.deal_record(
            session=table.session, facts=facts, actor=ACTOR, extra={"rubber": 1}
        )
    with django_capture_on_commit_callbacks(execute=True):
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="time limit")
    rows = StandingsSnapshot.objects.get(tournament=tournament).data["individual"]
    seats = {s.seat: s.player.name for s in table.session.seats.all()}
    ew = {seats[2], seats[4]}  # rubber 1: A + C are NS, B + D are EW
    by_name = {r["name"]: r for r in rows}
    # Worked by hand from vint.md §4.12 for deals 1-2 of §6.2:
    #   deal 1, 4H by N, 10 tricks, NS 5 honours: NS 40 below + 1000 made + 200 honours,
    #           EW 12 below;
    #   deal 2, 5D by W, 11 tricks, EW 6 honours: EW 55 below + 2000 made + 300 honours,
    #           NS 10 below.
    # NS 1250, EW 2367, and EW lead by one game (87) when time runs out: +200 for EW (A27).
    assert {by_name[n]["total_points"] for n in set(seats.values()) - ew} == {1250}
    assert {by_name[n]["total_points"] for n in ew} == {2367 + 200}


def test_a_vint_correction_after_acceptance_recomputes_the_standings(
    profiles, club, django_capture_on_commit_callbacks
):

    from scoring import services as scoring_services

    tournament = TournamentFactory(
        name="Vint night", game="vint", rounds=1, club=club, seed=3, field=VINT_FIELD
    )
    table = RoundTableFactory(round__tournament=tournament)
    deal = scoring_services.deal_record(
        session=table.session, facts=RUBBER_1[0], actor=ACTOR, extra={"rubber": 1}
    ).row
    with django_capture_on_commit_callbacks(execute=True):
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    director = scoring_services.Actor(label="director", is_director=True)
    with django_capture_on_commit_callbacks(execute=True):
        amend_accepted(
            session=deal.session,
            change=lambda: scoring_services.deal_correct(
                session=deal.session,
                slot=deal.slot,
                facts=RUBBER_1[1],
                actor=director,
                reason="wrong contract",
            ),
        )
    versions = sorted(
        StandingsSnapshot.objects.filter(tournament=tournament).values_list(
            "results_version", flat=True
        )
    )
    # version 1: the deal; 2: the acceptance (a snapshot); 3: the unlock; 4: the
    # correction; 5: the acceptance again (one snapshot: the newest version's)
    assert versions == [2, 5]
