"""Pairs and teams classifications from the individual Kop standings.

A *group* (a pair, a team of four or five, a club) is ranked on the sum of its
members' big points, then on the same tie-breaks as players, summed over the
members (small points, round wins, second places, third places).
Head-to-head has no meaning between groups and is refused. Groups still tied
share the rank and keep the order in which they were given.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Protocol

from scoring.engines.ranks import Criterion, by_key, rank, rank_label

from .errors import RankingBug, RankingError
from .kop import KOP_TIE_BREAKS, StandingRow, check_tie_breaks

GROUP_TIE_BREAK_NAMES = ("small_points", "round_wins", "second_places", "third_places")


@dataclass(frozen=True, slots=True)
class GroupRow[G: Hashable]:
    group: G
    members: tuple[int, ...]
    rank: int
    tied: bool
    big_points: Fraction
    small_points: Fraction
    firsts: int
    seconds: int
    thirds: int
    fourths: int
    rounds_played: int

    @property
    def rank_label(self) -> str:
        return rank_label(self.rank, self.tied)


def group_standings[G: Hashable](
    rows: Sequence[StandingRow],
    groups: Mapping[G, Collection[int]],
    tie_breaks: Sequence[str] = KOP_TIE_BREAKS,
) -> list[GroupRow[G]]:
    """Rank ``groups`` (id -> member player numbers) from the players' ``rows``."""
    names = check_tie_breaks(tie_breaks, GROUP_TIE_BREAK_NAMES)
    by_player = {row.player: row for row in rows}
    problems = []
    group_of: dict[int, G] = {}
    for group, members in groups.items():
        if not members:
            problems.append(f"{group!r} has no players")
        for p in sorted(members):
            if p not in by_player:
                problems.append(f"{group!r}: player {p} has no result")
            if p in group_of:
                problems.append(f"player {p} is in both {group_of[p]!r} and {group!r}")
            group_of[p] = group
    if problems:
        raise RankingError(problems)
    return rank_groups(
        {group: [by_player[p] for p in sorted(members)] for group, members in groups.items()},
        names,
    )


class MemberRow(Protocol):
    """What a group's sums read of a member's row (``StandingRow``, a competition row)."""

    @property
    def player(self) -> int: ...
    @property
    def big_points(self) -> Fraction: ...
    @property
    def small_points(self) -> Fraction: ...
    @property
    def firsts(self) -> int: ...
    @property
    def seconds(self) -> int: ...
    @property
    def thirds(self) -> int: ...
    @property
    def fourths(self) -> int: ...
    @property
    def rounds_played(self) -> int: ...


def rank_groups[G: Hashable](
    members: Mapping[G, Sequence[MemberRow]], tie_breaks: Sequence[str]
) -> list[GroupRow[G]]:
    """Groups ranked on their members' sums (``members``: the rows that count, in the
    order the group lists them); ``tie_breaks`` are group tie-breaks, checked already.
    Tied groups keep the order of ``members``."""
    totals: dict[G, GroupRow[G]] = {}
    for group, member_rows in members.items():
        totals[group] = GroupRow(
            group=group,
            members=tuple(r.player for r in member_rows),
            rank=0,
            tied=False,
            big_points=sum((r.big_points for r in member_rows), Fraction(0)),
            small_points=sum((r.small_points for r in member_rows), Fraction(0)),
            firsts=sum(r.firsts for r in member_rows),
            seconds=sum(r.seconds for r in member_rows),
            thirds=sum(r.thirds for r in member_rows),
            fourths=sum(r.fourths for r in member_rows),
            rounds_played=sum(r.rounds_played for r in member_rows),
        )
    keys = {
        "small_points": lambda g: totals[g].small_points,
        "round_wins": lambda g: totals[g].firsts,
        "second_places": lambda g: totals[g].seconds,
        "third_places": lambda g: totals[g].thirds,
    }
    criteria: list[Criterion[G]] = [by_key(lambda g: totals[g].big_points)]
    for name in tie_breaks:
        if name not in keys:
            raise RankingBug(f"tie-break {name!r} passed the check but has no key")
        criteria.append(by_key(keys[name]))
    return [
        replace(totals[g], rank=place, tied=tied)
        for g, place, tied in rank(list(members), criteria)
    ]
