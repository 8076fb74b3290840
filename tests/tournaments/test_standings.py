"""Standings computed after accepted results, stored as versioned snapshots."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services as scoring_services
from tests.actors import DIRECTOR_ACCEPTS
from tests.config.test_csvexport import RAW
from tests.factories import CICHA_1, ZOLO_3, PlayerFactory, RegistrationFactory, amend_accepted
from tournaments import services
from tournaments.models import StandingsSnapshot
from tournaments.standings import standings_compute

pytestmark = pytest.mark.django_db


ACTOR = scoring_services.Actor(label="t", is_director=True)


def seat_number(table, seat):
    player = table.session.seats.get(seat=seat).player
    return table.round.tournament.entries.get(player=player).number


def test_standings_after_one_accepted_table(kop_tournament, sixteen, commit):
    rnd = services.round_generate(tournament=kop_tournament)
    table = rnd.tables.get(number=1)
    for facts in (CICHA_1, CICHA_1, ZOLO_3):
        scoring_services.deal_record(session=table.session, facts=facts, actor=ACTOR)
    # small points by seat: 1: +12+12-5 = 19, 2: -4-4-5 = -13, 3: -4-4+15 = 7, 4: -13
    with commit():
        services.round_table_accept(
            table=table, actor=DIRECTOR_ACCEPTS, reason="on paper"
        )  # tasks run in-process
    snapshot = StandingsSnapshot.objects.get()
    kop_tournament.refresh_from_db()
    # Each deal at a table of the round counts as a change, then the acceptance: version 4.
    assert snapshot.results_version == kop_tournament.results_version == 4
    rows = {r["number"]: r for r in snapshot.data["individual"]}
    assert len(rows) == 4  # only the accepted table counts
    first, third = seat_number(table, 1), seat_number(table, 3)
    second_a, second_b = seat_number(table, 2), seat_number(table, 4)
    assert (rows[first]["big_points"], rows[first]["small_points"], rows[first]["rank"]) == (
        5,
        19,
        "1",
    )
    assert (rows[third]["big_points"], rows[third]["small_points"]) == (3, 7)
    # seats 2 and 4 tie on -13 for 3rd and 4th place: (1 + 0) / 2 each under 5/3/1/0
    assert rows[second_a]["big_points"] == rows[second_b]["big_points"] == 0.5
    assert rows[second_a]["rank"] == "=3"


def test_correction_after_acceptance_makes_a_new_snapshot(kop_tournament, sixteen, commit):
    rnd = services.round_generate(tournament=kop_tournament)
    table = rnd.tables.get(number=1)
    deal = scoring_services.deal_record(session=table.session, facts=CICHA_1, actor=ACTOR).row
    with commit():
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    with commit():
        amend_accepted(
            session=deal.session,
            change=lambda: scoring_services.deal_correct(
                session=deal.session, slot=deal.slot, facts=ZOLO_3, actor=ACTOR, reason="typo"
            ),
        )
    # version 1: the deal; 2: the acceptance (a snapshot); 3: the unlock; 4: the
    # correction; 5: the acceptance again (one snapshot: the newest version's)
    versions = list(StandingsSnapshot.objects.values_list("results_version", flat=True))
    assert sorted(versions) == [2, 5]
    latest = StandingsSnapshot.objects.get(results_version=5).data["individual"]
    assert latest[0]["number"] == seat_number(table, 3)


def test_recompute_is_idempotent(kop_tournament, sixteen, commit):
    services.round_generate(tournament=kop_tournament)
    with commit():
        services.results_changed(tournament=kop_tournament)
    assert services.standings_recompute(tournament_id=kop_tournament.pk, version=1) is None
    assert StandingsSnapshot.objects.count() == 1


def test_sit_out_scores_the_bye(kop_tournament, sixteen, club, commit):
    RegistrationFactory(tournament=kop_tournament, player=PlayerFactory(club=club))
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    data = standings_compute(tournament=kop_tournament)
    bye = next(r for r in data["individual"] if r["number"] == rnd.byes[0])
    assert bye["big_points"] == 2.25  # (5 + 3 + 1 + 0) / 4
    assert bye["byes"] == 1


def test_pairs_and_teams_classifications(kop_tournament, sixteen, commit):
    # Today's options (the data migration gives them to existing tournaments): every
    # member counts, teams of any size registered.
    kop_tournament.competition = {"team_counting": "all", "team_size_min": 1, "team_size_max": 8}
    kop_tournament.save()
    for entry in sixteen:
        entry.team = "Odd" if entry.number % 2 else "Even"
        entry.save()
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    data = standings_compute(tournament=kop_tournament)
    assert {t["group"] for t in data["teams"]} == {"Odd", "Even"}
    assert sum(t["big_points"] for t in data["teams"]) == 4 * 9


def test_a_new_tournaments_teams_count_their_best_four_of_four_or_five(
    kop_tournament, sixteen, commit
):
    """competitions.md §7 defaults: line-ups of 4 to 5, the best 4 counting; a team of 8
    is ranked nowhere and named as left out."""
    for entry in sixteen:
        entry.team = "Five" if entry.number <= 5 else "Eight" if entry.number > 8 else ""
        entry.save()
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    data = standings_compute(tournament=kop_tournament)
    (five,) = data["teams"]
    assert five["group"] == "Five"
    order = [r["number"] for r in data["individual"] if r["number"] <= 5]
    assert five["counted"] == order[:4]  # the five's best four, by the individual order
    points = {r["number"]: r["big_points"] for r in data["individual"]}
    assert five["big_points"] == pytest.approx(sum(points[n] for n in order[:4]))
    assert data["teams_left_out"] == [{"group": "Eight", "size": 8}]


def test_standings_page_table_sorting_csv_and_print(client, kop_tournament, sixteen, commit):
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    url = reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug})
    html = client.get(url).content.decode()
    assert 'id="standings-current"' in html and "Gracz 01" in html
    assert client.get(url + "?ind-sort=-small_points").status_code == 200
    assert "data-print-on-load" in client.get(url + "?print=1").content.decode()
    csv_text = client.get(
        reverse("tournaments:standings_csv", kwargs={"slug": kop_tournament.slug}), RAW
    ).content.decode("utf-8-sig")
    assert csv_text.splitlines()[0].startswith("rank,place,number,name,big_points")
    assert len(csv_text.splitlines()) == 17


def test_hidden_standings_until_the_last_round(
    client, director_client, kop_tournament, sixteen, commit
):
    kop_tournament.hide_standings = True
    kop_tournament.save()
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    url = reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug})
    assert "hidden until the last round" in client.get(url).content.decode()
    assert (
        client.get(
            reverse("tournaments:standings_csv", kwargs={"slug": kop_tournament.slug})
        ).status_code
        == 403
    )
    assert "Gracz 01" in director_client.get(url).content.decode()


def test_pending_snapshot_polls_until_current(client, kop_tournament, sixteen, commit):
    from tournaments.models import Tournament

    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    Tournament.objects.filter(pk=kop_tournament.pk).update(results_version=5)  # a run is queued
    url = reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug})
    html = client.get(url).content.decode()
    assert "A newer version is on its way" in html and 'hx-trigger="every 3s"' in html
    status = client.get(url + "?status=1", headers={"HX-Request": "true"}).content.decode()
    assert status.lstrip().startswith('<div id="standings-status"')


def test_standings_command_prints_json(kop_tournament, sixteen, capsys, commit):
    import json

    from django.core.management import call_command

    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    call_command("standings", str(kop_tournament.pk), "--json")
    data = json.loads(capsys.readouterr().out)
    assert len(data["individual"]) == 16
    assert sum(r["big_points"] for r in data["individual"]) == 4 * 9


def test_round_results_table_lists_the_accepted_tables(client, kop_tournament, sixteen, commit):
    rnd = services.round_generate(tournament=kop_tournament)
    table = rnd.tables.get(number=2)
    for facts in (CICHA_1, ZOLO_3):
        scoring_services.deal_record(session=table.session, facts=facts, actor=ACTOR)
    with commit():
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    url = reverse("tournaments:round", kwargs={"slug": kop_tournament.slug, "number": 1})
    html = client.get(url).content.decode()
    assert "Results" in html
    body = html[html.index('id="table-round-"') :]
    # seat 1: +12 -5 = 7 (1st, 5 big points); seat 3: -4 +15 = 11 -> 1st; so seat 3 first
    first = table.session.seats.get(seat=3).player.name
    assert body.count("<tr>") == 1 + 4  # header row + the 4 players of the accepted table
    assert first in body


def snapshot_json_read(queries) -> bool:
    """Whether any captured query read a snapshot's JSON column."""
    return any(
        "standingssnapshot" in q["sql"] and '"data"' in q["sql"].split(" FROM ")[0]
        for q in queries.captured_queries
    )


def test_a_polling_page_reloads_once_a_newer_snapshot_than_its_tables_is_stored(
    client, kop_tournament, sixteen, commit
):
    """The page polls while its snapshot is behind; once the newer one is stored, the
    poll has the page reload (its status line alone would say "up to date" above the
    older tables), and says so should the reload not happen."""
    from tournaments.models import Tournament

    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    Tournament.objects.filter(pk=kop_tournament.pk).update(results_version=F("results_version") + 1)
    version = Tournament.objects.get(pk=kop_tournament.pk).results_version
    shown = StandingsSnapshot.objects.get(tournament=kop_tournament).results_version
    url = reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug})
    page = client.get(url).content.decode()
    assert f"?status=1&amp;shown={shown}" in page  # the page's poll names its tables' version
    poll = {"HX-Request": "true"}
    waiting = client.get(f"{url}?status=1&shown={shown}", headers=poll)
    assert "HX-Refresh" not in waiting and "A newer version is on its way" in waiting.text

    services.standings_recompute(tournament_id=kop_tournament.pk, version=version)
    behind = client.get(
        f"{url}?status=1&shown={shown}", headers={**poll, "If-None-Match": waiting["ETag"]}
    )
    assert behind.status_code == 200 and behind["HX-Refresh"] == "true"
    assert 'id="standings-newer"' in behind.text and 'id="standings-current"' not in behind.text
    # The reloaded page shows the new snapshot, and its poll no longer asks for a reload.
    reloaded = client.get(url).content.decode()
    assert 'id="standings-current"' in reloaded and f"shown={shown}" not in reloaded
    current = client.get(f"{url}?status=1&shown={version}", headers=poll)
    assert "HX-Refresh" not in current and 'id="standings-current"' in current.text


def test_a_poll_for_an_unknown_tournament_is_404(client, db):
    url = reverse("tournaments:standings", kwargs={"slug": "nowhere"}) + "?status=1"
    assert client.get(url, headers={"HX-Request": "true"}).status_code == 404


def test_the_page_is_cached_per_results_version_and_never_serves_an_older_one(
    client, kop_tournament, sixteen, commit
):
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    url = reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug})
    assert "Gracz 01" in client.get(url).content.decode()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url).content.decode()
    assert "Gracz 01" in again and not snapshot_json_read(queries)  # from the cache

    # A newer version (a correction: here a renamed player) is a new snapshot: shown at once.
    entry = sixteen[0]
    entry.player.name = "Gracz Nowy"
    entry.player.save()
    with commit():
        services.results_changed(tournament=kop_tournament)
    page = client.get(url).content.decode()
    assert "Gracz Nowy" in page and ">Gracz 01<" not in page
    assert 'id="standings-current"' in page
    # Each sorting has its own cached copy; other query parameters are not kept in links.
    sorted_page = client.get(url + "?ind-sort=-small_points&junk=1").content.decode()
    assert "Gracz Nowy" in sorted_page and "junk" not in sorted_page.split("<main")[1]


def test_round_results_come_in_the_order_of_the_tables_and_places(kop_tournament, rf):
    """Table 2 before table 10 (numbers, not text), places in order at each, a player
    without a table (a bye) last."""
    from tournaments import selectors

    def entry(number, table, place):
        by_round = [
            {"round": 1, "table": table, "place": place, "small_points": 0, "big_points": 0}
        ]
        return {"number": number, "name": f"P{number}", "by_round": by_round}

    data = {
        "individual": [
            entry(1, 10, 2),
            entry(2, None, None),
            entry(3, 2, 1),
            entry(4, 10, 1),
            entry(5, 1, 3),
            entry(6, 2, 4),
        ]
    }
    table = selectors.round_results_table(
        tournament=kop_tournament, data=data, round_number=1, request=rf.get("/")
    )
    assert [r["number"] for r in table.data] == [5, 3, 6, 4, 1, 2]
    assert [r["table"] for r in table.data] == [1, 2, 2, 10, 10, "–"]
