"""A Vint session: rubbers, partnerships and each player's result (``rules/vint.md``
§1, §4.10, §4.11).

Vocabulary
----------
session
    Three rubbers; partners change every rubber so that each player partners
    each other player once (§1). Results are per player. Under
    ``session_structure="rotated"`` (A31, the default) a fourth rubber or a
    partnership seen in an earlier rubber is an error; ``"free"`` allows any
    number of rubbers and any seating.
seating, partnership
    Who sits where for one rubber (a ``Seating``); a partnership is the two
    players sitting opposite each other (one side).
column
    A player's points in a rubber: his side's total, written in both
    partners' columns (§4.10).
total, net, differential
    A player's total is the sum of his columns over the session; his net is
    the total minus the mean of the four totals; the Bridge-style
    differential (own side minus other side, summed over rubbers) is
    exactly 2 x net, so both rank alike (``result_method``, A20).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from scoring.engines.errors import RuleError
from scoring.engines.vint.options import DEFAULT_RULES, VintRules
from scoring.engines.vint.rubber import RubberResult, round_half_away
from scoring.engines.vint.table import SEATS_OF, SIDE_OF, SIDES, Seat, Side

#: Every problem code this module can emit (see ``errors.py``).
CODES: Final = frozenset(
    {
        "vint.partnership_repeated",
        "vint.player_not_in_rubber",
        "vint.players_not_four",
        "vint.rubber_not_four",
        "vint.rubber_players_differ",
        "vint.rubbers_none",
        "vint.session_too_many_rubbers",
    }
)


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where for one rubber."""

    north: str
    east: str
    south: str
    west: str

    def player(self, seat: Seat) -> str:
        return {"N": self.north, "E": self.east, "S": self.south, "W": self.west}[seat]

    def as_dict(self) -> dict[Seat, str]:
        return {"N": self.north, "E": self.east, "S": self.south, "W": self.west}

    @property
    def players(self) -> tuple[str, str, str, str]:
        return (self.north, self.east, self.south, self.west)

    def seat_of(self, player: str) -> Seat:
        for seat, name in self.as_dict().items():
            if name == player:
                return seat
        raise RuleError(
            f"{player!r} does not play in this rubber",
            field="players",
            code="vint.player_not_in_rubber",
            params={"player": player},
        )

    def side_of(self, player: str) -> Side:
        return SIDE_OF[self.seat_of(player)]

    def partners(self, side: Side) -> tuple[str, str]:
        a, b = SEATS_OF[side]
        return self.player(a), self.player(b)


def session_partnerships(players: Sequence[str]) -> list[Seating]:
    """The three seatings of a session (§1, §6.2-§6.4) for players A, B, C, D.

    Rubber 1: A+C v B+D, rubber 2: A+B v C+D, rubber 3: A+D v B+C, so each
    player partners each other player exactly once. A keeps North.
    """
    if len(players) != 4 or len(set(players)) != 4:
        raise RuleError(
            "players: a session needs four different players",
            field="players",
            code="vint.players_not_four",
        )
    a, b, c, d = players
    return [Seating(a, b, c, d), Seating(a, c, b, d), Seating(a, b, d, c)]


#: Rubbers in a session under ``session_structure="rotated"`` (§1, A31).
SESSION_RUBBERS: Final = 3


def session_problems(
    seatings: Sequence[Seating], rules: VintRules = DEFAULT_RULES
) -> list[RuleError]:
    """Why a session seated so breaks ``session_structure`` (A31); empty if it does not.

    ``seatings`` are the rubbers' seatings in order. Under "rotated" a session
    has at most three rubbers and no two players partner each other twice;
    a problem names the rubber and the partnership it repeats.
    """
    if rules.session_structure == "free":
        return []
    problems: list[RuleError] = []
    if len(seatings) > SESSION_RUBBERS:
        problems.append(
            RuleError(
                f"rubbers: a session has at most {SESSION_RUBBERS} rubbers "
                f"(session_structure rotated), this one has {len(seatings)}",
                field="rubbers",
                code="vint.session_too_many_rubbers",
                params={"count": len(seatings), "most": SESSION_RUBBERS},
            )
        )
    first: dict[frozenset[str], int] = {}
    # A fourth rubber must repeat a partnership (there are only three ways to
    # pair four players): the count above says so once, not rubber by rubber.
    for number, seating in enumerate(seatings[:SESSION_RUBBERS], 1):
        for side in SIDES:
            pair = seating.partners(side)
            earlier = first.setdefault(frozenset(pair), number)
            if earlier != number:
                problems.append(
                    RuleError(
                        f"rubber {number}: {pair[0]} and {pair[1]} were partners in rubber "
                        f"{earlier} already (session_structure rotated: each partnership "
                        "once a session)",
                        field="rubbers",
                        code="vint.partnership_repeated",
                        params={
                            "rubber": number,
                            "partner": pair[0],
                            "other_partner": pair[1],
                            "first": earlier,
                        },
                    )
                )
    return problems


def rubber_player_totals(seating: Seating, result: RubberResult) -> dict[str, int]:
    """Each player's column for the rubber (partners' columns are equal), N E S W order."""
    return {name: result.total(SIDE_OF[seat]) for seat, name in seating.as_dict().items()}


@dataclass(frozen=True, slots=True)
class SessionResult:
    """Per-player session results (§4.11).

    ``totals``: the sum of each player's columns. ``net``: total minus the
    mean of the four totals, rounded half away from zero when the mean ends
    in .5. ``differential``: the Bridge-style sum over rubbers of own side
    minus other side, which is exactly 2 x (total - mean).
    """

    totals: Mapping[str, int]
    net: Mapping[str, int]
    differential: Mapping[str, int]


def session_result(rubbers: Sequence[Mapping[str, int]]) -> SessionResult:
    """Totals and nets from each rubber's player columns (``rubber_player_totals``).

    Every rubber must have the same four players; the result keeps the first
    rubber's order.
    """
    if not rubbers:
        raise RuleError(
            "rubbers: a session needs at least one rubber",
            field="rubbers",
            code="vint.rubbers_none",
        )
    players = list(rubbers[0])
    if len(players) != 4:
        raise RuleError(
            "rubbers: a rubber has four players", field="rubbers", code="vint.rubber_not_four"
        )
    totals = dict.fromkeys(players, 0)
    for number, columns in enumerate(rubbers, 1):
        if set(columns) != set(players):
            raise RuleError(
                f"rubber {number}: players {sorted(columns)} differ from {sorted(players)}",
                field="rubbers",
                code="vint.rubber_players_differ",
                params={
                    "rubber": number,
                    "players": sorted(columns),
                    "expected": sorted(players),
                },
            )
        for name, points in columns.items():
            totals[name] += points
    four_times_mean = sum(totals.values())
    net = {p: round_half_away(4 * t - four_times_mean, 4) for p, t in totals.items()}
    differential = {p: round_half_away(4 * t - four_times_mean, 2) for p, t in totals.items()}
    return SessionResult(totals, net, differential)
