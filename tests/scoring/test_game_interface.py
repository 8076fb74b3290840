"""The defects the copied Kop and Vint layers had in scoring, each through the one game
interface.

Every test here failed on the code before ``scoring.games`` (issue 9): a Kop table with two
players of one name mixed their columns, one table's link opened another table, the write
path did not answer a replayed or conflicting save, and GET requests wrote. (What the
tournaments read through it: ``tests/tournaments/test_game_interface.py``.)
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services as scoring_services
from scoring.games.interface import Slot
from scoring.games.kop.models import KopDeal
from scoring.models import TableSession
from tests.actors import open_table_link
from tests.config.test_csvexport import RAW, read_csv
from tests.factories import CICHA_1, ZOLO_3, PlayerFactory, TableSessionFactory

pytestmark = pytest.mark.django_db

DIRECTOR = scoring_services.Actor(label="director", is_director=True)
TABLE = scoring_services.Actor(label="table link")


def writes_of_a_get(client, url: str) -> list[str]:
    """What a GET of ``url`` (a page, 200) wrote, but for the session's row (a
    signed-in reader's session is saved as Django saves it)."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        and "django_session" not in q["sql"]
    ]


@pytest.mark.parametrize("name", ["scoring:profiles", "scoring:session_new", "scoring:sessions"])
def test_a_get_request_writes_nothing(director_client, name):
    assert writes_of_a_get(director_client, reverse(name)) == []


def test_the_built_in_profiles_exist_after_migrate(db):
    from scoring.engines.rules import BUILTIN_PROFILES
    from scoring.models import RuleProfile

    assert set(RuleProfile.objects.values_list("slug", flat=True)) >= set(BUILTIN_PROFILES)


def test_one_tables_link_does_not_open_another_table(profiles, four_players_two_tables):
    first, second = four_players_two_tables
    phone = open_table_link(Client(), first, seat=1)
    ok = phone.post(
        reverse("scoring:deal_add", kwargs={"pk": first.pk}),
        {"contract": "normal", "declarers": ["1", "3"], "doublings": "0", "declarer_points": "60"},
    )
    assert ok.status_code == 302 and KopDeal.objects.filter(session=first).count() == 1
    refused = phone.post(
        reverse("scoring:deal_add", kwargs={"pk": second.pk}),
        {"contract": "normal", "declarers": ["1", "3"], "doublings": "0", "declarer_points": "60"},
    )
    assert refused.status_code == 403
    assert not KopDeal.objects.filter(session=second).exists()
    edit = reverse("scoring:deal_edit", kwargs={"pk": second.pk, "slot": 1})
    assert phone.get(edit).status_code == 403


@pytest.fixture
def four_players_two_tables(profiles, club):
    tables = []
    for t in range(2):
        players = [PlayerFactory(club=club, name=f"T{t} P{i}") for i in range(4)]
        tables.append(TableSessionFactory(profile="kop-pagat", players=players))
    return tables


def test_kop_players_of_one_name_keep_their_own_columns(profiles, club, director_client):
    players = [PlayerFactory(club=club, name="Jan Nowak") for _ in range(2)] + [
        PlayerFactory(club=club, name=n) for n in ("Ewa", "Olek")
    ]
    session = TableSessionFactory(profile="kop-pagat", players=players)
    scoring_services.deal_record(session=session, facts=CICHA_1, actor=DIRECTOR)
    assert (
        director_client.get(reverse("scoring:session", kwargs={"pk": session.pk})).status_code
        == 200
    )
    rows = read_csv(
        director_client.get(reverse("scoring:export_csv", kwargs={"pk": session.pk}), RAW)
    )
    assert [c for c in rows[0] if c.startswith("total ")] == [
        "total 1 Jan Nowak",
        "total 2 Jan Nowak",
        "total 3 Ewa",
        "total 4 Olek",
    ]
    assert rows[1][-5:-1] == ["12", "-4", "-4", "-4"]


def test_the_write_path_answers_a_replay_and_a_conflict(four_players_two_tables):
    kop_session = four_players_two_tables[0]
    key = "k" * 20
    first = scoring_services.deal_record(
        session=kop_session, facts=CICHA_1, actor=TABLE, expected=Slot(0, 1), submission_key=key
    )
    again = scoring_services.deal_record(
        session=kop_session, facts=CICHA_1, actor=TABLE, expected=Slot(0, 1), submission_key=key
    )
    assert (first.replayed, again.replayed) == (False, True)
    assert again.row.pk == first.row.pk and KopDeal.objects.count() == 1
    with pytest.raises(scoring_services.DealConflict) as conflict:
        scoring_services.deal_record(
            session=kop_session,
            facts=ZOLO_3,
            actor=TABLE,
            expected=Slot(0, 1),
            submission_key="z" * 20,
        )
    assert conflict.value.stored.pk == first.row.pk and conflict.value.offered == Slot(0, 2)
    assert KopDeal.objects.count() == 1
    assert TableSession.objects.get(pk=kop_session.pk).history.count() == 1
