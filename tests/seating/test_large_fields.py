"""Fields of 1,000 to 4,000 players: valid, reproducible, repeat-free, and the
schedules of smaller fields exactly those ``tablescore-seating/1`` always gave."""

from __future__ import annotations

import hashlib
import random
import time
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.seating.checks import (
    assert_round_partitions,
    assert_valid,
    pair_counts,
    repeated_pairs,
)
from tournaments.seating import (
    ALGORITHM_VERSION,
    MAX_PLAYERS,
    Schedule,
    SeatingError,
    generate_round,
    generate_schedule,
    seat_counts,
)
from tournaments.seating.search import (
    LARGE_FIELD,
    Rng,
    add_tables,
    new_counts,
    pair_cost,
    round_lower_bound,
    search,
)


def fingerprint(schedule: Schedule) -> str:
    return hashlib.sha256(
        repr((schedule.rounds, schedule.byes, schedule.players)).encode()
    ).hexdigest()[:16]


@pytest.fixture(scope="module")
def hall() -> Schedule:
    """3,999 players x 5 rounds: three sit-outs a round."""
    return generate_schedule(3999, 5, 11)


def test_the_limit_is_4000_players():
    assert MAX_PLAYERS == 4000
    assert LARGE_FIELD == 1001


def test_4000_players_5_rounds_seat_everyone_once_a_round_without_a_repeat():
    schedule = generate_schedule(4000, 5, 1)
    assert_valid(schedule, 4000)  # partitions, fair byes, level seats, repeats recounted
    assert schedule.repeats == 0 == repeated_pairs(schedule.rounds)
    assert schedule.max_meetings == 1
    assert not schedule.hit_time_limit
    assert schedule.algorithm_version == ALGORITHM_VERSION


def test_3999_players_sit_out_in_turn_and_meet_nobody_twice(hall):
    assert_valid(hall, 3999)
    assert all(len(byes) == 3 for byes in hall.byes)
    assert len({p for byes in hall.byes for p in byes}) == 15  # nobody sits out twice
    assert hall.repeats == 0 == repeated_pairs(hall.rounds)
    counts = seat_counts(hall)
    assert all(max(c) - min(c) <= 1 for c in counts.values())


def test_a_large_field_is_reproducible_from_its_seed(hall):
    again = generate_schedule(3999, 5, 11)
    assert again == hall
    assert generate_schedule(3999, 5, 12).rounds != hall.rounds


# Fingerprints of schedules made by tablescore-seating/1 before it seated more
# than 1,000 players (sha256 of repr((rounds, byes, players)), 16 digits). A
# played tournament regenerates its event schedule every round, so these must
# never change under the same ALGORITHM_VERSION.
PINNED_BEFORE_LARGE_FIELDS = [
    ((400, 5, 1), "fab58b2c194de26f"),
    ((401, 5, 1), "fed22fbd688fe503"),
    ((1000, 5, 1), "f4ae699097943b02"),
]


@pytest.mark.parametrize(("args", "expected"), PINNED_BEFORE_LARGE_FIELDS)
def test_fields_up_to_1000_get_the_schedules_they_always_got(args, expected):
    assert fingerprint(generate_schedule(*args)) == expected


def test_a_round_against_history_up_to_1000_is_the_one_it_always_was():
    history = generate_schedule(1000, 4, 1)
    assert fingerprint(generate_round(history, range(1, 1001), 7)) == "020903c12de25b84"


def test_the_4000_player_schedule_is_pinned():
    """If this changes, bump ALGORITHM_VERSION (played tournaments regenerate it)."""
    assert fingerprint(generate_schedule(4000, 5, 1)) == PINNED_4000x5_SEED_1


PINNED_4000x5_SEED_1 = "174550b999b115a1"


def test_a_round_for_4000_players_against_four_played_rounds():
    history = generate_schedule(4000, 4, 2)
    rng = random.Random(3)
    withdrawn = set(rng.sample(range(1, 4001), 150))
    active = [p for p in range(1, 4001) if p not in withdrawn] + list(range(4001, 4151))
    assert len(active) == 4000
    result = generate_round(history, active, 5)
    assert result.rounds[:4] == history.rounds
    assert_round_partitions(result, 5, active)
    assert result.repeats == 0 == repeated_pairs(result.rounds)
    assert not result.hit_time_limit
    assert generate_round(history, active, 5) == result


def test_repeats_of_a_large_field_are_counted_pair_by_pair():
    # Two identical rounds of 1,200 players: every one of the 300 tables repeats 6 pairs.
    order = list(range(1, 1201))
    random.Random(4).shuffle(order)
    tables = tuple(tuple(order[i : i + 4]) for i in range(0, 1200, 4))
    twice = Schedule(tuple(order), (tables, tables), ((), ()), None, ALGORITHM_VERSION)
    assert twice.repeats == 1800 == repeated_pairs(twice.rounds)
    assert twice.max_meetings == 2
    # A third round against that history adds no repeat of its own.
    third = generate_round(twice, range(1, 1201), 9)
    independent = pair_counts(third.rounds)
    assert third.repeats == sum(1 for c in independent.values() if c > 1) == 1800
    assert max(pair_counts([third.rounds[2]]).values()) == 1
    assert all(
        independent[pair] == 1 for t in third.rounds[2] for pair in combinations(sorted(t), 2)
    )


@pytest.mark.parametrize("n", [1200, 4000])
def test_the_repair_search_clears_five_identical_rounds(n):
    rng = Rng(1)
    players = list(range(n))
    rng.shuffle(players)
    tables = [players[i : i + 4] for i in range(0, n, 4)]
    initial = [[list(t) for t in tables] for _ in range(5)]
    found = search(
        new_counts(n, 5),
        n,
        initial,
        rng,
        budget=120_000,
        deadline=time.perf_counter() + 600,
        lower_bound=0,
        large_field=True,
    )
    assert found.cost == 0
    assert found.evaluations < 120_000
    assert repeated_pairs(found.rounds) == 0
    for tables_now in found.rounds:
        assert sorted(p for t in tables_now for p in t) == list(range(n))


def test_the_repair_search_stops_at_its_budget():
    n = 1200
    rng = Rng(2)
    tables = [list(range(i, i + 4)) for i in range(0, n, 4)]
    found = search(
        new_counts(n, 2),
        n,
        [tables, [list(t) for t in tables]],
        rng,
        budget=50,
        deadline=time.perf_counter() + 600,
        lower_bound=0,
        large_field=True,
    )
    assert found.evaluations == 50
    assert 0 < found.cost < 1800
    counts = new_counts(n, 2)
    for r in found.rounds:
        add_tables(counts, n, r)
    assert pair_cost(counts, n) == found.cost


def test_more_than_4000_players_are_refused_in_words():
    with pytest.raises(
        SeatingError, match="seating is limited to 4,000 players; 4,001 is too many"
    ):
        generate_schedule(4001, 5, 0)
    with pytest.raises(
        SeatingError, match="seating is limited to 4,000 players in a round; 4,001 active"
    ):
        generate_round(None, range(1, 4002), 0)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(4, 30),
    rounds=st.lists(st.permutations(list(range(30))), min_size=0, max_size=6),
    compact=st.booleans(),
)
def test_pair_cost_and_the_round_bound_match_a_plain_count(n, rounds, compact):
    seatings = [
        [perm[i : i + 4] for i in range(0, n - n % 4, 4)]
        for perm in ([p for p in r if p < n] for r in rounds)
    ]
    counts = bytearray(n * n) if compact else [0] * (n * n)
    partners: list[set[int]] = [set() for _ in range(n)]
    for tables in seatings:
        add_tables(counts, n, tables)
        for t in tables:
            for p in t:
                partners[p].update(x for x in t if x != p)
    met = pair_counts(seatings)
    assert pair_cost(counts, n) == sum(c * (c - 1) // 2 for c in met.values())
    present = list(range(0, n, 2)) if n >= 8 else list(range(n))
    plain = 0
    for a in present:
        plain += sum(sorted(counts[a * n + x] for x in present if x != a)[:3])
    assert round_lower_bound(counts, n, present, partners) == (plain + 1) // 2
