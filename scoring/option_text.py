"""A profile's rule options as a person reads them, in the page's language.

The engines name options and their values in the rules documents' spelling
(``auction_end: "three_passes"``, ``trump_order: "T12"``); this module says each as
a phrase: ``LABELS`` per option, ``VALUES`` per option and value. Numbers stay
numbers, Kop contracts and doubling names are the club words (the same in every
language), booleans are yes/no. The profile editor's choice fields use the same
phrases (``value_choices``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.games import game_choices
from scoring.problems import game_words

LABELS: Final[Mapping[str, Promise]] = {
    # Kop and Baśka (rules/kop.md §7, §7.1)
    "game": _("Game"),
    "trump_order": _("Trump order"),
    "declarer_target": _("Declarers win with"),
    "bez_wyjscia_max": _("Bez wyjścia at most"),
    "bez_wyjscia_declarers": _("Bez wyjścia when the declarers lose"),
    "bez_wyjscia_defenders": _("Bez wyjścia when the defenders lose"),
    "margin_on_du": _("Bez wyjścia counts in zolo du and grand du"),
    "baska_loss_double": _("The declarers' loss doubled"),
    "wesele_partner": _("Wesele partner"),
    "wesele_bidder_may_double": _("The wesele bidder may double"),
    "soloist_may_double_first": _("The soloist may double first"),
    "doubling_count": _("Doublings counted"),
    "higher_bid_cancels_doublings": _("A higher bid cancels doublings"),
    "doubling_cap": _("Most doublings"),
    "doubling_names": _("Names of the doublings"),
    "auction_end": _("End of the auction"),
    "wesele_first_call_only": _("Wesele only in the first call"),
    "baska_bid": _("The baśka bid"),
    "du_as_suffix": _("DU said after zolo or grand"),
    "contract_factor": _("Contract factors"),
    "contracts": _("Contracts played"),
    "soloist_doubling": _("Doublings by the soloist"),
    # Vint (rules/vint.md §7, A1-A31)
    "level_min": _("Lowest bid level"),
    "scale": _("Scale of the trick points"),
    "odd_tricks_only": _("Only the tricks beyond six count"),
    "trick_sides": _("Who scores trick points"),
    "misere_trick_credit": _("Trick points in a misère"),
    "all_pass": _("When nobody bids"),
    "holdings_at": _("When holdings are judged"),
    "team_aces_all_contracts": _("A partnership's aces count in every contract"),
    "sequences_partnership": _("Runs counted per partnership"),
    "grand_doubles_ace_premium": _("A grand doubles the aces premium too"),
    "holdings_in_misere": _("Holding premiums in a misère and an all-pass deal"),
    "ace_dump_sides": _("Who scores dumped aces"),
    "ace_dump_doubled": _("Dumped aces doubled in a misère"),
    "double_scope": _("What a doubling doubles"),
    "game_uses_undoubled_tricks": _("Only undoubled trick points count toward game"),
    "declarer_fixed_after_first_auction": _("The declarer fixed after the first auction"),
    "second_auction_same_denomination": _("The second auction in the same denomination"),
    "simultaneous_game": _("Both sides reach game on one deal"),
    "extra_game_count": _("Numbering of the extra games"),
    "totals_above_only": _("Only the points above the line in the totals"),
    "result_method": _("Individual result"),
    "overtrick_4": _("Overtrick at level 4"),
    "exchange_rule_on_first_auction_level": _("Exchange rule by the first auction's level"),
    "unfinished_rubber_bonus": _("Unfinished rubber"),
    "round_to_100": _("Totals rounded to 100"),
    "session_structure": _("Session"),
}

VALUES: Final[Mapping[str, Mapping[Any, Promise]]] = {
    "trump_order": {"T14": _("14 trumps (three tens)"), "T12": _("12 trumps (pagat)")},
    "auction_end": {
        "three_passes": _("after three passes in a row"),
        "all_pass": _("when everyone has passed"),
        "four_passes": _("after four passes in a row"),
        "free_order": _("in any order"),
    },
    "wesele_partner": {
        "highest_missing_jack": _("the highest jack the bidder lacks"),
        "named_jack": _("the jack the bidder names"),
    },
    "doubling_count": {
        "alternating_sides_only": _("only those against the other side"),
        "every_call": _("every call"),
    },
    "baska_bid": {"played": _("played (53 points needed)"), "auto_win": _("wins without play")},
    "soloist_doubling": {
        "not_first": _("not the first doubling (rule R5)"),
        "never": _("never: the soloist may not say kontra at all (Kościan)"),
        "any": _("any doubling"),
    },
    "bez_wyjscia_max": {
        "declarers": _("losing declarers"),
        "defenders": _("losing defenders"),
    },
    "misere_trick_credit": {
        "mirror": _("each side scores the tricks it lost"),
        "as_taken": _("the tricks as taken"),
        "none": _("no trick points"),
    },
    "trick_sides": {
        "both": _("both sides"),
        "declarer_only": _("the declaring side only"),
        "declarer_if_made": _("the declaring side, if it made the contract"),
    },
    "double_scope": {
        "play": _("the results of the play"),
        "all": _("everything, holdings too"),
        "contract_only": _("the contract only"),
    },
    "extra_game_count": {
        "per_side": _("each side's own games"),
        "overall": _("all games of the rubber"),
    },
    "simultaneous_game": {
        "higher": _("the higher total wins the game"),
        "declarer_first": _("the declaring side wins the game"),
        "both": _("both sides win a game"),
    },
    "all_pass": {"play": _("an all-pass deal is played"), "redeal": _("the cards are dealt again")},
    "holdings_at": {
        "first_lead": _("at the first lead"),
        "before_defender_exchange": _("before the defenders' exchange"),
    },
    "ace_dump_sides": {"both": _("either side"), "declarer_only": _("the declaring side only")},
    "result_method": {
        "net": _("net of the table average"),
        "rubber_differential": _("rubber differential"),
    },
    "unfinished_rubber_bonus": {
        "none": _("no bonus"),
        "200_per_game_lead": _("200 for each game ahead"),
    },
    "session_structure": {
        "rotated": _("three rubbers, a different partnership in each (Parlett)"),
        "free": _("any number of rubbers, any seating"),
    },
}

#: The profile editor's one-line explanation of each option it offers (``option_fields``).
HELP: Final[Mapping[str, Promise]] = {
    "trump_order": _("Which cards are trumps; used for display and hand checks only."),
    "bez_wyjscia_max": _(
        "A losing side with at most this many card points loses bez wyjścia, which doubles the value. Empty: 25."  # noqa: E501
    ),
    "margin_on_du": _("Whether bez wyjścia doubles zolo du and grand du too."),
    "baska_loss_double": _("The declarers pay double when they lose (Baśka's rule)."),
    "wesele_partner": _("How the wesele bidder's partner is found."),
    "wesele_bidder_may_double": _("Otherwise the pad warns when the wesele bidder doubles."),
    "doubling_count": _("Which doublings raise the value."),
    "higher_bid_cancels_doublings": _("A higher bid wipes out the doublings said before it."),
    "doubling_cap": _("The most doublings counted in each contract. Empty: the game's cap."),
    "auction_end": _("When the auction is over; the pad does not check it."),
    "wesele_first_call_only": _("Wesele may be bid only in the bidder's first call."),
    "baska_bid": _("Whether a baśka is played out or wins at once."),
    "du_as_suffix": _("DU is said after ZOLO or GRAN and adds 100 %; the values stay the same."),
    "contract_factor": _(
        "What a contract's value is multiplied by, a whole number from 1 to 100. Empty: normal 1, wesele 1, cicha 4, zolo 5, zolo du 10, grand 5, grand du 10, baśka 10."  # noqa: E501
    ),
    "contracts": _(
        "The contracts the club plays; the pad offers only these. None ticked: every contract of the game."  # noqa: E501
    ),
    "soloist_doubling": _(
        "A doubling these rules forbid is shown as a warning the scorer confirms before saving."
    ),
    "level_min": _("The lowest level a bid may name."),
    "scale": _("Trick points are multiplied by this number."),
    "odd_tricks_only": _("Only the tricks beyond six score trick points."),
    "trick_sides": _("Which side writes trick points."),
    "misere_trick_credit": _("How tricks are scored in a misère."),
    "all_pass": _("What happens when all four pass."),
    "holdings_at": _("The moment honours and other holdings are counted."),
    "team_aces_all_contracts": _("Aces held by a partnership count in every contract."),
    "sequences_partnership": _("Runs are counted for the partnership, not for one player."),
    "grand_doubles_ace_premium": _("A grand slam doubles the premium for aces too."),
    "holdings_in_misere": _("Honours and runs also score in a misère and an all-pass deal."),
    "ace_dump_sides": _("Which side scores aces dumped in a misère."),
    "ace_dump_doubled": _("Dumped aces count double in a misère."),
    "double_scope": _("Which points a doubling doubles."),
    "game_uses_undoubled_tricks": _("Doubled trick points count toward game undoubled."),
    "declarer_fixed_after_first_auction": _("The declarer of the first auction stays declarer."),
    "second_auction_same_denomination": _("A second auction must keep the same denomination."),
    "simultaneous_game": _("What happens when both sides reach game on one deal."),
    "extra_game_count": _("How the games beyond the second are numbered."),
    "totals_above_only": _("Totals count only the points written above the line."),
    "result_method": _("How a player's result is worked out from the table."),
    "overtrick_4": _("Points for an overtrick in a level-4 contract; 0: none."),
    "exchange_rule_on_first_auction_level": _(
        "The exchange rule follows the first auction's level."
    ),  # noqa: E501
    "unfinished_rubber_bonus": _("What a side ahead in an unfinished rubber gets."),
    "round_to_100": _("Totals are rounded to the nearest 100."),
    "session_structure": _(
        "Under three rubbers a fourth rubber, or a partnership seen earlier in the session, is refused."  # noqa: E501
    ),
}

#: Options the editor does not offer: fixed by the rules, another spelling of an offered
#: option, or club words. A stored profile keeps them; the import format sets them.
IMPORT_ONLY: Final = frozenset(
    {"game", "declarer_target", "doubling_names", "soloist_may_double_first"}
)

#: Options whose values (or whose mappings' keys) are Kop contracts or doubling names.
_CLUB_WORDS: Final = ("contracts", "contract_factor", "doubling_cap", "doubling_names")


def value_choices(option: str) -> list[tuple[str, Promise]]:
    """(value, phrase) pairs of a choice option, for a form's select."""
    return list(VALUES[option].items())


def option_label(option: str) -> str:
    label = LABELS.get(option)
    return str(label) if label is not None else option.replace("_", " ")


def option_value(option: str, value: Any) -> str:
    """One option's value as words: phrases for choices, yes/no, numbers, club words."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None:
        return gettext("no limit")
    if isinstance(value, Mapping):
        return ", ".join(
            f"{option_value(option, k)} {option_value(option, v)}" for k, v in value.items()
        )
    if isinstance(value, list | tuple):
        return ", ".join(option_value(option, v) for v in value)
    phrase = VALUES.get(option, {}).get(value)
    if phrase is not None:
        return str(phrase)
    if option == "game":
        return dict(game_choices()).get(value, str(value))  # names, alike in every language
    if isinstance(value, str):
        if value == "unlimited":
            return gettext("no limit")
        words = game_words("kop.", "contract") if option in _CLUB_WORDS else None
        if words is not None:
            return words(value)
    return str(value)


def option_lines(options: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """A profile's stored options as (label, value) lines a person reads."""
    return [(option_label(key), option_value(key, value)) for key, value in (options or {}).items()]
