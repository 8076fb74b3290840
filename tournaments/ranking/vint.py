"""Vint standings across tables (vint.md section 4.11 and section 7, A20 and A27).

Vocabulary
----------
session
    One table's play in a round: three rubbers, the partnerships reshuffled
    for every rubber, scored per player in four columns.
total
    A player's column total over the session, above and below the line.
net
    Total minus the table's average total; a table's nets sum to zero. Across
    tables players are ranked on the *sum of their nets*, not on raw totals,
    because totals depend heavily on the cards.
rubbers won
    Finished rubbers the player's side won (two winners per rubber). A rubber
    cut short by a time limit keeps its entries in the totals but has no
    winner (A27), so it counts for nobody here.
tie-breaks
    After the sum of nets, in the order given (``VINT_TIE_BREAKS``):
    ``rubbers_won`` (more is better), ``head_to_head`` (among the players
    still tied only: +1 for every tied rival with a lower net in a session
    they shared, -1 for every one with a higher net) and ``total_points`` (sum
    of totals). Players still tied share the rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.engines.ranks import rank_label

from .competition import Player, VintEvent, VintOptions, VintRound, VintTable, score_vint_event
from .errors import RankingError
from .kop import SmallPoints, check_tie_breaks, is_points

VINT_TIE_BREAKS = ("rubbers_won", "head_to_head", "total_points")
"""vint.md 4.11 (rubbers won, then head-to-head), then total points."""

VINT_TIE_BREAK_NAMES = VINT_TIE_BREAKS


@dataclass(frozen=True)
class VintSession:
    """One session at one table: each player's column total and rubbers won."""

    totals: Mapping[int, SmallPoints]
    rubbers_won: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class VintRow:
    player: int
    rank: int
    tied: bool
    net: Fraction
    rubbers_won: int
    total_points: Fraction
    sessions: int

    @property
    def rank_label(self) -> str:
        return rank_label(self.rank, self.tied)


def _session_problems(number: int, session: VintSession) -> list[str]:
    where = f"session {number}"
    problems = []
    if len(session.totals) != 4:
        problems.append(f"{where}: {len(session.totals)} players, a Vint table has 4")
    problems += [
        f"{where}: total of player {p} must be a whole number or a fraction, not {v!r}"
        for p, v in session.totals.items()
        if not is_points(v)
    ]
    for p, won in session.rubbers_won.items():
        if p not in session.totals:
            problems.append(f"{where}: player {p} won rubbers but has no total")
        if isinstance(won, bool) or not isinstance(won, int) or won < 0:
            problems.append(f"{where}: rubbers won by player {p} must be 0 or more, not {won!r}")
            return problems
    if sum(session.rubbers_won.values()) % 2:
        problems.append(
            f"{where}: rubbers won add up to {sum(session.rubbers_won.values())}; "
            "each finished rubber has two winners"
        )
    return problems


def vint_standings(
    sessions: Sequence[VintSession], tie_breaks: Sequence[str] = VINT_TIE_BREAKS
) -> list[VintRow]:
    """Individual standings over all sessions played (any number per player).

    A thin adapter: each session is a round of one table of a ``competition.VintEvent``,
    scored by ``competition.score_vint_event`` (exact nets, the tie-breaks).
    """
    names = check_tie_breaks(tie_breaks, VINT_TIE_BREAK_NAMES)
    problems = [p for i, s in enumerate(sessions, 1) for p in _session_problems(i, s)]
    if problems:
        raise RankingError(problems)
    players = sorted({p for session in sessions for p in session.totals})
    event = VintEvent(
        players=tuple(Player(p, str(p)) for p in players),
        rounds=tuple(VintRound((VintTable(*_table(session)),)) for session in sessions),
        options=VintOptions(tie_breaks=names),
    )
    return [
        VintRow(
            player=row.player,
            rank=row.rank,
            tied=row.tied,
            net=row.net,
            rubbers_won=row.rubbers_won,
            total_points=row.total_points,
            sessions=row.rounds_played,
        )
        for row in score_vint_event(event).individual
    ]


def _table(
    session: VintSession,
) -> tuple[
    tuple[int, int, int, int],
    tuple[SmallPoints, SmallPoints, SmallPoints, SmallPoints],
    tuple[int, int, int, int],
]:
    (a, ta), (b, tb), (c, tc), (d, td) = session.totals.items()
    won = session.rubbers_won
    return (
        (a, b, c, d),
        (ta, tb, tc, td),
        (won.get(a, 0), won.get(b, 0), won.get(c, 0), won.get(d, 0)),
    )
