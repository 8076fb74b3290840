"""What the standings say besides their tables (issue 25, part 8): "after round N of R" or
"final", the bye and walkout rules in force, withdrawn players marked; a player's own
page with each round's table, place, small and big points, his byes and absences, his
total and place; the series' tie rule.

Every expected value is worked out by hand below from kop.md (big points 5/3/1/0 or
4/3/2/1, ties share) and the deals' payments, not read from the code under test.

The five-player Spring Cup (``spring``), two rounds of three deals, Kościan's 5/3/1/0:

- Round 1: four at table 1, one sits out. Deals CICHA_1, CICHA_1, ZOLO_3 (the cicha by
  seat 1 pays +12 to him and -4 to each other; the zolo by seat 3 +15 to him and -5 to
  each other): small points by seat 1: 19, 2: -13, 3: 7, 4: -13. Places 1, 3, 2, 3; big
  points 5, (1 + 0) / 2 = 0.5, 3, 0.5. The bye: (5 + 3 + 1 + 0) / 4 = 2.25, 0 small.
- Then the player of seat 4 withdraws: round 2 seats the other four at one table, no
  bye. No deal is played there and the director accepts it: all four tie on 0 and share
  (5 + 3 + 1 + 0) / 4 = 2.25 each, all placed 1st.
- Totals: seat 1: 7.25 (19), seat 3: 5.25 (7), the round-1 bye: 4.5 (0), seat 2: 2.75
  (-13), seat 4 (withdrawn, absent from round 2): 0.5 (-13): places 1 to 5 in that order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

import pytest
from django.urls import reverse

from scoring import services as scoring_services
from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import CICHA_1, ZOLO_3, TournamentFactory
from tournaments import services
from tournaments.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db

ACTOR = scoring_services.Actor(label="t", is_director=True)
FIVE = ["Ala Nowak", "Bartek Kowal", "Celina Wrona", "Darek Lis", "Edek Sowa"]


def text(html: str) -> str:
    """The page's text, tags dropped and white space folded (for sentences)."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def row_cells(html: str, opening: str) -> list[str]:
    """The texts of the cells of the first row whose opening tag starts with ``opening``."""
    start = html.index(opening)
    row = html[start : html.index("</tr>", start)]
    return [text(cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]


def row_with(html: str, needle: str) -> list[str]:
    """The cells of the first table row holding ``needle``."""
    at = html.index(needle)
    return row_cells(html[html.rindex("<tr", 0, at) :], "<tr")


def player_row(html: str, number: int) -> list[str]:
    """The cells of the standings row of start number ``number``."""
    return row_with(html, f'/players/{number}/"')


@dataclass
class Spring:
    tournament: Tournament
    first: Round
    seat: dict[int, Registration]  # round 1's seats
    bye: Registration  # sat out round 1


def play_round_one(tournament: Tournament, commit) -> Spring:
    rnd = services.round_generate(tournament=tournament)
    table = rnd.tables.get()
    for facts in (CICHA_1, CICHA_1, ZOLO_3):
        scoring_services.deal_record(session=table.session, facts=facts, actor=ACTOR)
    with commit():
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    entries = {e.player_id: e for e in tournament.entries.select_related("player")}
    seat = {s.seat: entries[s.player_id] for s in table.session.seats.all()}
    (bye,) = [e for e in entries.values() if e.number in rnd.byes]
    return Spring(tournament, rnd, seat, bye)


def play_round_two(spring: Spring, commit) -> Round:
    """Seat 4 withdraws after round 1 (as ``registration_withdraw`` leaves him), then
    round 2 is seated and accepted without a deal."""
    Registration.objects.filter(pk=spring.seat[4].pk).update(withdrawn_after=1)
    rnd = services.round_generate(tournament=spring.tournament)
    assert rnd.byes == [] and rnd.tables.count() == 1
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    return rnd


def spring_cup(club, commit) -> Spring:
    """The Spring Cup after round 1 (see the module's docstring)."""
    tournament = TournamentFactory(
        name="Spring Cup", rounds=2, deals_per_round=3, club=club, seed=3, field=FIVE
    )
    return play_round_one(tournament, commit)


@pytest.fixture
def spring(profiles, club, commit) -> Spring:
    return spring_cup(club, commit)


def standings_page(client, tournament, query: str = "") -> str:
    url = reverse("tournaments:standings", kwargs={"slug": tournament.slug})
    response = client.get(url + query)
    assert response.status_code == 200
    return response.content.decode()


def player_page(client, entry) -> str:
    url = reverse(
        "tournaments:player_results",
        kwargs={"slug": entry.tournament.slug, "number": entry.number},
    )
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


# ----------------------------------------------------------------- the stage


def test_after_round_one_of_two_then_final(client, spring, commit):
    page = text(standings_page(client, spring.tournament))
    assert "After round 1 of 2." in page
    assert "Final standings." not in page

    play_round_two(spring, commit)
    page = text(standings_page(client, spring.tournament))
    assert "Final standings." in page
    assert "After round" not in page


def test_a_round_partly_accepted_says_how_many_tables_count(
    client, kop_tournament, sixteen, commit
):
    """Sixteen players: four tables a round. Round 1 with one table accepted is not yet
    complete; all four make it "after round 1 of 5"; one of round 2's tables then counts."""
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_table_accept(
            table=rnd.tables.get(number=1), actor=DIRECTOR_ACCEPTS, reason="on paper"
        )
    page = text(standings_page(client, kop_tournament))
    assert "Round 1: tables counted so far: 1 of 4." in page
    assert "After round" not in page

    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    second = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_table_accept(
            table=second.tables.get(number=2), actor=DIRECTOR_ACCEPTS, reason="on paper"
        )
    page = text(standings_page(client, kop_tournament))
    assert "After round 1 of 5. Round 2: tables counted so far: 1 of 4." in page
    assert "Final standings." not in page


def test_a_table_the_director_unlocked_is_open_again(spring, commit):
    """ "Final" needs every table accepted: an unlocked (reopened) table takes it back."""
    from tournaments.selectors import standings_stage

    second = play_round_two(spring, commit)
    assert standings_stage(tournament=spring.tournament) == {
        "final": True,
        "after": 2,
        "of": 2,
        "partial": None,
    }
    second.tables.update(accepted_at=None)
    assert standings_stage(tournament=spring.tournament) == {
        "final": False,
        "after": 1,
        "of": 2,
        "partial": None,
    }


# ----------------------------------------------------------------- the rules in force


def test_the_bye_rule_is_said_from_the_tournaments_big_points(client, spring):
    page = text(standings_page(client, spring.tournament))
    assert (
        "A player who sits out a round (a bye) gets the average of a table: "
        "(5 + 3 + 1 + 0) / 4 = 2.25 big points, and 0 small points."
    ) in page
    assert (
        "When a player walks out, the three who stay get 2.25 big and 0 small points "
        "whatever the deals played said"
    ) in page
    assert "absent from a round (arrived later, or withdrawn) gets nothing" in page


def test_the_polish_baska_associations_scores_are_said_as_set(client, spring):
    tournament = spring.tournament
    tournament.competition = {
        "bye_score": {"big": 3, "small": 35},
        "walkout_score": {"big": 3, "small": 35},
    }
    tournament.save()
    page = text(standings_page(client, tournament))
    assert "A player who sits out a round (a bye) gets 3 big and 35 small points." in page
    assert "the three who stay get 3 big and 35 small points" in page


def test_under_wolsztyn_big_points_the_bye_reads_two_and_a_half(client, profiles, club, commit):
    tournament = TournamentFactory(
        name="Wolsztyn Spring",
        profile="kop-wolsztyn",
        rounds=2,
        deals_per_round=3,
        club=club,
        field=FIVE,
    )
    spring = play_round_one(tournament, commit)
    page = standings_page(client, tournament)
    assert "(4 + 3 + 2 + 1) / 4 = 2.5 big points, and 0 small points." in text(page)
    # The bye's row says the same: 10 / 4 = 2.5 big points, 0 small points; the winner of
    # the table 4 (19 small points).
    assert player_row(page, spring.bye.number)[3:5] == ["2.5", "0"]
    assert player_row(page, spring.seat[1].number)[3:5] == ["4", "19"]


def test_the_bye_reads_with_a_decimal_comma_in_polish(client, spring):
    """A fraction in the standings tables is written the reader's way: the bye's 2.25 big
    points (module docstring) read "2,25" in Polish, as the spreadsheet export writes it."""
    client.cookies["django_language"] = "pl"
    page = standings_page(client, spring.tournament)
    assert player_row(page, spring.bye.number)[3] == "2,25"
    assert "2.25" not in text(page)


# ----------------------------------------------------------------- withdrawn players


def test_a_withdrawn_player_is_marked_with_the_round_after_which_he_left(client, spring, commit):
    play_round_two(spring, commit)
    page = standings_page(client, spring.tournament)
    withdrawn = spring.seat[4]
    name = withdrawn.player.name
    assert re.search(
        rf"{name}</a> <small class=\"withdrawn\">\(withdrew after round 1\)</small>", page
    )
    assert page.count("withdrew after round") == 1  # nobody else
    # On the printed standings too.
    assert "withdrew after round 1" in standings_page(client, spring.tournament, "?print=1")


# ----------------------------------------------------------------- a player's page


def test_a_players_page_has_place_big_points_and_the_round_he_sat_out(client, spring, commit):
    play_round_two(spring, commit)
    page = player_page(client, spring.bye)
    assert "Place: 3 · Big points: 4.5 · Small points: 0" in text(page)
    # Round, table, seat, small points, big points, place at the table, opponents.
    assert row_cells(page, '<tr data-round="1"') == [
        "1",
        "–",
        "–",
        "0",
        "2.25",
        "–",
        "Sat out (bye)",
    ]
    # Round 2 at table 1, all four tied on 0: placed 1st, 2.25 each.
    cells = row_cells(page, '<tr data-round="2"')
    assert cells[0:2] == ["2", "1"] and cells[3:6] == ["0", "2.25", "1"]


def test_a_winner_page_shows_his_place_at_the_table_and_his_total(client, spring, commit):
    play_round_two(spring, commit)
    winner = spring.seat[1]
    page = player_page(client, winner)
    assert "Place: 1 · Big points: 7.25 · Small points: 19" in text(page)
    cells = row_cells(page, '<tr data-round="1"')
    # Round, table, seat, small points, big points, place at the table, opponents.
    assert cells[0:6] == ["1", "1", "1", "19", "5", "1"]
    others = {spring.seat[s].player.name for s in (2, 3, 4)}
    assert set(cells[6].split(", ")) == others


def test_a_withdrawn_players_page_shows_the_round_he_missed_as_absent(client, spring, commit):
    play_round_two(spring, commit)
    page = player_page(client, spring.seat[4])
    assert "Withdrew after round 1." in text(page)
    assert "Place: 5 · Big points: 0.5 · Small points: -13" in text(page)
    assert row_cells(page, '<tr data-round="1"')[3:6] == ["-13", "0.5", "3"]
    assert row_cells(page, '<tr data-round="2"') == [
        "2",
        "–",
        "–",
        "0",
        "0",
        "–",
        "Absent (withdrawn)",
    ]


def test_a_table_not_accepted_yet_shows_its_small_points_and_no_place(client, spring):
    """Round 2 seated, two deals entered, not accepted: the small points as entered,
    no place or big points yet (the standings count accepted tables only)."""
    Registration.objects.filter(pk=spring.seat[4].pk).update(withdrawn_after=1)
    rnd = services.round_generate(tournament=spring.tournament)
    table = rnd.tables.get()
    scoring_services.deal_record(session=table.session, facts=CICHA_1, actor=ACTOR)
    seat_one = table.session.seats.get(seat=1).player
    entry = spring.tournament.entries.get(player=seat_one)
    cells = row_cells(player_page(client, entry), '<tr data-round="2"')
    assert cells[3:6] == ["12 (not accepted yet)", "–", "–"]


def test_hidden_standings_hide_the_players_page_from_the_public(client, director_client, spring):
    Tournament.objects.filter(pk=spring.tournament.pk).update(hide_standings=True)
    public = player_page(client, spring.seat[1])
    assert "The standings are hidden until the last round is finished." in public
    assert "player-rounds" not in public and "Big points" not in public
    assert "Place: 1 · Big points: 5 · Small points: 19" in text(
        player_page(director_client, spring.seat[1])
    )


# ----------------------------------------------------------------- the series


def test_the_series_page_says_how_ties_are_ordered(client, director, second_tournament):
    from tournaments import ratings

    series = ratings.series_create(
        name="Grand Prix", game="kop", points_table=[10, 6, 4], tournaments=[second_tournament]
    )
    page = text(
        client.get(reverse("tournaments:series_detail", args=[series.slug])).content.decode()
    )
    assert (
        "Players level on points are ordered by their best single result, then their second "
        "best, and so on (a missed tournament counts 0); players still level share the place."
    ) in page
    series.drop_worst = True
    series.save()
    page = text(
        client.get(reverse("tournaments:series_detail", args=[series.slug])).content.decode()
    )
    assert "(the dropped result does not count, a missed tournament counts 0)" in page


# ----------------------------------------------------------------- the hall display


def test_the_hall_display_says_how_far_the_standings_have_got(client, spring, commit):
    url = reverse("tournaments:display", kwargs={"slug": spring.tournament.slug})
    assert "Standings · after round 1 of 2" in text(client.get(url).content.decode())
    play_round_two(spring, commit)
    assert "Standings · final" in text(client.get(url).content.decode())


def test_a_change_of_the_rounds_planned_is_said_at_once(client, spring):
    """The page a reader holds (304 while nothing on it moved) and the shared copy follow
    an edit of the rounds planned, though no result changed."""
    url = reverse("tournaments:standings", kwargs={"slug": spring.tournament.slug})
    client.get(url)
    held = client.get(url)
    assert "After round 1 of 2." in text(held.content.decode())
    Tournament.objects.filter(pk=spring.tournament.pk).update(rounds_planned=3)
    again = client.get(url, headers={"If-None-Match": held["ETag"]})
    assert again.status_code == 200
    assert "After round 1 of 3." in text(again.content.decode())
