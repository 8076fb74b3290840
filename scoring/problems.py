"""Engine problems as sentences a person reads, in the page's language.

The engines describe every problem as data (``scoring/engines/errors.py``): a
stable ``code``, the ``params`` the sentence needs and the ``root`` input it
concerns. This module is where that data meets a person:

* ``MESSAGES`` holds one English template per code, marked for translation,
  with ``%(name)s`` placeholders for the params;
* ``problem_text(problem)`` renders the sentence in the active language;
* ``problem_field(problem)`` names the form field to show it beside.

Neither reads an engine's English ``message`` except as the last resort for a
code this module does not know. ``problem`` is anything with ``code``,
``params``, ``message`` and ``root``: a ``RuleError``, a ``vint.DealProblem``,
an ``errors.Problem`` (e.g. ``KopResult.warning_problems``).

Params in words
---------------
Most params are numbers, seats and sides shown as they are (Kop seats 1..4;
Vint seats N, E, S, W and sides NS, EW stay letters in every language). A few
names are words for a person: ``contract`` / ``contracts`` of a Kop problem
(the club names, the same in every language except "normal"), ``game`` /
``games`` / ``sheet_game`` (Kop, Baśka, Vint) and ``kind`` (the kind of Vint
deal). Lists are joined with commas. ``allowed`` and ``value`` are what a
person types (option values, the offending input as JSON) and stay so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final, Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engines.errors import IN_DEAL, IN_RUBBER, SHEET_FIELD, Param
from scoring.games import game_choices


class ProblemLike(Protocol):
    """What ``problem_text`` and ``problem_field`` read from a problem."""

    @property
    def code(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Param]: ...

    @property
    def message(self) -> str: ...

    @property
    def root(self) -> str | None: ...


# One sentence per code. The option name (%(option)s) starts every option
# problem because they are all shown under one JSON field.
MESSAGES: Final[dict[str, Promise]] = {
    # ------------------------------------------------------------- options, profiles
    "rules.options_not_an_object": _("The options must be a JSON object, not %(value)s."),
    "rules.option_unknown": _("%(option)s: not an option of %(game)s."),
    "rules.option_misspelt": _(
        "%(option)s: not an option of %(game)s; did you mean %(suggestion)s?"
    ),
    "rules.option_choice": _("%(option)s: %(value)s is not allowed (one of %(allowed)s)."),
    "rules.option_flag": _("%(option)s: %(value)s is not allowed (true or false)."),
    "rules.option_integer": _("%(option)s: %(value)s is not a whole number of 0 or more."),
    "rules.game_unknown": _("%(value)s is not a game (%(games)s)."),
    "rules.tournament_setting_unknown": _("%(setting)s: not a tournament setting (%(known)s)."),
    "rules.big_points_invalid": _(
        "big_points: %(value)s is not four whole numbers from 0 up, never rising, first place first."  # noqa: E501
    ),
    "rules.tie_breaks_invalid": _(
        "tie_breaks: %(value)s is not a list of different tie-breaks (%(allowed)s)."
    ),
    "rules.version_invalid": _("%(value)s is not a version (1, 2, …)."),
    "rules.profile_unknown": _("%(value)s is not a rule profile (%(profiles)s)."),
    "kop.game_unknown": _("%(value)s is not a Kop or Baśka game (kop, baska)."),
    "kop.option_game_mismatch": _(
        "%(option)s: %(value)s is not allowed: the game being scored is %(game)s."
    ),
    "kop.option_trump_order": _(
        "%(option)s: %(value)s is not allowed (T14 or T12; the grand order G is automatic)."
    ),
    "kop.option_declarer_target": _(
        "%(option)s: %(value)s is not allowed (only %(target)s: the rules name no other)."
    ),
    "kop.option_bez_wyjscia_max": _(
        "%(option)s: %(value)s is not allowed (a whole number from %(low)s to %(high)s; usually 25, some clubs 26)."  # noqa: E501
    ),
    "kop.option_doubling_cap": _(
        '%(option)s: %(value)s is not allowed (a whole number from 0 up, or null / "unlimited").'
    ),
    "kop.option_cap_contract": _(
        "%(option)s: %(value)s is not a contract of %(game)s (%(allowed)s)."
    ),
    "kop.option_doubling_names": _(
        "%(option)s: %(value)s is not allowed (a non-empty list of names, kontra first)."
    ),
    "kop.option_bez_wyjscia_side": _(
        "%(option)s: %(value)s is not a side (declarers or defenders: the side that lost)."
    ),
    "kop.option_contract_name": _(
        "%(option)s: %(value)s is not a contract of %(game)s (%(allowed)s)."
    ),
    "kop.option_contract_factor": _(
        '%(option)s: %(value)s is not allowed (a whole number from %(low)s to %(high)s for each contract named, e.g. {"cicha": 1}).'  # noqa: E501
    ),
    "kop.option_contracts": _(
        "%(option)s: %(value)s is not allowed (a non-empty list of contract names)."
    ),
    "kop.option_contracts_repeated": _("%(option)s: %(value)s is listed twice."),
    "kop.option_contracts_normal": _(
        "%(option)s: %(value)s leaves out normal; the normal game is always played."
    ),
    "kop.option_soloist_doubling_conflict": _(
        "soloist_may_double_first: %(flag)s contradicts %(option)s: %(value)s (true means any; false means not_first or never)."  # noqa: E501
    ),
    "vint.option_level_min_unsupported": _(
        "%(option)s: %(value)s is not supported: the rules leave the values of levels 1 to 3 open."  # noqa: E501
    ),
    # ------------------------------------------------------------------- Kop deals
    "kop.contract_unknown": _("%(value)s is not a %(game)s contract (%(contracts)s)."),
    "kop.contract_not_allowed": _(
        "%(contract)s is not played under these rules (allowed: %(contracts)s)."
    ),
    "kop.seats_not_a_list": _("Expected a list of seats, got %(value)s."),
    "kop.seat_invalid": _("%(value)s is not a seat (1 to 4)."),
    "kop.seats_repeated": _("Seats %(seats)s: a seat is given twice."),
    "kop.declarers_need_one": _("%(contract)s: one player plays it, not seats %(seats)s."),
    "kop.declarers_need_two": _("%(contract)s: two different seats play it, not %(seats)s."),
    "kop.doublings_both": _("Give the number of doublings or the seats that doubled, not both."),
    "kop.doublings_missing": _("Give the number of doublings or the seats that doubled."),
    "kop.not_an_integer": _("Expected a whole number, got %(value)s."),
    "kop.doublings_negative": _("The number of doublings cannot be below 0 (it is %(value)s)."),
    "kop.doublings_above_cap": _(
        "%(value)s doublings is above the cap for this contract (%(contract)s: %(cap)s)."
    ),
    "kop.doubling_seats_above_cap": _(
        "Seats %(seats)s make %(k)s counted doublings, above the cap for this contract (%(contract)s: %(cap)s)."  # noqa: E501
    ),
    "kop.points_out_of_range": _("Card points must be from %(low)s to %(high)s, not %(value)s."),
    "kop.deal_number_invalid": _("%(value)s is not a deal number (1, 2, …)."),
    "kop.sheet_game_mismatch": _("The rules are for %(game)s, the sheet for %(sheet_game)s."),
    # Warnings: the deal scores, the scorer confirms.
    "kop.points_impossible": _(
        "%(points)s : %(opponents)s cannot occur (no set of tricks is worth that); please confirm."  # noqa: E501
    ),
    "kop.soloist_doubled_first": _(
        "Seat %(seat)s, the soloist, made the first doubling (rule R5 forbids it); please confirm."  # noqa: E501
    ),
    "kop.soloist_doubled": _(
        "Seat %(seat)s, the soloist, doubled (these rules forbid the soloist any doubling); please confirm."  # noqa: E501
    ),
    "kop.wesele_bidder_doubled": _(
        "Seat %(seat)s, the wesele bidder, doubled (rule R6 forbids it); please confirm."
    ),
    # ------------------------------------------------------------------ Vint deals
    "vint.contract_invalid": _(
        '%(value)s is not a contract: a level 4 to 7 and S, C, D, H, G or M, or "pass".'
    ),
    "vint.contract_denomination_invalid": _(
        "%(value)s: the denomination must be S, C, D, H, G (grand) or M (misère)."
    ),
    "vint.contract_is_pass": _('"pass" is an all-pass deal, not a contract.'),
    "vint.declarer_missing": _("A contract needs a declarer."),
    "vint.seat_invalid": _("%(value)s is not a seat (N, E, S, W)."),
    "vint.doubling_invalid": _(
        "Doubling must be 0 (none), 1 (doubled) or 2 (redoubled), not %(value)s."
    ),
    "vint.declarer_tricks_missing": _("A contract needs the declaring side's tricks."),
    "vint.not_an_integer": _("%(value)s is not a whole number."),
    "vint.tricks_out_of_range": _("Tricks must be from %(low)s to %(high)s, not %(value)s."),
    "vint.tricks_on_contract": _(
        "Tricks of both sides are for an all-pass deal; a contract takes the declaring side's tricks."  # noqa: E501
    ),
    "vint.honours_missing": _(
        "%(contract)s needs the side holding 5 or more of the 9 honour units, and how many (5 to 9)."  # noqa: E501
    ),
    "vint.honours_count_out_of_range": _(
        "Honour units must be from %(low)s to %(high)s, not %(value)s."
    ),
    "vint.side_invalid": _("%(value)s is not a side (NS, EW)."),
    "vint.honours_not_here": _("Honours count only at suit contracts; this is %(kind)s."),
    "vint.grand_aces_not_here": _("A side's aces count only at grand; this is %(kind)s."),
    "vint.grand_aces_count_out_of_range": _(
        "A side's aces must be from %(low)s to %(high)s, not %(value)s."
    ),
    "vint.holdings_not_here": _("No premiums for aces in one hand or runs here; this is %(kind)s."),
    "vint.aces_in_hand_several": _(
        "%(count)s players given; only one player can hold 3 or 4 aces."
    ),
    "vint.hand_count_out_of_range": _(
        "Aces in one hand must be %(low)s or %(high)s, not %(value)s."
    ),
    "vint.suit_invalid": _("%(value)s is not a suit (S, C, D, H)."),
    "vint.sequence_suit_repeated": _(
        "Run %(index)s: a second run headed by the %(suit)s ace (see run %(first)s); there is one ace per suit."  # noqa: E501
    ),
    "vint.sequence_length_out_of_range": _(
        "Run %(index)s: the length must be from %(low)s to %(high)s, not %(value)s."
    ),
    "vint.sequences_too_long_hand": _(
        "The runs in %(seat)s's hand add up to %(cards)s cards; a hand holds %(limit)s."
    ),
    "vint.sequences_too_long_side": _(
        "The runs of %(side)s add up to %(cards)s cards; a side holds %(limit)s."
    ),
    "vint.sequences_exceed_aces_in_hand": _(
        "%(seat)s has runs headed by %(runs)s aces, but the aces in hand give %(seat)s %(aces)s."  # noqa: E501
    ),
    "vint.aces_in_hand_implied": _(
        "%(seat)s has runs headed by %(runs)s aces, so %(seat)s holds %(runs)s aces in one hand: enter them as aces in hand."  # noqa: E501
    ),
    "vint.aces_too_many": _(
        "The aces in hand and the runs need %(needed)s different aces; there are 4."
    ),
    "vint.grand_aces_contradicted": _(
        "%(side)s hold at least %(least)s aces (aces in hand, runs), but the side's aces give %(side)s %(has)s."  # noqa: E501
    ),
    "vint.grand_aces_contradicted_split": _(
        "%(side)s hold at least %(least)s aces (aces in hand, runs), but no side's aces are given (a 2-2 split)."  # noqa: E501
    ),
    "vint.honours_contradicted": _(
        "%(side)s hold at least %(least)s honour units (aces in hand, runs), but the honours give %(side)s %(has)s."  # noqa: E501
    ),
    "vint.ace_dumps_not_here": _(
        "Dumped aces count only in misère and all-pass deals; this is %(kind)s."
    ),
    "vint.dump_trick_out_of_range": _(
        "Dumped ace %(index)s: the trick must be from %(low)s to %(high)s, not %(value)s."
    ),
    "vint.ace_dumps_too_many": _("%(count)s dumped aces; there are only 4 aces."),
    "vint.ace_dump_repeated": _(
        "Dumped ace %(index)s: %(seat)s already lost an ace on trick %(trick)s (dumped ace %(first)s); a player plays one card to a trick."  # noqa: E501
    ),
    "vint.ace_dumps_both_sides": _(
        "Dumped ace %(index)s: trick %(trick)s has dumps from both sides; one side wins a trick."  # noqa: E501
    ),
    "vint.ace_dump_eldest_leads": _(
        "Dumped ace %(index)s: %(seat)s leads to trick 1, and a led ace wins its trick."
    ),
    "vint.ace_dumps_exceed_tricks": _(
        "%(side)s lost aces on more tricks (%(lost)s) than %(other)s took (%(taken)s)."
    ),
    "vint.declarer_on_all_pass": _("An all-pass deal has no declarer."),
    "vint.doubling_on_all_pass": _("An all-pass deal cannot be doubled."),
    "vint.declarer_tricks_on_all_pass": _(
        "An all-pass deal has no declaring side: give the tricks of NS and EW."
    ),
    "vint.all_pass_redealt": _("Under these rules an all-pass deal is redealt, not played."),
    "vint.tricks_missing": _("An all-pass deal needs the tricks of NS and EW."),
    "vint.side_tricks_out_of_range": _(
        "%(side)s tricks must be from %(low)s to %(high)s, not %(value)s."
    ),
    "vint.tricks_sum": _("NS %(ns)s + EW %(ew)s = %(sum)s tricks, not 13."),
    # ------------------------------------------------------------ rubbers, sessions
    "vint.rubber_over": _(
        "The rubber is over: it ended with deal %(deal)s, the fourth extra deal after it was won."  # noqa: E501
    ),
    "vint.player_not_in_rubber": _("%(player)s does not play in this rubber."),
    "vint.players_not_four": _("A session needs four different players."),
    "vint.deal_number_invalid": _("Deal number %(value)s is not 1 or more."),
    "vint.rubbers_none": _("A session needs at least one rubber."),
    "vint.rubber_not_four": _("A rubber has four players."),
    "vint.session_too_many_rubbers": _(
        "A session has at most %(most)s rubbers, each with a new partnership; this one has %(count)s."  # noqa: E501
    ),
    "vint.partnership_repeated": _(
        "Rubber %(rubber)s: %(partner)s and %(other_partner)s were partners in rubber %(first)s already; each partnership plays once in a session."  # noqa: E501
    ),
    "vint.rubber_players_differ": _(
        "Rubber %(rubber)s: the players %(players)s differ from %(expected)s."
    ),
    # ------------------------------------------------------------ scoresheet files
    # Where the problem is ("Rubber 2, deal 5, honours.side") comes first (``_where``).
    "sheet.too_large": _("The file is larger than %(limit)s bytes."),
    "sheet.not_utf8": _("The file is not UTF-8 text (byte %(byte)s)."),
    "sheet.not_json": _("Not valid JSON (line %(line)s, column %(column)s)."),
    "sheet.too_deep": _("Nested deeper than %(limit)s levels."),
    "sheet.number_too_long": _("A number of %(digits)s digits (at most %(limit)s)."),
    "sheet.number_too_large": _("%(value)s is too large a number."),
    "sheet.not_a_number": _("%(value)s is not a JSON number."),
    "sheet.text_nul": _("The text contains a NUL character."),
    "sheet.text_surrogate": _("The text contains an unpaired surrogate (not Unicode text)."),
    "sheet.key_text_nul": _("A key contains a NUL character."),
    "sheet.key_text_surrogate": _("A key contains an unpaired surrogate (not Unicode text)."),
    "sheet.not_an_object": _("Expected a JSON object."),
    "sheet.not_an_object_got": _("Expected a JSON object, got %(value)s."),
    "sheet.game_unknown": _("%(value)s is not a game (%(games)s)."),
    "sheet.not_vint": _('%(value)s is not "vint".'),
    "sheet.unknown_key": _("Unknown key (allowed: %(allowed)s)."),
    "sheet.missing": _("Missing."),
    "sheet.name_blank": _("The name is blank."),
    "sheet.name_too_long": _("The name is longer than %(limit)s characters (%(length)s)."),
    "sheet.name_repeated": _("%(name)s already sits at %(seat)s."),
    "sheet.not_a_seat": _("%(value)s is not a seat (N, E, S, W)."),
    "sheet.not_on_all_pass": _("Not on an all-pass deal."),
    "sheet.players_differ": _(
        "The players differ from rubber %(first)s (new: %(new)s; missing: %(gone)s)."
    ),
    "sheet.players_same_person": _("The four players must be different people."),
    "sheet.expected_integer": _("Expected a whole number, got %(value)s."),
    "sheet.expected_bool": _("Expected true or false, got %(value)s."),
    "sheet.expected_name": _("Expected a name, got %(value)s."),
    "sheet.expected_object": _("Expected an object, got %(value)s."),
    "sheet.expected_object_with": _("Expected an object with %(keys)s, got %(value)s."),
    "sheet.expected_list": _("Expected a list, got %(value)s."),
    "sheet.expected_seat_list": _("Expected a list of seats, got %(value)s."),
    "sheet.expected_messages": _("Expected a list of messages, got %(value)s."),
    "sheet.expected_players": _("Expected a list of 4 names (seats 1 to 4), got %(value)s."),
    "sheet.expected_deals": _("Expected a list of deals, got %(value)s."),
    "sheet.expected_rubbers": _("Expected a non-empty list of rubbers, got %(value)s."),
    "sheet.expected_options": _("Expected an object of options, got %(value)s."),
    "sheet.expected_side": _("Expected a side (NS, EW), got %(value)s."),
    "sheet.expected_seat": _("Expected a seat (N, E, S, W), got %(value)s."),
    "sheet.expected_suit": _("Expected a suit (S, C, D, H), got %(value)s."),
    "sheet.expected_contract": _('Expected a contract such as "4H" or "pass", got %(value)s.'),
    "sheet.expected_holding": _("Expected an object with side and count, got %(value)s."),
    "sheet.expected_grand_aces": _(
        "Expected an object with side and count (leave it out on a 2-2 split), got %(value)s."
    ),
}

#: The form field of the codes whose field is not the engine's ``root``: every
#: option of a profile is written in one JSON field, and so are its tournament
#: settings; nobody types a profile's version.
FIELD_OF: Final[dict[str, str]] = {
    **{
        code: "options"
        for code in MESSAGES
        if code.startswith(("rules.option", "kop.option_", "vint.option_"))
    },
    "kop.game_unknown": "game",
    "rules.game_unknown": "game",
    "rules.tournament_setting_unknown": "tournament",
    "rules.big_points_invalid": "tournament",
    "rules.tie_breaks_invalid": "tournament",
    "rules.version_invalid": "__all__",
}

_KINDS: Final[dict[str, Promise]] = {
    "suit": _("a suit contract"),
    "grand": _("a grand"),
    "misere": _("a misère"),
    "pass": _("an all-pass deal"),
}


def _game(value: str) -> str:
    return dict(game_choices()).get(value, value)


def _kind(value: str) -> str:
    kind = _KINDS.get(value)
    return str(kind) if kind is not None else value


# Params that are words for a person, by name.
_WORDS: Final[dict[str, Callable[[str], str]]] = {
    "game": _game,
    "games": _game,
    "sheet_game": _game,
    "kind": _kind,
}
# A game's own values in words (a Kop contract "zolo_du" -> "zolo du"), by the prefix of
# its problems' codes and the param's name: its package registers them (``words_register``),
# so a Kop contract is said so only in a Kop problem (a Vint "4H" is shown as written).
_GAME_WORDS: dict[str, dict[str, Callable[[str], str]]] = {}


def words_register(prefix: str, words: Mapping[str, Callable[[str], str]]) -> None:
    """Say the params ``words`` names of the problems whose codes start with ``prefix``
    ("kop.") in words (from a game package's ``game`` module)."""
    _GAME_WORDS[prefix] = dict(words)


def game_words(prefix: str, name: str) -> Callable[[str], str] | None:
    """How ``prefix``'s game says its value ``name`` in words (None: as written)."""
    return _GAME_WORDS.get(prefix, {}).get(name)


def _words(code: str, name: str, value: Param) -> str:
    words = _WORDS.get(name)
    if words is None:
        words = game_words(code.partition(".")[0] + ".", name)
    if isinstance(value, list):
        return ", ".join(words(str(v)) if words else str(v) for v in value)
    return words(value) if words and isinstance(value, str) else str(value)


def render(problem: ProblemLike) -> str:
    """The sentence for ``problem`` in the active language; ``KeyError`` for an
    unknown code or a param the template needs and the problem lacks."""
    template = MESSAGES[problem.code]
    params = problem.params
    text = str(template) % {name: _words(problem.code, name, v) for name, v in params.items()}
    where = _where(params)
    return f"{where}: {text}" if where else text


def _where(params: Mapping[str, Param]) -> str:
    """Where on a sheet (or in a batch of deals) a problem is: "Rubber 2, deal 5,
    honours.side"; the key as the file spells it, the whole file as "The file"."""
    rubber, deal, field = params.get(IN_RUBBER), params.get(IN_DEAL), params.get(SHEET_FIELD)
    parts = []
    if rubber is not None:
        parts.append(gettext("Rubber %(n)s") % {"n": rubber})
    if deal is not None:
        parts.append((gettext("deal %(n)s") if parts else gettext("Deal %(n)s")) % {"n": deal})
    if field == "sheet":
        parts.append(gettext("the file") if parts else gettext("The file"))
    elif field is not None:
        parts.append(str(field))
    return ", ".join(parts)


def problem_text(problem: ProblemLike) -> str:
    """The translated sentence for an engine problem.

    Falls back to the engine's English message when the code is unknown here
    (a ``SheetError`` has none) or, which the tests rule out, the problem
    lacks a param its sentence needs: a page shows English rather than fail.
    """
    try:
        return render(problem)
    except KeyError:
        return problem.message


def problem_field(problem: ProblemLike) -> str:
    """The form field to show ``problem`` beside; ``"__all__"`` if it has none.

    It is the engine's ``root`` (``sequences`` for ``sequences[2].length``)
    unless ``FIELD_OF`` names the field of the code. A form that lacks the
    field (the Vint pad groups ``tricks`` and ``declarer_tricks``) maps it
    to its own.
    """
    return FIELD_OF.get(problem.code) or problem.root or "__all__"


def errors_by_field(problems: Sequence[ProblemLike]) -> dict[str, list[str]]:
    """Engine problems as sentences for people (translated), by the form field their code
    names: never by reading the engine's text."""
    errors: dict[str, list[str]] = {}
    for p in problems:
        errors.setdefault(problem_field(p), []).append(problem_text(p))
    return errors
