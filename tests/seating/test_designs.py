"""Perfect designs: kop.md 8.2's table and the transversal designs for 4q players."""

from __future__ import annotations

from itertools import combinations

import pytest

from tests.seating.checks import pair_counts
from tests.seating.kop_table import KOP_16x5
from tournaments.seating.designs import GaloisField, design_capacity, transversal_rounds


def test_kop_md_table_seats_every_pair_exactly_once():
    counts = pair_counts(KOP_16x5)
    assert len(counts) == 120  # C(16, 2)
    assert set(counts.values()) == {1}


def test_design_for_16_players_is_the_kop_md_table_row_for_row():
    assert transversal_rounds(16) == KOP_16x5


@pytest.mark.parametrize(
    ("players", "perfect_rounds"),
    [
        (16, 5),  # q = 4 = 2^2, 4 | q: q + 1 rounds (the affine plane of order 4)
        (20, 5),  # q = 5
        (28, 7),  # q = 7
        (32, 9),  # q = 8 = 2^3, 4 | q
        (36, 9),  # q = 9 = 3^2
        (44, 11),
        (64, 17),  # q = 16
        (100, 25),  # q = 25 = 5^2
        (108, 27),  # q = 27 = 3^3
    ],
)
def test_design_seats_every_pair_at_most_once(players, perfect_rounds):
    rounds = transversal_rounds(players)
    assert design_capacity(players) == perfect_rounds == len(rounds)
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(1, players + 1))
    counts = pair_counts(rounds)
    assert max(counts.values()) == 1
    assert len(counts) == perfect_rounds * (players // 4) * 6


@pytest.mark.parametrize("players", [4, 8, 12, 17, 24, 40, 48, 96, 400])
def test_no_design_when_players_are_not_four_times_a_prime_power_of_at_least_4(players):
    assert design_capacity(players) == 0
    assert transversal_rounds(players) == ()


def test_gf4_multiplication_by_hand():
    # GF(4) = {0, 1, a, a + 1} with a^2 = a + 1, written 0, 1, 2, 3.
    f = GaloisField(2, 2)
    assert [f.mul(2, x) for x in range(4)] == [0, 2, 3, 1]
    assert [f.mul(3, x) for x in range(4)] == [0, 3, 1, 2]
    assert [f.add(2, x) for x in range(4)] == [2, 3, 0, 1]


@pytest.mark.parametrize(("p", "k"), [(2, 2), (2, 3), (3, 2), (2, 4), (5, 2), (3, 3), (7, 1)])
def test_galois_field_axioms(p, k):
    f = GaloisField(p, k)
    q = p**k
    elements = range(q)
    for a in range(1, q):
        assert sorted(f.mul(a, b) for b in elements) == list(elements)  # no zero divisors
        assert sorted(f.add(a, b) for b in elements) == list(elements)
    for a, b in combinations(elements, 2):
        assert f.mul(a, b) == f.mul(b, a)
        for c in (1, q - 1, q // 2):
            assert f.mul(a, f.add(b, c)) == f.add(f.mul(a, b), f.mul(a, c))
