"""A Vint rubber: games, lines, the rubber and its extra deals (``rules/vint.md`` §4.9).

Vocabulary
----------
part-score
    A side's below-the-line total since the last line.
game
    A side whose part-score reaches 60 (x ``scale``). No points in itself.
    Then a **line** is drawn and both sides' part-scores restart at 0. When
    both sides pass 60 on one deal, ``simultaneous_game`` (A17) decides.
rubber
    Won by the first side to two games, which scores 400 (the rubber
    bonus). The four **extra deals** that follow are played whoever wins
    them; then the rubber is over. A side completing its 3rd, 4th, ... game
    in them scores 200 x the game's number (``extra_game_count``, A18).
phase
    "main" up to and including the deal that wins the rubber, then "extra".
unfinished rubber
    One stopped by a time limit before a side won it: its entries stand and
    nothing is added, unless ``unfinished_rubber_bonus`` (A27) says so.
totals
    A side's total is the sum of all its entries, unless
    ``totals_above_only`` (A19) or ``round_to_100`` (A30).

``rubber_apply`` plays one deal into a ``RubberState``; it is on the hot
path with ``score.score_deal``, and like ``DealEntries`` its per-deal
objects fill their fields directly (see the note in ``score``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal, cast

from scoring.engines.errors import EngineBug, RuleError
from scoring.engines.vint.facts import MULTIPLIER, VintDeal
from scoring.engines.vint.options import DEFAULT_RULES, VintRules
from scoring.engines.vint.score import DealEntries, Entry, make_entry, score_deal
from scoring.engines.vint.table import OTHER_SIDE, SIDE_OF, Side

Phase = Literal["main", "extra"]

EXTRA_DEALS: Final = 4
GAME_POINTS: Final = 60
RUBBER_BONUS: Final = 400
EXTRA_GAME_UNIT: Final = 200

#: Every problem code this module can emit (see ``errors.py``).
CODES: Final = frozenset({"vint.rubber_over"})


@dataclass(frozen=True, init=False)
class RubberState:
    """Where a rubber stands between deals.

    ``part_*`` are the below-the-line totals since the last line (the
    part-scores). ``winner`` is None until a side has two games; from then on
    ``extra_played`` counts the extra deals played (the rubber is over at 4).
    """

    games_ns: int
    games_ew: int
    part_ns: int
    part_ew: int
    winner: Side | None
    extra_played: int
    deals_played: int

    def __init__(
        self,
        games_ns: int = 0,
        games_ew: int = 0,
        part_ns: int = 0,
        part_ew: int = 0,
        winner: Side | None = None,
        extra_played: int = 0,
        deals_played: int = 0,
    ) -> None:
        attrs = self.__dict__
        attrs["games_ns"] = games_ns
        attrs["games_ew"] = games_ew
        attrs["part_ns"] = part_ns
        attrs["part_ew"] = part_ew
        attrs["winner"] = winner
        attrs["extra_played"] = extra_played
        attrs["deals_played"] = deals_played

    @property
    def finished(self) -> bool:
        return self.winner is not None and self.extra_played >= EXTRA_DEALS

    @property
    def phase(self) -> Phase:
        """The phase the next deal is played in."""
        return "main" if self.winner is None else "extra"

    def games(self, side: Side) -> int:
        return self.games_ns if side == "NS" else self.games_ew

    def part(self, side: Side) -> int:
        return self.part_ns if side == "NS" else self.part_ew


NEW_RUBBER: Final = RubberState()


@dataclass(frozen=True, init=False)
class DealOutcome:
    """One deal as the rubber sees it.

    ``entries`` is what the cards scored; ``bonuses`` what the rubber adds on
    this deal (the rubber bonus or an extra-deal game bonus). ``state`` is the
    rubber after the deal; ``phase`` the phase the deal was played in
    ("main" up to and including the deal that wins the rubber);
    ``extra_deal`` is 1..4 for extra deals, else 0 (also 0 for a redealt
    all-pass deal, which does not count). ``games_won`` lists the sides that
    made a game on this deal (a line was drawn), first-numbered first.
    """

    entries: DealEntries
    bonuses: tuple[Entry, ...]
    state: RubberState
    phase: Phase
    extra_deal: int
    games_won: tuple[Side, ...]

    def __init__(
        self,
        entries: DealEntries,
        bonuses: tuple[Entry, ...],
        state: RubberState,
        phase: Phase,
        extra_deal: int,
        games_won: tuple[Side, ...],
    ) -> None:
        attrs = self.__dict__
        attrs["entries"] = entries
        attrs["bonuses"] = bonuses
        attrs["state"] = state
        attrs["phase"] = phase
        attrs["extra_deal"] = extra_deal
        attrs["games_won"] = games_won

    @property
    def above_ns(self) -> int:
        return self.entries.above_ns + sum(b.points for b in self.bonuses if b.side == "NS")

    @property
    def above_ew(self) -> int:
        return self.entries.above_ew + sum(b.points for b in self.bonuses if b.side == "EW")

    @property
    def below_ns(self) -> int:
        return self.entries.below_ns

    @property
    def below_ew(self) -> int:
        return self.entries.below_ew

    def above(self, side: Side) -> int:
        return self.above_ns if side == "NS" else self.above_ew

    def below(self, side: Side) -> int:
        return self.entries.below(side)

    def total(self, side: Side) -> int:
        return self.above(side) + self.below(side)

    @property
    def all_entries(self) -> tuple[Entry, ...]:
        return self.entries.entries + self.bonuses

    @property
    def games_ns(self) -> int:
        return self.state.games_ns

    @property
    def games_ew(self) -> int:
        return self.state.games_ew

    def games(self, side: Side) -> int:
        return self.state.games(side)

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def rubber_winner(self) -> Side | None:
        return self.state.winner

    @property
    def line_drawn(self) -> bool:
        return bool(self.games_won)


def rubber_apply(
    state: RubberState, deal: VintDeal, rules: VintRules = DEFAULT_RULES
) -> tuple[RubberState, DealOutcome]:
    """Play ``deal`` into the rubber: games, lines, rubber and extra-game bonuses (§4.9).

    Raises ``RuleError`` for a deal that fails an entry check, or when the
    rubber is already over (after its fourth extra deal).
    """
    winner = state.winner
    if winner is not None and state.extra_played >= EXTRA_DEALS:
        raise RuleError(
            f"the rubber is over: it ended with deal {state.deals_played}, the fourth "
            "extra deal after the rubber was won",
            code="vint.rubber_over",
            params={"deal": state.deals_played},
        )
    entries = score_deal(deal, rules)
    contract = deal.contract
    if contract is None and rules.all_pass == "redeal":
        # Not played, so it scores nothing and does not use up an extra deal.
        new = RubberState(
            state.games_ns,
            state.games_ew,
            state.part_ns,
            state.part_ew,
            winner,
            state.extra_played,
            state.deals_played + 1,
        )
        return new, DealOutcome(entries, (), new, state.phase, 0, ())

    gain_ns = entries.below_ns
    gain_ew = entries.below_ew
    if rules.game_uses_undoubled_tricks and deal.doubling:
        m = MULTIPLIER[deal.doubling]
        gain_ns //= m
        gain_ew //= m
    part_ns = state.part_ns + gain_ns
    part_ew = state.part_ew + gain_ew
    threshold = GAME_POINTS * rules.scale
    won: tuple[Side, ...]
    if part_ns >= threshold:
        won = _simultaneous(part_ns, part_ew, deal, rules) if part_ew >= threshold else ("NS",)
    elif part_ew >= threshold:
        won = ("EW",)
    else:
        won = ()

    games_ns = state.games_ns
    games_ew = state.games_ew
    bonuses: tuple[Entry, ...] = ()
    if won:
        part_ns = part_ew = 0
        before = games_ns + games_ew
        for side in won:
            if side == "NS":
                games_ns += 1
            else:
                games_ew += 1
        if winner is None:
            if games_ns >= 2 or games_ew >= 2:
                # Under simultaneous_game=both a deal can bring both sides to
                # two games; the side first in ``won`` took its game first.
                winner = (
                    won[0]
                    if (games_ns >= 2 and games_ew >= 2)
                    else ("NS" if games_ns >= 2 else "EW")
                )
                bonuses = (make_entry(winner, "above", "rubber", RUBBER_BONUS),)
        else:
            earned: list[Entry] = []
            for number, side in enumerate(won, before + 1):
                if rules.extra_game_count == "per_side":
                    k = games_ns if side == "NS" else games_ew
                else:
                    k = number
                if k >= 3:
                    earned.append(make_entry(side, "above", "extra_game", EXTRA_GAME_UNIT * k, k))
            bonuses = tuple(earned)

    if state.winner is None:
        phase: Phase = "main"
        extra_played = 0
    else:
        phase = "extra"
        extra_played = state.extra_played + 1
    new = RubberState(
        games_ns, games_ew, part_ns, part_ew, winner, extra_played, state.deals_played + 1
    )
    return new, DealOutcome(entries, bonuses, new, phase, extra_played, won)


def _simultaneous(part_ns: int, part_ew: int, deal: VintDeal, rules: VintRules) -> tuple[Side, ...]:
    # Only a contract writes below the line, so there is a declarer here.
    declaring = SIDE_OF[cast(str, deal.declarer)]
    mode = rules.simultaneous_game
    if mode == "declarer_first":
        return (declaring,)
    if part_ns != part_ew:
        first: Side = "NS" if part_ns > part_ew else "EW"
    else:
        first = declaring
    if mode == "both":
        return (first, OTHER_SIDE[first])
    return (first,)


def rubber_close(state: RubberState, rules: VintRules = DEFAULT_RULES) -> tuple[Entry, ...]:
    """Entries for a rubber stopped by a time limit before a side won it (A27).

    By default the entries stand and nothing is added. Under
    ``unfinished_rubber_bonus=200_per_game_lead`` the side ahead in games
    scores 200 per game of its lead. A rubber already won keeps its rubber
    bonus and gets nothing more.
    """
    if rules.unfinished_rubber_bonus == "none" or state.winner is not None:
        return ()
    lead = state.games_ns - state.games_ew
    if lead == 0:
        return ()
    side: Side = "NS" if lead > 0 else "EW"
    return (make_entry(side, "above", "unfinished_rubber", 200 * abs(lead), abs(lead)),)


@dataclass(frozen=True, slots=True)
class RubberResult:
    """A rubber scored deal by deal, with its side totals.

    ``closing`` holds the unfinished-rubber entries (A27), if any; ``sums``
    what the deals wrote (``above_*`` add ``closing`` to it).
    ``total_*`` apply ``totals_above_only`` and ``round_to_100``; without
    them a side's total is the sum of all its entries.
    """

    outcomes: tuple[DealOutcome, ...]
    state: RubberState
    sums: RubberSums
    closing: tuple[Entry, ...]
    above_ns: int
    above_ew: int
    below_ns: int
    below_ew: int
    total_ns: int
    total_ew: int

    @property
    def winner(self) -> Side | None:
        return self.state.winner

    @property
    def finished(self) -> bool:
        return self.state.finished

    def above(self, side: Side) -> int:
        return self.above_ns if side == "NS" else self.above_ew

    def below(self, side: Side) -> int:
        return self.below_ns if side == "NS" else self.below_ew

    def total(self, side: Side) -> int:
        return self.total_ns if side == "NS" else self.total_ew


def score_rubber(
    deals: Iterable[VintDeal], rules: VintRules = DEFAULT_RULES, *, closed: bool = False
) -> RubberResult:
    """Play ``deals`` as one rubber from the start.

    ``closed=True`` means play stopped here (a time limit): ``rubber_close``
    entries are added for a rubber nobody has won yet.
    """
    state = NEW_RUBBER
    outcomes: list[DealOutcome] = []
    sums = RubberSums()
    for deal in deals:
        state, outcome = rubber_apply(state, deal, rules)
        outcomes.append(outcome)
        sums = sums.plus(outcome)
    return rubber_result(state, sums, rules, closed=closed, outcomes=tuple(outcomes))


@dataclass(frozen=True, slots=True)
class RubberSums:
    """A rubber's side sums above and below the line over its deals so far: with its
    ``RubberState`` all that its totals need (``rubber_result``), so that a rubber can
    be kept going deal by deal without playing its deals again."""

    above_ns: int = 0
    above_ew: int = 0
    below_ns: int = 0
    below_ew: int = 0

    def plus(self, outcome: DealOutcome) -> RubberSums:
        return RubberSums(
            self.above_ns + outcome.above_ns,
            self.above_ew + outcome.above_ew,
            self.below_ns + outcome.below_ns,
            self.below_ew + outcome.below_ew,
        )


def rubber_result(
    state: RubberState,
    sums: RubberSums,
    rules: VintRules = DEFAULT_RULES,
    *,
    closed: bool = False,
    outcomes: tuple[DealOutcome, ...] = (),
) -> RubberResult:
    """A rubber's totals where it stands (``state``) after deals that wrote ``sums``:
    the unfinished-rubber entries when ``closed`` (A27), then ``totals_above_only``
    and ``round_to_100``. ``outcomes`` are the deals, when the caller played them."""
    above_ns, above_ew = sums.above_ns, sums.above_ew
    closing = rubber_close(state, rules) if closed else ()
    for entry in closing:
        if entry.side == "NS":
            above_ns += entry.points
        else:
            above_ew += entry.points
    below_ns, below_ew = sums.below_ns, sums.below_ew
    total_ns = above_ns if rules.totals_above_only else above_ns + below_ns
    total_ew = above_ew if rules.totals_above_only else above_ew + below_ew
    if rules.round_to_100:
        total_ns = round_half_away(total_ns, 100) * 100
        total_ew = round_half_away(total_ew, 100) * 100
    return RubberResult(
        outcomes, state, sums, closing, above_ns, above_ew, below_ns, below_ew, total_ns, total_ew
    )


def round_half_away(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to an integer, halves away from zero."""
    if denominator <= 0:
        raise EngineBug("denominator must be positive")
    q, r = divmod(abs(numerator), denominator)
    if 2 * r >= denominator:
        q += 1
    return q if numerator >= 0 else -q
