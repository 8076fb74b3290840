"""Club ratings through the database: enqueued on acceptance, incremental equals a full
rebuild (also after a correction of an earlier table), sitting out changes nothing, the
rebuild command, and Vint rubbers. (How many statements an update and a rebuild send and
write: ``tests/config/test_statements.py``.)"""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring import acceptance
from scoring import services as scoring_services
from scoring.engines.kop import KopDeal as KopEngineDeal
from scoring.engines.simulate import random_kop_deals
from scoring.games.kop.models import KopDeal
from scoring.games.vint.models import VintDeal, VintRubber
from scoring.models import TableSession
from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import (
    PlayerFactory,
    TableSessionFactory,
    TournamentFactory,
    amend_accepted,
    play_round,
    rating_callbacks,
    ratings_snapshot,
)
from tests.factories import record_kop_deals as kop_bulk_record
from tournaments import ratings, services, sql
from tournaments.families.kop import kop_tables
from tournaments.models import (
    RatingEvent,
    RatingRun,
    RatingSource,
    RatingState,
    Round,
    RoundTable,
)
from tournaments.ranking import ratings as core

pytestmark = pytest.mark.django_db
ACTOR = scoring_services.Actor(label="test", is_director=True)


def test_accepting_a_table_enqueues_the_ratings_update_after_commit(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    rnd = services.round_generate(tournament=kop_tournament)
    table = rnd.tables.first()
    with django_capture_on_commit_callbacks() as callbacks:
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    (cb,) = rating_callbacks(callbacks)
    assert cb.args == (kop_tournament.pk,)
    assert not RatingRun.objects.exists()  # nothing before the commit


def test_incremental_after_each_table_equals_a_full_rebuild(
    kop_tournament, second_tournament, sixteen, django_capture_on_commit_callbacks
):
    rng = random.Random(3)
    for _ in range(2):
        play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    for _ in range(2):
        play_round(second_tournament, rng, django_capture_on_commit_callbacks)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    incremental = ratings_snapshot()
    run = RatingRun.objects.get(game="kop")
    assert run.kind == "incremental" and run.sources == 4 * 3 + 2 * 2
    assert len(incremental[2]) == 16 and len(incremental[0]) == 16

    result = ratings.ratings_rebuild(game="kop")
    assert result.kind == "full" and result.rated == 16
    assert ratings_snapshot() == incremental


def test_a_correction_of_an_earlier_table_rewinds_and_still_equals_a_full_rebuild(
    kop_tournament, second_tournament, sixteen, django_capture_on_commit_callbacks
):
    rng = random.Random(5)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    play_round(second_tournament, rng, django_capture_on_commit_callbacks)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    before = ratings_snapshot()
    first_table = RoundTable.objects.filter(round__tournament=kop_tournament).order_by("pk")[0]
    deal = KopDeal.objects.filter(session=first_table.session).exclude(declarer_points=52)[0]
    facts = {
        "contract": "normal",
        "declarers": [1, 2],
        "doublings": 0,
        "declarer_points": 104 - deal.declarer_points,
    }
    with django_capture_on_commit_callbacks() as callbacks:
        amend_accepted(
            session=deal.session,
            change=lambda: scoring_services.deal_correct(
                session=deal.session, slot=deal.slot, facts=facts, actor=ACTOR, reason="typo"
            ),
        )
    for cb in rating_callbacks(callbacks):
        cb()
    corrected = ratings_snapshot()
    assert corrected != before
    # The table was unlocked, corrected and accepted again: it is rated at its new
    # acceptance, last, and every table after its old place was rated again.
    assert before[2][0][1] == first_table.pk
    assert corrected[2][-1][1] == first_table.pk
    assert corrected[2][-1][3] != before[2][0][3]
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == corrected

    with django_capture_on_commit_callbacks() as callbacks:
        amend_accepted(
            session=deal.session,
            change=lambda: scoring_services.deal_void(
                session=deal.session, slot=deal.slot, actor=ACTOR, reason="misdeal"
            ),
        )
    for cb in rating_callbacks(callbacks):
        cb()
    voided = ratings_snapshot()
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == voided


def test_a_table_committed_late_with_an_earlier_acceptance_time_is_slotted_in(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    """Two tables accepted at once: the one stamped first may commit (and be rated) last."""
    rng = random.Random(6)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    rnd = services.round_generate(tournament=kop_tournament)
    tables = list(rnd.tables.select_related("session").order_by("number"))
    for table in tables:
        kop_bulk_record(
            session=table.session, deals=random_kop_deals(rng, 4), entered_by=ACTOR.label
        )
    now = timezone.now()
    RoundTable.objects.filter(pk=tables[1].pk).update(accepted_at=now)
    ratings.ratings_update(game="kop")
    last_of_round_1 = RoundTable.objects.filter(round__number=1).latest("accepted_at")
    early = last_of_round_1.accepted_at + (now - last_of_round_1.accepted_at) / 2
    RoundTable.objects.filter(pk=tables[0].pk).update(accepted_at=early)
    result = ratings.ratings_update(game="kop")
    assert result.kind == "incremental" and result.removed == 1 and result.rated == 2
    late = ratings_snapshot()
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == late


def test_a_withdrawn_acceptance_takes_the_table_back(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    rng = random.Random(12)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    table = RoundTable.objects.filter(round__tournament=kop_tournament).order_by("pk")[1]
    RoundTable.objects.filter(pk=table.pk).update(accepted_at=None)
    result = ratings.ratings_update(game="kop")
    assert result.removed >= 1 and not RatingSource.objects.filter(table=table).exists()
    taken_back = ratings_snapshot()
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == taken_back


def test_hidden_standings_are_rated_only_when_the_last_round_is_finished(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    kop_tournament.hide_standings = True
    kop_tournament.rounds_planned = 2
    kop_tournament.save()
    rng = random.Random(13)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    assert ratings.hidden_tournaments(game="kop") == [kop_tournament.pk]
    assert not RatingState.objects.exists()  # the changes would tell the hidden standings
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    assert ratings.hidden_tournaments(game="kop") == []
    assert RatingSource.objects.count() == 8
    assert {s.games for s in RatingState.objects.all()} == {8}
    finished = ratings_snapshot()
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == finished


def test_running_the_update_again_changes_nothing(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    play_round(kop_tournament, random.Random(1), django_capture_on_commit_callbacks)
    computed = RatingRun.objects.get(game="kop").computed_at
    before = ratings_snapshot()
    result = ratings.ratings_update_for_tournament(tournament_id=kop_tournament.pk)
    assert result.kind == "unchanged"
    assert ratings.ratings_update(game="kop").kind == "unchanged"  # every table checked
    assert ratings_snapshot() == before
    assert RatingRun.objects.get(game="kop").computed_at == computed


def test_a_player_who_sits_out_is_unchanged(
    kop_tournament, second_tournament, sixteen, django_capture_on_commit_callbacks
):
    rng = random.Random(9)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    resting = [e.player for e in sixteen[8:]]
    before = {
        s.person_id: (s.mu, s.sigma, s.games, s.tables, s.last_event_id)
        for s in RatingState.objects.filter(person__players__in=resting)
    }
    assert len(before) == 8
    play_round(second_tournament, rng, django_capture_on_commit_callbacks)
    after = {
        s.person_id: (s.mu, s.sigma, s.games, s.tables, s.last_event_id)
        for s in RatingState.objects.filter(person__players__in=resting)
    }
    assert after == before
    assert not RatingEvent.objects.filter(
        person__players__in=resting, source__table__round__tournament=second_tournament
    ).exists()


def test_states_count_games_and_tables_and_point_at_the_last_change(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    rng = random.Random(2)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks, deals=6)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks, deals=6)
    for state in RatingState.objects.select_related("last_event__source"):
        assert state.games == 12 and state.tables == 2
        assert state.last_event.source.table.round.number == 2
        assert (state.mu, state.sigma) == (state.last_event.mu_after, state.last_event.sigma_after)
    event = RatingEvent.objects.select_related("source__table__round").first()
    label = ratings.change_label(event.delta, event.source)
    assert f"after Kościan Cup round {event.source.table.round.number} table" in label


def test_the_table_model_is_selectable_and_switching_rebuilds(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    rng = random.Random(4)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    deal_model = ratings_snapshot()
    with override_settings(RATINGS_MODEL="table"):
        result = ratings.ratings_rebuild(game="kop")
    assert result.model == "table" and result.kind == "full"
    assert RatingRun.objects.get(game="kop").model == "table"
    assert ratings_snapshot()[0] != deal_model[0]
    # Games still count deals; one match per table.
    assert {s.games for s in RatingState.objects.all()} == {4}
    # The stored model is kept by later updates until the next rebuild.
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    assert RatingRun.objects.get(game="kop").model == "table"
    assert ratings.ratings_update(game="kop", model="deal").kind == "full"


def test_an_unknown_model_is_refused():
    with override_settings(RATINGS_MODEL="elo"), pytest.raises(core.RatingOptionError):
        ratings.ratings_rebuild(game="kop")


def test_rebuild_command(kop_tournament, sixteen, django_capture_on_commit_callbacks, capsys):
    play_round(kop_tournament, random.Random(8), django_capture_on_commit_callbacks)
    before = ratings_snapshot()
    call_command("rebuild_ratings")
    out = capsys.readouterr().out
    assert "kop: full, 4 tables rated" in out
    assert ratings_snapshot() == before
    call_command("rebuild_ratings", "--check", "--game", "kop")
    assert "kop: unchanged" in capsys.readouterr().out
    call_command("rebuild_ratings", "--game", "kop", "--model", "table")
    assert RatingRun.objects.get(game="kop").model == "table"


# ----------------------------------------------------------------------------- Vint


def test_vint_is_rated_per_rubber_partnership_against_partnership(profiles, club, director):
    players = [PlayerFactory(club=club, name=n) for n in ("Anu", "Berit", "Carl", "Dagmar")]
    tournament = TournamentFactory(name="Tallinn Vint", game="vint", club=club, created_by=director)
    session = TableSessionFactory(
        game="vint", profile_version=tournament.profile_version, players=players
    )
    # A round of this one table by hand: a seated round's session would seat the players
    # by the seating's draw, and the rubbers below name who sits where.
    rnd = Round.objects.create(tournament=tournament, number=1)
    table = RoundTable.objects.create(round=rnd, number=1, session=session)
    # Rubber 1: A+C (N/S) beat B+D; rubber 2: A+B (N/S) lose to C+D.
    VintRubber.objects.create(session=session, number=1, north=1, east=2, south=3, west=4)
    VintRubber.objects.create(session=session, number=2, north=1, east=3, south=2, west=4)
    entries = {"above": {"NS": 500, "EW": 40}, "below": {"NS": 120, "EW": 30}}
    VintDeal.objects.create(session=session, rubber=1, number=1, facts={}, entries=entries)
    losing = {"above": {"NS": 0, "EW": 300}, "below": {"NS": 20, "EW": 60}}
    VintDeal.objects.create(session=session, rubber=2, number=1, facts={}, entries=losing)
    VintDeal.objects.create(
        session=session, rubber=2, number=2, facts={}, entries=entries, voided=True
    )
    table.accepted_at = timezone.now()
    table.save()
    result = ratings.ratings_update(game="vint")
    assert result.model == "rubber" and result.rated == 1
    state = {s.person.name: s for s in RatingState.objects.filter(game="vint")}
    assert {s.games for s in state.values()} == {2}
    # Carl won both rubbers, Berit lost both; Anu and Dagmar won one each.
    assert state["Carl"].mu > state["Anu"].mu > state["Berit"].mu
    assert state["Carl"].mu > state["Dagmar"].mu > state["Berit"].mu
    profile = ratings.player_profile(player=players[2])
    assert profile["per_game"][0]["rubbers"] == 2 and profile["per_game"][0]["rubbers_won"] == 2
    assert {p["name"] for p in profile["partners"]} == {"Anu", "Dagmar"}


def test_sessions_outside_tournaments_are_not_rated(profiles, club):
    session = TableSessionFactory(players=[PlayerFactory(club=club) for _ in range(4)])
    kop_bulk_record(
        session=session, deals=random_kop_deals(random.Random(1), 4), entered_by=ACTOR.label
    )
    scoring_services.session_lock(session=session, actor=ACTOR)
    ratings.ratings_update(game="kop")
    assert not RatingState.objects.exists()
    assert TableSession.objects.count() == 1


# ------------------------------------------------------------------- players by id, not name


def test_two_players_of_the_same_name_keep_their_own_ratings_and_pages(
    profiles, club, director, client
):
    """Two "Jan Nowak"s at one Kop table and one Vint table, on opposite sides throughout:
    each has their own states, events and page; the first also played a casual session."""
    jan, other_jan = (
        PlayerFactory(club=club, name="Jan Nowak"),
        PlayerFactory(club=club, name="Jan Nowak"),
    )
    ala, ola = PlayerFactory(club=club, name="Ala"), PlayerFactory(club=club, name="Ola")

    # Kop: a one-table tournament; Jan declares (with a partner) and wins every deal
    # against the other Jan.
    kop = TournamentFactory(
        name="Namesakes Kop",
        rounds=1,
        deals_per_round=4,
        club=club,
        seed=3,
        created_by=director,
        field=[jan, other_jan, ala, ola],
    )
    rnd = services.round_generate(tournament=kop)
    (kop_table,) = rnd.tables.select_related("session")
    seat = {s.player_id: s.seat for s in kop_table.session.seats.all()}
    partners = [seat[ala.pk], seat[ola.pk], seat[ala.pk], seat[ola.pk]]
    kop_bulk_record(
        session=kop_table.session,
        deals=[
            KopEngineDeal(
                contract="normal",
                declarers=(seat[jan.pk], partner),
                doublings=0,
                declarer_points=90,
            )
            for partner in partners
        ],
        entered_by=ACTOR.label,
    )
    services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="test")

    # Vint: Jan (north) and the other Jan (east) on opposite sides of both rubbers; Jan's
    # partnership wins both.
    vint_tournament = TournamentFactory(
        name="Namesakes Vint", game="vint", club=club, created_by=director
    )
    session = TableSessionFactory(
        game="vint",
        profile_version=vint_tournament.profile_version,
        players=[jan, other_jan, ala, ola],
    )
    # By hand, as above: the rubbers name the seats.
    vint_round = Round.objects.create(tournament=vint_tournament, number=1)
    vint_table = RoundTable.objects.create(round=vint_round, number=1, session=session)
    VintRubber.objects.create(session=session, number=1, north=1, east=2, south=3, west=4)
    VintRubber.objects.create(session=session, number=2, north=1, east=3, south=4, west=2)
    won = {"above": {"NS": 500, "EW": 40}, "below": {"NS": 120, "EW": 30}}
    for rubber in (1, 2):
        VintDeal.objects.create(session=session, rubber=rubber, number=1, facts={}, entries=won)
    vint_table.accepted_at = timezone.now()
    vint_table.save()

    # A casual Kop session of the first Jan only (not rated, but on his page).
    casual = TableSessionFactory(players=[jan, ala, ola, PlayerFactory(club=club)])

    for game in ("kop", "vint"):
        ratings.ratings_update(game=game)
        # Keyed by person (two namesakes: two persons), never by name.
        states = {s.person_id: s for s in RatingState.objects.filter(game=game)}
        assert set(states) == {jan.person_id, other_jan.person_id, ala.person_id, ola.person_id}
        assert states[jan.person_id].pk != states[other_jan.person_id].pk
        assert states[jan.person_id].mu > states[other_jan.person_id].mu
        for p in (jan, other_jan):
            (event,) = RatingEvent.objects.filter(game=game, person=p.person_id)
            state = states[p.person_id]
            assert state.last_event_id == event.pk
            assert (event.mu_after, event.sigma_after) == (state.mu, state.sigma)
    assert RatingState.objects.get(person=jan.person_id, game="kop").games == 4
    assert RatingState.objects.get(person=other_jan.person_id, game="vint").games == 2

    kop_points = {
        p.pk: sum(
            d.payments[seat[p.pk] - 1] for d in KopDeal.objects.filter(session=kop_table.session)
        )
        for p in (jan, other_jan)
    }
    assert kop_points[jan.pk] > 0 > kop_points[other_jan.pk]
    pages = {
        p.pk: client.get(reverse("tournaments:player_page", args=[p.pk])) for p in (jan, other_jan)
    }
    for p, sessions, rubbers_won in (
        (jan, {kop_table.session_id, session.pk, casual.pk}, 2),
        (other_jan, {kop_table.session_id, session.pk}, 0),
    ):
        context = pages[p.pk].context
        assert {s["session_id"]: s["result"] for s in context["sessions"]} == {
            **({casual.pk: "0 small points in 0 deals"} if casual.pk in sessions else {}),
            kop_table.session_id: f"{kop_points[p.pk]} small points in 4 deals",
            session.pk: f"{rubbers_won} of 2 rubbers won",
        }
        assert {r["game"]: r["state"].person_id for r in context["ratings"]} == {
            "kop": p.person_id,
            "vint": p.person_id,
        }
        namesake = other_jan if p is jan else jan
        assert namesake.pk in {o["player_id"] for o in context["opponents"]}
        assert p.pk not in {m["player_id"] for m in context["partners"] + context["opponents"]}
        assert f"/players/{namesake.pk}/" in pages[p.pk].content.decode()


# ------------------------------------------------------------ what changed, not the history


def club_evening(club, rng, deals=4):
    """A club session of four new players with ``deals`` random deals, accepted by a
    director (its acceptance enqueues the club task, which the caller runs or not)."""
    session = TableSessionFactory(players=[PlayerFactory(club=club) for _ in range(4)])
    kop_bulk_record(session=session, deals=random_kop_deals(rng, deals), entered_by=ACTOR.label)
    acceptance.session_accept(session=session, actor=ACTOR, reason="on paper")
    return session


def test_the_change_read_names_what_changed_and_nothing_else(
    kop_tournament, club, profiles, sixteen, django_capture_on_commit_callbacks
):
    """The update's one read of what changed compares each rated source's revision and
    acceptance with its session's and table's: after rating it finds nothing; a write to
    a rated table, a new evening and a withdrawn acceptance are each found, alone."""
    rng = random.Random(21)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    assert sql.changed_sources("kop", []) == []

    first, second = RoundTable.objects.filter(round__number=1).order_by("number")[:2]
    deal = KopDeal.objects.filter(session=first.session).order_by("number").first()
    amend_accepted(
        session=first.session,
        change=lambda: scoring_services.deal_void(
            session=first.session, slot=deal.slot, actor=ACTOR, reason="x"
        ),
    )
    first.refresh_from_db()
    found = sql.changed_sources("kop", [])
    assert [(c.session_id, c.rated, c.now, c.out) for c in found] == [
        (first.session_id, True, first.accepted_at, False)
    ]
    assert found[0].at == RatingSource.objects.get(session=first.session).at

    evening = club_evening(club, rng)
    RoundTable.objects.filter(pk=second.pk).update(accepted_at=None)
    found = sorted(sql.changed_sources("kop", []), key=lambda c: c.session_id)
    evening.refresh_from_db()
    assert [(c.session_id, c.rated, c.now) for c in found] == [
        (first.session_id, True, first.accepted_at),
        (second.session_id, True, None),
        (evening.pk, False, evening.accepted_at),
    ]
    ratings.ratings_update(game="kop")
    assert sql.changed_sources("kop", []) == []
    updated = ratings_snapshot()
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == updated


def test_a_club_evenings_update_reads_that_evenings_deals_only(
    kop_tournament, club, profiles, sixteen, django_capture_on_commit_callbacks
):
    """The update after a club evening's acceptance reads the deals of that evening and of
    no table rated before it (their revisions say they were not written since)."""
    rng = random.Random(22)
    for _ in range(2):
        play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    evening = club_evening(club, rng)
    with CaptureQueriesContext(connection) as queries:
        result = ratings.ratings_update(game="kop")
    assert result.kind == "incremental" and result.rated == 1 and result.removed == 0
    deal_reads = [q["sql"] for q in queries.captured_queries if "scoring_kopdeal" in q["sql"]]
    assert deal_reads and all(f"IN ({evening.pk})" in text for text in deal_reads)
    updated = ratings_snapshot()
    ratings.ratings_rebuild(game="kop")
    assert ratings_snapshot() == updated


def test_sources_rated_before_revisions_were_kept_are_rated_again_to_the_same_ratings(
    kop_tournament, sixteen, django_capture_on_commit_callbacks
):
    """A source without a revision (rated before the migration that keeps them) counts as
    changed: the next update rates from it on, and the ratings come out the same."""
    rng = random.Random(23)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    play_round(kop_tournament, rng, django_capture_on_commit_callbacks)
    before = ratings_snapshot()
    RatingSource.objects.update(revision=None)
    result = ratings.ratings_update(game="kop")
    assert result.kind == "incremental" and result.removed == result.rated == 8
    assert ratings_snapshot() == before
    assert ratings.ratings_update(game="kop").kind == "unchanged"


def test_a_table_is_read_deal_by_deal_in_number_order_with_its_small_points(profiles, club):
    """The one aggregate per session gives the deals in their order (12 sorts before 2 as
    text), each with its declarers by player id and its outcome, and the seats' sums of
    payments without the voided deals; a session without deals is an empty table."""
    players = [PlayerFactory(club=club, name=f"Gracz {i}", number=i) for i in range(1, 5)]
    session = TableSessionFactory(players=players)
    empty = TableSessionFactory(players=players)
    kop_bulk_record(session=session, deals=random_kop_deals(random.Random(2), 14), entered_by="x")
    deal = KopDeal.objects.get(session=session, number=3)
    scoring_services.deal_void(session=session, slot=deal.slot, actor=ACTOR, reason="x")
    rows = list(KopDeal.objects.filter(session=session).order_by("number"))
    # seat -> person id (ratings follow the person)
    by_seat = dict(session.seats.values_list("seat", "player__person_id"))

    tables = kop_tables([session.pk, empty.pk])

    expected = []
    for row in rows:
        ours = tuple(by_seat[int(s)] for s in row.declarers)
        theirs = tuple(by_seat[s] for s in sorted(by_seat) if by_seat[s] not in ours)
        expected.append((ours, theirs, row.declarers_won, row.voided))
    got = [(d.declarers, d.defenders, d.declarers_won, d.voided) for d in tables[session.pk].deals]
    assert got == expected and got[2][3] is True
    points = {
        by_seat[seat]: sum(getattr(r, f"payment_{seat}") for r in rows if not r.voided)
        for seat in range(1, 5)
    }
    assert dict(tables[session.pk].small_points) == points
    assert tables[empty.pk].deals == () and dict(tables[empty.pk].small_points) == dict.fromkeys(
        by_seat.values(), 0
    )


def test_a_rating_run_pauses_the_cycle_collector_and_gives_it_back(
    kop_tournament, sixteen, django_capture_on_commit_callbacks, monkeypatch
):
    """The run makes many small objects and no cycles: the collector is off while it
    rates, and on again after it, also when it fails."""
    import gc

    seen = []
    replay = core.Rater.replay

    def watched(self, *args, **kwargs):
        seen.append(gc.isenabled())
        return replay(self, *args, **kwargs)

    monkeypatch.setattr(core.Rater, "replay", watched)
    assert gc.isenabled()
    play_round(kop_tournament, random.Random(6), django_capture_on_commit_callbacks)
    ratings.ratings_rebuild(game="kop")
    assert seen and not any(seen) and gc.isenabled()
    with pytest.raises(core.RatingOptionError):
        ratings.ratings_update(game="kop", model="per-hand")
    assert gc.isenabled()
