"""An association's league secretary imports the licence list (upload, preview, confirm),
builds two rosters, names a line-up with a substitute for an event, and the league
tables show who counted (competitions.md E17); the public page fits a 360 px phone."""

from __future__ import annotations

import pytest

from clubs.roles import make_director
from tests.browser.conftest import login, no_horizontal_overflow, wider_than_viewport
from tests.factories import UserFactory
from tests.tournaments.leagues_data import D, e13_rows, e17_second_rows, event, psb
from tournaments.models import Licence, LineUp, RosterMember
from tournaments.services import leagues

__all__ = ["psb"]

pytestmark = pytest.mark.django_db(transaction=True)

LICENCES = "Nr licencji;Imię i nazwisko;Data\n" + "".join(
    f"L{n};{name};01.09.2025\n"
    for n, name in [
        (1, "Ala"),
        (2, "Bartek"),
        (3, "Celina"),
        (4, "Darek"),
        (5, "Ewa"),
        (6, "Filip"),
        (7, "Grażyna"),
        (8, "Henryk"),
        (9, "Irena"),
        (20, "Jan"),
    ]
)


def test_secretary_imports_licences_builds_rosters_names_a_substitute(
    desktop, phone, live_server, psb, tmp_path
):
    secretary = UserFactory(username="sekretarz")
    make_director(secretary, psb.association)
    p = psb.players
    league = leagues.league_create(
        organiser=psb.association,
        name="Pomorsko-Kaszubska Liga",
        game="baska",
        season="2025/26",
        licences_required=True,
    )
    leagues.event_add(league=league, tournament=event(psb.kartuzy, D(2025, 10, 4), e13_rows(p)))
    second = leagues.event_add(
        league=league, tournament=event(psb.puck, D(2025, 11, 8), e17_second_rows(p))
    )
    login(desktop, live_server, "sekretarz")
    base = f"{live_server.url}/leagues/{league.slug}"

    # The licence list: upload, a preview that writes nothing, then confirm.
    listing = tmp_path / "licencje.csv"
    listing.write_text(LICENCES, encoding="utf-8")
    desktop.goto(f"{base}/licences/")
    desktop.set_input_files("input[name=file]", str(listing))
    desktop.click("button[name=upload]")
    preview = desktop.locator("#licence-preview")
    assert preview.locator("tbody tr").count() == 10
    assert Licence.objects.count() == 0
    desktop.click("button[name=confirm]")
    desktop.wait_for_load_state()
    assert "10 new" in desktop.locator(".messages").inner_text()
    assert Licence.objects.count() == 10

    # Two teams and their rosters.
    for name, numbers in (("KAR", (1, 2, 3, 4, 5)), ("PUC", (6, 7, 8, 9))):
        desktop.goto(f"{base}/manage/")
        desktop.fill("input[name=name]", name)
        desktop.click("button[name=add_team]")
        desktop.wait_for_load_state()
        desktop.select_option("#roster-form select[name=players]", [str(p[n].pk) for n in numbers])
        desktop.click("#roster-form button[type=submit]")
        desktop.wait_for_load_state()
    assert RosterMember.objects.count() == 9

    # Event 2: PUC fields Jan (on no roster) for Henryk.
    desktop.goto(f"{base}/manage/")
    desktop.locator("ol li").nth(1).get_by_role("link").click()
    puc = desktop.locator("form", has=desktop.locator("text=Save the line-up of PUC"))
    puc.locator("select").select_option([str(p[n].pk) for n in (6, 7, 9, 20)])
    puc.locator("button[type=submit]").click()
    desktop.wait_for_load_state()
    assert "Line-up of PUC saved" in desktop.locator(".messages").inner_text()
    assert LineUp.objects.get(event=second, player=p[20]).substitute
    # Two substitutes are refused with a sentence, nothing saved.
    puc = desktop.locator("form", has=desktop.locator("text=Save the line-up of PUC"))
    puc.locator("select").select_option([str(p[n].pk) for n in (6, 7, 20, 5)])
    puc.locator("button[type=submit]").click()
    desktop.wait_for_load_state()
    assert "Ewa is on the roster of KAR" in desktop.locator("main").inner_text()
    assert LineUp.objects.filter(event=second).count() == 4

    # The public tables: after event 2 (final) PUC's line shows Jan counted, as a substitute.
    desktop.goto(base + "/")
    teams = desktop.locator("#league-teams tbody tr")
    assert teams.nth(0).locator("td").nth(1).inner_text() == "KAR"
    assert teams.nth(0).locator("td").nth(2).inner_text() == "40"
    puc_second = teams.nth(1).locator("td.league-cell").nth(1)
    assert puc_second.locator("li.counted strong").all_inner_texts() == [
        "Filip",
        "Grażyna",
        "Irena",
        "Jan",
    ]
    assert "(sub.)" in puc_second.inner_text()
    desktop.select_option("#league-after select", "1")
    desktop.click("#league-after button[type=submit]")
    desktop.wait_for_url("**after=1")
    kar_first = desktop.locator("#league-teams tbody tr").nth(0).locator("td.league-cell").nth(0)
    assert kar_first.locator("li.not-counted").all_inner_texts() == ["Ala"]

    phone.goto(base + "/")
    assert phone.locator("#league-players tbody tr").count() == 10  # E13's nine and Jan
    assert no_horizontal_overflow(phone), wider_than_viewport(phone)
