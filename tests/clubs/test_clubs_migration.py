"""A single-club installation keeps working after clubs own their things (issue 26):
migration tournaments 0022 gives every member of the old ``directors`` group the
director's role in every existing club (``scorers`` likewise), and every tournament,
table session, series and custom rule profile an owning club, so each director reaches
every page he reached before and nobody gains a role."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Membership
from scoring.models import RuleProfile, TableSession
from tournaments.models import Series, Tournament

BEFORE = [
    ("clubs", "0002_content_types"),
    ("scoring", "0012_history_planned_action"),
    ("tournaments", "0021_event_files"),
]


def _single_club_installation(apps) -> dict[str, int]:
    """What the code before clubs' roles made: groups, one club (and a guests' one), a
    tournament with no club, a club session of guests, a custom profile, a series."""
    User = apps.get_model("auth", "User")
    Group = apps.get_model("auth", "Group")
    Club_ = apps.get_model("clubs", "Club")
    Player = apps.get_model("clubs", "Player")
    home = Club_.objects.create(name="Klub Kopa Kościan")
    guests = Club_.objects.create(name="Goście")
    dora = User.objects.create(username="dora", is_staff=True)
    sam = User.objects.create(username="sam")
    User.objects.create(username="mel")
    Group.objects.create(name="directors").user_set.add(dora)
    Group.objects.create(name="scorers").user_set.add(sam)
    profile = apps.get_model("scoring", "RuleProfile").objects.create(
        slug="nasz-kop", name="Nasz Kop", game="kop"
    )
    version = apps.get_model("scoring", "RuleProfileVersion").objects.create(
        profile=profile, version=1, options={}
    )
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name="Puchar", slug="puchar", game="kop", profile_version=version
    )
    session = apps.get_model("scoring", "TableSession").objects.create(
        game="kop", profile_version=version, entry_token="tok-guests", tally={}
    )
    for seat in range(1, 5):
        player = Player.objects.create(club=guests, number=seat, name=f"Gość {seat}")
        apps.get_model("scoring", "TableSeat").objects.create(
            session=session, seat=seat, player=player
        )
    series = apps.get_model("tournaments", "Series").objects.create(
        name="Grand Prix", slug="gp", game="kop", points_table=[10, 8, 6]
    )
    apps.get_model("tournaments", "SeriesTournament").objects.create(
        series=series, tournament=tournament
    )
    return {"home": home.pk, "guests": guests.pk, "session": session.pk, "dora": dora.pk}


@pytest.mark.django_db(transaction=True)
def test_every_director_keeps_every_page_and_nobody_gains_a_role():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    made = _single_club_installation(executor.loader.project_state(BEFORE).apps)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    roles = set(Membership.objects.values_list("user__username", "club_id", "role"))
    assert roles == {
        ("dora", made["home"], "director"),
        ("dora", made["guests"], "director"),
        ("sam", made["home"], "scorer"),
        ("sam", made["guests"], "scorer"),
    }
    # Owners: the tournament and the custom profile the first club; the guests' session
    # its players' club; the series its tournament's club.
    assert Tournament.objects.get(slug="puchar").club_id == made["home"]
    assert TableSession.objects.get(pk=made["session"]).club_id == made["guests"]
    assert Series.objects.get(slug="gp").club_id == made["home"]
    assert RuleProfile.objects.get(slug="nasz-kop").club_id == made["home"]
    assert set(Club.objects.values_list("pk", flat=True)) == {made["home"], made["guests"]}

    users = get_user_model().objects
    dora = Client()
    dora.force_login(users.get(username="dora"))
    pages = [
        reverse("tournaments:edit", args=["puchar"]),
        reverse("tournaments:competition", args=["puchar"]),
        reverse("tournaments:new"),
        reverse("tournaments:player_add"),
        reverse("scoring:session_new"),
        reverse("scoring:profile_edit", args=["nasz-kop"]),
        reverse("clubs:members"),
    ]
    for url in pages:
        assert dora.get(url).status_code == 200, url
    mel = Client()
    mel.force_login(users.get(username="mel"))
    assert mel.get(reverse("tournaments:edit", args=["puchar"])).status_code == 403
