"""Round-by-round seating: history is fixed, the field may change between rounds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.seating.checks import assert_round_partitions, pair_counts, repeated_pairs
from tests.seating.kop_table import KOP_16x5
from tournaments.seating import (
    Schedule,
    SeatingError,
    generate_round,
    generate_schedule,
    seat_counts,
)


def played(rounds, byes=None, players=None):
    """A history as the Django adapter builds it from stored rounds."""
    byes = byes if byes is not None else [()] * len(rounds)
    everyone = players or {p for r in rounds for t in r for p in t} | {p for b in byes for p in b}
    return Schedule(tuple(everyone), tuple(rounds), tuple(byes), None, "stored")


def test_after_four_rounds_of_the_kop_table_the_fifth_is_the_only_repeat_free_round():
    # Each player has met 12 of 15 others; the 3 left are exactly his kop.md round-5 table.
    history = played(KOP_16x5[:4])
    result = generate_round(history, range(1, 17), seed=3)
    assert result.rounds[:4] == history.rounds
    assert result.repeats == 0
    assert {frozenset(t) for t in result.rounds[4]} == {frozenset(t) for t in KOP_16x5[4]}


def test_played_rounds_are_never_changed():
    history = generate_schedule(17, 3, 1)
    result = generate_round(history, range(1, 18), seed=8)
    assert result.rounds[:3] == history.rounds
    assert result.byes[:3] == history.byes
    assert len(result.rounds) == 4
    assert_round_partitions(result, 4, range(1, 18))


def test_late_arrivals_are_seated_and_the_new_round_avoids_repeats():
    history = played(KOP_16x5[:2])
    result = generate_round(history, range(1, 21), seed=1)  # players 17-20 arrive for round 3
    assert result.players == tuple(range(1, 21))
    assert_round_partitions(result, 3, range(1, 21))
    assert result.byes[2] == ()
    assert repeated_pairs(result.rounds) == 0


def test_withdrawn_players_are_left_out_and_sit_outs_cover_the_rest():
    history = played(KOP_16x5[:2])
    active = [p for p in range(1, 17) if p != 3]  # player 3 withdrew after round 2
    result = generate_round(history, active, seed=2)
    assert_round_partitions(result, 3, active)
    assert 3 not in {p for t in result.rounds[2] for p in t} | set(result.byes[2])
    assert len(result.byes[2]) == 3
    assert 3 in result.players  # he played rounds 1 and 2


def test_a_late_arrival_with_no_sit_out_yet_sits_out_before_those_who_had_one():
    # Five players, five rounds: everybody sat out once. Player 6 arrives: 2 sit out.
    rounds = [
        [(2, 3, 4, 5)],
        [(1, 3, 4, 5)],
        [(1, 2, 4, 5)],
        [(1, 2, 3, 5)],
        [(1, 2, 3, 4)],
    ]
    history = played(rounds, byes=[(1,), (2,), (3,), (4,), (5,)])
    result = generate_round(history, range(1, 7), seed=0)
    assert 6 in result.byes[5]
    assert len(result.byes[5]) == 2


def test_round_by_round_sit_outs_rotate_fairly():
    schedule = None
    for number in range(1, 10):  # 18 players, 2 sit out a round: 9 rounds, once each
        schedule = generate_round(schedule, range(1, 19), seed=number)
        sat_out = [p for byes in schedule.byes for p in byes]
        assert len(sat_out) == len(set(sat_out))
    assert sorted(p for byes in schedule.byes for p in byes) == list(range(1, 19))


def test_seats_of_the_new_round_balance_the_history():
    history = generate_schedule(16, 4, 0)  # four rounds: every seat once each
    result = generate_round(history, range(1, 17), seed=0)
    assert all(sorted(c) == [1, 1, 1, 2] for c in seat_counts(result).values())


def test_first_round_without_history():
    result = generate_round(None, [3, 9, 12, 40, 41, 7, 8, 2], seed=5)
    assert len(result.rounds) == 1
    assert_round_partitions(result, 1, [3, 9, 12, 40, 41, 7, 8, 2])


def test_same_inputs_give_the_same_round():
    history = generate_schedule(22, 2, 4)
    active = [p for p in range(1, 25) if p not in (5, 6)]
    assert generate_round(history, active, 77) == generate_round(history, active, 77)


@pytest.mark.parametrize(
    ("active", "message"),
    [
        ([1, 2, 3], "a round needs 4 to 4000 active players, not 3"),
        ([1, 2, 3, 3, 4], r"players listed twice among the active players: \[3\]"),
        ([1, 2, 3, 0], "player numbers must be whole numbers from 1"),
        ([1, 2, 3, "4"], "player numbers must be whole numbers from 1"),
    ],
)
def test_bad_active_sets_are_refused(active, message):
    with pytest.raises(SeatingError, match=message):
        generate_round(None, active, 0)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(4, 30),
    rounds=st.integers(0, 4),
    seed=st.integers(0, 2**63 - 1),
    data=st.data(),
)
def test_every_new_round_is_a_partition_of_the_active_players(players, rounds, seed, data):
    history = generate_schedule(players, rounds, seed, budget=500) if rounds else None
    leaving = data.draw(st.sets(st.integers(1, players), max_size=players // 3))
    arriving = data.draw(st.sets(st.integers(players + 1, players + 8), max_size=8))
    active = sorted((set(range(1, players + 1)) - leaving) | arriving)
    if len(active) < 4:
        active = list(range(1, 5))
    result = generate_round(history, active, seed, budget=500)
    if history is not None:
        assert result.rounds[:-1] == history.rounds
        assert result.byes[:-1] == history.byes
    assert_round_partitions(result, len(result.rounds), active)
    assert result.repeats == sum(1 for c in pair_counts(result.rounds).values() if c > 1)
