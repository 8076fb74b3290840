"""The ranking machinery shared by every classification.

Items are ordered by a list of *criteria*, best first. A criterion maps a
group of items that are still tied to one sort key per item (larger is
better). Most keys belong to the item alone (big points, small points, round
wins); *head-to-head* looks only at the games among the tied items, which is
why a criterion sees the whole tied group. Each criterion only splits the
groups left tied by the ones before it; items tied after the last criterion
share a rank ("=" style: 1, 2, =3, =3, 5), and keep their input order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

type Criterion[T] = Callable[[Sequence[T]], Sequence[Any]]
"""A tied group -> one key per member, larger is better."""


def by_key[T](key: Callable[[T], Any]) -> Criterion[T]:
    """A criterion that depends on the item alone."""

    def criterion(group: Sequence[T]) -> list[Any]:
        return [key(item) for item in group]

    return criterion


def rank[T](items: Sequence[T], criteria: Sequence[Criterion[T]]) -> list[tuple[T, int, bool]]:
    """``(item, rank, tied)`` best first; ``tied`` when the rank is shared."""
    groups: list[list[T]] = [list(items)] if items else []
    for criterion in criteria:
        split: list[list[T]] = []
        for group in groups:
            if len(group) == 1:
                split.append(group)
                continue
            keys = criterion(group)
            order = sorted(range(len(group)), key=keys.__getitem__, reverse=True)
            run = [group[order[0]]]
            for previous, current in zip(order, order[1:], strict=False):
                if keys[current] == keys[previous]:
                    run.append(group[current])
                else:
                    split.append(run)
                    run = [group[current]]
            split.append(run)
        groups = split
    ranked: list[tuple[T, int, bool]] = []
    for group in groups:
        place = len(ranked) + 1
        ranked.extend((item, place, len(group) > 1) for item in group)
    return ranked


def rank_label(rank: int, tied: bool) -> str:
    """``"=3"`` for a shared third place, ``"3"`` otherwise."""
    return f"={rank}" if tied else str(rank)
