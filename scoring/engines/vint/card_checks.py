"""The entry checks of a Vint deal's cards (``rules/vint.md`` §5): holdings and ace dumps.

Called by ``checks.deal_problems`` once the kind of deal is known. Each
check appends ``DealProblem``s to ``out`` in field order.

Vocabulary
----------
holding premiums
    Aces in hand (one player with 3 or 4 aces) and sequences (a run headed
    by an ace in one hand, or in one side under ``sequences_partnership``).
    They score at suit and grand contracts, and in misère and all-pass deals
    only under ``holdings_in_misere`` (A11).
aces implied
    Each run is headed by an ace and there is one ace per suit, so the runs
    and aces in hand say how many aces each side holds at least. That count
    must fit ``grand_aces`` at grand (omitted there means a 2-2 split) and
    the honour units at a suit contract (a trump run of n cards also holds
    min(n, 5) trump honours).
ace dumps
    At most one per seat and trick, at most four in all; the dumps on one
    trick come from one side (the other side won it); a side cannot lose
    aces on more tricks than the other side took; the eldest leads trick 1,
    and a led ace wins its trick.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from scoring.engines.errors import Params, show_value
from scoring.engines.vint.facts import SUIT_BY_NAME, DealProblem, Holding, VintDeal, in_range
from scoring.engines.vint.options import VintRules
from scoring.engines.vint.table import (
    OTHER_SIDE,
    SEAT_BY_NAME,
    SEATS,
    SIDE_OF,
    SIDES,
    TRICKS,
    Seat,
    Side,
)

#: Every problem code this module can emit (see ``errors.py``).
CODES: Final = frozenset(
    {
        "vint.ace_dump_eldest_leads",
        "vint.ace_dump_repeated",
        "vint.ace_dumps_both_sides",
        "vint.ace_dumps_exceed_tricks",
        "vint.ace_dumps_too_many",
        "vint.aces_in_hand_implied",
        "vint.aces_in_hand_several",
        "vint.aces_too_many",
        "vint.dump_trick_out_of_range",
        "vint.grand_aces_contradicted",
        "vint.grand_aces_contradicted_split",
        "vint.hand_count_out_of_range",
        "vint.holdings_not_here",
        "vint.honours_contradicted",
        "vint.seat_invalid",
        "vint.sequence_length_out_of_range",
        "vint.sequence_suit_repeated",
        "vint.sequences_exceed_aces_in_hand",
        "vint.sequences_too_long_hand",
        "vint.sequences_too_long_side",
        "vint.suit_invalid",
    }
)


def check_hand_and_runs(
    deal: VintDeal,
    allowed: bool,
    why_not: str,
    here: Params,
    rules: VintRules,
    out: list[DealProblem],
) -> tuple[bool, bool]:
    hand_ok = True
    if deal.aces_in_hand:
        if not allowed:
            out.append(
                DealProblem(
                    "aces_in_hand",
                    f"no holding premiums here; {why_not}",
                    "vint.holdings_not_here",
                    dict(here),
                )
            )
            hand_ok = False
        elif len(deal.aces_in_hand) > 1:
            out.append(
                DealProblem(
                    "aces_in_hand",
                    f"{len(deal.aces_in_hand)} players given; only one player can hold 3 or 4 aces",
                    "vint.aces_in_hand_several",
                    {"count": len(deal.aces_in_hand)},
                )
            )
            hand_ok = False
        for i, hand in enumerate(deal.aces_in_hand, 1):
            if hand.seat not in SEAT_BY_NAME:
                out.append(
                    DealProblem(
                        f"aces_in_hand[{i}].seat",
                        f"{show_value(hand.seat)} is not a seat",
                        "vint.seat_invalid",
                        {"value": show_value(hand.seat), "index": i},
                        "aces_in_hand",
                    )
                )
                hand_ok = False
            if not in_range(
                out,
                f"aces_in_hand[{i}].count",
                hand.count,
                3,
                4,
                "vint.hand_count_out_of_range",
                root="aces_in_hand",
                index=i,
            ):
                hand_ok = False
    seq_ok = True
    if deal.sequences:
        if not allowed:
            out.append(
                DealProblem(
                    "sequences",
                    f"no holding premiums here; {why_not}",
                    "vint.holdings_not_here",
                    dict(here),
                )
            )
            seq_ok = False
        seen: dict[str, int] = {}
        cards: dict[str, int] = {}
        for i, run in enumerate(deal.sequences, 1):
            if run.seat not in SEAT_BY_NAME:
                out.append(
                    DealProblem(
                        f"sequences[{i}].seat",
                        f"{show_value(run.seat)} is not a seat",
                        "vint.seat_invalid",
                        {"value": show_value(run.seat), "index": i},
                        "sequences",
                    )
                )
                seq_ok = False
            if run.suit not in SUIT_BY_NAME:
                out.append(
                    DealProblem(
                        f"sequences[{i}].suit",
                        f"{show_value(run.suit)} is not a suit (S, C, D, H)",
                        "vint.suit_invalid",
                        {"value": show_value(run.suit), "index": i},
                        "sequences",
                    )
                )
                seq_ok = False
            elif run.suit in seen:
                out.append(
                    DealProblem(
                        f"sequences[{i}].suit",
                        f"a second run headed by the {run.suit} ace "
                        f"(see sequences[{seen[run.suit]}]); there is one ace per suit",
                        "vint.sequence_suit_repeated",
                        {"suit": run.suit, "index": i, "first": seen[run.suit]},
                        "sequences",
                    )
                )
                seq_ok = False
            else:
                seen[run.suit] = i
            if not in_range(
                out,
                f"sequences[{i}].length",
                run.length,
                3,
                TRICKS,
                "vint.sequence_length_out_of_range",
                root="sequences",
                index=i,
            ):
                seq_ok = False
            elif run.seat in SEAT_BY_NAME:
                holder: str = SIDE_OF[run.seat] if rules.sequences_partnership else run.seat
                cards[holder] = cards.get(holder, 0) + run.length
        limit = 2 * TRICKS if rules.sequences_partnership else TRICKS
        for holder, n in cards.items():
            if n > limit:
                if rules.sequences_partnership:
                    whose = f"side {holder}"
                    code, params = "vint.sequences_too_long_side", {"side": holder}
                else:
                    whose = f"{holder}'s hand"
                    code, params = "vint.sequences_too_long_hand", {"seat": holder}
                out.append(
                    DealProblem(
                        "sequences",
                        f"the runs in {whose} add up to {n} cards; it holds {limit}",
                        code,
                        {**params, "cards": n, "limit": limit},
                    )
                )
                seq_ok = False
    return hand_ok, seq_ok


def check_aces(
    deal: VintDeal,
    denom: str | None,
    rules: VintRules,
    *,
    honours: Holding | None,
    grand: bool,
    unknown: frozenset[str],
    out: list[DealProblem],
) -> None:
    """Aces implied by aces_in_hand and the runs against honours / grand_aces (§5)."""
    if "aces_in_hand" in unknown or "sequences" in unknown:
        return
    if not deal.aces_in_hand and not deal.sequences:
        return  # nothing implies any ace or honour
    hand = deal.aces_in_hand[0] if deal.aces_in_hand else None
    least: dict[Side, int] = {"NS": 0, "EW": 0}
    if rules.sequences_partnership:
        suits_of_side: dict[Side, set[str]] = {"NS": set(), "EW": set()}
        for run in deal.sequences:
            suits_of_side[SIDE_OF[run.seat]].add(run.suit)
        for side in SIDES:
            in_hand = hand.count if hand is not None and SIDE_OF[hand.seat] == side else 0
            least[side] = max(in_hand, len(suits_of_side[side]))
    else:
        suits_of_seat: dict[str, set[str]] = {}
        for run in deal.sequences:
            suits_of_seat.setdefault(run.seat, set()).add(run.suit)
        for seat in SEATS:
            suits = suits_of_seat.get(seat, set())
            if hand is not None and hand.seat == seat:
                if len(suits) > hand.count:
                    out.append(
                        DealProblem(
                            "sequences",
                            f"{seat} has runs headed by {len(suits)} aces, but aces_in_hand "
                            f"gives {seat} {hand.count}",
                            "vint.sequences_exceed_aces_in_hand",
                            {"seat": seat, "runs": len(suits), "aces": hand.count},
                        )
                    )
                    return
                least[SIDE_OF[seat]] += hand.count
            else:
                if len(suits) >= 3:
                    out.append(
                        DealProblem(
                            "aces_in_hand",
                            f"{seat} has runs headed by {len(suits)} aces, so {seat} holds "
                            f"{len(suits)} aces in one hand: enter them in aces_in_hand",
                            "vint.aces_in_hand_implied",
                            {"seat": seat, "runs": len(suits)},
                        )
                    )
                    return
                least[SIDE_OF[seat]] += len(suits)
    needed = least["NS"] + least["EW"]
    if needed > 4:
        out.append(
            DealProblem(
                "aces_in_hand" if hand is not None else "sequences",
                f"aces_in_hand and sequences need {needed} different aces; there are 4",
                "vint.aces_too_many",
                {"needed": needed},
            )
        )
        return
    if grand:
        holding = deal.grand_aces
        for side in SIDES:
            if holding is None:
                has = 2
            else:
                has = holding.count if holding.side == side else 4 - holding.count
            if least[side] > has:
                said = "omitted (a 2-2 split)" if holding is None else f"gives {side} {has}"
                out.append(
                    DealProblem(
                        "grand_aces",
                        f"{side} holds at least {least[side]} aces (aces_in_hand, sequences); "
                        f"grand_aces {said}",
                        "vint.grand_aces_contradicted_split"
                        if holding is None
                        else "vint.grand_aces_contradicted",
                        {"side": side, "least": least[side], "has": has},
                    )
                )
                return
    elif honours is not None and denom in SUIT_BY_NAME:
        trump_honours: dict[Side, int] = {"NS": 0, "EW": 0}
        for run in deal.sequences:
            if run.suit == denom:
                trump_honours[SIDE_OF[run.seat]] = min(run.length, 5)
        if hand is not None and hand.count == 4:
            side = SIDE_OF[hand.seat]
            trump_honours[side] = max(trump_honours[side], 1)
        for side in SIDES:
            units = least[side] + trump_honours[side]
            has = honours.count if honours.side == side else 9 - honours.count
            if units > has:
                out.append(
                    DealProblem(
                        "honours",
                        f"{side} holds at least {units} honour units (aces_in_hand, sequences); "
                        f"honours gives {side} {has}",
                        "vint.honours_contradicted",
                        {"side": side, "least": units, "has": has},
                    )
                )
                return


def check_dumps(
    deal: VintDeal,
    *,
    tricks_of: Mapping[Side, int] | None,
    eldest: Seat | None,
    unknown: frozenset[str],
    out: list[DealProblem],
) -> None:
    dumps = deal.ace_dumps
    if not dumps:
        return
    ok = True
    for i, dump in enumerate(dumps, 1):
        if dump.seat not in SEAT_BY_NAME:
            out.append(
                DealProblem(
                    f"ace_dumps[{i}].seat",
                    f"{show_value(dump.seat)} is not a seat",
                    "vint.seat_invalid",
                    {"value": show_value(dump.seat), "index": i},
                    "ace_dumps",
                )
            )
            ok = False
        if not in_range(
            out,
            f"ace_dumps[{i}].trick",
            dump.trick,
            1,
            TRICKS,
            "vint.dump_trick_out_of_range",
            root="ace_dumps",
            index=i,
        ):
            ok = False
    if len(dumps) > 4:
        out.append(
            DealProblem(
                "ace_dumps",
                f"{len(dumps)} dumps; there are only 4 aces",
                "vint.ace_dumps_too_many",
                {"count": len(dumps)},
            )
        )
        ok = False
    if not ok or "ace_dumps" in unknown:
        return
    seen: dict[tuple[str, int], int] = {}
    side_on_trick: dict[int, Side] = {}
    tricks_lost_on: dict[Side, set[int]] = {"NS": set(), "EW": set()}
    for i, dump in enumerate(dumps, 1):
        key = (dump.seat, dump.trick)
        if key in seen:
            out.append(
                DealProblem(
                    f"ace_dumps[{i}]",
                    f"{dump.seat} already lost an ace on trick {dump.trick} "
                    f"(ace_dumps[{seen[key]}]); a player plays one card to a trick",
                    "vint.ace_dump_repeated",
                    {"seat": dump.seat, "trick": dump.trick, "index": i, "first": seen[key]},
                    "ace_dumps",
                )
            )
            continue
        seen[key] = i
        side = SIDE_OF[dump.seat]
        before = side_on_trick.setdefault(dump.trick, side)
        if before != side:
            out.append(
                DealProblem(
                    f"ace_dumps[{i}]",
                    f"trick {dump.trick} has dumps from both sides; one side wins a trick",
                    "vint.ace_dumps_both_sides",
                    {"trick": dump.trick, "index": i},
                    "ace_dumps",
                )
            )
        if dump.seat == eldest and dump.trick == 1:
            out.append(
                DealProblem(
                    f"ace_dumps[{i}]",
                    f"{dump.seat} is the eldest and leads trick 1; a led ace wins its trick",
                    "vint.ace_dump_eldest_leads",
                    {"seat": dump.seat, "index": i},
                    "ace_dumps",
                )
            )
        tricks_lost_on[side].add(dump.trick)
    if tricks_of is None:
        return
    for side in SIDES:
        other = OTHER_SIDE[side]
        if len(tricks_lost_on[side]) > tricks_of[other]:
            out.append(
                DealProblem(
                    "ace_dumps",
                    f"{side} lost aces on {len(tricks_lost_on[side])} different tricks, but "
                    f"{other} took only {tricks_of[other]}",
                    "vint.ace_dumps_exceed_tricks",
                    {
                        "side": side,
                        "lost": len(tricks_lost_on[side]),
                        "other": other,
                        "taken": tricks_of[other],
                    },
                )
            )
