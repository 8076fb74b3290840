"""The standings page reads one page of stored rows (issue 12 item 2): the database sorts
a big field across pages, a search finds a player by folded name or start number, and a
jump opens the page holding the player, marked. (That a page of a big field costs the same
few small reads as a page of a small one: ``tests/config/test_statements.py``.)"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import TournamentFactory
from tournaments import selectors, services
from tournaments.models import StandingsRow, StandingsSnapshot

pytestmark = pytest.mark.django_db

FIELD = 333
PAGE = 20


@pytest.fixture(autouse=True)
def small_pages(monkeypatch):
    monkeypatch.setattr(selectors, "STANDINGS_PAGE_SIZE", PAGE)


def _name(i: int) -> str:
    # Accents in every tenth name: "Łukasz Żółć 0010".
    return f"Łukasz Żółć {i:04d}" if i % 10 == 0 else f"Gracz {i:04d}"


def kop_row(i: int) -> dict:
    return {
        "rank": str(i),
        "place": i,
        "number": 1000 + i,
        "name": _name(i),
        "big_points": FIELD - i,
        "small_points": (i * 7) % 50 - 25,
        "firsts": 0,
        "seconds": 0,
        "thirds": 0,
        "fourths": 0,
        "rounds": 3,
        "byes": 0,
        "by_round": [],
    }


def vint_row(i: int) -> dict:
    return {
        "rank": str(i),
        "place": i,
        "number": 1000 + i,
        "name": _name(i),
        "net": FIELD - i,
        "rubbers_won": 1,
        "total_points": 100 * i,
        "rounds": 1,
    }


def store(tournament, rows):
    """A snapshot as the standings task stores it: the document and its rows."""
    tournament.results_version = 1
    tournament.save(update_fields=["results_version"])
    data = {"game": tournament.game, "individual": rows}
    snapshot = StandingsSnapshot.objects.create(tournament=tournament, results_version=1, data=data)
    services.standings_rows_store(snapshot=snapshot, data=data)
    return snapshot


def big_field(tournament):
    """``tournament`` with a snapshot of FIELD rows of its game stored."""
    row = kop_row if tournament.game == "kop" else vint_row
    store(tournament, [row(i) for i in range(1, FIELD + 1)])
    return tournament


def vint_night(club, director):
    return TournamentFactory(
        name="Vint night", game="vint", rounds=1, club=club, seed=1, created_by=director
    )


@pytest.fixture
def big_kop(kop_tournament):
    return big_field(kop_tournament)


@pytest.fixture
def big_vint(profiles, club, director):
    return big_field(vint_night(club, director))


def page_url(tournament) -> str:
    return reverse("tournaments:standings", kwargs={"slug": tournament.slug})


def body_names(html: str) -> list[str]:
    tbody = html.split('<table class="grid standings"')[1].split("</tbody>")[0]
    return re.findall(r'/(\d+)/">', tbody)


def rows_read(queries) -> int:
    """How many snapshot rows the captured reads could return: a read of the row table
    must be bounded by a LIMIT no bigger than a page (or be a COUNT). A read of named
    keys of the snapshot's JSON (its classes, adjustments, teams) is not a read of it whole."""
    largest = 0
    for q in queries:
        sql = q["sql"]
        columns = re.sub(r"\"data\"(, '?\$| ->| #>)", "", sql.split("FROM")[0])
        if "standingssnapshot" in sql and '"data"' in columns:
            return FIELD  # the snapshot's whole JSON
        if "standingsrow" not in sql or "COUNT(" in sql:
            continue
        limit = re.search(r"LIMIT (\d+)", sql)
        if limit is None and "IN ('pairs', 'teams')" not in sql:
            return FIELD
        if limit:
            largest = max(largest, int(limit.group(1)))
    return largest


@pytest.mark.parametrize("field", ["big_kop", "big_vint"])
def test_sorting_is_done_by_the_database_across_pages(client, request, field):
    tournament = request.getfixturevalue(field)
    column = "small_points" if field == "big_kop" else "total_points"
    html = client.get(page_url(tournament) + f"?ind-sort=-{column}").content.decode()
    rows = [kop_row(i) if field == "big_kop" else vint_row(i) for i in range(1, FIELD + 1)]
    expected = sorted(rows, key=lambda r: (-r[column], r["place"]))[:PAGE]
    assert body_names(html) == [str(r["number"]) for r in expected]
    by_name = client.get(page_url(tournament) + "?ind-sort=-name").content.decode()
    assert body_names(by_name)[0] == "1330"  # "Łukasz Żółć 0330" folds to "lukasz..."


@pytest.mark.parametrize("query", ["lukasz zolc 0250", "ŁUKASZ  Żółć 0250", "zolc 025"])
def test_search_finds_a_name_without_its_accents_and_jumps_to_its_page(client, big_kop, query):
    response = client.get(page_url(big_kop), {"q": query})
    assert response["Location"] == page_url(big_kop) + "?player=1250#standings-found"
    html = client.get(response["Location"]).content.decode()
    assert 'id="standings-found"' in html
    found = html.split('id="standings-found"')[1].split("</tr>")[0]
    assert "Łukasz Żółć 0250" in found
    # Place 250 with 20 a page: page 13 (places 241 to 260).
    assert body_names(html) == [str(1000 + i) for i in range(241, 261)]


def test_search_by_start_number_and_several_matches_link_to_each_place(client, big_kop):
    by_number = client.get(page_url(big_kop) + "?q=%231007", follow=True).content.decode()
    assert "Gracz 0007" in by_number.split('id="standings-found"')[1].split("</tr>")[0]
    several = client.get(page_url(big_kop) + "?q=ZOLC").content.decode()
    assert 'id="standings-several"' in several
    links = re.findall(r'href="\?player=(\d+)#standings-found"', several)
    assert links[:3] == ["1010", "1020", "1030"]
    assert len(links) == selectors.STANDINGS_SEARCH_MAX
    jump = client.get(page_url(big_kop) + "?player=1030&ind-sort=name").content.decode()
    assert "Łukasz Żółć 0030" in jump.split('id="standings-found"')[1].split("</tr>")[0]
    assert body_names(jump) == [str(1000 + i) for i in range(21, 41)]
    none = client.get(page_url(big_kop) + "?q=Nobody").content.decode()
    assert 'id="standings-none"' in none and 'id="standings-found"' not in none


def test_a_page_past_the_end_shows_the_last_and_print_and_csv_show_every_row(client, big_kop):
    last = client.get(page_url(big_kop) + "?ind-page=999").content.decode()
    assert body_names(last)[-1] == str(1000 + FIELD)
    printed = client.get(page_url(big_kop) + "?print=1").content.decode()
    assert len(body_names(printed)) == FIELD
    csv = client.get(reverse("tournaments:standings_csv", kwargs={"slug": big_kop.slug}))
    assert csv.content.decode().count("\n") == FIELD + 1


def test_the_standings_task_stores_the_rows_with_the_snapshot(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    rnd = services.round_generate(tournament=kop_tournament)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    snapshot = StandingsSnapshot.objects.get(tournament=kop_tournament)
    stored = list(snapshot.rows.filter(kind="individual").order_by("position"))
    plain = [{k: v for k, v in r.items() if k != "by_round"} for r in snapshot.data["individual"]]
    assert [r.data for r in stored] == plain
    assert [r.number for r in stored] == [r["number"] for r in snapshot.data["individual"]]
    assert stored[0].folded == stored[0].data["name"].casefold()
    # A repeated run stores nothing more.
    services.standings_recompute(tournament_id=kop_tournament.pk, version=1)
    assert StandingsRow.objects.filter(snapshot__tournament=kop_tournament).count() == 16


def test_a_newer_snapshot_replaces_the_older_ones_rows(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    """Only the newest snapshot's rows are read, so an older snapshot's rows are dropped when
    a newer one is stored: a full evening's recomputes do not pile up 4,000 rows apiece."""
    rnd = services.round_generate(tournament=kop_tournament)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    first = StandingsSnapshot.objects.get(tournament=kop_tournament)
    version = first.results_version + 1
    type(kop_tournament).objects.filter(pk=kop_tournament.pk).update(results_version=version)
    newest = services.standings_recompute(tournament_id=kop_tournament.pk, version=version)
    assert newest is not None and newest.pk != first.pk
    kept = StandingsRow.objects.filter(snapshot__tournament=kop_tournament)
    assert kept.count() == 16
    assert set(kept.values_list("snapshot_id", flat=True)) == {newest.pk}
