"""Rows to plain data for the pure seating package, and back; and the conversions every
family's standings share (the field's names and groups, points made JSON-ready).

With the family modules (``tournaments.families``, which map their own rows for
``tournaments.ranking``), the only module that knows both the ORM and the pure packages;
the pure packages never see a model.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from scoring.models import TableSeat
from tournaments.errors import SeatingRejected
from tournaments.models import Adjustment, Registration, Tournament
from tournaments.ranking import competition
from tournaments.seating import parse_seating_csv
from tournaments.seating.errors import SeatingError
from tournaments.seating.generate import (
    ALGORITHM_VERSION,
    draw_order,
    generate_round,
    generate_schedule,
)
from tournaments.seating.schedule import Schedule, Table


@dataclass(frozen=True)
class Field:
    """Who is entered, as the standings name them: start number -> name, the pairs and
    teams (label -> start numbers) the director grouped players into, each player's
    class codes, and the director's adjustments (players by start number)."""

    names: dict[int, str]
    groups: dict[str, dict[str, list[int]]]  # "pair" / "team" -> label -> start numbers
    classes: dict[int, list[str]] = field(default_factory=dict)
    adjustments: list[competition.Adjustment] = field(default_factory=list)


def field_of(tournament: Tournament) -> Field:
    """The entries in one query of the few columns the standings show, and the
    adjustments in another."""
    names: dict[int, str] = {}
    classes: dict[int, list[str]] = {}
    groups: dict[str, dict[str, list[int]]] = {"pair": defaultdict(list), "team": defaultdict(list)}
    for number, name, pair, team, codes in (
        Registration.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("number", "player__name", "pair", "team", "classes")
    ):
        names[number] = name
        if codes:
            classes[number] = list(codes)
        if pair:
            groups["pair"][pair].append(number)
        if team:
            groups["team"][team].append(number)
    adjustments = [
        competition.Adjustment(
            player=number,
            reason=reason,
            big=Fraction(big),
            small=Fraction(small),
            net=Fraction(net),
            round=rnd,
        )
        for number, reason, big, small, net, rnd in Adjustment.objects.filter(
            tournament=tournament
        ).values_list("entry__number", "reason", "big", "small", "net", "round")
    ]
    return Field(names, {kind: dict(g) for kind, g in groups.items()}, classes, adjustments)


def registrations_by_number(tournament: Tournament) -> dict[int, Registration]:
    return {
        r.number: r
        for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }


def played_rounds(tournament: Tournament) -> list[list[tuple[int, ...]]]:
    """Every seated round's tables as tuples of start numbers in seat order."""
    numbers = dict(
        Registration.objects.filter(tournament=tournament).values_list("player_id", "number")
    )
    rounds: dict[int, dict[int, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
    for seat in TableSeat.objects.filter(session__round_table__round__tournament=tournament).values(
        "session__round_table__round__number", "session__round_table__number", "seat", "player_id"
    ):
        r = seat["session__round_table__round__number"]
        t = seat["session__round_table__number"]
        rounds[r][t].append((seat["seat"], numbers[seat["player_id"]]))
    return [
        [tuple(n for _s, n in sorted(rounds[r][t])) for t in sorted(rounds[r])]
        for r in sorted(rounds)
    ]


def json_ready(value: Any) -> Any:
    """Fractions (shared big points) as floats rounded to 2 places, for JSON snapshots."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 2)
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value


# ------------------------------------------------------------------------------- seating


@dataclass(frozen=True)
class RoundPlan:
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]
    algorithm: str
    #: Start numbers by schedule position (1, 2, ...): drawn from the seed or the
    #: director's own order; empty for an imported table.
    order: tuple[int, ...] = ()


def round_seed(tournament_seed: int, round_number: int) -> int:
    """Each round's own seed, derived so that a stored tournament seed reproduces every round."""
    return (tournament_seed * 1_000_003 + round_number) % (2**63 - 1)


def played_schedule(tournament: Tournament) -> Schedule | None:
    rounds = played_rounds(tournament)
    if not rounds:
        return None
    byes = [tuple(r) for r in tournament.rounds.order_by("number").values_list("byes", flat=True)]
    players = {n for rnd in rounds for table in rnd for n in table} | {n for b in byes for n in b}
    # A seated table has its four seats (TableSeat 1..4), so each is a Table.
    tables = cast("tuple[tuple[Table, ...], ...]", tuple(tuple(r) for r in rounds))
    return Schedule(tuple(players), tables, tuple(byes), None, ALGORITHM_VERSION)


def seat_round(
    *,
    tournament: Tournament,
    active: list[int],
    round_number: int,
    order: list[int] | None = None,
) -> RoundPlan:
    """Seat the next round; played rounds never change.

    While the field is the one that started (no late arrival, no withdrawal),
    round r is round r of the whole-event schedule for that field, so the
    event gets the best plan found for all its rounds together (16 players x 5
    rounds: everybody meets everybody once). Once the field changes, each new
    round is seated against the whole history instead.

    The schedule's positions 1..n go to start numbers in the **start order**:
    for round 1 the director's ``order`` if given, else one drawn from the
    tournament's seed (so registering together does not seat people together);
    later rounds take round 1's stored order. A round 1 stored before there was
    a start order used registration order, and its later rounds still do.
    """
    first = tournament.rounds.filter(number=1).first()
    if first is not None:
        start = list(first.inputs.get("order") or sorted(first.inputs.get("active", [])))
    else:
        start = list(order) if order else list(draw_order(active, tournament.seed))
    played = played_schedule(tournament)
    if sorted(active) == sorted(start) and round_number <= tournament.rounds_planned:
        full = generate_schedule(len(start), tournament.rounds_planned, tournament.seed)
        number_of = dict(enumerate(start, 1))
        mapped = [tuple(tuple(number_of[i] for i in table) for table in rnd) for rnd in full.rounds]
        if played is None or list(played.rounds) == mapped[: round_number - 1]:
            return RoundPlan(
                tables=mapped[round_number - 1],
                byes=tuple(sorted(number_of[i] for i in full.byes[round_number - 1])),
                algorithm=f"{ALGORITHM_VERSION} (event schedule)",
                order=tuple(start),
            )
    schedule = generate_round(played, active, round_seed(tournament.seed, round_number))
    return RoundPlan(
        tables=tuple(tuple(t) for t in schedule.rounds[-1]),
        byes=tuple(schedule.byes[-1]),
        algorithm=f"{ALGORITHM_VERSION} (round against history)",
        order=tuple(start),
    )


def imported_round(planned: list[list[int]], active: list[int]) -> RoundPlan:
    seated = {n for table in planned for n in table}
    return RoundPlan(
        tables=tuple(tuple(t) for t in planned),
        byes=tuple(sorted(set(active) - seated)),
        algorithm="imported",
    )


def parse_plan(text: str, registered: list[int], names: dict[int, Registration]) -> Any:
    """The club's seating CSV as rounds of tables; ``SeatingRejected`` lists every problem."""
    try:
        imported = parse_seating_csv(text, registered)
    except SeatingError as exc:
        problems = list(getattr(exc, "problems", None) or [str(exc)])
        raise SeatingRejected([_with_names(p, names) for p in problems]) from None
    return [[tuple(t) for t in rnd] for rnd in imported.rounds]


def _with_names(problem: str, names: dict[int, Registration]) -> str:
    """'player 7 is registered but ...' -> 'player 7 (Anna Nowak) is registered but ...'."""

    def named(match: re.Match[str]) -> str:
        number = int(match.group(1))
        entry = names.get(number)
        return f"player {number} ({entry.player.name})" if entry else match.group(0)

    return re.sub(r"player (\d+)", named, problem)
