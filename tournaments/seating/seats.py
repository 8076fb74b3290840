"""Seat order within tables, chosen after the foursomes are fixed.

Seat 1 deals first in Kop, so over a tournament each player should hold each
of the seats 1..4 as evenly as possible: ideally a player's four counts differ
by at most one.

**Whole schedule** (``equitable_seats``): this ideal is always reachable.
Think of a bipartite graph with a node per table of each round and a node per
player, an edge per seat taken, and the seat as the edge's colour; a table
needs four different colours. Split each player node into one node per block
of four rounds he plays; a proper 4-edge-colouring of that graph (König's
theorem: one exists, found by swapping colours along alternating paths) gives
each block each seat once, hence counts within one of each other.

**One more round** (``seat_round``): tables of one round share no player, so
giving each table the seat order (of its 24) that adds least to the sum of
squared seat counts is the best possible for that round; earlier rounds are
never changed.

Ties between equally good colours or orders are drawn from the seeded stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from .search import Rng, Rounds

_ORDERS = tuple(permutations(range(4)))

_Node = tuple[int, int, int]
"""``(0, round, table)`` for a table, ``(1, player, block)`` for a player's block of rounds."""


def equitable_seats(rounds: Rounds, n: int, rng: Rng) -> Rounds:
    """Reorder the tables of ``rounds`` so each player's seat counts differ by at most one."""
    edges: list[tuple[_Node, _Node]] = []
    played = [0] * n
    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            for p in table:
                edges.append(((0, r, t), (1, p, played[p] // 4)))
                played[p] += 1
    colour_to: dict[_Node, list[_Node | None]] = {}
    for u, v in edges:
        at_u = colour_to.setdefault(u, [None] * 4)
        at_v = colour_to.setdefault(v, [None] * 4)
        common = [c for c in range(4) if at_u[c] is None and at_v[c] is None]
        if common:
            colour = common[rng.below(len(common))]
        else:
            free_u = [c for c in range(4) if at_u[c] is None]
            free_v = [c for c in range(4) if at_v[c] is None]
            a = free_u[rng.below(len(free_u))]
            b = free_v[rng.below(len(free_v))]
            # Swap a and b along the path from v that alternates them; it cannot
            # reach u (bipartite), and afterwards a is free at v as well.
            path: list[tuple[_Node, _Node, int]] = []
            x, c = v, a
            while (y := colour_to[x][c]) is not None:
                path.append((x, y, c))
                x, c = y, (b if c == a else a)
            for x, y, c in path:
                colour_to[x][c] = colour_to[y][c] = None
            for x, y, c in path:
                other = b if c == a else a
                colour_to[x][other] = y
                colour_to[y][other] = x
            colour = a
        at_u[colour] = v
        at_v[colour] = u
    seated: Rounds = []
    for r, tables in enumerate(rounds):
        new_tables = []
        for t in range(len(tables)):
            seats = colour_to[(0, r, t)]
            new_tables.append([_player(seat) for seat in seats])
        seated.append(new_tables)
    return seated


def _player(node: _Node | None) -> int:
    if node is None:
        raise AssertionError("a table seat was left uncoloured")
    return node[1]


def seat_round(tables: Sequence[Sequence[int]], counts: list[list[int]], rng: Rng) -> Rounds:
    """Seat one round given ``counts[p][s]``, how often player index ``p`` held
    seat ``s + 1`` before; ``counts`` is updated. Returns a one-round list."""
    new_tables = []
    for table in tables:
        best: list[tuple[int, ...]] = []
        best_score = -1
        for order in _ORDERS:
            score = sum(counts[table[order[s]]][s] for s in range(4))
            if best_score < 0 or score < best_score:
                best, best_score = [order], score
            elif score == best_score:
                best.append(order)
        order = best[rng.below(len(best))]
        new_table = [table[order[s]] for s in range(4)]
        for s, p in enumerate(new_table):
            counts[p][s] += 1
        new_tables.append(new_table)
    return [new_tables]
