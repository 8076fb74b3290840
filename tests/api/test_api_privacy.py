"""Nothing private leaks through the read API (issue 29, item 2): club A's Spring Cup
hides its standings until its last round (``tests.clubs.test_club_access_tournaments``'
world: round 1 accepted, round 2 open). Anonymous and a token of club B's director read
what an anonymous visitor of the site reads; a token of club A's director reads the
hidden standings; once published, everyone does. No table link, phone id, member
account or token ever appears in an answer. Every API address has a case here
(``test_every_api_url_name_has_a_case``), and so do the members page's token addresses."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern

from api import urls as api_urls
from clubs.models import ApiToken
from clubs.services import api_token_create
from scoring.models import DealHistory, TableSession
from tests.api.conftest import token_client
from tests.clubs.test_club_access_tournaments import World, world  # noqa: F401 (a fixture)
from tests.factories import TableSessionFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _api(client: Client, url: str) -> Any:
    response = client.get(url)
    assert response["Content-Type"].startswith("application/json"), url
    return response


def _readers(w: World) -> dict[str, Client]:
    users = w.people.users
    return {
        "anonymous": Client(raise_request_exception=False),
        "director_b": token_client(users["director_b"]),
        "scorer_a": token_client(users["scorer_a"]),
        "director_a": token_client(users["director_a"]),
        "site_admin": token_client(users["site_admin"]),
    }


PUBLIC_READERS = ("anonymous", "director_b", "scorer_a")
CLUB_READERS = ("director_a", "site_admin")


def _first_session(w: World) -> int:
    return w.spring.rounds.get(number=1).tables.get().session_id


@dataclass(frozen=True)
class Case:
    """An API address (``url`` from the world) and what each reader gets: the status for
    the public (anonymous, club B's director, club A's scorer) and for club A's directors."""

    name: str
    url: Callable[[World], str]
    public: int = 200
    club: int = 200
    check: Callable[[Any, bool], None] | None = None


def _round_one(body: Any, director: bool) -> None:
    (table,) = body["tables"]
    assert body["results_shown"] is director
    assert all((seat["big_points"] is None) is not director for seat in table["seats"])
    assert (table["session"] is None) is not director


def _detail(body: Any, director: bool) -> None:
    assert body["standings_visible"] is director
    assert (body["label"] == "after round 1 of 2") is director
    assert body["event_file"] is director


CASES = [
    Case("index", lambda w: "/api/v1/"),
    Case("schema", lambda w: "/api/v1/schema/?format=json"),
    Case("docs", lambda w: "/api/v1/docs/"),
    Case("clubs", lambda w: "/api/v1/clubs/"),
    Case("club", lambda w: f"/api/v1/clubs/{w.people.club_a.pk}/"),
    Case("players", lambda w: "/api/v1/players/"),
    Case("player", lambda w: f"/api/v1/players/{w.spring.entries.first().player_id}/"),
    Case(
        "player_ratings",
        lambda w: f"/api/v1/players/{w.spring.entries.first().player_id}/ratings/",
    ),
    Case("tournaments", lambda w: "/api/v1/tournaments/"),
    Case("tournament", lambda w: f"/api/v1/tournaments/{w.spring.slug}/", check=_detail),
    Case("rounds", lambda w: f"/api/v1/tournaments/{w.spring.slug}/rounds/"),
    Case("round", lambda w: f"/api/v1/tournaments/{w.spring.slug}/rounds/1/", check=_round_one),
    Case("standings", lambda w: f"/api/v1/tournaments/{w.spring.slug}/standings/", public=403),
    Case("event", lambda w: f"/api/v1/tournaments/{w.spring.slug}/event/", public=403),
    Case("scoresheet", lambda w: f"/api/v1/sessions/{_first_session(w)}/scoresheet/", public=404),
    Case("leagues", lambda w: "/api/v1/leagues/"),
    Case("league", lambda w: "/api/v1/leagues/no-such-league/", public=404, club=404),
    Case("series", lambda w: "/api/v1/series/"),
    Case("series_detail", lambda w: f"/api/v1/series/{w.series.slug}/"),
    Case("ratings", lambda w: "/api/v1/ratings/"),
    Case("rating_leaderboard", lambda w: "/api/v1/ratings/kop/"),
    Case("not_found", lambda w: "/api/v1/no/such/thing/", public=404, club=404),
]


def test_every_api_url_name_has_a_case():
    names = {p.name for p in api_urls.urlpatterns if isinstance(p, URLPattern)}
    assert names == {c.name for c in CASES}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_each_reader_reads_what_the_site_shows_them(world, case):  # noqa: F811
    readers = _readers(world)
    url = case.url(world)
    for who, client in readers.items():
        response = client.get(url)
        director = who in CLUB_READERS
        assert response.status_code == (case.club if director else case.public), (who, url)
        if response.status_code >= 400:
            body = response.json()
            assert set(body) == {"code", "message"}, body
        elif case.check is not None:
            case.check(response.json(), director)


def _every_answer(w: World, client: Client) -> str:
    """Every API answer the reader gets for the world (bodies joined)."""
    texts = []
    for case in CASES:
        response = client.get(case.url(w))
        texts.append(response.content.decode())
    session = _first_session(w)
    for number in (1, 2):
        texts.append(
            client.get(f"/api/v1/tournaments/{w.spring.slug}/rounds/{number}/").content.decode()
        )
    texts.append(client.get(f"/api/v1/sessions/{session}/scoresheet/").content.decode())
    return "\n".join(texts)


def test_no_link_phone_account_or_token_appears_anywhere(world):  # noqa: F811
    DealHistory.objects.filter(session__in=TableSession.objects.all()).update(
        phone="phone-id-xyzzy"
    )
    secrets = set(TableSession.objects.values_list("entry_token", flat=True))
    secrets |= {"phone-id-xyzzy"}
    secrets |= {u.username for u in get_user_model().objects.all()}
    readers = _readers(world)
    secrets |= set(ApiToken.objects.values_list("digest", flat=True))
    for who, client in readers.items():
        text = _every_answer(world, client)
        found = sorted(s for s in secrets if s and s in text)
        assert not found, (who, found)


def test_hidden_standings_published_are_read_by_everyone(world):  # noqa: F811
    url = f"/api/v1/tournaments/{world.spring.slug}/standings/"
    anonymous = Client()
    outsider = token_client(world.people.users["director_b"])
    director = token_client(world.people.users["director_a"])
    assert anonymous.get(url).status_code == 403
    assert outsider.get(url).status_code == 403
    hidden = director.get(url)
    assert hidden.status_code == 200 and hidden.json()["individual"]
    Tournament.objects.filter(pk=world.spring.pk).update(hide_standings=False)
    for client in (anonymous, outsider, director):
        shown = client.get(url)
        assert shown.status_code == 200
        assert shown.json()["individual"] == hidden.json()["individual"]
    sheet = f"/api/v1/sessions/{_first_session(world)}/scoresheet/"
    assert anonymous.get(sheet).status_code == 200
    # A club evening's table is public, as its page is.
    evening = TableSessionFactory()
    assert anonymous.get(f"/api/v1/sessions/{evening.pk}/scoresheet/").status_code == 200
    # The open table of round 2 has no sheet through the API until it is accepted.
    assert (
        anonymous.get(f"/api/v1/sessions/{world.open_table.session_id}/scoresheet/").status_code
        == 404
    )


def test_federation_id_only_where_the_club_publishes_them(world):  # noqa: F811
    player = world.spring.entries.first().player
    type(player).objects.filter(pk=player.pk).update(federation_id="PL-123")
    url = f"/api/v1/players/{player.pk}/"
    assert Client().get(url).json()["federation_id"] is None
    type(world.people.club_a).objects.filter(pk=world.people.club_a.pk).update(
        publishes_federation_ids=True
    )
    assert Client().get(url).json()["federation_id"] == "PL-123"


def test_unknown_and_revoked_tokens_are_refused(world):  # noqa: F811
    url = "/api/v1/clubs/"
    bad = Client(HTTP_AUTHORIZATION="Bearer ts_nonsense")
    response = bad.get(url)
    assert response.status_code == 401 and response.json()["code"] == "authentication_failed"
    assert "Bearer" in response["WWW-Authenticate"]
    client = token_client(world.people.users["director_a"])
    assert client.get(url).status_code == 200
    ApiToken.objects.all().delete()
    assert client.get(url).status_code == 401


# ------------------------------------------------------------- the members page's tokens


def test_a_director_makes_a_token_sees_it_once_and_only_its_digest_is_kept(people):
    client = people.client("director_a")
    response = client.post("/accounts/members/api-tokens/", {"label": "Club website"})
    assert response.status_code == 200
    secret = response.context["secret"]
    assert secret in response.content.decode()
    token = ApiToken.objects.get()
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in json.dumps(list(ApiToken.objects.values()), default=str)
    page = client.get("/accounts/members/").content.decode()
    assert "Club website" in page and secret not in page and token.prefix in page
    api = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert api.get("/api/v1/").status_code == 200
    token.refresh_from_db()
    assert token.last_used_at is not None


@pytest.mark.parametrize("who", ["scorer_a", "no_role", "anonymous"])
def test_only_directors_make_tokens(people, who):
    response = people.client(who).post("/accounts/members/api-tokens/", {"label": "x"})
    assert response.status_code in (302, 403)
    assert not ApiToken.objects.exists()


def test_a_token_is_revoked_by_its_owner_only(people):
    _token, secret = _made(people, "director_a")
    token = ApiToken.objects.get()
    url = f"/accounts/members/api-tokens/{token.pk}/revoke/"
    assert people.client("director_b").post(url).status_code == 404
    assert people.client("scorer_a").post(url).status_code == 403
    assert ApiToken.objects.exists()
    response = people.client("director_a").post(url)
    assert response.status_code == 302
    assert not ApiToken.objects.exists()
    assert Client(HTTP_AUTHORIZATION=f"Bearer {secret}").get("/api/v1/").status_code == 401


def test_a_token_needs_a_label(people):
    response = people.client("director_a").post("/accounts/members/api-tokens/", {"label": ""})
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def _made(people: Any, who: str) -> tuple[Any, str]:
    return api_token_create(user=people.users[who], label="site")
