"""Every page and htmx endpoint, fuzzed: no input is a server error, and a refusal writes nothing.

The endpoints are enumerated from the URL conf (``scoring.urls``, ``tournaments.urls`` and
the ratings URLs it includes, and the read API's ``api.urls``), so a new view is fuzzed
without being listed here. For each,
hypothesis sends a GET with a random query string or a POST with random form data (raw
bytes: NUL, invalid UTF-8 and unpaired surrogates, 100,000-character text, deeply nested
and 5,000-digit JSON, huge and negative numbers, repeated and missing fields), with a
random path argument (an existing row or an extreme value), as each role: anonymous,
member, scorer, director and a holder of the table's link. It asserts:

* no 5xx (the test client raises the view's exception, so a crash shows its traceback);
* when the answer is a refusal (4xx, or a POST answered with the page again rather than
  a redirect), the club, scoring and tournament tables are exactly as before.

The queries run under ``tests.strict_db.postgres_rules`` (what PostgreSQL refuses fails
here too, on SQLite). Examples are derandomized, so a CI run is reproducible.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import quote_from_bytes

import pytest
from django import forms
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring.forms
import tournaments.forms
import tournaments.rating_views
from scoring import profile_services
from scoring import services as scoring_services
from scoring.engines.rules import KOSCIAN_BIG_POINTS, TIE_BREAKS
from tests.factories import (
    ClubFactory,
    KopDealFactory,
    PlayerFactory,
    RoundFactory,
    TableSessionFactory,
    TournamentFactory,
)
from tests.strict_db import postgres_rules
from tournaments import ratings

FUZZ = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)
CHECKED_APPS = ("clubs", "scoring", "tournaments", "auth")
UPLOADS = {
    "scoring:session_import": "sheet",
    "tournaments:round_import": "csv_file",
    "tournaments:event_import": "event_file",
    "tournaments:league_licences": "file",
}
ROLES = ("anonymous", "member", "scorer", "director", "table_link")


def endpoints() -> list[tuple[str, tuple[str, ...]]]:
    """``(namespace:name, path arguments)`` of every route in the two apps' URL confs; a
    view served at two addresses (a Kop and a Vint spelling) once, by its longer one."""
    found: dict[Any, tuple[str, tuple[str, ...]]] = {}

    def walk(patterns: list[Any], namespace: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name and namespace:
                args = tuple(p.pattern.converters)
                if len(args) >= len(found.get(p.callback, ("", ()))[1]):
                    found[p.callback] = (f"{namespace}:{p.name}", args)

    for p in get_resolver().url_patterns:
        if isinstance(p, URLResolver) and p.namespace in ("scoring", "tournaments", "api"):
            walk(p.url_patterns, p.namespace)
    return sorted(found.values())


ENDPOINTS = endpoints()


def _field_names() -> list[str]:
    """The fields of every form the apps define, and the names views read directly."""
    names = {"unlock", "action", "accepted_by", "confirm", "copy", "cards", "print", "status"}
    # The read API's query parameters (api.views).
    names |= {"since", "page", "page_size", "club", "after", "season", "min_games", "format"}
    for module in (scoring.forms, tournaments.forms, tournaments.rating_views):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, forms.BaseForm):
                names.update(value.base_fields)
    return sorted(names)


FIELDS = _field_names()

DEEP = "[" * 100_000
# The values that broke pages before: drawn as often as all other text together.
EXTREMES = st.sampled_from(
    [
        "\x00",
        "a\x00b",
        "\ud800",
        "x" * 100_000,
        "7" * 140_000,  # over the CSV reader's 128 KiB cell
        DEEP,
        "9" * 5000,
        '{"a": ' + "9" * 5000 + "}",
        '{"a": "\\u0000"}',
        "1e999",
        "NaN",
        "=HYPERLINK(1)",
        "-1",
        "",
    ]
)
TEXT = st.one_of(
    EXTREMES,
    st.one_of(
        st.text(max_size=20),
        st.text(alphabet=st.characters(codec="utf-8"), max_size=200),  # unpaired surrogates too
    ),
)
NUMBERS = st.one_of(
    st.integers(min_value=-5, max_value=60),
    st.sampled_from([2**31, 2**63, 2**63 - 1, -(2**63) - 1, 10**30, 10**4000]),
    st.floats(allow_nan=True, allow_infinity=True),
)
VALUE = st.one_of(EXTREMES, TEXT, NUMBERS.map(str), st.booleans().map(str))


def form_data(names: list[str]) -> st.SearchStrategy[dict[str, list[str]]]:
    """Form data: each field of the page itself, or not (missing fields), and a few fields
    of other forms or made up; each with one or more values."""
    values = st.lists(VALUE, min_size=1, max_size=2)
    own = st.fixed_dictionaries({}, optional={n: values for n in names or FIELDS})
    other = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), values, max_size=3)
    return st.tuples(own, other).map(lambda pair: {**pair[1], **pair[0]})


def page_fields(client: Client, url: str) -> list[str]:
    """The names of the inputs on the page at ``url`` (as a director sees it)."""
    html = client.get(url).content.decode(errors="replace")
    names = set(re.findall(r'<(?:input|select|textarea)[^>]*\sname="([^"]+)"', html))
    return sorted(names - {"csrfmiddlewaretoken", "language", "next"})


def encode(data: dict[str, list[str]]) -> bytes:
    """``application/x-www-form-urlencoded`` of any text: a surrogate is sent as the invalid
    UTF-8 a browser could send, not refused by the test client."""
    return b"&".join(
        quote_from_bytes(k.encode("utf-8", "surrogatepass")).encode()
        + b"="
        + quote_from_bytes(v.encode("utf-8", "surrogatepass")).encode()
        for k, values in data.items()
        for v in values
    )


def snapshot() -> str:
    """A digest of every row of the club, scoring, tournament and user tables."""
    digest = hashlib.sha256()
    for model in apps.get_models():
        if model._meta.app_label in CHECKED_APPS and model._meta.label != "auth.Permission":
            rows = model._default_manager.order_by("pk").values_list()
            digest.update(f"{model._meta.label}{list(rows)!r}".encode())
    return digest.hexdigest()


def writes() -> int | None:
    """Rows written on this connection so far (SQLite's ``total_changes()``), else None."""
    if connection.vendor != "sqlite":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT total_changes()")
        return int(cursor.fetchone()[0])


class Digest:
    """``snapshot()``, taken again only when a write happened since the last one."""

    def __init__(self) -> None:
        self.at: int | None = None
        self.value = ""

    def now(self) -> str:
        written = writes()
        if written is None or written != self.at:
            self.at, self.value = written, snapshot()
        return self.value


@pytest.fixture
def world(profiles, director, scorer, member):
    """A club with a Kop and a Vint table, a tournament with a seated round, a series and a
    custom profile: something for every path argument to point at."""
    club = ClubFactory(name="Klub Fuzz")
    kop_players = [PlayerFactory(club=club, name=f"Kop {i}", number=i) for i in range(1, 5)]
    vint_players = [PlayerFactory(club=club, name=f"Vint {i}", number=i) for i in range(5, 9)]
    kop = TableSessionFactory(
        profile="kop-pagat", players=kop_players, created_by=scorer, planned_deals=8
    )
    KopDealFactory(session=kop, actor=scoring_services.Actor(label="table"))
    vint = TableSessionFactory(game="vint", players=vint_players, created_by=scorer)
    tournament = TournamentFactory(
        name="Fuzz Cup",
        rounds=3,
        deals_per_round=4,
        club=club,
        seed=3,
        created_by=director,
        field=[*kop_players, *vint_players],
    )
    rnd = RoundFactory(tournament=tournament)
    series = ratings.series_create(
        name="Fuzz Series", game="kop", points_table=[3, 2, 1], tournaments=[tournament]
    )
    custom = profile_services.profile_save(
        profile=None,
        name="Fuzz rules",
        game="kop",
        options={},
        tournament={"big_points": list(KOSCIAN_BIG_POINTS), "tie_breaks": list(TIE_BREAKS)},
    ).profile
    clients = {role: Client() for role in ROLES}
    clients["member"].force_login(member)
    clients["scorer"].force_login(scorer)
    clients["director"].force_login(director)
    clients["table_link"].get(reverse("scoring:table_link", args=[kop.entry_token]))
    table = rnd.tables.order_by("number").first()
    return {
        "clients": clients,
        "args": {
            "pk": [kop.pk, vint.pk, table.session_id, kop_players[0].pk, 0, 2**63, 10**30],
            "number": [1, 2, 0, 2**31, 2**63, 10**30],
            "rubber": [1, 2, 0, 2**63],
            # A deal's slot: the converter takes at most nine digits a part.
            "slot": ["1", "2", "0", "1.1", "3.999999999", "999999999"],
            "token": [kop.entry_token, "nope", "A" * 500],
            "slug": [tournament.slug, series.slug, custom.slug, "kop-pagat", "nope", "a" * 300],
            "game": ["kop", "baska", "vint", "chess"],
            "table_id": [table.pk, 0, 2**63, 10**30],
            # The other register row of a merge (``player_merge_confirm``).
            "other": [kop_players[1].pk, 0, 2**63, 10**30],
        },
    }


def refused(response: Any, method: str) -> bool:
    if 400 <= response.status_code < 500:
        return True
    return (
        method == "POST"
        and response.status_code == 200
        and response.get("X-Deal-Outcome") not in ("saved", "replayed")
        and "HX-Redirect" not in response
    )


@pytest.mark.parametrize(("name", "params"), ENDPOINTS, ids=[n for n, _ in ENDPOINTS])
def test_no_input_is_a_server_error_and_a_refusal_writes_nothing(world, name, params):
    digest = Digest()
    valid = {p: world["args"][p][0] for p in params}
    fields_here = page_fields(world["clients"]["director"], reverse(name, kwargs=valid))
    form = form_data(fields_here)

    @FUZZ
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        # Most forms are a director's: they get half of the examples.
        role = data.draw(st.sampled_from([*ROLES, *["director"] * 4]), label="role")
        kwargs = {p: data.draw(st.sampled_from(world["args"][p]), label=p) for p in params}
        typed = [p for p in params if p in ("token", "slug", "game")]
        if typed and data.draw(st.booleans(), label="raw path"):
            # Any text in a path segment, even what no converter matches: /t/%00/.
            kwargs[typed[0]] = "PLACEHOLDER"
            raw = quote_from_bytes(_utf8(data.draw(TEXT, label="segment")), safe="")
            url = reverse(name, kwargs=kwargs).replace("PLACEHOLDER", raw)
        else:
            url = reverse(name, kwargs=kwargs)
        method = data.draw(st.sampled_from(["GET", "POST"]), label="method")
        fields = data.draw(form, label="fields")
        htmx = data.draw(st.booleans(), label="htmx")
        headers = {"HX-Request": "true"} if htmx else {}
        client = world["clients"][role]
        before = digest.now()
        with postgres_rules():
            if method == "GET":
                response = client.get(f"{url}?{encode(fields).decode()}", headers=headers)
            elif name in UPLOADS:
                body = data.draw(st.one_of(st.binary(max_size=300), TEXT.map(_utf8)), label="file")
                multipart = {
                    k: v[0] for k, v in fields.items() if not re.search("[\ud800-\udfff]", k + v[0])
                }
                multipart[UPLOADS[name]] = SimpleUploadedFile("upload", body)
                response = client.post(url, multipart, headers=headers)
            else:
                response = client.post(
                    url,
                    encode(fields),
                    content_type="application/x-www-form-urlencoded",
                    headers=headers,
                )
        assert response.status_code < 500, (name, role, method)
        if refused(response, method):
            assert digest.now() == before, f"{name} {method} as {role} refused but wrote"

    run()


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


# The sweep: random examples rarely put the worst value into the one field that breaks;
# here every field of every page gets each of them in turn, as the director.
SWEEP = ["\x00", "\ud800", str(2**63), DEEP, "9" * 5000, "7" * 140_000]


@pytest.mark.parametrize(("name", "params"), ENDPOINTS, ids=[n for n, _ in ENDPOINTS])
def test_every_field_refuses_the_worst_values(world, name, params):
    client = world["clients"]["director"]
    url = reverse(name, kwargs={p: world["args"][p][0] for p in params})
    digest = Digest()
    fields, page = [], url
    while not fields and page.count("/") > 2:  # a view only posted to: its page's form
        fields = page_fields(client, page)
        page = page.rstrip("/").rsplit("/", 1)[0] + "/"
    for field, value in [(f, v) for f in fields for v in SWEEP]:
        before = digest.now()
        body = encode({field: [value]})
        with postgres_rules():
            response = client.post(url, body, content_type="application/x-www-form-urlencoded")
            if value in SWEEP[:3]:
                assert client.get(f"{url}?{body.decode()}").status_code < 500, (name, field)
        assert response.status_code < 500, (name, field, value[:10])
        if refused(response, "POST"):
            assert digest.now() == before, f"{name} POST {field} refused but wrote"
