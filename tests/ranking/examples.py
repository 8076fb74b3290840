"""Small Kop tournaments worked by hand for the standings tests (zero-sum tables)."""

from __future__ import annotations

# Nine players, three rounds, one sit-out a round (9 in round 1, 8 in round 2, 4 in round 3).
NINE_ROUNDS = [
    [{1: 40, 2: 10, 3: -20, 4: -30}, {5: 25, 6: 25, 7: -15, 8: -35}],
    [{1: -10, 5: 30, 9: -10, 2: -10}, {3: 50, 6: -50, 7: 0, 4: 0}],
    [{2: 15, 6: 5, 8: -5, 9: -15}, {1: 0, 3: 0, 5: 0, 7: 0}],
]
NINE_BYES = [[9], [8], [4]]

# Eight players, two rounds; players 2, 3 and 5 end level on big points (6) and small
# points (20); 3 and 5 have a round win each, 2 has none but two second places.
LEVEL_ROUNDS = [
    [{1: 30, 2: 10, 3: -10, 4: -30}, {5: 30, 6: 10, 7: -10, 8: -30}],
    [{1: -30, 5: -10, 2: 10, 6: 30}, {3: 30, 7: 10, 4: -10, 8: -30}],
]

# Eight players, two rounds; players 2, 5 and 6 end level on everything Kościan uses
# (8 big, 40 small, one win, one second). 2 beat 6 in round 1, 5 beat 2 in round 2.
MET_ROUNDS = [
    [{2: 30, 6: 10, 1: -10, 3: -30}, {4: 30, 5: 10, 7: -10, 8: -30}],
    [{6: 30, 1: 10, 4: -10, 7: -30}, {5: 30, 2: 10, 3: -10, 8: -30}],
]
