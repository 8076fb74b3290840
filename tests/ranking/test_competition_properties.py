"""Properties of the competition rules over random events.

* A table decided by play hands out sum(big_points) big points and 0 small points.
* With today's options (average byes and walkouts, no adjustments, no classes,
  ``team_counting`` "all") the results equal the existing standings code's:
  ``kop_standings``, ``group_standings`` and ``vint_standings``.
* Adjustments change totals, never places or anyone else's points.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.ranking.test_properties import big_points_tables, tie_break_orders, tournaments
from tournaments.ranking import (
    GROUP_TIE_BREAK_NAMES,
    VintSession,
    group_standings,
    kop_standings,
    vint_standings,
)
from tournaments.ranking.competition import (
    TODAY,
    Adjustment,
    FixedScore,
    KopEvent,
    KopRound,
    Player,
    Table,
    Team,
    VintEvent,
    VintOptions,
    VintRound,
    VintTable,
    score_kop_event,
    score_vint_event,
)


def kop_event(rounds, byes, options, adjustments=(), teams=()) -> KopEvent:
    ids = sorted({p for r in rounds for t in r for p in t} | {p for b in byes for p in b})
    return KopEvent(
        players=tuple(Player(p, f"P{p}") for p in ids),
        rounds=tuple(
            KopRound(tuple(Table(tuple(t), tuple(t.values())) for t in tables), tuple(sitting_out))
            for tables, sitting_out in zip(rounds, byes, strict=True)
        ),
        options=options,
        adjustments=tuple(adjustments),
        teams=tuple(teams),
    )


@settings(max_examples=150, deadline=None)
@given(
    small=st.lists(st.integers(-40, 40), min_size=3, max_size=3),
    big_points=big_points_tables,
)
def test_a_table_decided_by_play_hands_out_the_big_points_and_zero_small(small, big_points):
    small = [*small, -sum(small)]
    event = kop_event(
        [[dict(zip((4, 2, 3, 1), small, strict=True))]],
        [[]],
        replace(TODAY, big_points=big_points),
    )
    rows = score_kop_event(event).individual
    assert sum(r.big_points for r in rows) == sum(big_points)
    assert sum(r.small_points for r in rows) == 0
    assert sorted(r.firsts + r.seconds + r.thirds + r.fourths for r in rows) == [1, 1, 1, 1]


def _fields(row):
    return (
        row.player,
        row.rank,
        row.tied,
        row.big_points,
        row.small_points,
        row.firsts,
        row.seconds,
        row.thirds,
        row.fourths,
        row.rounds_played,
        row.byes,
    )


@settings(max_examples=150, deadline=None)
@given(tournament=tournaments(), big_points=big_points_tables, tie_breaks=tie_break_orders)
def test_todays_options_give_todays_standings(tournament, big_points, tie_breaks):
    rounds, byes = tournament
    old = kop_standings(rounds, big_points, tie_breaks, byes)
    options = replace(TODAY, big_points=big_points, tie_breaks=tie_breaks)
    new = score_kop_event(kop_event(rounds, byes, options)).individual
    assert [_fields(r) for r in new] == [_fields(r) for r in old]
    assert [r.rank_label for r in new] == [r.rank_label for r in old]
    for a, b in zip(new, old, strict=True):
        # Each round's table, small and big points and place; the new code also lists the
        # rounds a player was absent, which the old leaves out.
        assert [
            (s.round, s.table, s.small_points, s.big_points, s.place)
            for s in a.rounds
            if s.situation != "absent"
        ] == [tuple(entry) for entry in b.rounds_detail]


@settings(max_examples=100, deadline=None)
@given(
    tournament=tournaments(),
    tie_breaks=st.permutations(GROUP_TIE_BREAK_NAMES).flatmap(
        lambda names: st.integers(0, len(names)).map(lambda k: tuple(names[:k]))
    ),
    cut=st.integers(1, 4),
)
def test_teams_counting_all_equal_todays_groups(tournament, tie_breaks, cut):
    rounds, byes = tournament
    ids = sorted({p for r in rounds for t in r for p in t} | {p for b in byes for p in b})
    groups = {f"T{i}": tuple(ids[i : i + cut]) for i in range(0, len(ids), cut)}
    old = group_standings(
        kop_standings(rounds, tie_breaks=tie_breaks, byes=byes), groups, tie_breaks
    )
    teams = [Team(g, g, members) for g, members in groups.items()]
    options = replace(TODAY, tie_breaks=tie_breaks)
    new = score_kop_event(kop_event(rounds, byes, options, teams=teams)).teams
    assert [
        (t.team, t.rank, t.tied, t.big_points, t.small_points, t.firsts, t.seconds, t.thirds)
        for t in new
    ] == [
        (g.group, g.rank, g.tied, g.big_points, g.small_points, g.firsts, g.seconds, g.thirds)
        for g in old
    ]
    assert [sorted(t.counted) for t in new] == [list(g.members) for g in old]


@st.composite
def vint_evenings(draw):
    players = draw(st.integers(4, 12))
    sessions = []
    for _ in range(draw(st.integers(1, 4))):
        seated = draw(st.permutations(range(1, players + 1)))[:4]
        totals = draw(st.lists(st.integers(0, 3000), min_size=4, max_size=4))
        won = draw(st.lists(st.integers(0, 2), min_size=4, max_size=4))
        if sum(won) % 2:
            won[0] += 1
        sessions.append((tuple(seated), tuple(totals), tuple(won)))
    return sessions


@settings(max_examples=150, deadline=None)
@given(
    evening=vint_evenings(),
    tie_breaks=st.permutations(("rubbers_won", "total_points", "head_to_head")).flatmap(
        lambda names: st.integers(0, 3).map(lambda k: tuple(names[:k]))
    ),
)
def test_vint_events_equal_todays_vint_standings(evening, tie_breaks):
    old = vint_standings(
        [
            VintSession(dict(zip(p, t, strict=True)), dict(zip(p, w, strict=True)))
            for p, t, w in evening
        ],
        tie_breaks,
    )
    ids = sorted({p for seated, _t, _w in evening for p in seated})
    event = VintEvent(
        players=tuple(Player(p, f"P{p}") for p in ids),
        rounds=tuple(VintRound((VintTable(p, t, w),)) for p, t, w in evening),
        options=VintOptions(tie_breaks=tie_breaks),
    )
    new = score_vint_event(event).individual
    assert [
        (r.player, r.rank, r.tied, r.net, r.rubbers_won, r.total_points, r.rounds_played)
        for r in new
    ] == [(r.player, r.rank, r.tied, r.net, r.rubbers_won, r.total_points, r.sessions) for r in old]


@settings(max_examples=100, deadline=None)
@given(
    tournament=tournaments(),
    amounts=st.lists(
        st.tuples(st.integers(0, 50), st.integers(-6, 6), st.integers(-20, 20)), max_size=5
    ),
    fixed=st.booleans(),
)
def test_adjustments_change_totals_never_places(tournament, amounts, fixed):
    rounds, byes = tournament
    options = replace(
        TODAY,
        bye_score=FixedScore(3, 35) if fixed else "average",
        walkout_score=FixedScore(3, 35) if fixed else "average",
    )
    plain = score_kop_event(kop_event(rounds, byes, options)).individual
    ids = [r.player for r in plain]
    adjustments = [
        Adjustment(ids[i % len(ids)], "reason", big=Fraction(big, 2), small=Fraction(small))
        for i, big, small in amounts
        if big or small
    ]
    adjusted = {
        r.player: r
        for r in score_kop_event(kop_event(rounds, byes, options, adjustments)).individual
    }
    for row in plain:
        after = adjusted[row.player]
        mine = [a for a in adjustments if a.player == row.player]
        assert after.big_points == row.big_points + sum(a.big for a in mine)
        assert after.small_points == row.small_points + sum(a.small for a in mine)
        assert (after.firsts, after.seconds, after.thirds, after.fourths) == (
            row.firsts,
            row.seconds,
            row.thirds,
            row.fourths,
        )
        assert after.rounds == row.rounds
