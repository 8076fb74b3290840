"""Print pages (issue 25, part 9): a round's results for the notice board and the
standings, A4 from the browser's print, linked from the round and standings pages, in the
reader's language; hidden standings stay hidden from the public on paper too.

The Spring Cup of ``test_standings_words`` (its docstring works the numbers out by hand):
round 1's table, small points by seat 19, -13, 7, -13; places 1, 3, 2, 3; big points 5,
0.5, 3, 0.5; the bye 2.25.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.actors import DIRECTOR_ACCEPTS
from tests.tournaments.test_standings_words import (
    Spring,
    play_round_two,
    row_cells,
    row_with,
    spring_cup,
    standings_page,
    text,
)
from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def spring(profiles, club, commit) -> Spring:
    return spring_cup(club, commit)


def round_print(client, tournament, number: int = 1, **headers) -> str:
    url = reverse("tournaments:round", kwargs={"slug": tournament.slug, "number": number})
    response = client.get(url + "?print=1", headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def seat_row(html: str, table: int, seat: int) -> list[str]:
    """The cells of a seat's row in a table's block of the round's results."""
    block = html[html.index(f'data-table="{table}"') :]
    block = block[: block.index("</tbody>")]
    return row_cells(block, f'<tr data-seat="{seat}"')


# ------------------------------------------------------------- a round's results


def test_a_rounds_results_show_every_seat_with_its_points_and_place(client, spring):
    html = round_print(client, spring.tournament)
    assert "Results of round 1 of 2" in html and "data-print-on-load" in html
    expected = {
        1: ("19", "5", "1"),
        2: ("-13", "0.5", "3"),
        3: ("7", "3", "2"),
        4: ("-13", "0.5", "3"),
    }
    for seat, points in expected.items():
        entry = spring.seat[seat]
        assert seat_row(html, 1, seat) == [f"{seat}. {entry.player.name} #{entry.number}", *points]
    bye = spring.bye
    assert f"Sitting out (bye): {bye.player.name} #{bye.number} – big points: 2.25" in text(html)


def test_a_table_not_accepted_yet_is_printed_without_points(client, spring):
    from tournaments.models import Registration

    Registration.objects.filter(pk=spring.seat[4].pk).update(withdrawn_after=1)
    services.round_generate(tournament=spring.tournament)
    html = round_print(client, spring.tournament, 2)
    assert "Table 1 (not accepted yet)" in text(html)
    assert seat_row(html, 1, 1)[1:] == ["–", "–", "–"]


def test_the_round_page_links_to_its_print(client, spring):
    url = reverse("tournaments:round", kwargs={"slug": spring.tournament.slug, "number": 1})
    html = client.get(url).content.decode()
    assert 'href="?print=1" id="round-print"' in html and "Print the results" in html


def test_hidden_standings_print_no_points_for_the_public(client, director_client, spring):
    Tournament.objects.filter(pk=spring.tournament.pk).update(hide_standings=True)
    public = round_print(client, spring.tournament)
    assert "The standings are hidden until the last round is finished." in public
    assert seat_row(public, 1, 1)[1:] == ["–", "–", "–"]  # the seating is public, no points
    assert "2.25" not in public
    assert seat_row(round_print(director_client, spring.tournament), 1, 1)[1:] == ["19", "5", "1"]

    printed = standings_page(client, spring.tournament, "?print=1")
    assert "The standings are hidden until the last round is finished." in printed
    assert spring.seat[1].player.name not in printed
    assert spring.seat[1].player.name in standings_page(
        director_client, spring.tournament, "?print=1"
    )


def test_the_print_is_in_the_readers_language(client, spring):
    client.cookies["django_language"] = "pl"
    html = round_print(client, spring.tournament)
    assert '<html lang="pl">' in html
    assert "Stolik 1" in text(html) and "Małe punkty" in html and "Table 1" not in text(html)


# ------------------------------------------------------------- the standings


def test_the_printed_standings_are_final_whole_and_say_the_rules(
    client, monkeypatch, spring, commit
):
    """Every row on paper, however small the screen's pages (2 rows here), in place order:
    7.25, 5.25, 4.5, 2.75, 0.5 (see test_standings_words)."""
    play_round_two(spring, commit)
    monkeypatch.setattr(selectors, "STANDINGS_PAGE_SIZE", 2)
    html = standings_page(client, spring.tournament, "?print=1")
    page = text(html)
    assert "Final standings." in page
    assert "(5 + 3 + 1 + 0) / 4 = 2.25 big points" in page
    order = [spring.seat[1], spring.seat[3], spring.bye, spring.seat[2], spring.seat[4]]
    positions = [html.index(f'/players/{e.number}/"') for e in order]
    assert positions == sorted(positions)
    assert "ind-page" not in html  # no pager on paper
    assert "data-print-on-load" in html and "standings-search" not in html


def test_the_standings_page_links_to_its_print(client, spring):
    assert 'href="?print=1"' in standings_page(client, spring.tournament)


def test_the_printed_standings_have_the_teams(client, kop_tournament, sixteen, commit):
    """Teams of eight (odd and even start numbers): a table hands out 9 big points, four
    tables 36; the team table is printed under the players (every member counting, as
    the tournaments made before the competition options do)."""
    kop_tournament.competition = {"team_counting": "all", "team_size_min": 1, "team_size_max": 8}
    kop_tournament.save()
    for entry in sixteen:
        entry.team = "Nieparzyści" if entry.number % 2 else "Parzyści"
        entry.save()
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    html = standings_page(client, kop_tournament, "?print=1")
    teams = html[html.index("<h2>Teams</h2>") :]
    # No deal played: every table ties, 9 / 4 = 2.25 each; eight players a team: 18 each,
    # 0 small points: the two teams share first place.
    for name in ("Nieparzyści", "Parzyści"):
        cells = row_with(teams, f'<td class="words">{name}</td>')
        assert (cells[0], cells[1], cells[3], cells[4]) == ("=1", name, "18", "0")
    assert "After round 1 of 5." in text(html)


# ------------------------------------------------------------- a Vint round


def test_a_vint_round_prints_each_seats_sheet_points(client, director_client, profiles, club):
    """Vint's standings keep no rounds: the printed round shows each seat's points as its
    accepted sheet totals them (vint.md §6.4: Anna 26282, Boris 34305, Carl 46868, Dina
    26349), with no big points or places."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from scoring import services as scoring_services
    from tests.factories import TournamentFactory
    from tests.scoring.test_vint_exchange import ACTOR, RUBBER_1, RUBBER_2, RUBBER_3

    tournament = TournamentFactory(
        name="Vint evening",
        game="vint",
        rounds=1,
        club=club,
        seed=1,
        field=["Anna", "Boris", "Carl", "Dina"],
    )
    csv = "round,table,seat,player\n1,1,1,1\n1,1,2,2\n1,1,3,3\n1,1,4,4\n"
    director_client.post(
        reverse("tournaments:round_import", kwargs={"slug": tournament.slug}),
        {"csv_file": SimpleUploadedFile("s.csv", csv.encode(), "text/csv")},
    )
    rnd = services.round_generate(tournament=tournament)
    table = rnd.tables.get()
    for number, deals in enumerate([RUBBER_1, RUBBER_2, RUBBER_3], 1):
        for n, facts in enumerate(deals):
            scoring_services.deal_record(
                session=table.session,
                facts=facts,
                actor=ACTOR,
                extra={"rubber": number, "first_dealer": "N" if (number, n) == (3, 0) else None},
            )
    html = round_print(client, tournament)
    assert seat_row(html, 1, 3)[1:] == ["–"]  # not accepted yet
    services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    html = round_print(client, tournament)
    assert "Big points" not in html and ">Points</th>" in html
    sheet = {1: "Anna #1", 2: "Boris #2", 3: "Carl #3", 4: "Dina #4"}
    totals = {1: "26282", 2: "34305", 3: "46868", 4: "26349"}
    for seat, name in sheet.items():
        assert seat_row(html, 1, seat) == [f"{seat}. {name}", totals[seat]]
