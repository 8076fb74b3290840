"""Leagues through the models and the recompute, with the worked numbers of
competitions.md §11 (E15: counting ``sum`` and a licence granted mid-season; E16:
counting ``placement``; E17: teams, best four of five, a substitute), and every refusal
of issue 26 item 5 with nothing written."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from clubs.models import ClubRecord
from tests.clubs.identities import database_state
from tests.factories import ClubFactory, TournamentFactory
from tests.ranking.test_league_examples import ALA, BARTEK, CELINA, DAREK, E15
from tests.tournaments.leagues_data import D, e13_rows, e17_second_rows, event, psb, write
from tournaments.models import LeagueRow, LeagueTable, Licence, LineUp
from tournaments.services import leagues
from tournaments.services.leagues import LeagueRejected

__all__ = ["psb"]

pytestmark = pytest.mark.django_db

# The association's list: Ala and Celina 1 September 2025, Bartek 1 November (mid-season),
# Darek none; the Polish way (";" and DD.MM.YYYY), with a header line.
LICENCES_CSV = (
    "Nr licencji;Imię i nazwisko;Data\n"
    "L1;Ala;01.09.2025\nL3;Celina;01.09.2025\nL2;Bartek;01.11.2025\n"
)


def table(league, kind, after=None):
    """The league's table (the last one, or after the ``after``-th event): one tuple per
    row, who by name, totals exact."""
    tables = LeagueTable.objects.filter(league=league)
    chosen = (
        tables.order_by("-after_event").first() if after is None else tables.get(after_event=after)
    )
    rows = LeagueRow.objects.filter(table=chosen, kind=kind).order_by("position")
    return [
        (r.who, r.rank, r.tied, F(r.big_points), F(r.small_points), r.event_wins, r.events)
        for r in rows
    ]


def make_league(psb, **options):
    return leagues.league_create(
        organiser=psb.association, name="Polska Liga", game="baska", season="2025/26", **options
    )


def e15_league(psb, **options):
    league = make_league(psb, **options)
    for day, rows in E15:
        t = event(psb.kartuzy, day, {psb.players[n]: r for n, r in rows.items()})
        leagues.event_add(league=league, tournament=t)
    return league


def test_e15_sum_with_licences_a_licence_granted_mid_season_counts_from_its_day(psb):
    leagues.licences_import(organiser=psb.association, text=LICENCES_CSV)
    league = e15_league(psb, licences_required=True)
    p = psb.players
    assert table(league, "individual") == [
        (p[ALA].pk, 1, False, 39, 125, 1, 3),
        (p[CELINA].pk, 2, False, 39, 105, 1, 3),
        (p[BARTEK].pk, 3, False, 27, 95, 1, 2),  # events 2 and 3 only; Darek unlicensed
    ]
    # After event 1 Bartek (licensed 1 November) is not yet classified.
    assert [r[0] for r in table(league, "individual", after=1)] == [p[ALA].pk, p[CELINA].pk]
    line = LeagueRow.objects.get(table__league=league, table__after_event=1, who=p[ALA].pk).line
    assert line == {"rank": "1", "big": "14", "small": "80", "counted": True}


def test_e15_sum_without_licences_ranks_bartek_first_on_small_points(psb):
    league = e15_league(psb)
    p = psb.players
    assert table(league, "individual") == [
        (p[BARTEK].pk, 1, False, 39, 135, 1, 3),
        (p[ALA].pk, 2, False, 39, 125, 1, 3),
        (p[CELINA].pk, 3, False, 39, 105, 1, 3),
        (p[DAREK].pk, 4, False, 27, -80, 0, 3),
    ]


def test_two_clubs_register_rows_of_one_person_are_one_league_player(psb, director):
    """Ala plays event 1 for Kartuzy and event 2 under Puck's register row: once merged
    (``clubs.Person``), the league adds her two events up on one line (12+14=26 over E15's
    first two events' Ala rows, 14 and 12)."""
    from clubs.services import player_merge
    from tests.factories import PlayerFactory

    ala_puck = PlayerFactory(club=psb.puck, name="Ala")
    player_merge(keep=psb.players[ALA], other=ala_puck, by=director, reason="Ala moved.")
    league = make_league(psb)
    (day1, rows1), (day2, rows2) = E15[0], E15[1]
    first = {psb.players[n]: r for n, r in rows1.items()}
    second = {psb.players[n]: r for n, r in rows2.items() if n != ALA}
    second[ala_puck] = rows2[ALA]
    leagues.event_add(league=league, tournament=event(psb.kartuzy, day1, first))
    leagues.event_add(league=league, tournament=event(psb.puck, day2, second))
    ala = [row for row in table(league, "individual") if row[0] == psb.players[ALA].pk]
    assert len(ala) == 1 and ala[0][3] == 26 and ala[0][6] == 2
    assert ala_puck.pk not in [row[0] for row in table(league, "individual")]


def test_e16_placement_shares_the_points_of_a_shared_place(psb):
    leagues.licences_import(organiser=psb.association, text=LICENCES_CSV)
    league = e15_league(
        psb, licences_required=True, counting="placement", points_table=[10, 8, 6, 5, 4, 3, 2, 1]
    )
    p = psb.players
    assert [(r[0], r[1], r[3]) for r in table(league, "individual")] == [
        (p[ALA].pk, 1, 25),
        (p[CELINA].pk, 2, 23),
        (p[BARTEK].pk, 3, 16),
    ]
    third = {
        r.who: r.line for r in LeagueRow.objects.filter(table__league=league, table__after_event=3)
    }
    assert third[p[ALA].pk]["points"] == third[p[CELINA].pk]["points"] == "7"  # (8 + 6) / 2


def e17_league(psb):
    league = make_league(psb)
    p = psb.players
    kar = leagues.team_create(league=league, name="KAR")
    puc = leagues.team_create(league=league, name="PUC")
    leagues.roster_set(team=kar, players=[p[n] for n in (1, 2, 3, 4, 5)])
    leagues.roster_set(team=puc, players=[p[n] for n in (6, 7, 8, 9)])
    first = event(psb.kartuzy, D(2025, 10, 4), e13_rows(p), name="E13")
    leagues.event_add(league=league, tournament=first)
    second = event(psb.puck, D(2025, 11, 8), e17_second_rows(p), name="E17 second")
    second_event = leagues.event_add(league=league, tournament=second)
    return league, kar, puc, second_event


def test_e17_teams_best_four_of_five_and_a_substitute(psb):
    league, kar, puc, second = e17_league(psb)
    p = psb.players
    # Event 1: the line-ups are the rosters; Ala (7th) is KAR's fifth and does not count.
    assert table(league, "team", after=1) == [
        (kar.pk, 1, False, 23, 128, 1, 1),
        (puc.pk, 2, False, 15, 41, 0, 1),
    ]
    kar_line = LeagueRow.objects.get(
        table__league=league, table__after_event=1, kind="team", who=kar.pk
    ).line
    assert {m["who"]: m["counted"] for m in kar_line["members"]} == {
        p[1].pk: False,
        p[2].pk: True,
        p[3].pk: True,
        p[4].pk: True,
        p[5].pk: True,
    }
    leagues.lineup_set(team=kar, event=second, players=[p[n] for n in (1, 2, 3, 4)])
    leagues.lineup_set(team=puc, event=second, players=[p[n] for n in (6, 7, 9, 20)])
    assert LineUp.objects.get(event=second, player=p[20]).substitute
    assert table(league, "team") == [
        (kar.pk, 1, False, 40, 140, 1, 2),
        (puc.pk, 2, False, 36, 105, 1, 2),
    ]
    puc_line = LeagueRow.objects.get(
        table__league=league, table__after_event=2, kind="team", who=puc.pk
    ).line
    assert (puc_line["rank"], puc_line["big"], puc_line["small"]) == ("1", "21", "64")
    assert {m["who"] for m in puc_line["members"] if m["substitute"]} == {p[20].pk}


def test_new_standings_of_an_event_recompute_its_league_from_that_event_on(
    psb, django_capture_on_commit_callbacks
):
    league = e15_league(psb)
    first = LeagueTable.objects.get(league=league, after_event=1).pk
    third = LeagueTable.objects.get(league=league, after_event=3)
    rows = {n: r for n, r in E15[2][1].items()}
    rows[DAREK] = (1, 30, 100)  # Darek's third event corrected: he wins it
    tournament = third.event.tournament
    numbers = dict(tournament.entries.values_list("player_id", "number"))
    with django_capture_on_commit_callbacks(execute=True):
        write(tournament, {numbers[psb.players[n].pk]: r for n, r in rows.items()})
    assert table(league, "individual")[0] == (psb.players[DAREK].pk, 1, False, 49, 70, 1, 3)
    assert LeagueTable.objects.get(league=league, after_event=1).pk == first  # not rewritten


# ---------------------------------------------------------------------------- licences


def test_licences_preview_then_import_with_commas_and_iso_dates(psb):
    leagues.licences_import(organiser=psb.association, text="L1;Ala;01.09.2025\n")
    text = "number,name,date\nL1,Ala,2025-09-01\nL2,Bartek Nowak,2025-11-01\nL3,Celina,2025-09-02\n"
    preview = leagues.licences_preview(organiser=psb.association, text=text)
    assert preview.problems == []
    assert [(x.line, x.number, x.status) for x in preview.lines] == [
        (2, "L1", "same"),
        (3, "L2", "new"),
        (4, "L3", "new"),
    ]
    assert (
        Licence.objects.filter(organiser=psb.association).count() == 1
    )  # a preview writes nothing
    leagues.licences_import(organiser=psb.association, text=text)
    licences = {x.number: x for x in Licence.objects.filter(organiser=psb.association)}
    assert licences["L2"].granted_on == D(2025, 11, 1)
    assert licences["L2"].player == psb.players[2]  # linked by the federation id
    record = ClubRecord.objects.filter(club=psb.association, action="licences_imported").first()
    assert record.detail == {"new": 2, "changed": 0, "same": 1, "linked": 2}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("L1;Ala;01.09.2025\nL2;Bartek;01.11.2025\nL1;Alicja;02.09.2025\n", "lines 1, 3"),
        ("L1;Ala;31.02.2025\nL9;Irena;01.09.2025\n", "is not a date"),
        ("L9;Irena;01.09.2025\nL1;Ala\n", "three fields"),
        ("Nr;Imię;Data\n", "no licence"),
    ],
    ids=["duplicate-numbers", "bad-date", "two-fields", "empty"],
)
def test_a_bad_licence_list_is_refused_whole_and_writes_nothing(psb, text, problem):
    before = database_state()
    with pytest.raises(LeagueRejected) as refused:
        leagues.licences_import(organiser=psb.association, text=text)
    assert any(problem in p for p in refused.value.problems)
    assert database_state() == before


# ---------------------------------------------------------------------------- refusals


def refuses(call, expected):
    before = database_state()
    with pytest.raises(LeagueRejected) as refused:
        call()
    assert any(expected in p for p in refused.value.problems), refused.value.problems
    assert database_state() == before


def test_e17_refused_line_ups_two_substitutes_a_rival_regular_too_many(psb):
    league, kar, puc, second = e17_league(psb)
    p = psb.players
    refuses(
        lambda: leagues.lineup_set(team=puc, event=second, players=[p[n] for n in (6, 7, 20, 21)]),
        "one substitute, not 2",
    )
    refuses(
        lambda: leagues.lineup_set(team=puc, event=second, players=[p[n] for n in (5, 6, 7, 9)]),
        "Ewa is on the roster of KAR",
    )
    refuses(
        lambda: leagues.lineup_set(
            team=kar, event=second, players=[p[n] for n in (1, 2, 3, 4, 5, 20)]
        ),
        "1 to 5 players, not 6",
    )
    leagues.lineup_set(team=puc, event=second, players=[p[n] for n in (6, 7, 9, 20)])
    refuses(
        lambda: leagues.lineup_set(team=kar, event=second, players=[p[n] for n in (1, 2, 3, 20)]),
        "Jan plays for PUC at this event",
    )


def test_a_player_on_two_teams_of_one_league_and_a_roster_of_the_wrong_size_are_refused(psb):
    league, kar, puc, _second = e17_league(psb)
    p = psb.players
    refuses(
        lambda: leagues.roster_set(team=puc, players=[p[n] for n in (5, 6, 7, 8)]),
        "Ewa is on the roster of KAR",
    )
    refuses(
        lambda: leagues.roster_set(team=puc, players=[p[n] for n in (6, 7, 8)]),
        "4 to 5 regular players, not 3",
    )


def test_an_unlicensed_line_up_member_is_refused_when_licences_are_required(psb):
    leagues.licences_import(organiser=psb.association, text=LICENCES_CSV)
    league = make_league(psb, licences_required=True)
    p = psb.players
    team = leagues.team_create(league=league, name="KAR")
    leagues.roster_set(team=team, players=[p[n] for n in (1, 2, 3, 4)])
    t = event(psb.kartuzy, D(2025, 10, 4), {p[n]: (n, 4 - n, 0) for n in (1, 2, 3, 4)})
    first = leagues.event_add(league=league, tournament=t)
    # Bartek's licence dates from 1 November, Darek holds none.
    refuses(
        lambda: leagues.lineup_set(team=team, event=first, players=[p[n] for n in (1, 2, 3, 4)]),
        "Bartek holds no licence granted on or before the event",
    )


def test_an_event_of_another_game_or_twice_and_a_vint_league_are_refused(psb):
    league = make_league(psb)
    kop = TournamentFactory(club=psb.kartuzy, game="kop")
    refuses(
        lambda: leagues.event_add(league=league, tournament=kop), "a tournament of another game"
    )
    baska = TournamentFactory(club=psb.kartuzy, game="baska")
    leagues.event_add(league=league, tournament=baska)
    refuses(
        lambda: leagues.event_add(league=league, tournament=baska),
        "already an event of this league",
    )
    refuses(
        lambda: leagues.league_create(
            organiser=psb.association, name="V", game="vint", season="2026"
        ),
        "Kop or Baśka",
    )


def test_a_tournament_of_a_club_outside_the_association_is_refused(psb):
    league = make_league(psb)
    outside = TournamentFactory(club=ClubFactory(name="Elsewhere"), game="baska")
    refuses(lambda: leagues.event_add(league=league, tournament=outside), "neither the organiser")
