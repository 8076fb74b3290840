"""Clubs own their tables and rule profiles (issue 26): every scoring URL that changes
something, or shows a table's private parts, asked by each of ``people`` (site admin,
director and scorer of club A, director of club B, an account with no role, anonymous)
about club A's things. Who may not is refused (403, 404, the login page, or a form that
does not offer club A) and the database is unchanged; who may, does, and it shows.

``CASES`` covers every name of ``scoring.urls`` but the public pages of ``PUBLIC``: a new
URL fails ``test_every_scoring_url_has_a_case`` until it gets a case or is named public.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from clubs.models import Player
from clubs.roles import make_scorer
from scoring import acceptance
from scoring.forms import SessionForm
from scoring.games.kop.models import KopDeal
from scoring.models import RuleProfile, TableSession
from scoring.profile_services import profile_save
from scoring.urls import urlpatterns
from tests.actors import DIRECTOR_ACCEPTS
from tests.clubs.identities import *  # noqa: F403
from tests.clubs.identities import WHO, database_state, refused
from tests.factories import KOSCIAN, KopDealFactory, PlayerFactory, TableSessionFactory

pytestmark = pytest.mark.django_db

DEAL = {"contract": "normal", "declarers": ["1", "3"], "doublings": "0", "declarer_points": "60"}

# Pages anyone may read, changing nothing of a club's: the lists, a table's page, sheet,
# history, exports and paper pad (a hidden one only for its club's directors and its own
# people: ``scoring.visibility``), the blank pads, the rule profiles, and the table link,
# whose token is the permission (it binds a phone to a seat in that browser's session).
PUBLIC = {
    "sessions",
    "session",
    "history",
    "sheet",
    "pad",
    "export_json",
    "export_csv",
    "blank_pad",
    "table_link",
    "profiles",
}

EVERYONE_REFUSED = {"director_b", "no_role", "anonymous"}


@dataclass
class World:
    """Club A's table (one deal played, 32 planned), its custom rule profile, and the
    people."""

    people: Any
    table: TableSession
    profile: RuleProfile
    objects: dict[str, Any] = field(default_factory=dict)

    def fresh(self) -> TableSession:
        return TableSession.objects.get(pk=self.table.pk)


@pytest.fixture
def world(people, profiles) -> World:
    club_a = people.club_a
    players = [PlayerFactory(club=club_a, name=n) for n in ("Ala", "Bartek", "Celina", "Darek")]
    table = TableSessionFactory(
        profile="kop-koscian", players=players, title="A's table", planned_deals=32
    )
    assert table.club_id == club_a.pk  # seat 1's club
    KopDealFactory(session=table)
    version = profile_save(
        profile=None,
        name="A's rules",
        game="kop",
        options={},
        tournament=profiles["kop-koscian"].current.tournament,
        club=club_a,
    )
    return World(people=people, table=table, profile=version.profile)


@dataclass(frozen=True)
class Case:
    """One request about club A's things: ``request(world) -> (url, data)``, sent as
    ``method``; ``allowed`` may do it, and then ``done(world, response)`` holds."""

    name: str
    method: str
    request: Callable[[World], tuple[str, dict[str, Any]]]
    done: Callable[[World, Any], bool]
    allowed: frozenset[str] = frozenset({"site_admin", "director_a"})
    # A creation form: a director of another club gets the form again, with club A not
    # among its choices (nothing of club A's is his to ask for).
    club_field: bool = False

    @property
    def id(self) -> str:
        return f"{self.name}-{self.method}"


def _table(name: str, **kw: Any) -> Callable[[World], str]:
    return lambda w: reverse(f"scoring:{name}", kwargs={"pk": w.table.pk, **kw})


def _post(name: str, data: dict[str, Any], **kw: Any):
    url = _table(name, **kw)
    return lambda w: (url(w), dict(data))


def _new_table(w: World) -> tuple[str, dict[str, Any]]:
    club_a = w.people.club_a
    players = list(Player.objects.filter(club=club_a))
    guest = PlayerFactory(club=w.people.club_b, name="Gość")  # any register's player
    data = {
        "title": "A's new table",
        "club": club_a.pk,
        "profile": w.profile.pk,
        "seat_1": players[0].pk,
        "seat_2": players[1].pk,
        "seat_3": guest.pk,
        "new_4": "Nowy Gracz",
        "planned_deals": 16,
    }
    return reverse("scoring:session_new"), data


def _new_table_done(w: World, response: Any) -> bool:
    made = TableSession.objects.get(title="A's new table")
    newcomer = made.seats.get(seat=4).player
    return (
        response.status_code == 302
        and made.club_id == w.people.club_a.pk
        and newcomer.club_id == w.people.club_a.pk
        and made.seats.get(seat=3).player.club_id == w.people.club_b.pk
    )


SHEET = {"game": "kop", "rules": {}, "players": ["Ala", "Bartek", "Celina", "Ewa"], "deals": []}


def _import(w: World) -> tuple[str, dict[str, Any]]:
    PlayerFactory(club=w.people.club_b, name="Ala")  # a namesake in another club
    upload = SimpleUploadedFile("a.json", json.dumps(SHEET).encode(), "application/json")
    data = {"sheet": upload, "title": "A's import", "club": w.people.club_a.pk}
    return reverse("scoring:session_import"), data


def _import_done(w: World, response: Any) -> bool:
    made = TableSession.objects.get(title="A's import")
    seats = [s.player for s in made.seats.order_by("seat")]
    known = Player.objects.get(club=w.people.club_a, name="Ala")
    return (
        response.status_code == 302
        and made.club_id == w.people.club_a.pk
        and seats[0] == known  # found in club A's register
        and seats[3].club_id == w.people.club_a.pk  # Ewa registered there
    )


def _new_profile(w: World) -> tuple[str, dict[str, Any]]:
    data = {"name": "A's second rules", "game": "kop", "club": w.people.club_a.pk, **KOSCIAN}
    return reverse("scoring:profile_new"), data


def _edit_profile(w: World) -> tuple[str, dict[str, Any]]:
    url = reverse("scoring:profile_edit", kwargs={"slug": w.profile.slug})
    return url, {"name": "A's rules, again", "game": "kop", **KOSCIAN}


def _accepted(w: World) -> tuple[str, dict[str, Any]]:
    acceptance.session_accept(session=w.table, actor=DIRECTOR_ACCEPTS, reason="checked")
    return _table("session_rating_exclude")(w), {"reason": "a friendly evening"}


def _deal_one(w: World) -> KopDeal:
    return KopDeal.objects.get(session=w.table, number=1)


CASES = [
    Case(
        "session_new",
        "post",
        _new_table,
        _new_table_done,
        allowed=frozenset({"site_admin", "director_a", "scorer_a"}),
        club_field=True,
    ),
    Case(
        "session_import",
        "post",
        _import,
        _import_done,
        club_field=True,
    ),
    Case(
        "profile_new",
        "post",
        _new_profile,
        lambda w, r: RuleProfile.objects.get(name="A's second rules").club_id == w.people.club_a.pk,
        club_field=True,
    ),
    Case(
        "profile_edit",
        "get",
        _edit_profile,
        lambda w, r: r.status_code == 200 and "A&#x27;s rules" in r.content.decode(),
    ),
    Case(
        "profile_edit",
        "post",
        _edit_profile,
        lambda w, r: w.profile.versions.count() == 2,
    ),
    Case(
        "preview",
        "post",
        _post("preview", DEAL),
        lambda w, r: r.status_code == 200,
    ),
    Case(
        "deal_add",
        "post",
        _post("deal_add", DEAL),
        lambda w, r: KopDeal.objects.filter(session=w.table).count() == 2,
    ),
    Case(
        "deal_edit",
        "get",
        lambda w: (_table("deal_edit", slot=1)(w), {}),
        lambda w, r: r.status_code == 200 and 'name="reason"' in r.content.decode(),
    ),
    Case(
        "deal_edit",
        "post",
        _post("deal_edit", {**DEAL, "declarer_points": "20", "reason": "miscounted"}, slot=1),
        lambda w, r: _deal_one(w).declarer_points == 20,
    ),
    Case(
        "deal_void",
        "post",
        _post("deal_void", {"reason": "not played"}, slot=1),
        lambda w, r: _deal_one(w).voided,
    ),
    Case(
        "session_lock",
        "post",
        _post("session_lock", {}),
        lambda w, r: w.fresh().locked,
    ),
    Case(
        "session_planned",
        "post",
        _post("session_planned", {"planned_deals": "20", "reason": "short evening"}),
        lambda w, r: w.fresh().planned_deals == 20,
    ),
    Case(
        "link_reissue",
        "post",
        _post("link_reissue", {"reason": "card lost"}),
        lambda w, r: w.fresh().entry_token != w.table.entry_token,
    ),
    Case(
        "session_accept",
        "post",
        _post("session_accept", {"reason": "checked by the director"}),
        lambda w, r: w.fresh().accepted_at is not None,
    ),
    Case(
        "session_rating_exclude",
        "post",
        _accepted,
        lambda w, r: w.fresh().rating_excluded_at is not None,
    ),
]


def test_every_scoring_url_has_a_case():
    names = {p.name for p in urlpatterns}
    assert {c.name for c in CASES} == names - PUBLIC
    assert names >= PUBLIC  # no stale public name


def _send(case: Case, world: World, who: str) -> Any:
    url, data = case.request(world)
    client = world.people.client(who)
    return client.post(url, data) if case.method == "post" else client.get(url, data)


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_club_a_s_things_are_changed_by_its_directors_only(world, case, who):
    if who in case.allowed:
        response = _send(case, world, who)
        assert response.status_code in (200, 302), response.status_code
        assert case.done(world, response), (case.id, who)
        return
    # The request's own set-up (an acceptance) and the login first.
    url, data = case.request(world)
    client = world.people.client(who)
    before = database_state()
    response = client.post(url, data) if case.method == "post" else client.get(url, data)
    if case.club_field and response.status_code == 200:
        # The form again: club A is not among the clubs this user may choose.
        assert who in ("director_b", "scorer_a"), who
        assert "club" in response.context["form"].errors
    else:
        assert refused(response), (case.id, who, response.status_code)
    assert database_state() == before, (case.id, who)


# ------------------------------------------------------------------ the table's people


def _pad_save(client: Client, session: TableSession) -> Any:
    return client.post(reverse("scoring:deal_add", kwargs={"pk": session.pk}), DEAL)


def test_a_scorer_enters_deals_where_his_club_gives_him_a_table(world):
    people = world.people
    scorer = people.users["scorer_a"]
    client = people.client("scorer_a")
    assert _pad_save(client, world.table).status_code == 403  # not given to him
    world.table.scorers.add(scorer)
    assert _pad_save(client, world.table).status_code == 302
    assert KopDeal.objects.filter(session=world.table).count() == 2
    # A club B table given to him, though he scores for club A only.
    table_b = TableSessionFactory(players=[PlayerFactory(club=people.club_b) for _ in range(4)])
    table_b.scorers.add(scorer)
    before = database_state()
    assert _pad_save(client, table_b).status_code == 403
    assert database_state() == before


def test_club_b_s_pad_is_refused_to_club_a_s_director(world):
    people = world.people
    table_b = TableSessionFactory(players=[PlayerFactory(club=people.club_b) for _ in range(4)])
    client = people.client("director_a")
    before = database_state()
    assert _pad_save(client, table_b).status_code == 403
    preview = reverse("scoring:preview", kwargs={"pk": table_b.pk})
    assert client.post(preview, DEAL).status_code == 403
    assert database_state() == before
    page = client.get(reverse("scoring:session", kwargs={"pk": table_b.pk})).content.decode()
    assert 'id="deal-form"' not in page


@pytest.mark.parametrize("who", WHO)
def test_the_table_link_and_the_director_s_box_are_its_club_directors(world, who):
    page = world.people.client(who).get(reverse("scoring:session", kwargs={"pk": world.table.pk}))
    assert page.status_code == 200  # the table's page is public
    html = page.content.decode()
    mine = who in ("site_admin", "director_a")
    assert (world.table.entry_token in html) is mine
    assert ('id="lock-session"' in html) is mine
    assert ('id="reissue-link"' in html) is mine


def test_lists_show_one_s_own_clubs_tables(world):
    people = world.people
    table_b = TableSessionFactory(
        players=[PlayerFactory(club=people.club_b) for _ in range(4)], title="B's table"
    )
    index = reverse("scoring:sessions")

    def listed(who: str, query: str = "") -> set[str]:
        html = people.client(who).get(index + query).content.decode()
        return {t for t in ("A&#x27;s table", "B&#x27;s table") if t in html}

    assert listed("director_b") == {"B&#x27;s table"}
    assert listed("scorer_a") == {"A&#x27;s table"}
    assert listed("director_b", "?all=1") == {"A&#x27;s table", "B&#x27;s table"}
    assert listed("site_admin") == listed("anonymous") == {"A&#x27;s table", "B&#x27;s table"}
    assert table_b.club_id == people.club_b.pk


def test_a_table_takes_a_built_in_profile_or_its_own_club_s(world):
    people = world.people
    offered = SessionForm(user=people.users["director_b"]).fields["profile"].queryset
    assert world.profile not in offered and offered.filter(builtin=True).exists()
    scorer_offered = SessionForm(user=people.users["scorer_a"]).fields["profile"].queryset
    assert world.profile in scorer_offered
    # Club A's profile for a table of club B, by the site admin (who may choose both).
    _url, data = _new_table(world)
    data.update(club=people.club_b.pk, title="B's table")
    form = SessionForm(data, user=people.users["site_admin"])
    assert not form.is_valid() and "profile" in form.errors


def test_the_only_club_is_chosen_already_and_several_are_chosen_by_hand(world):
    people = world.people
    assert SessionForm(user=people.users["director_a"])["club"].value() == people.club_a.pk
    assert SessionForm(user=people.users["site_admin"])["club"].value() is None


@pytest.mark.parametrize("who", ["site_admin", "director_a"])
def test_nobody_edits_a_built_in_profile(world, who, profiles):
    builtin = profiles["kop-koscian"]
    url = reverse("scoring:profile_edit", kwargs={"slug": builtin.slug})
    client = world.people.client(who)
    before = database_state()
    assert client.post(url, {"name": "mine now", "game": "kop"}).status_code == 403
    assert database_state() == before
    html = client.get(reverse("scoring:profiles")).content.decode()
    assert url not in html


def test_the_profiles_list_offers_to_edit_one_s_own_club_s_only(world):
    edit = reverse("scoring:profile_edit", kwargs={"slug": world.profile.slug})
    profiles = reverse("scoring:profiles")
    assert edit in world.people.client("director_a").get(profiles).content.decode()
    assert edit not in world.people.client("director_b").get(profiles).content.decode()


def test_a_table_is_given_only_to_its_club_s_scorers(world):
    from scoring.admin import TableSessionForm

    people = world.people
    outsider = people.users["director_b"]  # no role in club A
    form = TableSessionForm({"title": "x", "scorers": [outsider.pk]}, instance=world.table)
    assert not form.is_valid() and "scorers" in form.errors
    make_scorer(outsider, people.club_a)
    form = TableSessionForm({"title": "x", "scorers": [outsider.pk]}, instance=world.table)
    assert form.is_valid(), form.errors
