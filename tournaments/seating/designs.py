"""Known perfect schedules: resolvable designs in which no pair meets twice.

For ``N = 4q`` players with ``q`` a prime power of at least 4 there is a
*resolvable transversal design* TD(4, q): split the players into four groups
of ``q``; a player is a point ``(g, x)`` with group ``g`` in 0..3 and ``x`` an
element of the finite field GF(q). Round ``a`` (for each ``a`` in GF(q)) has
the ``q`` tables ``{(g, a*g + b) : g = 0..3}``, one per ``b`` in GF(q). Two
players of different groups meet in exactly one round, players of the same
group never do, so ``q`` rounds have no repeat meeting at all. When 4 divides
``q`` the four groups, cut into fours, give one more round without repeats.

For 16 players (q = 4) this is the affine plane of order 4 and, with player
``(g, x)`` numbered ``4g + x + 1``, it reproduces the seating table of
``kop.md`` section 8.2 row for row (round 5 is the four groups). For 64
players (q = 16) it gives 17 perfect rounds; the affine plane of order 8 has
lines of eight and so does not seat fours.

Field elements are the integers ``0..q-1`` read as base-``p`` digit vectors
(polynomial coefficients), multiplied through logarithm tables built from the
first primitive polynomial in a fixed enumeration order, so the construction
is the same on every machine.
"""

from __future__ import annotations

from functools import lru_cache

from .errors import SeatingBug

TableOfFour = tuple[int, int, int, int]


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q == p**k`` and ``p`` prime, or ``None``."""
    if q < 2:
        return None
    p = next((d for d in range(2, int(q**0.5) + 1) if q % d == 0), q)
    k = 0
    while q % p == 0:
        q //= p
        k += 1
    return (p, k) if q == 1 else None


class GaloisField:
    """GF(p**k) on the integers 0..q-1 (base-p digits are polynomial coefficients)."""

    def __init__(self, p: int, k: int) -> None:
        self.p, self.k = p, k
        self.q: int = p**k
        self._exp, self._log = self._tables()

    def add(self, a: int, b: int) -> int:
        if self.p == 2:
            return a ^ b
        total, scale = 0, 1
        for _ in range(self.k):
            total += ((a % self.p + b % self.p) % self.p) * scale
            a //= self.p
            b //= self.p
            scale *= self.p
        return total

    def mul(self, a: int, b: int) -> int:
        if a == 0 or b == 0:
            return 0
        return self._exp[(self._log[a] + self._log[b]) % (self.q - 1)]

    def _times_x(self, e: int, poly: list[int]) -> int:
        p, k = self.p, self.k
        digits = [(e // p**i) % p for i in range(k)]
        top = digits[-1]
        shifted = [0, *digits[:-1]]
        reduced = [(shifted[i] - top * poly[i]) % p for i in range(k)]
        return sum(d * p**i for i, d in enumerate(reduced))

    def _tables(self) -> tuple[list[int], list[int]]:
        p, k, q = self.p, self.k, self.q
        for code in range(q):
            # poly holds c_0..c_{k-1} of the monic x^k + c_{k-1}x^{k-1} + ... + c_0
            poly = [(code // p**i) % p for i in range(k)]
            x = self._times_x(1, poly)
            exp, e, seen = [], 1, set()
            for _ in range(q - 1):
                if e in seen or e == 0:
                    break
                seen.add(e)
                exp.append(e)
                e = self._times_x(e, poly) if k > 1 else (e * x) % p
            else:
                if e == 1:
                    log = [0] * q
                    for i, value in enumerate(exp):
                        log[value] = i
                    return exp, log
        raise SeatingBug(f"no primitive polynomial found for GF({p}^{k})")


def design_capacity(players: int) -> int:
    """How many repeat-free rounds ``transversal_rounds(players)`` provides (0 if none)."""
    if players % 4:
        return 0
    q = players // 4
    if q < 4 or prime_power(q) is None:
        return 0
    return q + 1 if q % 4 == 0 else q


def transversal_rounds(players: int) -> tuple[tuple[TableOfFour, ...], ...]:
    """All rounds of the resolvable design for ``players`` (players numbered from 1).

    Empty when no design is known for that number of players. A schedule
    needs only a few of them: ``design_round`` builds one.
    """
    return tuple(design_round(players, i) for i in range(design_capacity(players)))


def design_round(players: int, index: int) -> tuple[TableOfFour, ...]:
    """Round ``index`` (from 0, below ``design_capacity(players)``) of the design.

    Round ``a`` for ``a < q`` is the parallel class of slope ``a``; round
    ``q`` (when 4 divides ``q``) is the four groups cut into fours.
    """
    capacity = design_capacity(players)
    if not 0 <= index < capacity:
        raise SeatingBug(f"round {index} of a design with {capacity} rounds for {players} players")
    q = players // 4
    if index == q:
        return tuple(
            (start + 1, start + 2, start + 3, start + 4)
            for g in range(4)
            for start in range(g * q, (g + 1) * q, 4)
        )
    field = _field(q)
    slopes = [field.mul(index, g) for g in range(4)]
    return tuple(
        (
            field.add(slopes[0], b) + 1,
            q + field.add(slopes[1], b) + 1,
            2 * q + field.add(slopes[2], b) + 1,
            3 * q + field.add(slopes[3], b) + 1,
        )
        for b in range(q)
    )


@lru_cache(maxsize=16)
def _field(q: int) -> GaloisField:
    pk = prime_power(q)
    if pk is None:
        raise SeatingBug(f"{q} was accepted as a prime power")
    return GaloisField(*pk)
