"""The director's competition tools (issue 25, part 3): the competition rules, a walkout,
a short table, adjustments, classes and teams, each audited, each refusal writing nothing,
only for directors; and what the standings then say.

Expected values are worked out by hand from ``shared/rules/competitions.md`` on the
five-player Spring Cup of ``test_standings_words`` (its docstring has the numbers): round
1's table, small points by seat 1: 19, 2: -13, 3: 7, 4: -13; big points 5, 0.5, 3, 0.5
(places 1, 3, 2, 3); the fifth player sits out (a bye): (5 + 3 + 1 + 0) / 4 = 2.25 big,
0 small. Ranks: seat 1 (5), seat 3 (3), the bye (2.25), seats 2 and 4 (0.5, -13, tied on
everything: "=4").
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.tournaments.test_standings_words import Spring, spring_cup, standings_page, text
from tournaments import selectors, services
from tournaments.families.kop import standings as kop_standings
from tournaments.models import Adjustment, Registration, RoundTable, Tournament, TournamentAction

pytestmark = pytest.mark.django_db

REASON = "Agreed with the players."
PSB = {"big": 3, "small": 35}


@pytest.fixture
def spring(profiles, club, commit) -> Spring:
    return spring_cup(club, commit)


def document(tournament: Tournament) -> dict:
    """The standings document of the tournament as stored now."""
    return kop_standings(Tournament.objects.get(pk=tournament.pk))


def rows(tournament: Tournament) -> dict[int, dict]:
    return {r["number"]: r for r in document(tournament)["individual"]}


def actions(tournament: Tournament) -> list[str]:
    return list(
        TournamentAction.objects.filter(tournament=tournament).values_list("action", flat=True)
    )


def history(tournament: Tournament) -> list[str]:
    return [h["text"] for h in selectors.tournament_history(tournament=tournament)]


def url(name: str, tournament: Tournament, **kwargs) -> str:
    return reverse(f"tournaments:{name}", kwargs={"slug": tournament.slug, **kwargs})


def table_one(spring: Spring) -> RoundTable:
    return spring.first.tables.get()


def options(**changes) -> dict:
    base = {
        "bye_score": "average",
        "walkout_score": "average",
        "team_size_min": 4,
        "team_size_max": 5,
        "team_counting": 4,
    }
    return {**base, **changes}


# ------------------------------------------------------------------ the rules


def test_the_rules_need_a_reason_once_seated_then_are_stored_audited_and_scored(spring, director):
    t = spring.tournament
    t.refresh_from_db()
    version = t.results_version
    with pytest.raises(services.TournamentError, match="Say why"):
        services.competition_set(tournament=t, user=director, options=options(bye_score=PSB))
    t.refresh_from_db()
    assert t.competition == {} and actions(t) == [] and t.results_version == version

    services.competition_set(
        tournament=t, user=director, options=options(bye_score=PSB), reason=REASON
    )
    t.refresh_from_db()
    assert t.competition["bye_score"] == PSB
    assert actions(t) == ["competition"] and t.results_version == version + 1
    assert "Competition rules changed." in history(t)
    # The bye now scores 3 big and 35 small: 3 ties seat 3's 3 big, the 35 small beat 7.
    by = rows(t)
    assert (by[spring.bye.number]["big_points"], by[spring.bye.number]["small_points"]) == (3, 35)
    assert by[spring.bye.number]["rank"] == "2" and by[spring.seat[3].number]["rank"] == "3"


def test_options_the_rules_refuse_are_said_per_field_and_nothing_is_written(
    director_client, spring
):
    t = spring.tournament
    data = {
        "action": "options",
        "bye_mode": "average",
        "walkout_mode": "fixed",
        "walkout_big": "3",
        "walkout_small": "35",
        "classes": "W Women\nW Ladies",
        "team_size_min": "5",
        "team_size_max": "4",
        "counting_mode": "best",
        "counting_n": "4",
        "reason": REASON,
    }
    response = director_client.post(url("competition", t), data)
    page = text(response.content.decode())
    assert response.status_code == 200
    assert "The smallest team (5) is larger than the largest team (4)." in page
    assert "The class code W is given twice." in page
    assert "team_size_min" not in page.replace('name="team_size_min"', "")  # no English
    html = response.content.decode()
    assert "W Ladies" in html and 'value="35"' in html  # what was typed is kept
    t.refresh_from_db()
    assert t.competition == {} and actions(t) == []


def test_a_vint_tournament_shows_only_classes(director_client, vint_table):
    t = vint_table.round.tournament
    html = director_client.get(url("competition", t)).content.decode()
    assert 'name="classes"' in html and 'name="bye_mode"' not in html
    response = director_client.post(
        url("competition", t), {"action": "options", "classes": "S Seniors", "reason": REASON}
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.competition == {"classes": [{"code": "S", "label": "Seniors"}]}
    with pytest.raises(services.TournamentError, match="do not apply to Vint"):
        services.table_walkout(table=vint_table, user=None, seat=1, after=0, reason=REASON)


# ------------------------------------------------------------------ a walkout


def test_a_walkout_gives_the_stayers_the_walkout_score_and_the_leaver_nothing(spring, director):
    """Walkout score 3 big, 35 small (PSB); seat 4 leaves after deal 2. Stayers 1, 2, 3:
    3 big, 35 small each, no place, tied on everything: "=1". The bye 2.25: 4th. The leaver
    0 big, 0 small: 5th, one walkout (competitions.md §2.3)."""
    t = spring.tournament
    services.competition_set(
        tournament=t, user=director, options=options(walkout_score=PSB), reason=REASON
    )
    services.table_walkout(table=table_one(spring), user=director, seat=4, after=2, reason=REASON)
    by = rows(t)
    for s in (1, 2, 3):
        row = by[spring.seat[s].number]
        assert (row["big_points"], row["small_points"], row["rank"]) == (3, 35, "=1")
        assert row["by_round"][0]["situation"] == "stayer" and row["firsts"] == 0
    leaver = by[spring.seat[4].number]
    assert (leaver["big_points"], leaver["small_points"], leaver["walkouts"]) == (0, 0, 1)
    assert leaver["rank"] == "5" and by[spring.bye.number]["rank"] == "4"
    assert actions(t) == ["walkout", "competition"]
    name, number = spring.seat[4].player.name, spring.seat[4].number
    assert f"Round 1, table 1: {name} (no. {number}) walked out after deal 2." in history(t)


@pytest.mark.parametrize(
    "seat, after, reason, message",
    [
        (4, 4, REASON, "from 0 to 3"),  # three deals were played
        (7, 1, REASON, "no seat 7"),
        (4, 1, "", "Say why"),
    ],
)
def test_a_walkout_refused_writes_nothing(spring, director, seat, after, reason, message):
    t, table = spring.tournament, table_one(spring)
    t.refresh_from_db()
    version = t.results_version
    with pytest.raises(services.TournamentError, match=message):
        services.table_walkout(table=table, user=director, seat=seat, after=after, reason=reason)
    table.refresh_from_db()
    t.refresh_from_db()
    assert table.walkout_seat is None and table.walkout_after is None
    assert actions(t) == [] and t.results_version == version


def test_a_walkout_from_the_round_page_then_cleared(director_client, spring, commit):
    t, table = spring.tournament, table_one(spring)
    page = director_client.get(url("round", t, number=1)).content.decode()
    assert url("round_situations", t, number=1) in page
    with commit():
        response = director_client.post(
            url("round_situations", t, number=1),
            {
                "action": "record",
                "what": "walkout",
                "seat": f"{table.pk}-4",
                "after": "2",
                "reason": REASON,
            },
        )
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.walkout_seat, table.walkout_after) == (4, 2)
    # The standings mark the leaver.
    html = standings_page(Client(), t)
    leaver = spring.seat[4].player.name
    assert f'{leaver}</a> <small class="walked-out">(walked out)</small>' in html

    page = director_client.get(url("round_situations", t, number=1)).content.decode()
    assert "walked out after deal 2" in text(page)
    round_page = director_client.get(url("round", t, number=1)).content.decode()
    assert '<span class="badge warn">walkout</span>' in round_page
    refused = director_client.post(
        url("round_situations", t, number=1), {"action": "normal", "table": table.pk, "reason": ""}
    )
    assert "Say why" in text(refused.content.decode())
    director_client.post(
        url("round_situations", t, number=1),
        {"action": "normal", "table": table.pk, "reason": REASON},
    )
    table.refresh_from_db()
    assert table.walkout_seat is None and actions(t) == ["table_normal", "walkout"]
    assert rows(t)[spring.seat[1].number]["big_points"] == 5  # the table counts again


# ------------------------------------------------------------------ a short table


def test_a_short_table_is_accepted_and_scores_the_three(spring, director):
    """Seat 4 withdraws after round 1; round 2 seats the other four at one table. Before
    any deal the director records that the round-1 bye never came: his table is short.
    Average walkout score: the three get 2.25 big, 0 small; he is absent (nothing).
    Totals: seat 1 5 + 2.25 = 7.25; seat 3 3 + 2.25 = 5.25; seat 2 0.5 + 2.25 = 2.75;
    the round-1 bye 2.25 + 0 = 2.25; seat 4 0.5."""
    t = spring.tournament
    Registration.objects.filter(pk=spring.seat[4].pk).update(withdrawn_after=1)
    rnd = services.round_generate(tournament=t)
    table = rnd.tables.get()
    missing = table.session.seats.get(player=spring.bye.player).seat
    services.table_short(table=table, user=director, seat=missing, reason=REASON)
    table.refresh_from_db()
    assert table.missing_seat == missing and table.accepted_at is not None
    assert table.accepted_user == director
    by = rows(t)
    expected = {1: 7.25, 3: 5.25, 2: 2.75, 4: 0.5}
    for s, big in expected.items():
        assert by[spring.seat[s].number]["big_points"] == big
    bye = by[spring.bye.number]
    assert bye["big_points"] == 2.25 and bye["small_points"] == 0
    assert [e["situation"] for e in bye["by_round"]] == ["bye"]  # absent in round 2
    assert by[spring.seat[1].number]["by_round"][1]["situation"] == "short"
    assert actions(t) == ["short"]


def test_a_table_with_deals_is_not_short(spring, director):
    table = table_one(spring)
    with pytest.raises(services.TournamentError, match="has deals"):
        services.table_short(table=table, user=director, seat=2, reason=REASON)
    table.refresh_from_db()
    assert table.missing_seat is None and actions(spring.tournament) == []


# ------------------------------------------------------------------ adjustments


def test_an_adjustment_changes_the_totals_never_the_places(spring, director, commit):
    """Seat 3 gets -1/2 big point: 3 - 0.5 = 2.5 in total, still above the bye's 2.25;
    at the table he keeps his 3 big points and his 2nd place (competitions.md §5)."""
    t = spring.tournament
    three = spring.seat[3]
    with commit():
        services.adjustment_add(
            tournament=t,
            user=director,
            number=three.number,
            round_number=1,
            big="-1/2",
            reason="Phone rang",
        )
    row = rows(t)[three.number]
    assert row["big_points"] == 2.5 and row["adjustment_big"] == -0.5
    assert row["by_round"][0]["big_points"] == 3 and row["by_round"][0]["place"] == 2
    assert row["rank"] == "2" and row["seconds"] == 1
    doc = document(t)
    assert doc["adjustments"] == [
        {
            "number": three.number,
            "name": three.player.name,
            "round": 1,
            "big": -0.5,
            "small": 0,
            "reason": "Phone rang",
        }
    ]
    page = text(standings_page(Client(), t))
    assert (
        "Penalties and awards Player Round Points Reason "
        f"{three.player.name} #{three.number} 1 big points -0.5 Phone rang" in page
    )
    printed = text(standings_page(Client(), t, "?print=1"))
    assert f"{three.player.name} #{three.number} 1 big points -0.5 Phone rang" in printed
    assert actions(t) == ["adjusted"]

    adjustment = Adjustment.objects.get()
    services.adjustment_remove(adjustment=adjustment, user=director, reason="Not his phone")
    assert rows(t)[three.number]["big_points"] == 3
    assert actions(t) == ["unadjusted", "adjusted"]
    assert not Adjustment.objects.exists()


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"big": "0.3"}, "whole number or a half"),
        ({"big": "x"}, "whole number or a half"),
        ({"big": "", "small": ""}, "Type the points"),
        ({"number": 99}, "No player has start number 99"),
        ({"round_number": 2}, "Round 2 is not seated"),
        ({"reason": " "}, "Say why"),
    ],
)
def test_an_adjustment_refused_writes_nothing(spring, director, changes, message):
    t = spring.tournament
    args = {
        "tournament": t,
        "user": director,
        "number": spring.seat[1].number,
        "big": "-1",
        "reason": REASON,
    }
    with pytest.raises(services.TournamentError, match=message):
        services.adjustment_add(**{**args, **changes})
    assert not Adjustment.objects.exists() and actions(t) == []


@pytest.mark.parametrize(
    "typed, value", [("1/2", 0.5), ("-1", -1), ("10", 10), ("1,5", 1.5), ("2½", 2.5)]
)
def test_points_as_typed(typed, value):
    from tournaments.services.competition import points_parsed

    assert float(points_parsed(typed, name="big")) == value


def test_an_adjustment_from_the_page_keeps_what_was_typed_when_refused(director_client, spring):
    t = spring.tournament
    data = {
        "action": "adjust",
        "number": spring.seat[1].number,
        "round": "",
        "big": "0.3",
        "small": "",
        "reason": REASON,
    }
    response = director_client.post(url("competition", t), data)
    html = response.content.decode()
    assert "Type the points as a whole number or a half" in text(html) and 'value="0.3"' in html
    assert not Adjustment.objects.exists()
    data["big"] = "-1"
    assert director_client.post(url("competition", t), data).status_code == 302
    assert Adjustment.objects.get().big == -1


# ------------------------------------------------------------------ classes and teams


def test_classes_per_player_and_their_standings(director_client, spring, director, commit):
    """Class W: seats 1 and 2. Seat 1 is 1st overall, seat 2 "=4" (shared with seat 4, who
    is not in W): in W they are 1 and 2 (competitions.md §6)."""
    t = spring.tournament
    services.competition_set(
        tournament=t,
        user=director,
        options=options(classes=[{"code": "W", "label": "Women"}, {"code": "M", "label": "Men"}]),
        reason=REASON,
    )
    for s in (1, 2):
        response = director_client.post(
            url("entry_update", t, number=spring.seat[s].number),
            {"action": "classes", "classes": ["W"]},
        )
        assert response.status_code == 302
    assert Registration.objects.get(pk=spring.seat[1].pk).classes == ["W"]
    detail = director_client.get(url("detail", t)).content.decode()
    assert (
        f"{url('competition', t)}#classes" in detail and '<small class="muted">W</small>' in detail
    )
    refused = director_client.post(
        url("entry_update", t, number=spring.seat[3].number),
        {"action": "classes", "classes": ["X"]},
        follow=True,
    )
    assert "The tournament has no class X." in text(refused.content.decode())
    assert Registration.objects.get(pk=spring.seat[3].pk).classes == []
    assert actions(t).count("classes") == 2
    (women, _men) = document(t)["classes"]
    assert [(r["number"], r["rank"], r["overall"]) for r in women["rows"]] == [
        (spring.seat[1].number, "1", "1"),
        (spring.seat[2].number, "2", "=4"),
    ]
    with commit():
        services.results_changed(tournament=t)
    page = text(standings_page(Client(), t))
    assert (
        "Class: Women Place Overall Player Big points Small points "
        f"1 1 {spring.seat[1].player.name}" in page
    )


def test_teams_count_their_best_and_a_team_too_large_is_left_out(
    director_client, spring, director, commit
):
    """Teams of 1 to 2, the best 1 counting. Orły (seats 1, 2): seat 1 counts, 5 big, 19
    small. Sokoły (seats 3, 4 and the bye): three players, left out."""
    t = spring.tournament
    Registration.objects.filter(pk__in=[spring.seat[1].pk, spring.seat[2].pk]).update(team="Orły")
    Registration.objects.filter(
        pk__in=[spring.seat[3].pk, spring.seat[4].pk, spring.bye.pk]
    ).update(team="Sokoły")
    with commit():
        services.competition_set(
            tournament=t,
            user=director,
            options=options(team_size_min=1, team_size_max=2, team_counting=1),
            reason=REASON,
        )
    doc = document(t)
    (orly,) = doc["teams"]
    assert orly["counted"] == [spring.seat[1].number] and orly["big_points"] == 5
    assert doc["teams_left_out"] == [{"group": "Sokoły", "size": 3}]
    page = text(standings_page(Client(), t))
    assert (
        "Teams Place Name Players Big points Small points Counted "
        f"1 Orły {spring.seat[1].player.name}, {spring.seat[2].player.name} "
        f"5 19 {spring.seat[1].player.name}" in page
    )
    assert "Left out of the team table: Sokoły: 3 players, but a team has 1 to 2." in page
    competition = text(director_client.get(url("competition", t)).content.decode())
    assert "3 players: a team needs 1 to 2; left out of the team table" in competition
    assert "Orły" in competition and "2 players" in competition
    # Every member counting: nothing to mark, no column for it.
    with commit():
        services.competition_set(
            tournament=t,
            user=director,
            options=options(team_size_min=1, team_size_max=3, team_counting="all"),
            reason=REASON,
        )
    page = text(standings_page(Client(), t))
    assert "Teams Place Name Players Big points Small points 1 " in page
    assert "Counted" not in page


# ------------------------------------------------------------------ who may


def test_only_a_director_may(client, scorer_client, spring):
    t, table = spring.tournament, table_one(spring)
    for target in (url("competition", t), url("round_situations", t, number=1)):
        assert scorer_client.get(target).status_code == 403
        response = client.get(target)
        assert response.status_code == 302 and "/login/" in response["Location"]
    post = {
        "action": "record",
        "what": "walkout",
        "seat": f"{table.pk}-4",
        "after": "1",
        "reason": REASON,
    }
    assert scorer_client.post(url("round_situations", t, number=1), post).status_code == 403
    adjust = {"action": "adjust", "number": spring.seat[1].number, "big": "-1", "reason": REASON}
    assert scorer_client.post(url("competition", t), adjust).status_code == 403
    table.refresh_from_db()
    assert table.walkout_seat is None and not Adjustment.objects.exists() and actions(t) == []


def test_the_tournament_page_links_the_rules_for_a_director(director_client, client, spring):
    t = spring.tournament
    assert url("competition", t) in director_client.get(url("detail", t)).content.decode()
    assert url("competition", t) not in client.get(url("detail", t)).content.decode()


def test_a_new_tournament_shows_the_defaults(director_client, profiles, club):
    t = TournamentFactory(name="Autumn", club=club)
    html = director_client.get(url("competition", t)).content.decode()
    assert 'name="team_size_min" value="4"' in html and 'name="counting_n" value="4"' in html


def test_a_vint_adjustment_is_a_net(vint_table, director):
    t = vint_table.round.tournament
    entry = t.entries.order_by("number").first()
    services.adjustment_add(
        tournament=t, user=director, number=entry.number, net="-5", big="3", reason=REASON
    )
    adjustment = Adjustment.objects.get()
    assert (adjustment.net, adjustment.big, adjustment.small) == (-5, 0, 0)
    assert history(t) == [f"{entry.player.name} (no. {entry.number}): net -5."]


# ------------------------------------------------------------------ a player's own page


def test_a_players_page_says_the_walkout_the_fixed_bye_and_his_adjustments(
    client, spring, director, commit
):
    """Under PSB scores (bye and walkout 3 big, 35 small) seat 4 walks out after deal 2:
    the stayers' pages say they got the walkout score (35 small points), the leaver's says
    he walked out; the bye's page shows 35 small points for the round he sat out; seat 3's
    penalty of -1/2 big point is listed with its reason (competitions.md §2.2, §2.3, §5)."""
    t = spring.tournament
    with commit():
        services.competition_set(
            tournament=t,
            user=director,
            options=options(walkout_score=PSB, bye_score=PSB),
            reason=REASON,
        )
        services.table_walkout(
            table=table_one(spring), user=director, seat=4, after=2, reason=REASON
        )
        services.adjustment_add(
            tournament=t,
            user=director,
            number=spring.seat[3].number,
            round_number=1,
            big="-1/2",
            reason="Phone rang",
        )

    def page(entry: Registration) -> str:
        url = reverse("tournaments:player_results", kwargs={"slug": t.slug, "number": entry.number})
        return text(client.get(url).content.decode())

    assert "a player walked out: the walkout score, 35 small points" in page(spring.seat[1])
    assert "walked out: nothing for the round" in page(spring.seat[4])
    bye = page(spring.bye)
    assert "Sat out (bye)" in bye and " 35 3 " in bye  # small, then big points
    three = page(spring.seat[3])
    assert "Adjustments Round 1: -0.5 big points — Phone rang" in three
