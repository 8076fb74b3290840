"""A whole event scored: byes, walkouts, short tables, adjustments, classes and teams.

The rules are ``shared/rules/competitions.md`` (sections 2-7, 9 and 10); the
words of ``kop.py`` keep their meaning. Frozen dataclasses in, frozen
dataclasses out; nothing here imports Django.

Vocabulary (competitions.md §1)
-------------------------------
table decided by play
    A table of four where nobody walked out: the only kind that gives places,
    round wins and head-to-head. Its big points come from ``kop.table_places``
    (ties share exactly), so it hands out ``sum(big_points)``.
walkout
    A player (the *leaver*) left his table during the round. The three who
    *stay* get the event's ``walkout_score``, the leaver 0 big and 0 small;
    the deals played there are kept for the record and score nothing. All
    four count the round as played, nobody gets a place.
short table
    Three players from the start: each gets the ``walkout_score``, a round
    played, no place.
bye
    A round sat out: the ``bye_score``, counted in ``byes``, not a round
    played and not a place.
absent
    Neither at a table nor on a bye: nothing for the round. A player absent
    from every round is no *participant*: no row, no team count, no
    adjustment.
score rule
    ``"average"`` (``AVERAGE``: sum(big_points) / 4 big points, 0 small, as
    ``tournaments.seating.bye_big_points`` says) or a ``FixedScore`` such as
    the Polish Baśka Association's 3 big and 35 small.
adjustment
    A director's penalty or award to one participant, in whole numbers or
    exact halves, with a reason. It adds to the totals (so to the small-points
    tie-break and to team sums) and never changes a place at a table.
class
    A named group of players (W Women...): its standings are the overall
    standings restricted to its members; a rank stays shared only if another
    member shares it.
team, counted members
    A line-up of ``team_size_min``..``team_size_max`` players; the first
    ``team_counting`` participants in standings order (or all of them) make
    the team's sums, ranked like players without head-to-head.
net (Vint)
    A session total minus the exact mean of the table's four totals.

Entry points: ``kop_options`` and ``vint_options`` (options read from JSON-like
values, validated at once), ``score_kop_event`` and ``score_vint_event``;
``kop_event_problems`` and ``vint_event_problems`` list what is wrong with an
event without scoring it. Every problem is a ``RankingProblem`` with a code
and parameters, raised together in one ``RankingError``.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from scoring.engines.ranks import Criterion, by_key, rank, rank_label
from tournaments.seating.byes import bye_big_points

from .errors import RankingBug, RankingError, RankingParam, RankingProblem
from .groups import GROUP_TIE_BREAK_NAMES, rank_groups
from .kop import (
    KOP_TIE_BREAKS,
    KOSCIAN,
    TIE_BREAK_NAMES,
    SmallPoints,
    check_big_points,
    check_tie_breaks,
    head_to_head,
    is_points,
    kop_criterion,
    table_places,
)

#: The problem codes this module emits (a page says each in the reader's language).
CODES = frozenset(
    {
        "competition.class_code",
        "competition.class_label",
        "competition.class_repeated",
        "competition.classes_invalid",
        "competition.key_unknown",
        "competition.option_other_game",
        "competition.option_unknown",
        "competition.score_invalid",
        "competition.team_counting_invalid",
        "competition.team_size_invalid",
        "competition.team_sizes_crossed",
        "competition.tie_breaks_invalid",
        "event.adjustment_empty",
        "event.adjustment_not_half",
        "event.adjustment_not_participant",
        "event.adjustment_reason_blank",
        "event.adjustment_round_unknown",
        "event.class_repeated",
        "event.class_unknown",
        "event.no_result",
        "event.no_rounds",
        "event.player_id_invalid",
        "event.player_in_two_teams",
        "event.player_name_blank",
        "event.player_repeated",
        "event.player_twice_in_round",
        "event.player_unknown",
        "event.round_without_tables",
        "event.rubbers_won_invalid",
        "event.rubbers_won_odd",
        "event.short_with_result",
        "event.small_points_invalid",
        "event.small_points_sum",
        "event.table_size",
        "event.team_id_blank",
        "event.team_name_blank",
        "event.team_repeated",
        "event.team_size",
        "event.totals_invalid",
        "event.walkout_not_seated",
    }
)

AVERAGE: Literal["average"] = "average"

VINT_EVENT_TIE_BREAKS = ("rubbers_won", "total_points")
"""competitions.md §10: the default Vint order (the app's tournaments)."""
VINT_EVENT_TIE_BREAK_NAMES = ("rubbers_won", "total_points", "head_to_head")

KOP_OPTION_NAMES = (
    "big_points",
    "tie_breaks",
    "bye_score",
    "walkout_score",
    "classes",
    "team_size_min",
    "team_size_max",
    "team_counting",
)
VINT_OPTION_NAMES = ("tie_breaks", "classes")

Situation = Literal["table", "stayer", "leaver", "short", "bye", "absent"]

_SCALE = 12


# ============================================================================ problems


def _problem(
    code: str, text: str, where: str | None = None, **params: RankingParam
) -> RankingProblem:
    """A problem whose English line starts with ``where`` (``round 2, table 1: seats``)."""
    return RankingProblem(code, f"{where}: {text}" if where else text, params, where)


def shown(value: object) -> str:
    """A value as JSON would spell it, kept short (``"zolo"``, ``true``, ``[1, 2]``)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 80 else f"{text[:79]}…"


def is_int(value: object) -> bool:
    return type(value) is int


def is_half(value: object) -> bool:
    """A whole number or an exact half (the amounts an adjustment may give)."""
    return isinstance(value, int | Fraction) and is_points(value) and (value * 2) % 1 == 0


# ============================================================================ options


@dataclass(frozen=True, slots=True)
class FixedScore:
    """A fixed bye or walkout score: ``big`` and ``small`` points (PSB: 3 and 35)."""

    big: int
    small: int


ScoreRule = Literal["average"] | FixedScore


@dataclass(frozen=True, slots=True)
class ClassDef:
    """A class of the event: ``code`` (``"W"``) and ``label`` (``"Women"``)."""

    code: str
    label: str


@dataclass(frozen=True, slots=True)
class KopOptions:
    """Competition options of a Kop or Baśka event (competitions.md §10), defaults first.

    Constructing one with a bad value raises ``RankingError`` at once.
    """

    big_points: tuple[int, int, int, int] = KOSCIAN
    tie_breaks: tuple[str, ...] = KOP_TIE_BREAKS
    bye_score: ScoreRule = AVERAGE
    walkout_score: ScoreRule = AVERAGE
    classes: tuple[ClassDef, ...] = ()
    team_size_min: int = 4
    team_size_max: int = 5
    team_counting: int | Literal["all"] = 4

    def __post_init__(self) -> None:
        problems = _typed_kop_problems(self)
        if problems:
            raise RankingError(problems)


@dataclass(frozen=True, slots=True)
class VintOptions:
    """Competition options of a Vint event: tie-breaks after the net, classes."""

    tie_breaks: tuple[str, ...] = VINT_EVENT_TIE_BREAKS
    classes: tuple[ClassDef, ...] = ()

    def __post_init__(self) -> None:
        problems = _tie_break_problems(self.tie_breaks, VINT_EVENT_TIE_BREAK_NAMES)
        problems += _class_problems(self.classes)
        if problems:
            raise RankingError(problems)


def _tie_break_problems(names: Sequence[str], allowed: Sequence[str]) -> list[RankingProblem]:
    try:
        check_tie_breaks(names, allowed)
    except RankingError as error:
        return list(error.coded)
    return []


def _class_problems(classes: Sequence[ClassDef]) -> list[RankingProblem]:
    problems = []
    seen: set[str] = set()
    for i, c in enumerate(classes, 1):
        where = f"classes[{i}]"
        if not isinstance(c.code, str) or not c.code.strip():
            problems.append(_problem("competition.class_code", "a class needs a code", where))
        elif c.code in seen:
            text = f"class code {shown(c.code)} is given twice"
            problems.append(_problem("competition.class_repeated", text, where, class_code=c.code))
        else:
            seen.add(c.code)
        if not isinstance(c.label, str) or not c.label.strip():
            problems.append(_problem("competition.class_label", "a class needs a label", where))
    return problems


def _score_problems(name: str, score: object) -> list[RankingProblem]:
    if score == AVERAGE:
        return []
    if (
        isinstance(score, FixedScore)
        and is_int(score.big)
        and is_int(score.small)
        and score.big >= 0
    ):
        return []
    text = (
        'expected "average" or {"big": B, "small": S} (whole numbers, B >= 0), '
        f"got {shown(score)}"
    )
    return [_problem("competition.score_invalid", text, name, option=name)]


def _team_problems(size_min: object, size_max: object, counting: object) -> list[RankingProblem]:
    problems = []
    sizes: list[int] = []
    for name, value in (("team_size_min", size_min), ("team_size_max", size_max)):
        if isinstance(value, int) and is_int(value) and value >= 1:
            sizes.append(value)
        else:
            text = f"expected a whole number of at least 1, got {shown(value)}"
            problems.append(_problem("competition.team_size_invalid", text, name, option=name))
    low, high = sizes if len(sizes) == 2 else (1, None)
    if high is not None and low > high:
        text = f"team_size_min {low} is more than team_size_max {high}"
        problems.append(
            _problem("competition.team_sizes_crossed", text, "team_size_min", low=low, high=high)
        )
    if counting == "all":
        return problems
    if (
        not isinstance(counting, int)
        or not is_int(counting)
        or counting < 1
        or (high is not None and counting > high)
    ):
        text = f'expected "all" or a whole number from 1 to team_size_max, got {shown(counting)}'
        params: dict[str, RankingParam] = {"value": shown(counting)}
        if high is not None:
            params["high"] = high
        problems.append(
            RankingProblem(
                "competition.team_counting_invalid",
                f"team_counting: {text}",
                params,
                "team_counting",
            )
        )
    return problems


def _typed_kop_problems(o: KopOptions) -> list[RankingProblem]:
    problems: list[RankingProblem] = []
    try:
        check_big_points(o.big_points)
    except RankingError as error:
        problems += error.coded
    problems += _tie_break_problems(o.tie_breaks, TIE_BREAK_NAMES)
    problems += _score_problems("bye_score", o.bye_score)
    problems += _score_problems("walkout_score", o.walkout_score)
    problems += _class_problems(o.classes)
    problems += _team_problems(o.team_size_min, o.team_size_max, o.team_counting)
    return problems


def _read_score(name: str, value: object, problems: list[RankingProblem]) -> ScoreRule:
    if value == AVERAGE:
        return AVERAGE
    if (
        isinstance(value, dict)
        and set(value) == {"big", "small"}
        and is_int(value["big"])
        and is_int(value["small"])
        and value["big"] >= 0
    ):
        return FixedScore(value["big"], value["small"])
    problems += _score_problems(name, value)
    return AVERAGE


def _read_classes(value: object, problems: list[RankingProblem]) -> tuple[ClassDef, ...]:
    if not isinstance(value, list):
        text = f'expected a list of {{"code", "label"}}, got {shown(value)}'
        problems.append(_problem("competition.classes_invalid", text, "classes"))
        return ()
    out = []
    for i, item in enumerate(value, 1):
        where = f"classes[{i}]"
        if not isinstance(item, dict):
            text = f'expected {{"code", "label"}}, got {shown(item)}'
            problems.append(_problem("competition.classes_invalid", text, where))
            continue
        unknown = [k for k in item if k not in ("code", "label")]
        for key in unknown:
            text = "unknown key (allowed: code, label)"
            problems.append(
                _problem("competition.key_unknown", text, f"{where}.{key}", key=str(key))
            )
        code, label = item.get("code"), item.get("label")
        out.append(
            ClassDef(code if isinstance(code, str) else "", label if isinstance(label, str) else "")
        )
    problems += _class_problems(out)
    return tuple(out)


def _read_tie_breaks(
    value: object, allowed: Sequence[str], problems: list[RankingProblem]
) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        text = f"expected a list of tie-break names ({', '.join(allowed)}), got {shown(value)}"
        problems.append(_problem("competition.tie_breaks_invalid", text, "tie_breaks"))
        return None
    problems += _tie_break_problems(value, allowed)
    return tuple(value)


def _unknown_options(
    raw: Mapping[str, object], own: Sequence[str], other: Sequence[str], game: str
) -> list[RankingProblem]:
    problems = []
    for key in raw:
        if key in own:
            continue
        if key in other:
            text = f"not an option of a {game} event"
            problems.append(
                _problem(
                    "competition.option_other_game", text, str(key), option=str(key), game=game
                )
            )
        else:
            text = f"unknown option (allowed: {', '.join(own)})"
            problems.append(
                _problem(
                    "competition.option_unknown", text, str(key), option=str(key), allowed=list(own)
                )
            )
    return problems


def kop_options(raw: Mapping[str, object]) -> KopOptions:
    """Kop or Baśka options from JSON-like values (omitted ones take their defaults).

    Every unknown option and every bad value is reported at once in a ``RankingError``.
    """
    problems = _unknown_options(raw, KOP_OPTION_NAMES, VINT_OPTION_NAMES, "Kop or Baśka")
    defaults = KopOptions()
    big_points = defaults.big_points
    if "big_points" in raw:
        value = raw["big_points"]
        if isinstance(value, list) and len(value) == 4 and all(is_int(v) for v in value):
            try:
                big_points = check_big_points(value)
            except RankingError as error:
                problems += error.coded
        else:
            text = (
                "big points must be four whole numbers from 1st to 4th place, not rising: "
                f"{shown(value)}"
            )
            problems.append(
                _problem("ranking.big_points_invalid", text, "big_points", value=shown(value))
            )
    tie_breaks = defaults.tie_breaks
    if "tie_breaks" in raw:
        tie_breaks = _read_tie_breaks(raw["tie_breaks"], TIE_BREAK_NAMES, problems) or ()
    bye = _read_score("bye_score", raw.get("bye_score", AVERAGE), problems)
    walkout = _read_score("walkout_score", raw.get("walkout_score", AVERAGE), problems)
    classes = _read_classes(raw["classes"], problems) if "classes" in raw else ()
    size_min = raw.get("team_size_min", defaults.team_size_min)
    size_max = raw.get("team_size_max", defaults.team_size_max)
    counting = raw.get("team_counting", defaults.team_counting)
    problems += _team_problems(size_min, size_max, counting)
    if problems:
        raise RankingError(problems)
    return KopOptions(
        big_points=big_points,
        tie_breaks=tie_breaks,
        bye_score=bye,
        walkout_score=walkout,
        classes=classes,
        team_size_min=size_min,  # type: ignore[arg-type]
        team_size_max=size_max,  # type: ignore[arg-type]
        team_counting=counting,  # type: ignore[arg-type]
    )


def vint_options(raw: Mapping[str, object]) -> VintOptions:
    """Vint options from JSON-like values; ``RankingError`` with every problem."""
    other = [n for n in KOP_OPTION_NAMES if n not in VINT_OPTION_NAMES]
    problems = _unknown_options(raw, VINT_OPTION_NAMES, other, "Vint")
    tie_breaks: tuple[str, ...] | None = VINT_EVENT_TIE_BREAKS
    if "tie_breaks" in raw:
        tie_breaks = _read_tie_breaks(raw["tie_breaks"], VINT_EVENT_TIE_BREAK_NAMES, problems)
    classes = _read_classes(raw["classes"], problems) if "classes" in raw else ()
    if problems:
        raise RankingError(problems)
    return VintOptions(tie_breaks=tie_breaks or (), classes=classes)


#: The options of today's tournaments (competitions.md, "existing tournaments keep
#: today's results"): average byes and walkouts, every team member counted.
TODAY = KopOptions(team_counting="all", team_size_min=1, team_size_max=1_000)


def _score_json(rule: ScoreRule) -> object:
    if isinstance(rule, FixedScore):
        return {"big": rule.big, "small": rule.small}
    return AVERAGE


def kop_options_json(options: KopOptions) -> dict[str, object]:
    """Every option spelt out as JSON (``kop_options`` reads it back to equal options), so
    an exported event scores the same even if a later version changes a default."""
    return {
        "big_points": list(options.big_points),
        "tie_breaks": list(options.tie_breaks),
        "bye_score": _score_json(options.bye_score),
        "walkout_score": _score_json(options.walkout_score),
        "classes": [{"code": c.code, "label": c.label} for c in options.classes],
        "team_size_min": options.team_size_min,
        "team_size_max": options.team_size_max,
        "team_counting": options.team_counting,
    }


def vint_options_json(options: VintOptions) -> dict[str, object]:
    """Every Vint option spelt out as JSON (``vint_options`` reads it back)."""
    return {
        "tie_breaks": list(options.tie_breaks),
        "classes": [{"code": c.code, "label": c.label} for c in options.classes],
    }


# ============================================================================ input


@dataclass(frozen=True, slots=True)
class Player:
    """A player of the event: ``id`` (>= 1), ``name`` and the codes of his classes."""

    id: int
    name: str = ""
    classes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
    """One Kop or Baśka table in one round, ``players`` in seat order.

    Four players with ``small_points`` (one per seat, summing to 0) is a table
    decided by play; with ``walkout`` (the leaver's id) its small points, if
    any, are only the record. Three players and nothing else is a short table.
    ``number`` names the table in messages (its position when ``None``).
    """

    players: tuple[int, ...]
    small_points: tuple[SmallPoints, ...] | None = None
    walkout: int | None = None
    number: int | None = None

    @property
    def short(self) -> bool:
        return len(self.players) == 3


@dataclass(frozen=True, slots=True)
class KopRound:
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A penalty or award to one participant: whole numbers or exact halves, a reason.

    ``big`` and ``small`` for Kop and Baśka, ``net`` for Vint; ``round`` only
    says what it is about.
    """

    player: int
    reason: str
    big: Fraction = Fraction(0)
    small: Fraction = Fraction(0)
    net: Fraction = Fraction(0)
    round: int | None = None


@dataclass(frozen=True, slots=True)
class Team:
    """A team's ``id``, ``name`` and line-up (``members``) at this event."""

    id: str
    name: str
    members: tuple[int, ...]


@dataclass(frozen=True)
class KopEvent:
    players: tuple[Player, ...]
    rounds: tuple[KopRound, ...]
    options: KopOptions = KopOptions()
    adjustments: tuple[Adjustment, ...] = ()
    teams: tuple[Team, ...] = ()


@dataclass(frozen=True, slots=True)
class VintTable:
    """One Vint session: each seat's total and rubbers won (two winners per finished rubber)."""

    players: tuple[int, int, int, int]
    totals: tuple[SmallPoints, SmallPoints, SmallPoints, SmallPoints]
    rubbers_won: tuple[int, int, int, int] = (0, 0, 0, 0)
    number: int | None = None


@dataclass(frozen=True, slots=True)
class VintRound:
    tables: tuple[VintTable, ...]


@dataclass(frozen=True)
class VintEvent:
    players: tuple[Player, ...]
    rounds: tuple[VintRound, ...]
    options: VintOptions = VintOptions()
    adjustments: tuple[Adjustment, ...] = ()


# ============================================================================ output


@dataclass(frozen=True, slots=True)
class RoundScore:
    """What one player got in one round (competitions.md §2).

    ``table`` is the table's number (or position), ``None`` on a bye or absent;
    ``place`` only at a table decided by play.
    """

    round: int
    situation: Situation
    table: int | None
    big_points: Fraction
    small_points: Fraction
    place: int | None


@dataclass(frozen=True, slots=True)
class KopRow:
    player: int
    name: str
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
    walkouts: int
    adjustment_big: Fraction
    adjustment_small: Fraction
    rounds: tuple[RoundScore, ...]

    @property
    def rank_label(self) -> str:
        return rank_label(self.rank, self.tied)


@dataclass(frozen=True, slots=True)
class VintEventRow:
    player: int
    name: str
    rank: int
    tied: bool
    net: Fraction
    rubbers_won: int
    total_points: Fraction
    rounds_played: int
    adjustment_net: Fraction

    @property
    def rank_label(self) -> str:
        return rank_label(self.rank, self.tied)


@dataclass(frozen=True, slots=True)
class ClassRow:
    player: int
    rank: int
    tied: bool
    overall_rank: int
    overall_tied: bool

    @property
    def rank_label(self) -> str:
        return rank_label(self.rank, self.tied)

    @property
    def overall_rank_label(self) -> str:
        return rank_label(self.overall_rank, self.overall_tied)


@dataclass(frozen=True, slots=True)
class ClassStandings:
    code: str
    label: str
    rows: tuple[ClassRow, ...]


@dataclass(frozen=True, slots=True)
class TeamRow:
    team: str
    name: str
    rank: int
    tied: bool
    big_points: Fraction
    small_points: Fraction
    firsts: int
    seconds: int
    thirds: int
    fourths: int
    counted: tuple[int, ...]

    @property
    def rank_label(self) -> str:
        return rank_label(self.rank, self.tied)


@dataclass(frozen=True, slots=True)
class KopEventResult:
    individual: tuple[KopRow, ...]
    classes: tuple[ClassStandings, ...]
    teams: tuple[TeamRow, ...]
    adjustments: tuple[Adjustment, ...]


@dataclass(frozen=True, slots=True)
class VintEventResult:
    individual: tuple[VintEventRow, ...]
    classes: tuple[ClassStandings, ...]
    adjustments: tuple[Adjustment, ...]


# ============================================================================ checks


def _table_name(r: int, t: int, table: Table | VintTable) -> str:
    return f"round {r}, table {table.number if table.number is not None else t}"


def _player_problems(players: Sequence[Player], class_codes: set[str]) -> list[RankingProblem]:
    problems = []
    seen: set[int] = set()
    for i, player in enumerate(players, 1):
        where = f"player {player.id}" if is_int(player.id) else f"players[{i}]"
        if not is_int(player.id) or player.id < 1:
            text = f"id: expected a whole number of at least 1, got {shown(player.id)}"
            problems.append(_problem("event.player_id_invalid", text, where))
        elif player.id in seen:
            problems.append(
                _problem("event.player_repeated", "id: given twice", where, player=player.id)
            )
        seen.add(player.id)
        if not isinstance(player.name, str) or not player.name.strip():
            problems.append(_problem("event.player_name_blank", "name: the name is blank", where))
        for code in player.classes:
            if code not in class_codes:
                text = f"classes: {shown(code)} is not a class of the event"
                problems.append(_problem("event.class_unknown", text, where, class_code=str(code)))
        for code in sorted({c for c in player.classes if player.classes.count(c) > 1}):
            text = f"classes: {shown(code)} is given twice"
            problems.append(_problem("event.class_repeated", text, where, class_code=code))
    return problems


def _seat_problems(
    where: str,
    r: int,
    ids: Sequence[int],
    known: set[int],
    seen: dict[int, str],
    place: str,
) -> list[RankingProblem]:
    problems = []
    for p in ids:
        if p not in known:
            text = f"{shown(p)} is not a player of the event"
            problems.append(_problem("event.player_unknown", text, where, player=shown(p)))
        elif p in seen:
            text = (
                f"player {p} is twice in round {r} ({seen[p]} and {place})"
                if seen[p] != place
                else f"player {p} is given twice at {place} in round {r}"
            )
            problems.append(_problem("event.player_twice_in_round", text, where, player=p, round=r))
        else:
            seen[p] = place
    return problems


def _adjustment_problems(
    adjustments: Sequence[Adjustment], participants: set[int], rounds: int, keys: Sequence[str]
) -> list[RankingProblem]:
    problems = []
    for i, a in enumerate(adjustments, 1):
        where = f"adjustment {i}"
        if a.player not in participants:
            text = f"player: {shown(a.player)} takes part in no round of the event"
            problems.append(
                _problem(
                    "event.adjustment_not_participant",
                    text,
                    where,
                    player=a.player if is_int(a.player) else shown(a.player),
                )
            )
        if a.round is not None and (not is_int(a.round) or not 1 <= a.round <= rounds):
            text = f"round: {shown(a.round)} is not a round of the event (1..{rounds})"
            problems.append(_problem("event.adjustment_round_unknown", text, where, high=rounds))
        amounts = [getattr(a, key) for key in keys]
        for key, value in zip(keys, amounts, strict=True):
            if not is_half(value):
                text = f"{key}: {shown(str(value))} is neither a whole number nor an exact half"
                problems.append(_problem("event.adjustment_not_half", text, where, key=key))
        if all(is_points(v) and v == 0 for v in amounts):
            text = f"give {' or '.join(keys)}, not 0"
            problems.append(_problem("event.adjustment_empty", text, where, keys=list(keys)))
        if not isinstance(a.reason, str) or not a.reason.strip():
            problems.append(
                _problem("event.adjustment_reason_blank", "reason: missing or empty", where)
            )
    return problems


def _team_line_problems(event: KopEvent, known: set[int]) -> list[RankingProblem]:
    o = event.options
    problems = []
    ids: set[str] = set()
    team_of: dict[int, str] = {}
    for team in event.teams:
        where = f"team {team.id}"
        if not isinstance(team.id, str) or not team.id.strip():
            problems.append(_problem("event.team_id_blank", "id: missing or empty", where))
        elif team.id in ids:
            problems.append(_problem("event.team_repeated", "id: given twice", where, team=team.id))
        ids.add(team.id)
        if not isinstance(team.name, str) or not team.name.strip():
            problems.append(_problem("event.team_name_blank", "name: missing or empty", where))
        if not o.team_size_min <= len(team.members) <= o.team_size_max:
            text = (
                f"members: {len(team.members)} players, a line-up has "
                f"{o.team_size_min} to {o.team_size_max}"
            )
            problems.append(
                _problem(
                    "event.team_size",
                    text,
                    where,
                    size=len(team.members),
                    low=o.team_size_min,
                    high=o.team_size_max,
                )
            )
        for p in team.members:
            if p not in known:
                text = f"members: {shown(p)} is not a player of the event"
                problems.append(_problem("event.player_unknown", text, where, player=shown(p)))
            elif p in team_of:
                text = f"members: player {p} is also in team {team_of[p]}"
                problems.append(
                    _problem("event.player_in_two_teams", text, where, player=p, team=team_of[p])
                )
            else:
                team_of[p] = team.id
    return problems


def _round_problems(
    event: KopEvent | VintEvent, check_table: Callable[[str, Any], list[RankingProblem]]
) -> tuple[list[RankingProblem], set[int], set[int]]:
    """What is wrong with an event's players and rounds (its tables by ``check_table``),
    with the known player ids and the participants (at a table or on a bye)."""
    codes = {c.code for c in event.options.classes}
    problems = _player_problems(event.players, codes)
    known = {p.id for p in event.players}
    participants: set[int] = set()
    rounds: Sequence[KopRound | VintRound] = event.rounds
    if not rounds:
        problems.append(_problem("event.no_rounds", "an event needs at least one round", "rounds"))
    for r, rnd in enumerate(rounds, 1):
        seen: dict[int, str] = {}
        if not rnd.tables:
            problems.append(
                _problem(
                    "event.round_without_tables",
                    "a round needs at least one table",
                    f"round {r}",
                    round=r,
                )
            )
        tables: Sequence[Table | VintTable] = rnd.tables
        for t, table in enumerate(tables, 1):
            name = _table_name(r, t, table)
            place = f"table {table.number if table.number is not None else t}"
            problems += _seat_problems(f"{name}: seats", r, table.players, known, seen, place)
            participants.update(p for p in table.players if p in known)
            problems += check_table(name, table)
        byes = rnd.byes if isinstance(rnd, KopRound) else ()
        problems += _seat_problems(f"round {r}: byes", r, byes, known, seen, "the byes")
        participants.update(p for p in byes if p in known)
    return problems, known, participants


def kop_event_problems(event: KopEvent) -> list[RankingProblem]:
    """Everything wrong with a Kop or Baśka event, in input order (empty when none)."""
    problems, known, participants = _round_problems(event, _table_problems)
    problems += _team_line_problems(event, known)
    problems += _adjustment_problems(
        event.adjustments, participants, len(event.rounds), ("big", "small")
    )
    return problems


def _table_problems(name: str, table: Table) -> list[RankingProblem]:
    problems = []
    size = len(table.players)
    if size == 3:
        if table.small_points is not None or table.walkout is not None:
            text = "a short table has no result and no walkout"
            problems.append(_problem("event.short_with_result", text, name))
        return problems
    if size != 4:
        text = f"seats: {size} players; a table has 4 (3 only when short)"
        problems.append(_problem("event.table_size", text, name, size=size))
        return problems
    if table.walkout is not None and table.walkout not in table.players:
        text = f"walkout: player {shown(table.walkout)} is not at the table"
        problems.append(
            _problem("event.walkout_not_seated", text, name, player=shown(table.walkout))
        )
    small = table.small_points
    if small is None:
        if table.walkout is None:
            problems.append(_problem("event.no_result", "a table of four needs its result", name))
        return problems
    if len(small) != 4 or not all(is_points(v) for v in small):
        text = f"small_points: expected 4 whole numbers, got {shown([str(v) for v in small])}"
        problems.append(_problem("event.small_points_invalid", text, name))
    elif sum(small) != 0:
        text = f"small_points: sum to {sum(small)}, not 0"
        problems.append(_problem("event.small_points_sum", text, name, total=str(sum(small))))
    return problems


def _vint_table_problems(name: str, table: VintTable) -> list[RankingProblem]:
    problems = []
    if len(table.players) != 4:
        text = f"seats: {len(table.players)} players; a Vint table has 4"
        problems.append(_problem("event.table_size", text, name, size=len(table.players)))
    if len(table.totals) != 4 or not all(is_points(v) for v in table.totals):
        text = f"totals: expected 4 whole numbers, got {shown([str(v) for v in table.totals])}"
        problems.append(_problem("event.totals_invalid", text, name))
    won = table.rubbers_won
    if len(won) != 4 or not all(is_int(v) and v >= 0 for v in won):
        text = f"rubbers_won: expected 4 whole numbers of at least 0, got {shown(list(won))}"
        problems.append(_problem("event.rubbers_won_invalid", text, name))
    elif sum(won) % 2:
        text = f"rubbers_won: add up to {sum(won)}; each finished rubber has two winners"
        problems.append(_problem("event.rubbers_won_odd", text, name, total=sum(won)))
    return problems


def vint_event_problems(event: VintEvent) -> list[RankingProblem]:
    """Everything wrong with a Vint event (empty when none)."""
    problems, _known, participants = _round_problems(event, _vint_table_problems)
    problems += _adjustment_problems(event.adjustments, participants, len(event.rounds), ("net",))
    return problems


# ============================================================================ scoring


def _score_of(rule: ScoreRule, big_points: Sequence[int]) -> tuple[Fraction, Fraction]:
    if isinstance(rule, FixedScore):
        return Fraction(rule.big), Fraction(rule.small)
    return bye_big_points(big_points), Fraction(0)


class _Tally:
    __slots__ = (
        "big",
        "small",
        "places",
        "played",
        "byes",
        "walkouts",
        "tables",
        "rounds",
        "adj_big",
        "adj_small",
    )

    def __init__(self) -> None:
        self.big = Fraction(0)
        self.small = Fraction(0)
        self.places = [0, 0, 0, 0]
        self.played = 0
        self.byes = 0
        self.walkouts = 0
        self.tables: list[int] = []
        self.rounds: list[RoundScore] = []
        self.adj_big = Fraction(0)
        self.adj_small = Fraction(0)

    def add(self, score: RoundScore) -> None:
        self.big += score.big_points
        self.small += score.small_points
        self.rounds.append(score)


def _raise_problems(problems: list[RankingProblem]) -> None:
    if problems:
        raise RankingError(problems)


def score_kop_event(event: KopEvent) -> KopEventResult:
    """The standings of a Kop or Baśka event: individual, per class, teams.

    ``RankingError`` lists every problem of the event (``kop_event_problems``).
    """
    _raise_problems(kop_event_problems(event))
    o = event.options
    tally: defaultdict[int, _Tally] = defaultdict(_Tally)
    played_tables: list[list[tuple[int, SmallPoints]]] = []
    walkout = _score_of(o.walkout_score, o.big_points)
    bye = _score_of(o.bye_score, o.big_points)
    nothing = (Fraction(0), Fraction(0))
    for r, rnd in enumerate(event.rounds, 1):
        for t, table in enumerate(rnd.tables, 1):
            number = table.number if table.number is not None else t
            if table.short or table.walkout is not None:
                for p in table.players:
                    situation: Situation = (
                        "short" if table.short else "leaver" if p == table.walkout else "stayer"
                    )
                    big, small = nothing if situation == "leaver" else walkout
                    row = tally[p]
                    row.played += 1
                    row.walkouts += situation == "leaver"
                    row.add(RoundScore(r, situation, number, big, small, None))
                continue
            if table.small_points is None:
                raise RankingBug(f"round {r}, table {number} passed the checks with no result")
            entries = list(zip(table.players, table.small_points, strict=True))
            table_id = len(played_tables)
            played_tables.append(entries)
            for p, points, scaled, place in table_places(entries, o.big_points):
                row = tally[p]
                row.played += 1
                row.places[place - 1] += 1
                row.tables.append(table_id)
                row.add(
                    RoundScore(
                        r, "table", number, Fraction(scaled, _SCALE), Fraction(points), place
                    )
                )
        for p in rnd.byes:
            tally[p].byes += 1
            tally[p].add(RoundScore(r, "bye", None, bye[0], bye[1], None))
    for a in event.adjustments:
        row = tally[a.player]
        row.adj_big += a.big
        row.adj_small += a.small
        row.big += a.big
        row.small += a.small
    for row in tally.values():
        there = {s.round for s in row.rounds}
        row.rounds.extend(
            RoundScore(r, "absent", None, Fraction(0), Fraction(0), None)
            for r in range(1, len(event.rounds) + 1)
            if r not in there
        )
        row.rounds.sort(key=lambda s: s.round)

    criteria: list[Criterion[int]] = [by_key(lambda p: tally[p].big)]
    criteria += [kop_criterion(name, tally, played_tables) for name in o.tie_breaks]
    names = {p.id: p.name for p in event.players}
    individual = tuple(
        KopRow(
            player=p,
            name=names[p],
            rank=place,
            tied=tied,
            big_points=tally[p].big,
            small_points=tally[p].small,
            firsts=tally[p].places[0],
            seconds=tally[p].places[1],
            thirds=tally[p].places[2],
            fourths=tally[p].places[3],
            rounds_played=tally[p].played,
            byes=tally[p].byes,
            walkouts=tally[p].walkouts,
            adjustment_big=tally[p].adj_big,
            adjustment_small=tally[p].adj_small,
            rounds=tuple(tally[p].rounds),
        )
        for p, place, tied in rank(sorted(tally), criteria)
    )
    return KopEventResult(
        individual=individual,
        classes=class_standings(individual, event.players, o.classes),
        teams=team_standings(individual, event.teams, o.team_counting, o.tie_breaks),
        adjustments=event.adjustments,
    )


def class_standings(
    individual: Sequence[KopRow] | Sequence[VintEventRow],
    players: Sequence[Player],
    classes: Sequence[ClassDef],
) -> tuple[ClassStandings, ...]:
    """Each class's standings: the overall order restricted to its members (§6).

    Class rank = 1 + the members with a better overall rank; a rank stays shared
    only if another member shares it.
    """
    member_of = {p.id: set(p.classes) for p in players}
    out = []
    for c in classes:
        rows = [row for row in individual if c.code in member_of.get(row.player, set())]
        ranks = [row.rank for row in rows]
        out.append(
            ClassStandings(
                c.code,
                c.label,
                tuple(
                    ClassRow(
                        player=row.player,
                        rank=1 + sum(other < row.rank for other in ranks),
                        tied=ranks.count(row.rank) > 1,
                        overall_rank=row.rank,
                        overall_tied=row.tied,
                    )
                    for row in rows
                ),
            )
        )
    return tuple(out)


def team_standings(
    individual: Sequence[KopRow],
    teams: Sequence[Team],
    counting: int | Literal["all"],
    tie_breaks: Sequence[str] = KOP_TIE_BREAKS,
) -> tuple[TeamRow, ...]:
    """Teams ranked on their counted members' sums (§7) as ``groups.rank_groups`` ranks
    pairs and teams, tie-breaks without head-to-head; tied teams keep their input order.

    Counted members: the team's participants in standings order (``individual``), the
    first ``counting`` of them, or all.
    """
    position = {row.player: i for i, row in enumerate(individual)}
    counted: dict[int, list[KopRow]] = {}
    for i, team in enumerate(teams):
        present = sorted((p for p in team.members if p in position), key=position.__getitem__)
        rows = [individual[position[p]] for p in present]
        counted[i] = rows if counting == "all" else rows[:counting]
    names = [name for name in tie_breaks if name in GROUP_TIE_BREAK_NAMES]
    return tuple(
        TeamRow(
            team=teams[g.group].id,
            name=teams[g.group].name,
            rank=g.rank,
            tied=g.tied,
            big_points=g.big_points,
            small_points=g.small_points,
            firsts=g.firsts,
            seconds=g.seconds,
            thirds=g.thirds,
            fourths=g.fourths,
            counted=g.members,
        )
        for g in rank_groups(counted, names)
    )


def score_vint_event(event: VintEvent) -> VintEventResult:
    """Vint standings (§9): the sum of exact nets plus adjustments, then the tie-breaks."""
    _raise_problems(vint_event_problems(event))
    net: dict[int, Fraction] = {}
    won: dict[int, int] = {}
    total: dict[int, Fraction] = {}
    played: dict[int, list[int]] = {}
    adjusted: dict[int, Fraction] = {}
    tables: list[list[tuple[int, SmallPoints]]] = []
    for rnd in event.rounds:
        for table in rnd.tables:
            mean = Fraction(sum(table.totals), 4)
            tables.append(list(zip(table.players, table.totals, strict=True)))
            for p, value, rubbers in zip(
                table.players, table.totals, table.rubbers_won, strict=True
            ):
                net[p] = net.get(p, Fraction(0)) + value - mean
                won[p] = won.get(p, 0) + rubbers
                total[p] = total.get(p, Fraction(0)) + Fraction(value)
                played.setdefault(p, []).append(len(tables) - 1)
    for a in event.adjustments:
        net[a.player] += a.net
        adjusted[a.player] = adjusted.get(a.player, Fraction(0)) + a.net
    criteria: list[Criterion[int]] = [by_key(net.__getitem__)]
    for name in event.options.tie_breaks:
        if name == "rubbers_won":
            criteria.append(by_key(won.__getitem__))
        elif name == "total_points":
            criteria.append(by_key(total.__getitem__))
        elif name == "head_to_head":
            criteria.append(lambda group: head_to_head(group, played, tables))
        else:
            raise RankingBug(f"tie-break {name!r} passed the check but has no key")
    names = {p.id: p.name for p in event.players}
    individual = tuple(
        VintEventRow(
            player=p,
            name=names[p],
            rank=place,
            tied=tied,
            net=net[p],
            rubbers_won=won[p],
            total_points=total[p],
            rounds_played=len(played[p]),
            adjustment_net=adjusted.get(p, Fraction(0)),
        )
        for p, place, tied in rank(sorted(net), criteria)
    )
    return VintEventResult(
        individual=individual,
        classes=class_standings(individual, event.players, event.options.classes),
        adjustments=event.adjustments,
    )
