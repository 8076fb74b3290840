"""Sit-outs (byes) when the number of active players is not a multiple of four.

With ``N`` active players, ``N mod 4`` of them sit out each round.

* A whole schedule (``generate_schedule``) walks through one seeded random
  order of all players, ``N mod 4`` at a time, wrapping round: nobody sits out
  twice before everyone has sat out once, and nobody sits out in two
  consecutive rounds (``N >= 4 + N mod 4 >= 2 * (N mod 4)``).
* Round by round (``generate_round``) the sit-outs are the active players
  with the fewest sit-outs so far, ties drawn from the seeded stream. A late
  arrival starts with none, so is among the first to sit out. Rounds a player
  missed (not yet arrived, withdrawn) are absences, not sit-outs, and do not
  count.

**Bye score.** A Kop player who sits out a round receives the average big
points of a table, ``sum(big_points) / 4`` (``bye_big_points``): 9/4 = 2.25
under Kościan 5/3/1/0, 10/4 = 2.5 under Wolsztyn 4/3/2/1. He receives 0 small
points, and the round counts neither as played nor as a place. The ranking
package takes this function, so a changed big-points table changes the bye
score with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from .search import Rng


def bye_big_points(big_points: Sequence[int]) -> Fraction:
    """Big points for a sit-out: the average a seat at a table receives."""
    return Fraction(sum(big_points), len(big_points))


def rotating_byes(players: Sequence[int], rounds: int, rng: Rng) -> list[tuple[int, ...]]:
    """Sit-outs for each of ``rounds`` rounds, walking one seeded order of ``players``."""
    per_round = len(players) % 4
    order = list(players)
    rng.shuffle(order)
    return [
        tuple(sorted(order[(r * per_round + i) % len(order)] for i in range(per_round)))
        for r in range(rounds)
    ]


def fewest_byes(active: Sequence[int], byes_so_far: Mapping[int, int], rng: Rng) -> tuple[int, ...]:
    """The ``len(active) mod 4`` active players with fewest sit-outs (seeded ties)."""
    per_round = len(active) % 4
    draw = {p: rng.random() for p in sorted(active)}
    chosen = sorted(active, key=lambda p: (byes_so_far.get(p, 0), draw[p], p))[:per_round]
    return tuple(sorted(chosen))
