"""Clubs own their tournaments (issue 26, item 1): every tournaments URL that changes
something or shows something private, asked by each identity of ``people``.

The director of club B, the scorer of club A, an account with no role and anonymous are
refused (403, 404 or the login page) and the database is unchanged; the director of
club A and the site administrator succeed, and the effect shows. A page made for
creating something (a player, a tournament, a series, an imported event) takes a club
the user directs: the director of club B naming club A is refused by the form, nothing
written.

The table of cases is checked against the URL patterns: a new URL name of the app fails
``test_every_url_name_has_a_case`` until it gets a case or is listed as public.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import URLPattern, URLResolver, reverse

from clubs.models import Player
from clubs.services import player_merge
from scoring.models import RuleProfile
from tests.clubs.identities import People, database_state, refused
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tests.tournaments.test_standings_words import FIVE, play_round_one
from tournaments import rating_urls, services
from tournaments import urls as tournament_urls
from tournaments.models import Adjustment, Registration, RoundTable, Series, Tournament
from tournaments.ratings import series_create
from tournaments.selectors.events import event_document

pytestmark = pytest.mark.django_db

REFUSED = ("director_b", "scorer_a", "no_role", "anonymous")
ALLOWED = ("director_a", "site_admin")

# Pages anyone may read, and that show nothing private of a club's.
PUBLIC = {
    "players",
    "index",
    "find",
    "display",
    "meetings",
    "ratings",
    "rating_leaderboard",
    "rating_leaderboard_csv",
    "player_page",
    "series_index",
    "series_detail",
    "words",
}
# Public pages with a private part (hidden standings, the tournament's history): every
# identity reads the page, only the club's directors the private part.
PUBLIC_WITH_PRIVATE_PART = {"detail", "standings", "player_results"}
# A league's pages are its organiser's (a club or an association), asked by every
# identity in tests/tournaments/test_leagues_views.py; its public pages are public.
PUBLIC |= {"league_index", "league_detail", "league_csv"}
LEAGUE_WRITES = {
    "league_new",
    "league_manage",
    "league_licences",
    "league_roster",
    "league_lineups",
    "league_recompute",
}


@dataclass
class World:
    """Club A's Spring Cup (five players, standings hidden, round 1 accepted, round 2
    seated and open, a sixth player registered late, not checked in), its Ready Cup (four
    players checked in, no round yet) and its series; club B's own tournament."""

    people: People
    spring: Tournament
    ready: Tournament
    open_table: RoundTable
    series: Series
    event_text: str
    kop_profile: RuleProfile
    extra: dict[str, Any] = field(default_factory=dict)


@pytest.fixture
def world(people, profiles, commit) -> World:
    club_a = people.club_a
    spring = TournamentFactory(
        name="Spring Cup",
        rounds=2,
        deals_per_round=3,
        club=club_a,
        seed=3,
        field=FIVE,
        hide_standings=True,
    )
    play_round_one(spring, commit)
    second = services.round_generate(tournament=spring)
    late = RegistrationFactory(tournament=spring, checked_in=False)
    Registration.objects.filter(pk=late.pk).update(checked_in=False)  # not here yet
    ready = TournamentFactory(name="Ready Cup", club=club_a, field=4)
    series = series_create(
        name="Grand Prix A", game="kop", points_table=[3, 2, 1], tournaments=[spring], club=club_a
    )
    TournamentFactory(name="B Cup", club=people.club_b, field=4)
    rows = {n: PlayerFactory(club=club_a, name=n) for n in ("Anna Row", "Anna Row II", "Twin")}
    twin = PlayerFactory(club=club_a, name="Twin II")
    player_merge(keep=rows["Twin"], other=twin, by=people.users["director_a"], reason="One.")
    spring.refresh_from_db()
    return World(
        people=people,
        spring=spring,
        ready=ready,
        open_table=second.tables.get(),
        series=series,
        event_text=json.dumps(event_document(spring)),
        kop_profile=spring.profile_version.profile,
        extra={"rows": {**rows, "Twin II": twin}},
    )


def _seating_csv() -> SimpleUploadedFile:
    rows = ["round,table,seat,player", *(f"1,1,{seat},{seat}" for seat in range(1, 5))]
    return SimpleUploadedFile("seating.csv", "\n".join(rows).encode(), "text/csv")


@dataclass(frozen=True)
class Case:
    """One URL name: how it is asked (``url`` and ``data`` from the world; ``data``
    None: a GET), and what shows that it worked (``done``: the response and the world,
    read after the request). ``creates``: the form takes a club, and the director of
    club B names club A (refused by the form)."""

    name: str
    url: Callable[[World], str]
    done: Callable[[Any, World], bool]
    data: Callable[[World], dict[str, Any]] | None = None
    creates: bool = False


def _t(name: str, **kwargs: Any) -> Callable[[World], str]:
    """The URL ``name`` of the Spring Cup (``kwargs``: further arguments from the world)."""

    def url(w: World) -> str:
        args = {"slug": w.spring.slug, **{k: f(w) for k, f in kwargs.items()}}
        return reverse(f"tournaments:{name}", kwargs=args)

    return url


def _ready(name: str) -> Callable[[World], str]:
    return lambda w: reverse(f"tournaments:{name}", kwargs={"slug": w.ready.slug})


def _plain(name: str) -> Callable[[World], str]:
    return lambda w: reverse(f"tournaments:{name}")


def _entry(w: World, number: int) -> Registration:
    return Registration.objects.get(tournament=w.spring, number=number)


def _history(w: World) -> int:
    return w.spring.actions.count()


def _club_a(w: World) -> int:
    return w.people.club_a.pk


def _row(w: World, name: str) -> Player:
    return Player.objects.get(pk=w.extra["rows"][name].pk)


def _p(name: str, *rows: str) -> Callable[[World], str]:
    """The URL ``name`` of the register rows ``rows`` of the world."""
    return lambda w: reverse(f"tournaments:{name}", args=[_row(w, r).pk for r in rows])


CASES = [
    Case(
        "player_edit",
        _p("player_edit", "Anna Row"),
        lambda r, w: _row(w, "Anna Row").name == "Anna Renamed",
        lambda w: {"name": "Anna Renamed", "federation_id": ""},
    ),
    Case(
        "player_merge_search",
        _p("player_merge_search", "Anna Row"),
        lambda r, w: r.status_code == 200 and b"Anna Row" in r.content,
    ),
    Case(
        "player_merge_confirm",
        _p("player_merge_confirm", "Anna Row", "Anna Row II"),
        lambda r, w: _row(w, "Anna Row").person_id == _row(w, "Anna Row II").person_id,
        lambda w: {"reason": "The same Anna."},
    ),
    Case(
        "player_split",
        _p("player_split", "Twin II"),
        lambda r, w: _row(w, "Twin").person_id != _row(w, "Twin II").person_id,
        lambda w: {"reason": "Two people after all."},
    ),
    Case(
        "player_add",
        _plain("player_add"),
        lambda r, w: Player.objects.filter(club=w.people.club_a, name="Zenon Nowy").exists(),
        lambda w: {"club": _club_a(w), "name": "Zenon Nowy", "federation_id": ""},
        creates=True,
    ),
    Case(
        "new",
        _plain("new"),
        lambda r, w: Tournament.objects.filter(club=w.people.club_a, name="Autumn Cup").exists(),
        lambda w: {
            "club": _club_a(w),
            "name": "Autumn Cup",
            "profile": w.kop_profile.pk,
            "rounds": 5,
            "deals_per_round": 32,
        },
        creates=True,
    ),
    Case(
        "event_import",
        _plain("event_import"),
        lambda r, w: (
            Tournament.objects.filter(club=w.people.club_a, name="Spring Cup").count() == 2
        ),
        lambda w: {"event_text": w.event_text, "club": _club_a(w)},
        creates=True,
    ),
    Case(
        "series_new",
        _plain("series_new"),
        lambda r, w: Series.objects.filter(club=w.people.club_a, name="Autumn GP").exists(),
        lambda w: {
            "club": _club_a(w),
            "name": "Autumn GP",
            "game": "kop",
            "points_table": "3, 2, 1",
            "min_tournaments": 1,
            "tournaments": [w.spring.pk],
        },
        creates=True,
    ),
    Case(
        "series_edit",
        lambda w: reverse("tournaments:series_edit", kwargs={"slug": w.series.slug}),
        lambda r, w: Series.objects.filter(pk=w.series.pk, name="Grand Prix A2").exists(),
        lambda w: {
            "name": "Grand Prix A2",
            "points_table": "3, 2, 1",
            "min_tournaments": 1,
            "tournaments": [w.spring.pk],
        },
    ),
    Case(
        "edit",
        _t("edit"),
        lambda r, w: Tournament.objects.filter(pk=w.spring.pk, name="Spring Cup II").exists(),
        lambda w: {
            "name": "Spring Cup II",
            "rounds": 2,
            "deals_per_round": 3,
            "hide_standings": "on",
            "profile": w.kop_profile.pk,
            "reason": "a new name",
        },
    ),
    Case(
        "competition",
        _t("competition"),
        lambda r, w: Adjustment.objects.filter(tournament=w.spring).exists(),
        lambda w: {"action": "adjust", "number": 1, "round": "", "big": "-1", "reason": "late"},
    ),
    Case(
        "entry_add",
        _t("entry_add"),
        lambda r, w: w.spring.entries.filter(player__name="Franek Nowy").exists(),
        lambda w: {"new_name": "Franek Nowy"},
    ),
    Case(
        "entries_paste",
        _t("entries_paste"),
        lambda r, w: w.spring.entries.filter(player__name="Gienek Wklejony").exists(),
        lambda w: {"players": "Gienek Wklejony"},
    ),
    Case(
        "entries_check_in_all",
        _t("entries_check_in_all"),
        lambda r, w: not w.spring.entries.filter(checked_in=False).exists(),
        lambda w: {},
    ),
    Case(
        "entry_update",
        _t("entry_update", number=lambda w: 1),
        lambda r, w: not _entry(w, 1).checked_in,
        lambda w: {"action": "absent"},
    ),
    Case(
        "entry_withdrawal",
        _t("entry_withdrawal", number=lambda w: 2),
        lambda r, w: _entry(w, 2).withdrawn_after is not None,
        lambda w: {"action": "withdraw", "reason": "went home"},
    ),
    Case(
        "round_next",
        _ready("round_next"),
        lambda r, w: w.ready.rounds.exists(),
        lambda w: {},
    ),
    Case(
        "round_import",
        _ready("round_import"),
        lambda r, w: Tournament.objects.get(pk=w.ready.pk).seating_plan is not None,
        lambda w: {"csv_file": _seating_csv()},
    ),
    Case(
        # The table cards: each table's private link.
        "round",
        lambda w: _t("round", number=lambda w: 2)(w) + "?cards=1",
        lambda r, w: r.status_code == 200 and w.open_table.session.entry_token in r.text,
    ),
    Case(
        "round_mend",
        _t("round_mend", number=lambda w: 2),
        lambda r, w: _history(w) == w.extra["history"] + 1,
        lambda w: {"action": "reseat", "reseat-reason": "a wrong table"},
    ),
    Case(
        "round_situations",
        _t("round_situations", number=lambda w: 2),
        lambda r, w: RoundTable.objects.get(pk=w.open_table.pk).missing_seat == 1,
        lambda w: {
            "action": "record",
            "what": "short",
            "seat": f"{w.open_table.pk}-1",
            "reason": "never came",
        },
    ),
    Case(
        "board",
        _t("board"),
        lambda r, w: r.status_code == 200 and 'id="board"' in r.text,
    ),
    Case(
        "table_accept",
        _t("table_accept", table_id=lambda w: w.open_table.pk),
        lambda r, w: RoundTable.objects.get(pk=w.open_table.pk).accepted_at is not None,
        lambda w: {"reason": "on paper"},
    ),
    Case(
        # Hidden standings: the club's directors' only.
        "standings_csv",
        _t("standings_csv"),
        lambda r, w: r.status_code == 200 and "Ala Nowak" in r.content.decode(),
    ),
    Case(
        "event_json",
        _t("event_json"),
        lambda r, w: r.status_code == 200 and "Ala Nowak" in r.content.decode(),
    ),
]


def _names(patterns: list[Any]) -> set[str]:
    found: set[str] = set()
    for p in patterns:
        if isinstance(p, URLResolver):
            found |= _names(p.url_patterns)
        elif isinstance(p, URLPattern) and p.name:
            found.add(p.name)
    return found


def test_every_url_name_has_a_case():
    names = _names(tournament_urls.urlpatterns) | _names(rating_urls.urlpatterns)
    cased = {c.name for c in CASES}
    assert len(cased) == len(CASES)
    assert not cased & (PUBLIC | PUBLIC_WITH_PRIVATE_PART)
    assert names == cased | PUBLIC | PUBLIC_WITH_PRIVATE_PART | LEAGUE_WRITES
    from tests.tournaments import test_leagues_views

    asked = inspect.getsource(test_leagues_views)
    assert all(f'"tournaments:{name}"' in asked for name in LEAGUE_WRITES)


def _ask(w: World, case: Case, client: Any) -> Any:
    url = case.url(w)
    if case.data is None:
        return client.get(url)
    return client.post(url, case.data(w))


def _form_refused_club(response: Any) -> bool:
    """The page's form said no to the club (the choice holds only the user's clubs)."""
    if response.status_code != 200:
        return False
    text = response.content.decode()
    return "Select a valid choice" in text or "Choose a club you direct" in text


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_only_the_clubs_directors_change_or_see_it(world, case):
    for who in (*REFUSED, *ALLOWED):
        with transaction.atomic():
            client = world.people.client(who)
            world.extra["history"] = _history(world)
            before = database_state()
            response = _ask(world, case, client)
            if who in REFUSED:
                by_form = case.creates and who == "director_b" and _form_refused_club(response)
                assert refused(response) or by_form, (who, response.status_code)
                assert database_state() == before, who
                assert not case.done(response, world), who
            else:
                assert response.status_code in (200, 302), (who, response.status_code)
                assert case.done(response, world), who
            transaction.set_rollback(True)


def test_hidden_standings_are_read_by_the_clubs_directors_only(world):
    url = reverse("tournaments:standings", kwargs={"slug": world.spring.slug})
    player = reverse("tournaments:player_results", kwargs={"slug": world.spring.slug, "number": 1})
    for who in (*REFUSED, *ALLOWED):
        client = world.people.client(who)
        before = database_state()
        page, card = client.get(url), client.get(player)
        assert page.status_code == 200 and card.status_code == 200, who
        shown = "Ala Nowak" in page.content.decode()
        assert shown == (who in ALLOWED), who
        assert ("big points" in card.content.decode().lower()) == (who in ALLOWED), who
        assert database_state() == before, who


def test_the_history_of_a_tournament_is_shown_to_its_clubs_directors_only(world):
    url = reverse("tournaments:detail", kwargs={"slug": world.spring.slug})
    for who in (*REFUSED, *ALLOWED):
        html = world.people.client(who).get(url).content.decode()
        assert ('id="history"' in html) == (who in ALLOWED), who
        assert ('id="edit-tournament"' in html) == (who in ALLOWED), who
