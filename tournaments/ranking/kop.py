"""Kop (and Baśka) standings: big points per table, totals, tie-breaks, classification.

Vocabulary (kop.md section 8.2 and section 9, A13/A14)
------------------------------------------------------
small points
    A player's net of the deal payments at his table over all deals of one
    round (A14). The four players of a table sum to 0.
big points
    What a place at the table earns in a round, from a big-points table such
    as Kościan ``(5, 3, 1, 0)`` or Wolsztyn ``(4, 3, 2, 1)``: the four players
    are ordered by small points; players tied on small points share the big
    points of the places they cover, averaged (A13): two tied for 1st under
    5/3/1/0 get (5 + 3) / 2 = 4 each, three tied for 2nd get (3 + 1 + 0) / 3.
    So a table always hands out ``sum(big_points)``. Shares are fractions
    with a denominator dividing 12 and are kept exact (``Fraction``).
place
    1 + the number of players at the table with strictly more small points.
    Tied players share the better place: two tied for 1st are both 1st (each
    counts a round win), the next is 3rd (places 1, 1, 3, 4); two tied for
    2nd are both 2nd (1, 2, 2, 4). ``firsts``..``fourths`` count these.
bye / sit-out
    A round the player sat out: ``bye_big_points(big_points)`` big points
    (``sum / 4``: 2.25 under 5/3/1/0), 0 small points, no place, not counted
    in ``rounds_played`` (``byes`` counts it). It scores once at least one
    table of that round has a result.
standings
    Players ordered by total big points, then by the tie-breaks in the order
    the organiser chose (``KOP_TIE_BREAKS`` is Kościan's: small points, round
    wins, second places, third places). Players still tied share the rank.
tie-breaks
    ``small_points`` (total), ``round_wins`` (number of 1st places),
    ``second_places``, ``third_places`` (more is better) and
    ``head_to_head``: among the players still tied only, each scores +1 for
    every tied rival he finished above at a table they shared and -1 for
    every one who finished above him (on that round's small points).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple, Protocol

from scoring.engines.ranks import Criterion, by_key, rank, rank_label
from tournaments.seating.byes import bye_big_points

from .errors import RankingBug, RankingError, RankingProblem

#: The problem codes this module emits (a page says each in the reader's language).
CODES = frozenset(
    {
        "ranking.big_points_invalid",
        "ranking.tie_break_repeated",
        "ranking.tie_break_unknown",
    }
)

SmallPoints = int | Fraction

KOSCIAN: tuple[int, int, int, int] = (5, 3, 1, 0)
WOLSZTYN: tuple[int, int, int, int] = (4, 3, 2, 1)

KOP_TIE_BREAKS = ("small_points", "round_wins", "second_places", "third_places")
"""Kościan's order (kop.md 8.1, S7)."""

TIE_BREAK_NAMES = ("small_points", "round_wins", "second_places", "third_places", "head_to_head")

_SCALE = 12
"""Big points are added as integers times 12: every share has a denominator dividing 12."""


class RoundEntry(NamedTuple):
    """One round of one player: ``table`` (1-based within the round) and ``place``
    are ``None`` for a sit-out."""

    round: int
    table: int | None
    small_points: SmallPoints
    big_points: Fraction
    place: int | None


@dataclass(frozen=True, slots=True)
class StandingRow:
    player: int
    rank: int
    tied: bool
    big_points: Fraction
    small_points: Fraction
    firsts: int
    seconds: int
    thirds: int
    fourths: int
    rounds_played: int
    byes: int
    rounds_detail: tuple[RoundEntry, ...]

    @property
    def rank_label(self) -> str:
        return rank_label(self.rank, self.tied)


def check_big_points(big_points: Sequence[int]) -> tuple[int, int, int, int]:
    """The big-points table as a tuple, or ``RankingError``."""
    values = tuple(big_points)
    if (
        len(values) != 4
        or any(isinstance(v, bool) or not isinstance(v, int) for v in values)
        or any(a < b for a, b in zip(values, values[1:], strict=False))
    ):
        text = f"big points must be four whole numbers from 1st to 4th place, not rising: {values}"
        raise RankingError(
            [
                RankingProblem(
                    "ranking.big_points_invalid", text, {"value": repr(values)}, "big_points"
                )
            ]
        )
    return values[0], values[1], values[2], values[3]


def check_tie_breaks(tie_breaks: Sequence[str], allowed: Sequence[str]) -> tuple[str, ...]:
    names = tuple(tie_breaks)
    problems = [
        RankingProblem(
            "ranking.tie_break_unknown",
            f"unknown tie-break {name!r}; choose from {', '.join(allowed)}",
            {"value": str(name), "allowed": list(allowed)},
            "tie_breaks",
        )
        for name in names
        if name not in allowed
    ]
    twice = sorted({name for name in names if names.count(name) > 1})
    problems += [
        RankingProblem(
            "ranking.tie_break_repeated",
            f"tie-break {name!r} is listed twice",
            {"value": name},
            "tie_breaks",
        )
        for name in twice
    ]
    if problems:
        raise RankingError(problems)
    return names


_PLACES = (1, 2, 3, 4)


def _small(entry: tuple[Any, SmallPoints]) -> SmallPoints:
    return entry[1]


def table_places[P](
    table: Sequence[tuple[P, SmallPoints]], big_points: Sequence[int]
) -> list[tuple[P, SmallPoints, int, int]]:
    """``(player, small, big points x 12, place)`` for the four players of a table."""
    ordered = sorted(table, key=_small, reverse=True)
    a, b, c, d = (small for _p, small in ordered)
    if a != b and b != c and c != d:  # no tie, the usual table: places 1..4 in order
        return [
            (player, small, _SCALE * points, place)
            for (player, small), points, place in zip(ordered, big_points, _PLACES, strict=True)
        ]
    out: list[tuple[P, SmallPoints, int, int]] = []
    i = 0
    while i < 4:
        j = i
        while j < 3 and ordered[j + 1][1] == ordered[i][1]:
            j += 1
        shared = j - i + 1
        share = (_SCALE // shared) * sum(big_points[i : j + 1])
        out.extend((player, small, share, i + 1) for player, small in ordered[i : j + 1])
        i = j + 1
    return out


def is_points(value: object) -> bool:
    """A whole number or a fraction (not a float, not ``True``)."""
    return isinstance(value, Fraction) or (isinstance(value, int) and not isinstance(value, bool))


def big_points_for_table[P](
    small_points: Mapping[P, SmallPoints], big_points: Sequence[int] = KOSCIAN
) -> dict[P, Fraction]:
    """Big points of the four players of one table in one round (ties share, A13)."""
    table = check_big_points(big_points)
    problems = []
    if len(small_points) != 4:
        problems.append(f"a table has 4 players, not {len(small_points)}")
    problems += [
        f"small points of player {p} must be a whole number or a fraction, not {v!r}"
        for p, v in small_points.items()
        if not is_points(v)
    ]
    if problems:
        raise RankingError(problems)
    return {
        p: Fraction(big, _SCALE)
        for p, _s, big, _place in table_places(list(small_points.items()), table)
    }


class _Tally:
    __slots__ = ("big", "small", "places", "played", "byes", "tables", "rounds")

    def __init__(self) -> None:
        self.big = 0
        self.small: SmallPoints = 0
        self.places = [0, 0, 0, 0]
        self.played = 0
        self.byes = 0
        self.tables: list[int] = []
        self.rounds: list[tuple[int, int | None, SmallPoints, int, int | None]] = []


def numbered(rounds: Mapping[int, Any] | Sequence[Any]) -> dict[int, Any]:
    """Per-round data keyed by round number: a sequence counts from round 1."""
    if isinstance(rounds, Mapping):
        return dict(rounds)
    return dict(enumerate(rounds, 1))


def kop_standings(
    rounds: Sequence[Sequence[Mapping[int, SmallPoints]]]
    | Mapping[int, Sequence[Mapping[int, SmallPoints]]],
    big_points: Sequence[int] = KOSCIAN,
    tie_breaks: Sequence[str] = KOP_TIE_BREAKS,
    byes: Sequence[Collection[int]] | Mapping[int, Collection[int]] = (),
    *,
    require_zero_sum: bool = True,
) -> list[StandingRow]:
    """Individual standings from each table's small points, round by round.

    ``rounds`` lists, per round (a sequence from round 1, or a mapping by
    round number), the tables played, each a mapping player -> small points.
    ``byes`` lists the players who sat out each round, aligned the same way;
    a round with no table result yet gives its sit-outs nothing yet. Every
    problem in the input is reported in one ``RankingError``.
    """
    table_points = check_big_points(big_points)
    names = check_tie_breaks(tie_breaks, TIE_BREAK_NAMES)
    bye_scaled = bye_big_points(table_points) * _SCALE
    if bye_scaled.denominator != 1:
        raise RankingBug(f"bye score {bye_scaled / _SCALE} is not a multiple of 1/12")
    by_round = numbered(rounds)
    byes_by_round = numbered(byes)
    tally: defaultdict[int, _Tally] = defaultdict(_Tally)
    tables: list[list[tuple[int, SmallPoints]]] = []
    problems: list[str] = []
    # A sit-out scores once its round has a table result, so live standings do not
    # hand out bye points for a round still being played.
    for number in sorted(n for n, played in by_round.items() if played):
        seen: dict[int, str] = {}
        for t, table in enumerate(by_round[number], 1):
            where = f"round {number}, table {t}"
            entries = list(table.items())
            bad = [p for p, v in entries if type(v) is not int and not is_points(v)]
            if len(entries) != 4 or bad:
                if len(entries) != 4:
                    problems.append(f"{where}: {len(entries)} players, a table has 4")
                problems += [
                    f"{where}: small points of player {p} must be a whole number or a "
                    f"fraction, not {table[p]!r}"
                    for p in bad
                ]
                continue
            if require_zero_sum and (total := sum(v for _p, v in entries)) != 0:
                problems.append(f"{where}: small points sum to {total}, not 0")
            for p, _v in entries:
                if p in seen:
                    problems.append(
                        f"player {p} appears twice in round {number} ({seen[p]}, table {t})"
                    )
                seen[p] = f"table {t}"
            table_id = len(tables)
            tables.append(entries)
            for p, small, big, place in table_places(entries, table_points):
                row = tally[p]
                row.big += big
                row.small += small
                row.places[place - 1] += 1
                row.played += 1
                row.tables.append(table_id)
                row.rounds.append((number, t, small, big, place))
        for p in byes_by_round.get(number, ()):
            if p in seen:
                problems.append(
                    f"player {p} appears twice in round {number} ({seen[p]}, sitting out)"
                )
            seen[p] = "sitting out"
            row = tally[p]
            row.big += int(bye_scaled)
            row.byes += 1
            row.rounds.append((number, None, 0, int(bye_scaled), None))
    if problems:
        raise RankingError(problems)

    criteria: list[Criterion[int]] = [by_key(lambda p: tally[p].big)]
    for name in names:
        criteria.append(kop_criterion(name, tally, tables))
    scaled = _Scaled()
    return [
        _row(p, place, tied, tally[p], scaled) for p, place, tied in rank(sorted(tally), criteria)
    ]


class TieBreakTally(Protocol):
    """What the Kop tie-breaks read of a player's tally: his small points, his places
    (1st..4th counts) and the ids of the tables decided by play he sat at."""

    @property
    def small(self) -> SmallPoints: ...
    @property
    def places(self) -> list[int]: ...
    @property
    def tables(self) -> list[int]: ...


def kop_criterion(
    name: str,
    tally: Mapping[int, TieBreakTally],
    tables: Sequence[Sequence[tuple[int, SmallPoints]]],
) -> Criterion[int]:
    """The criterion for tie-break ``name`` (``head_to_head`` over the tied group only)."""
    if name == "small_points":
        return by_key(lambda p: tally[p].small)
    if name == "round_wins":
        return by_key(lambda p: tally[p].places[0])
    if name == "second_places":
        return by_key(lambda p: tally[p].places[1])
    if name == "third_places":
        return by_key(lambda p: tally[p].places[2])
    if name == "head_to_head":
        return lambda group: head_to_head(group, {p: tally[p].tables for p in group}, tables)
    raise RankingBug(f"tie-break {name!r} passed the check but has no key")


def head_to_head[P](
    group: Sequence[P],
    tables_of: Mapping[P, Sequence[int]],
    tables: Sequence[Sequence[tuple[P, SmallPoints]]],
) -> list[int]:
    """For each member: rivals of the group he finished above at a shared table,
    minus those who finished above him."""
    members = set(group)
    scores = []
    for p in group:
        score = 0
        for table_id in tables_of[p]:
            entries = tables[table_id]
            mine = next(v for q, v in entries if q == p)
            for q, theirs in entries:
                if q != p and q in members:
                    score += (mine > theirs) - (mine < theirs)
        scores.append(score)
    return scores


class _Scaled(dict[int, Fraction]):
    """Big points x 12 -> Fraction, each value made once (there are few)."""

    def __missing__(self, scaled: int) -> Fraction:
        value = self[scaled] = Fraction(scaled, _SCALE)
        return value


def _row(player: int, place: int, tied: bool, t: _Tally, scaled: _Scaled) -> StandingRow:
    return StandingRow(
        player=player,
        rank=place,
        tied=tied,
        big_points=scaled[t.big],
        small_points=Fraction(t.small),
        firsts=t.places[0],
        seconds=t.places[1],
        thirds=t.places[2],
        fourths=t.places[3],
        rounds_played=t.played,
        byes=t.byes,
        rounds_detail=tuple(
            RoundEntry(r, table, small, scaled[big], where)
            for r, table, small, big, where in t.rounds
        ),
    )
