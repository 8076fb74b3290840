"""What the project's hot paths send to the database, statement by statement: every test
that counts statements is here, whichever app serves the path, so a change in a count is
one diff in one file, and the integration tier runs the same counts on PostgreSQL (this
file, by path: ``tests/tiers.py``). The django tier runs them on SQLite.

**A deal save** is four statements in scoring, through Django's ORM: the session locked
and read, the deal, its history row and the session's tally; plus one for a tournament
table (the results version, found and counted in one statement). A form sent twice finds
its deal by its submission key (one more statement, only then: the table has moved on from
the slot the form expected). From the pad the same locked read serves the view too (no
read of the session before it), and the pad it answers with reads the newest rows and the
seats' players, and nothing but the players for the short answer a pad drawn empty asks
for (the new row comes from the save; for Vint under any options: a hypothesis property).
(The tally the saves keep: ``tests/scoring/test_tally.py``.)

**The standings page and the hall display** answer a poll, or a browser holding the page,
with one small read; the standings read sends the same statements for one round as for
two, and a page of a big field reads one page of rows. The page's read and its poll are
kept prepared on PostgreSQL (``tournaments.sql``), and Django's query log still sees them.

**The ratings** (``tournaments.ratings``): an update after a round sends as many
statements after a long history as after a short one, and so does a rebuild; a rebuild
writes only what moved (nothing when nothing did), in bulk from scratch (``COPY`` on
PostgreSQL). (That an update equals a rebuild, and what it reads:
``tests/tournaments/test_ratings.py``.)

The number of statements is asserted, so that one more fails.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from hypothesis import given

from ops.models import TaskOutbox
from scoring import services as scoring_services
from scoring.engines.simulate import random_kop_deals
from scoring.games import game_of
from scoring.games.interface import Slot
from scoring.games.kop.models import KopDeal
from scoring.games.vint.deals import vint_rules_for
from scoring.models import TableSession
from tests.actors import DIRECTOR_ACCEPTS, phone
from tests.factories import (
    PLAY_ACTOR,
    TableSessionFactory,
    amend_accepted,
    play_round,
    ratings_snapshot,
    record_kop_deals,
)
from tests.scoring.test_tally import ACTOR, KOP_FACTS, VINT_FACTS
from tests.scoring.test_vint_entry import RUBBER_1 as VINT_FORMS
from tests.scoring.test_vint_tally_answer import PROPERTY, Saved, plays, replay
from tests.tournaments.test_find_and_display import display
from tests.tournaments.test_standings import snapshot_json_read
from tests.tournaments.test_standings_page_rows import (
    PAGE,
    big_field,
    body_names,
    page_url,
    rows_read,
    vint_night,
)
from tournaments import ratings, selectors, services, sql
from tournaments.models import (
    RatingEvent,
    RatingSource,
    RatingState,
    StandingsSnapshot,
    Tournament,
)
from tournaments.standings import standings_compute

pytestmark = pytest.mark.django_db

KOP_FORM = {
    "contract": "normal",
    "declarers": ["1", "3"],
    "doublings": "1",
    "declarer_points": "60",
}


# ------------------------------------------------------------------------- a deal save


def statements(ctx: CaptureQueriesContext) -> list[str]:
    """The statements a save sent (savepoints are the test's transaction, not the save's)."""
    return [
        q["sql"]
        for q in ctx.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]


def save(session: TableSession, facts: dict, key: str, **extra) -> list[str]:
    """A save as the pad sends it: with its key and the slot it expects to create."""
    expected = game_of(session).ledger.next_slot(TableSession.objects.get(pk=session.pk))
    with CaptureQueriesContext(connection) as ctx:
        stored = scoring_services.deal_record(
            session=session,
            facts=facts,
            actor=ACTOR,
            submission_key=key,
            expected=expected,
            extra=extra,
        )
    assert not stored.replayed
    return statements(ctx)


# The deal, its history row and the tally.
WRITES = ["INSERT the deal", "INSERT its history row", "UPDATE the session's tally"]


def test_a_kop_save_is_the_lock_the_writes_and_the_version(kop_table):
    session = kop_table.session
    version = kop_table.round.tournament.results_version
    save(session, KOP_FACTS[0], "k0")
    sent = save(session, KOP_FACTS[1], "k1")
    assert len(sent) == 1 + len(WRITES) + 1, "\n".join(sent)
    assert "FOR UPDATE" in sent[0] or connection.vendor == "sqlite"
    assert not any("submission_key" in s for s in sent[:1])  # a new key is not looked up
    session.refresh_from_db()
    assert session.tally == game_of(session).ledger.tally_compute(session)
    assert session.tally["counted"] == 2 and session.tally["last"] == 2
    kop_table.round.tournament.refresh_from_db()
    assert kop_table.round.tournament.results_version == version + 2


def test_a_vint_save_is_the_same_and_the_rubbers_row_when_it_opens_one(vint_table):
    session = vint_table.session
    vint_rules_for(session)  # a process reads a profile version's rules once, and keeps them
    first = save(session, VINT_FACTS[0], "v0", rubber=1)
    assert len(first) == 1 + 1 + len(WRITES) + 1, "\n".join(first)  # + the rubber's row
    sent = save(session, VINT_FACTS[1], "v1", rubber=1)
    assert len(sent) == 1 + len(WRITES) + 1, "\n".join(sent)
    session.refresh_from_db()
    assert session.tally == game_of(session).ledger.tally_compute(session)


def test_a_replayed_submission_is_found_by_the_locked_read(kop_table):
    session = kop_table.session
    save(session, KOP_FACTS[0], "same")
    with CaptureQueriesContext(connection) as ctx:
        stored = scoring_services.deal_record(
            session=session,
            facts=KOP_FACTS[0],
            actor=ACTOR,
            submission_key="same",
            expected=Slot(0, 1),
        )
    assert stored.replayed and stored.slot == Slot(0, 1)
    assert len(statements(ctx)) == 3  # the locked read, the key's slot, the deal it names


# The pad's save, form post to the htmx answer, at a tournament table: every statement it
# sends, in order. The test runs in a transaction, so the save's own transaction shows as
# a savepoint; in production the same two are BEGIN and COMMIT.
PLAYERS = ["the four seats' players"]
KOP_SAVE_STATEMENTS = [
    "the phone's grant (django_session), read once, before the lock",
    "SAVEPOINT",  # BEGIN
    "lock-and-read the session with its tournament table",
    *WRITES,
    "UPDATE the tournament's results version (table_changed)",
    "RELEASE SAVEPOINT",  # COMMIT
    "the pad's newest rows",
    *PLAYERS,
]
# Vint: the same, but the pad shows the rubber being played, so it reads its deals for
# its rows (its totals, seats and first dealer are in the tally, and so are the finished
# rubbers' seat totals).
AFTER_COMMIT = KOP_SAVE_STATEMENTS.index("RELEASE SAVEPOINT") + 1
VINT_SAVE_STATEMENTS = [
    *KOP_SAVE_STATEMENTS[:AFTER_COMMIT],
    *PLAYERS,
    "the current rubber's deals",
]


def _pad_post(client, url: str, data: dict, slot: Slot):  # type: ignore[no-untyped-def]
    """The pad's form as a phone sends it: the slot it expects to create, a fresh key."""
    keys = {
        "expected_number": str(slot.number),
        "submission_key": f"key-{slot.rubber}-{slot.number}-0123456789",
    }
    response = client.post(url, {**data, **keys}, headers={"HX-Request": "true"})
    assert response["X-Deal-Outcome"] == "saved", response.content[:500]
    return response


def test_a_kop_save_from_the_pad_sends_these_statements(kop_table, django_assert_num_queries):
    session = kop_table.session
    client = phone(session, seat=1)
    url = f"/sessions/{session.pk}/deals/"
    _pad_post(client, url, KOP_FORM, Slot(0, 1))
    with django_assert_num_queries(len(KOP_SAVE_STATEMENTS)) as ctx:
        response = _pad_post(client, url, KOP_FORM, Slot(0, 2))
    sent = [q["sql"] for q in ctx.captured_queries]
    assert "FOR UPDATE" in sent[2] or connection.vendor == "sqlite"
    assert not any("submission_key" in s for s in sent[:3])  # a new form: no key lookup
    assert not any("SUM(" in s or "COUNT(" in s for s in sent)
    html = response.content.decode()
    assert 'id="pad"' in html and "<html" not in html
    session.refresh_from_db()
    for total in session.tally["totals"]:
        assert f">{total:+d}<" in html or f">{total}<" in html


# A pad drawn empty asks for the short answer: after the first deal the new row comes
# from the save itself, so the answer reads the seats' players only.
KOP_SHORT_STATEMENTS = [*KOP_SAVE_STATEMENTS[:AFTER_COMMIT], *PLAYERS]


def test_a_kop_save_answered_short_reads_the_seats_only(kop_table, django_assert_num_queries):
    session = kop_table.session
    client = phone(session, seat=1)
    url = f"/sessions/{session.pk}/deals/"
    _pad_post(client, url, KOP_FORM, Slot(0, 1))
    short = {**KOP_FORM, "pad_answer": "short", "pad_revision": "1"}
    with django_assert_num_queries(len(KOP_SHORT_STATEMENTS)) as ctx:
        response = _pad_post(client, url, short, Slot(0, 2))
    assert response["X-Pad-Answer"] == "short"
    assert not any("ORDER BY number DESC" in q["sql"] for q in ctx.captured_queries)


def test_a_club_session_save_from_the_pad_tells_no_tournament(profiles, django_assert_num_queries):
    session = TableSessionFactory(profile="kop-koscian")
    client = phone(session, seat=1)
    url = f"/sessions/{session.pk}/deals/"
    _pad_post(client, url, KOP_FORM, Slot(0, 1))
    statements = [s for s in KOP_SAVE_STATEMENTS if "results version" not in s]
    with django_assert_num_queries(len(statements)) as ctx:
        _pad_post(client, url, KOP_FORM, Slot(0, 2))
    assert not any("results_version" in q["sql"] for q in ctx.captured_queries)


def test_a_vint_save_from_the_pad_sends_these_statements(vint_table, django_assert_num_queries):
    session = vint_table.session
    client = phone(session, seat=1)
    url = f"/sessions/{session.pk}/deals/"
    _pad_post(client, url, {"rubber": "1", **VINT_FORMS[0]}, Slot(1, 1))
    with django_assert_num_queries(len(VINT_SAVE_STATEMENTS)) as ctx:
        response = _pad_post(client, url, {"rubber": "1", **VINT_FORMS[1]}, Slot(1, 2))
    assert "FOR UPDATE" in ctx.captured_queries[2]["sql"] or connection.vendor == "sqlite"
    assert re.search(r"\"rubber\" = 1\b", ctx.captured_queries[-1]["sql"])  # rubber 1 only
    assert response["X-Deal-Number"] == "1.2"
    assert 'id="pad"' in response.content.decode()


def test_a_vint_save_answered_short_reads_the_seats_only(vint_table, django_assert_num_queries):
    """The short answer is scored from the tallies before and after the save: no deal and
    no rubber row is read (``tests/scoring/test_vint_tally_answer.py`` checks what it
    shows against the whole board)."""
    session = vint_table.session
    client = phone(session, seat=1)
    url = f"/sessions/{session.pk}/deals/"
    _pad_post(client, url, {"rubber": "1", **VINT_FORMS[0]}, Slot(1, 1))
    short = {"rubber": "1", **VINT_FORMS[1], "pad_answer": "short", "pad_revision": "1"}
    with django_assert_num_queries(len(KOP_SHORT_STATEMENTS)) as ctx:
        response = _pad_post(client, url, short, Slot(1, 2))
    assert response["X-Pad-Answer"] == "short"
    reads = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT")]
    assert not any("vintdeal" in sql or "vintrubber" in sql for sql in reads)


def _reads_the_players_only(saved: Saved) -> None:
    if saved.short is not None:
        assert len(saved.read) == 1, saved.read.captured_queries  # no deal, no rubber


@PROPERTY
@given(case=plays())
def test_a_vint_short_answer_reads_the_players_only_under_any_options(profiles, case):
    """The answer drawn from the tallies before and after each save, whatever the §7
    options and the deals (``tests/scoring/test_vint_tally_answer.py`` checks what it
    shows against the whole board, over cases drawn alike)."""
    replay(case, _reads_the_players_only)


# ------------------------------------------------------- the standings page and its poll


def test_the_status_poll_is_one_small_read_and_answers_304_until_a_version_moves(
    client, kop_tournament, sixteen, commit
):
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    url = reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug}) + "?status=1"
    poll = {"HX-Request": "true"}
    with CaptureQueriesContext(connection) as queries:
        first = client.get(url, headers=poll)
    assert len(queries) == 1 and not snapshot_json_read(queries)
    assert 'id="standings-current"' in first.content.decode()
    etag = first["ETag"]
    assert client.get(url, headers={**poll, "If-None-Match": etag}).status_code == 304

    # A result changes: the poll answers in full again, and says "updating".
    Tournament.objects.filter(pk=kop_tournament.pk).update(results_version=F("results_version") + 1)
    moved = client.get(url, headers={**poll, "If-None-Match": etag})
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert "A newer version is on its way" in moved.content.decode()
    assert 'id="standings-current"' not in moved.content.decode()


def test_the_poll_is_one_read_in_every_state_and_its_etag_follows_the_outbox(
    client, kop_tournament, sixteen, commit
):
    """No snapshot yet, behind with a recompute waiting for the broker, current: one query
    each time, and a recompute stuck in (or leaving) the outbox changes the ETag, so a
    phone holding the old one is told (not 304)."""
    url = reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug}) + "?status=1"
    poll = {"HX-Request": "true"}
    with CaptureQueriesContext(connection) as queries:
        none_yet = client.get(url, headers=poll)
    assert len(queries) == 1 and "No results accepted yet" in none_yet.content.decode()
    assert none_yet["Cache-Control"] == "no-cache"  # the browser revalidates each poll

    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    Tournament.objects.filter(pk=kop_tournament.pk).update(results_version=F("results_version") + 1)
    behind = client.get(url, headers=poll)
    assert "A newer version is on its way" in behind.content.decode()
    computed = StandingsSnapshot.objects.get().computed_at.astimezone(
        timezone.get_current_timezone()
    )
    # In the reader's own format (English here: Django's short date and time).
    assert f"Computed {date_format(computed, 'SHORT_DATETIME_FORMAT')}." in behind.content.decode()
    TaskOutbox.objects.create(
        task="tournaments.tasks.standings_recompute", tournament_id=kop_tournament.pk
    )
    with CaptureQueriesContext(connection) as queries:
        deferred = client.get(url, headers={**poll, "If-None-Match": behind["ETag"]})
    assert len(queries) == 1 and not snapshot_json_read(queries)
    assert deferred.status_code == 200 and deferred["ETag"] != behind["ETag"]
    assert 'id="standings-deferred"' in deferred.content.decode()
    assert client.get(url, headers={**poll, "If-None-Match": deferred["ETag"]}).status_code == 304


def test_the_standings_read_sends_no_list_of_ids_whatever_the_field(
    kop_tournament, sixteen, commit
):
    """The accepted tables' sessions reach the seat results as a subquery: the same
    queries for one round as for two, none carrying an id per table."""
    import re

    def compute_queries():
        with CaptureQueriesContext(connection) as queries:
            standings_compute(tournament=kop_tournament)
        return [q["sql"] for q in queries.captured_queries]

    with commit():
        services.round_accept_all(
            rnd=services.round_generate(tournament=kop_tournament),
            actor=DIRECTOR_ACCEPTS,
            reason="on paper",
        )
    one_round = compute_queries()
    with commit():
        services.round_accept_all(
            rnd=services.round_generate(tournament=kop_tournament),
            actor=DIRECTOR_ACCEPTS,
            reason="on paper",
        )
    two_rounds = compute_queries()
    assert len(one_round) == len(two_rounds)
    assert not [sql for sql in two_rounds if re.search(r"\bIN \(\d", sql)]


def test_the_page_answers_304_to_a_browser_holding_it_until_something_on_it_moves(
    client, director_client, kop_tournament, sixteen, commit
):
    """A phone refreshing the standings gets 304 (no render) while the snapshot, the
    results version, the reader and the language stand still; never while a message
    waits to be shown; the ETag is per reader and private to the browser."""
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    url = reverse("tournaments:standings", kwargs={"slug": kop_tournament.slug})
    client.get(url)  # the first visit sets the CSRF cookie the page's forms use
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again["ETag"] == etag
    assert len(queries) == 1  # the tournament with its snapshot, finish and outbox state
    assert client.get(url + "?ind-sort=name", headers={"If-None-Match": etag}).status_code == 200

    with commit():
        services.results_changed(tournament=kop_tournament)
    moved = client.get(url, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved["ETag"] != etag

    director_client.get(url)
    directors = director_client.get(url)
    assert directors["ETag"] != moved["ETag"]
    assert director_client.get(url, headers={"If-None-Match": directors["ETag"]}).status_code == 304
    # A message to show (here from checking everybody in): the page in full, with it.
    director_client.post(
        reverse("tournaments:entries_check_in_all", kwargs={"slug": kop_tournament.slug})
    )
    with_message = director_client.get(url, headers={"If-None-Match": directors["ETag"]})
    assert with_message.status_code == 200
    assert "checked in" in with_message.content.decode()
    assert "checked in" not in director_client.get(url).content.decode()  # shown once


# ------------------------------------------- the standings page's read, kept prepared


def runs() -> dict[str, int]:
    """Each statement kept prepared on this connection: how many times it ran (none off
    PostgreSQL)."""
    if connection.vendor != "postgresql":
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements "
            "WHERE NOT from_sql"
        )
        return dict(cursor.fetchall())


def ran_since(before: dict[str, int]) -> dict[str, int]:
    return {s: n - before.get(s, 0) for s, n in runs().items() if n != before.get(s, 0)}


@pytest.mark.parametrize("prepared", [True, False], ids=["prepared", "plain"])
def test_a_public_readers_statements_are_kept_prepared(kop_table, settings, prepared):
    """The standings page's one read (the tournament with its standings state) and its
    poll give what the plain reads give, prepared or not, and Django's query log sees
    them. On PostgreSQL a prepared one stays on the connection after its first use (a
    later request only executes it); with ``DATABASE_PREPARED`` off, nothing is kept."""
    settings.DATABASE_PREPARED = prepared
    tournament = Tournament.objects.get(pk=kop_table.round.tournament_id)

    before = runs()
    with CaptureQueriesContext(connection) as queries:
        found = selectors.standings_page_state(slug=tournament.slug)
        again = selectors.standings_page_state(slug=tournament.slug)
        status = selectors.standings_status(slug=tournament.slug)
    assert len(queries) == 3
    assert found is not None and again is not None and status is not None
    assert model_to_dict(found[0]) == model_to_dict(tournament)
    assert found[1] == again[1] == selectors.standings_state(tournament)
    assert found[1].snapshot_id is None and not found[1].finished
    assert (status["version"], status["snapshot"]) == (tournament.results_version, None)
    assert selectors.standings_page_state(slug="no-such-tournament") is None
    ran = ran_since(before)
    if connection.vendor == "postgresql":
        # The page's read also asks whether the last round is seated; the poll's does not.
        page = [n for s, n in ran.items() if "standingssnapshot" in s and "rounds_planned" in s]
        poll = [n for s, n in ran.items() if "standingssnapshot" in s and "rounds_planned" not in s]
        # Prepared: the page's read ran three times, the poll's once; plain: none did.
        assert (page, poll, len(ran)) == (([3], [1], 2) if prepared else ([], [], 0))


# ------------------------------------------------------------------- the hall display


def test_the_partial_answers_304_until_something_changes(client, kop_tournament, sixteen, commit):
    rnd = services.round_generate(tournament=kop_tournament)
    first = display(client, kop_tournament, part=True)
    html = first.content.decode()
    assert first.status_code == 200 and html.lstrip().startswith('<div id="display"')
    assert "<html" not in html
    etag = first["ETag"]
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in html
    with CaptureQueriesContext(connection) as queries:
        held = display(client, kop_tournament, part=True, **{"If-None-Match": etag})
    assert held.status_code == 304 and len(queries) == 1  # one small read, nothing else

    # A deal (any result change) moves the results version: the partial is sent again.
    Tournament.objects.filter(pk=kop_tournament.pk).update(results_version=F("results_version") + 1)
    moved = display(client, kop_tournament, part=True, **{"If-None-Match": etag})
    assert moved.status_code == 200 and moved["ETag"] != etag

    # So does an acceptance and a new round.
    etag = moved["ETag"]
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    accepted = display(client, kop_tournament, part=True, **{"If-None-Match": etag})
    assert accepted.status_code == 200 and accepted["ETag"] != etag
    etag = accepted["ETag"]
    services.round_generate(tournament=kop_tournament)
    seated = display(client, kop_tournament, part=True, **{"If-None-Match": etag})
    assert seated.status_code == 200 and "Round 2" in seated.content.decode()


# ----------------------------------------------------- a standings page of a big field


@pytest.mark.parametrize("game", ["kop", "vint"])
def test_a_standings_page_of_a_big_field_reads_one_page_of_rows(
    client, monkeypatch, kop_tournament, club, director, game
):
    """(Its sorting and searches: ``tests/tournaments/test_standings_page_rows.py``.)"""
    monkeypatch.setattr(selectors, "STANDINGS_PAGE_SIZE", PAGE)
    tournament = big_field(kop_tournament if game == "kop" else vint_night(club, director))
    with CaptureQueriesContext(connection) as queries:
        page = client.get(page_url(tournament) + "?ind-page=3")
    html = page.content.decode()
    assert page.status_code == 200
    assert body_names(html) == [str(1000 + i) for i in range(41, 61)]
    assert rows_read(queries) <= PAGE
    # The tournament with its state; what the standings say (``standings_words``): the
    # rounds' tables counted, who withdrew, and for Kop the profile's big points (the bye's
    # score); then the rows: a count, one page, the pairs and teams; and the snapshot's
    # classes, teams left out and adjustments (named keys of its JSON, not all of it).
    words = 3 if game == "kop" else 2
    assert len(queries) == 1 + words + 4, [q["sql"] for q in queries]
    assert "ind-page=4" in html and "ind-page=2" in html  # paging links
    assert "Gracz 0059" in html and "Gracz 0061" not in html


# ------------------------------------------------ the ratings: an update and a rebuild


def _rating_writes(queries) -> list[str]:
    """The INSERT/UPDATE/DELETE statements on rating sources, events and states."""
    return [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].split(" ", 1)[0] in ("INSERT", "UPDATE", "DELETE")
        and any(t in q["sql"] for t in ("ratingsource", "ratingevent", "ratingstate"))
    ]


def test_a_rebuild_of_unchanged_ratings_writes_nothing_and_a_correction_writes_only_what_moved(
    kop_tournament, second_tournament, sixteen, django_capture_on_commit_callbacks
):
    rng = random.Random(5)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    play_round(second_tournament, rng, django_capture_on_commit_callbacks)
    before = ratings_snapshot()
    ids = set(RatingEvent.objects.values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as queries:
        result = ratings.ratings_rebuild(game="kop")
    assert result.kind == "full" and result.players == 0
    assert _rating_writes(queries) == []
    assert (
        ratings_snapshot() == before
        and set(RatingEvent.objects.values_list("pk", flat=True)) == ids
    )

    # A deal of the last table rated is corrected: the rebuild rewrites that table's events
    # and its players' states, nothing else, and still equals rating from scratch.
    last = RatingSource.objects.order_by("-at", "-session_id").first().table
    deal = KopDeal.objects.filter(session=last.session).order_by("number").first()
    amend_accepted(
        session=last.session,
        change=lambda: scoring_services.deal_void(
            session=last.session, slot=deal.slot, actor=PLAY_ACTOR, reason="x"
        ),
    )
    with CaptureQueriesContext(connection) as queries:
        ratings.ratings_rebuild(game="kop")
    written = _rating_writes(queries)
    assert written and all("DELETE" not in sql for sql in written)
    changed = set(RatingEvent.objects.values_list("pk", flat=True))
    assert changed == ids  # events updated in place, none deleted and inserted again
    rebuilt = ratings_snapshot()
    RatingSource.objects.all().delete()
    RatingState.objects.all().delete()
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == rebuilt


def test_a_rebuild_rewrites_an_event_whose_time_is_not_its_sources(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    """A rebuild reads whether each event's time is its source's (not the time itself): an
    event that drifted from its source is written again, and only that one."""
    play_round(kop_tournament, random.Random(6), django_capture_on_commit_callbacks)
    before = ratings_snapshot()
    event = RatingEvent.objects.order_by("pk").first()
    RatingEvent.objects.filter(pk=event.pk).update(at=event.at - timedelta(days=1))
    with CaptureQueriesContext(connection) as queries:
        ratings.ratings_rebuild(game="kop")
    assert len(_rating_writes(queries)) == 1
    assert RatingEvent.objects.get(pk=event.pk).at == event.at
    assert ratings_snapshot() == before


@pytest.mark.parametrize("copy_rows", [1, 10**9], ids=["copy", "insert"])
def test_a_rebuild_written_in_bulk_equals_the_incremental_ratings(
    kop_tournament,
    second_tournament,
    sixteen,
    django_capture_on_commit_callbacks,
    monkeypatch,
    copy_rows,
):
    """From scratch, a rebuild inserts every source and event at once: through COPY on
    PostgreSQL from ``COPY_ROWS`` rows on (keys drawn from the sequence first), else one
    INSERT each. Either way the rows equal the incremental updates', float for float."""
    rng = random.Random(9)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    play_round(second_tournament, rng, django_capture_on_commit_callbacks)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    incremental = ratings_snapshot()
    RatingSource.objects.all().delete()
    RatingState.objects.all().delete()
    monkeypatch.setattr(sql, "COPY_ROWS", copy_rows)
    with CaptureQueriesContext(connection) as queries:
        result = ratings.ratings_rebuild(game="kop")
    assert result.kind == "full" and result.rated == 4 + 2 + 4
    assert ratings_snapshot() == incremental
    inserts = [sql for sql in _rating_writes(queries) if sql.startswith("INSERT")]
    copied = connection.vendor == "postgresql" and copy_rows == 1
    # COPY goes past Django's query log: only the states' upsert is left to see.
    assert len(inserts) == (1 if copied else 3)


def _sql_statements(queries) -> list[str]:
    """The reads and writes sent, not BEGIN, COMMIT or savepoints (``statements``, a save's,
    drops the savepoints only). A statement kept prepared (``tournaments.sql.prepared_cursor``)
    is logged as "QUERY = '...' - PARAMS = ...": Django cannot write its parameters into it."""
    sent = [q["sql"].removeprefix("QUERY = '").lstrip() for q in queries.captured_queries]
    return [
        sql
        for sql in sent
        if sql.split(" ", 1)[0].lstrip("(").upper()
        in ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")
    ]


def test_an_update_and_a_rebuild_send_as_many_statements_however_long_the_history(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    """The Celery task after a round: a fixed handful of statements (every new table's
    deals and seats read at once, every write in bulk), whether one round or three
    were rated before; the same for a rebuild, however many tables it reads."""
    rng = random.Random(4)
    counts = []
    for history in (1, 2):
        for _ in range(history):
            play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
        rnd = services.round_generate(tournament=kop_tournament)
        for table in rnd.tables.select_related("session").order_by("number"):
            record_kop_deals(
                session=table.session, deals=random_kop_deals(rng, 4), entered_by=PLAY_ACTOR.label
            )
            services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
        with CaptureQueriesContext(connection) as update:
            result = ratings.ratings_update(game="kop")
        assert result.kind == "incremental" and result.rated == 4
        with CaptureQueriesContext(connection) as rebuild:
            ratings.ratings_rebuild(game="kop")
        counts.append((len(_sql_statements(update)), len(_sql_statements(rebuild))))
        # The deals and seats are read by session id alone, not joined to their sessions
        # (the models' default ordering would sort them by the sessions' dates).
        reads = [
            sql
            for sql in _sql_statements(rebuild)
            if 'FROM "scoring_k' in sql or 'FROM "scoring_tableseat"' in sql
        ]
        assert len(reads) == 2 and not any("scoring_tablesession" in sql for sql in reads)
        # The stored sources, then their events joined to them (for their times), not to
        # their players, and the states to nothing; nothing sorted.
        stored = [sql for sql in _sql_statements(rebuild) if 'FROM "tournaments_rating' in sql]
        assert not any("ORDER BY" in sql or "player" in sql.split("FROM")[1] for sql in stored[1:])
        assert [sql.count("JOIN") for sql in stored[1:]] == [0, 1, 0]
    assert counts[0] == counts[1]
    # Run lock, hidden tournaments, the new and changed sources in one read (no deal of a
    # rated table: their sessions' revisions say whether they were written since), the
    # sources and their events from the cut (with the changes, the tables to rate), their
    # seats, their deals with small points, states; sources, events and states written, the
    # run row.
    assert counts[0][0] == 12
    # Run lock, hidden tournaments, the sources and their events, the tables to rate,
    # their seats, their deals with small points, states, the run row.
    assert counts[0][1] == 9
