"""Properties over random Kop tournaments: totals balance and the order obeys the tie-breaks."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ranking import TIE_BREAK_NAMES, big_points_for_table, kop_standings

FIELD = {
    "small_points": lambda r: r.small_points,
    "round_wins": lambda r: r.firsts,
    "second_places": lambda r: r.seconds,
    "third_places": lambda r: r.thirds,
}


@st.composite
def tournaments(draw):
    players = draw(st.integers(4, 30))
    rounds, byes = [], []
    for _ in range(draw(st.integers(1, 5))):
        order = draw(st.permutations(range(1, players + 1)))
        sitting_out = order[: players % 4]
        tables = []
        for i in range(players % 4, players, 4):
            small = draw(st.lists(st.integers(-3, 3), min_size=3, max_size=3))  # ties likely
            small.append(-sum(small))
            tables.append(dict(zip(order[i : i + 4], small, strict=True)))
        rounds.append(tables)
        byes.append(sitting_out)
    return rounds, byes


big_points_tables = st.lists(st.integers(0, 12), min_size=4, max_size=4).map(
    lambda values: tuple(sorted(values, reverse=True))
)
tie_break_orders = st.permutations(TIE_BREAK_NAMES).flatmap(
    lambda names: st.integers(0, len(names)).map(lambda k: tuple(names[:k]))
)


@settings(max_examples=150, deadline=None)
@given(
    small=st.lists(st.integers(-5, 5) | st.fractions(-5, 5), min_size=4, max_size=4),
    big_points=big_points_tables,
)
def test_a_table_always_hands_out_the_sum_of_the_big_points(small, big_points):
    result = big_points_for_table(dict(enumerate(small)), big_points)
    assert sum(result.values()) == sum(big_points)
    for a in range(4):
        for b in range(4):
            if small[a] > small[b]:
                assert result[a] >= result[b]
            if small[a] == small[b]:
                assert result[a] == result[b]


@settings(max_examples=150, deadline=None)
@given(tournament=tournaments(), big_points=big_points_tables, tie_breaks=tie_break_orders)
def test_standings_balance_and_obey_the_tie_breaks(tournament, big_points, tie_breaks):
    rounds, byes = tournament
    rows = kop_standings(rounds, big_points, tie_breaks, byes)
    tables = sum(len(r) for r in rounds)
    sat_out = sum(len(b) for b in byes)
    assert sum(r.big_points for r in rows) == tables * sum(big_points) + sat_out * Fraction(
        sum(big_points), 4
    )
    assert sum(r.small_points for r in rows) == 0
    for r in rows:
        assert r.firsts + r.seconds + r.thirds + r.fourths == r.rounds_played
        assert r.rounds_played + r.byes == len(rounds)
    # The key up to head-to-head (which only compares within a tied group) never rises.
    plain = (
        tie_breaks[: tie_breaks.index("head_to_head")]
        if "head_to_head" in tie_breaks
        else tie_breaks
    )

    def key(row):
        return (row.big_points, *(FIELD[name](row) for name in plain))

    for better, worse in zip(rows, rows[1:], strict=False):
        assert key(better) >= key(worse)
        assert better.rank <= worse.rank
        if better.rank == worse.rank:
            assert key(better) == key(worse) and better.tied and worse.tied
    if "head_to_head" not in tie_breaks:
        for row in rows:
            # Competition ranking: 1 + the number of players strictly ahead.
            assert row.rank == 1 + sum(1 for other in rows if key(other) > key(row))
            assert row.tied == (sum(1 for other in rows if key(other) == key(row)) > 1)
