"""Problems are data: every engine problem carries a code, params and its root field.

The expectations below are written by hand from the rules, not computed by the
code under test. ``tests/scoring/test_problems.py`` checks that the Django layer
has a sentence for every code listed here.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from dataclasses import fields
from pathlib import Path
from types import ModuleType

import pytest

from scoring.engines import kop, kop_sheet, rules, sheet_checks, vint
from scoring.engines.errors import IN_DEAL, Problem, RuleError
from scoring.engines.vint import (
    RubberState,
    VintDeal,
    all_pass_deal,
    contract_deal,
    deal_problems,
    parse_contract,
    rubber_apply,
)

ENGINES = Path(rules.__file__).parent
#: Every engine source file, as a path under ``scoring/engines`` ("vint/checks.py").
SOURCES = sorted(p.relative_to(ENGINES).as_posix() for p in ENGINES.rglob("*.py"))
CODE_LITERAL = re.compile(r"""["']((?:kop|vint|rules)\.[a-z0-9_]+)["']""")
#: The modules that emit problem codes (a package's ``__init__`` gathers its modules').
CODED_MODULES = [
    f
    for f in SOURCES
    if not f.endswith("__init__.py") and CODE_LITERAL.search((ENGINES / f).read_text())
]
ENGINE_PACKAGES = [kop, vint]
KOP = kop.default_rules("kop")
KOP_CONTRACTS = ["normal", "cicha", "wesele", "zolo", "zolo_du"]


# ------------------------------------------------------------------ the code lists


def _module(filename: str) -> ModuleType:
    dotted = "scoring.engines." + filename.removesuffix(".py").replace("/", ".")
    return importlib.import_module(dotted.removesuffix(".__init__"))


def test_the_code_lists_checked_cover_every_engine():
    assert {"rules.py", "kop_sheet.py", "vint_sheet.py"} <= set(CODED_MODULES)
    for package in ENGINE_PACKAGES:
        folder = Path(package.__file__).parent.name
        assert any(f.startswith(f"{folder}/") for f in CODED_MODULES), folder


@pytest.mark.parametrize("filename", CODED_MODULES)
def test_codes_lists_exactly_the_codes_the_module_uses(filename):
    literals = set(CODE_LITERAL.findall((ENGINES / filename).read_text()))
    assert literals == set(_module(filename).CODES)


@pytest.mark.parametrize("package", ENGINE_PACKAGES, ids=lambda p: p.__name__)
def test_an_engine_package_lists_the_codes_of_all_its_modules(package):
    modules = [
        importlib.import_module(f"{package.__name__}.{m.name}")
        for m in pkgutil.iter_modules(package.__path__)
    ]
    gathered = frozenset().union(*(getattr(m, "CODES", ()) for m in modules))
    assert gathered == package.CODES


def test_codes_are_dotted_snake_case():
    every = kop.CODES | vint.CODES | rules.CODES | kop_sheet.CODES | sheet_checks.CODES
    assert all(re.fullmatch(r"(kop|vint|rules|sheet)\.[a-z][a-z0-9_]*", code) for code in every)


def _calls(filename: str) -> list[ast.Call]:
    tree = ast.parse((ENGINES / filename).read_text())
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)]


def _name(call: ast.Call) -> str:
    return call.func.id if isinstance(call.func, ast.Name) else ""


# How many positional arguments reach the code when it is not passed by keyword.
CODE_POSITION = {"DealProblem": 3, "Problem": 1, "_bad_value": 4, "in_range": 6}


@pytest.mark.parametrize("filename", SOURCES)
def test_every_problem_made_in_the_engines_has_a_code(filename):
    uncoded = []
    for call in _calls(filename):
        name = _name(call)
        if name not in ("RuleError", *CODE_POSITION):
            continue
        if any(k.arg == "code" for k in call.keywords):
            continue
        if name in CODE_POSITION and len(call.args) >= CODE_POSITION[name]:
            continue
        uncoded.append(f"{filename}:{call.lineno} {name}")
    assert uncoded == []


# ------------------------------------------------------------------------------ Kop


def _kop(contract="normal", declarers=(1, 3), points=60, doublings=0, seats=None):
    if seats is not None:
        doublings = None
    return kop.KopDeal(
        contract=contract,
        declarers=declarers,
        doublings=doublings,
        doubling_seats=seats,
        declarer_points=points,
    )


# fmt: off
KOP_BAD = [
    ("contract of Baśka in Kop", _kop(contract="grand", declarers=(1,)),
     "contract", "kop.contract_unknown",
     {"value": '"grand"', "game": "kop", "contracts": KOP_CONTRACTS}),
    ("a seat twice", _kop(declarers=(1, 1)),
     "declarers", "kop.seats_repeated", {"seats": [1, 1]}),
    ("zolo by two", _kop(contract="zolo", declarers=(1, 3)),
     "declarers", "kop.declarers_need_one", {"contract": "zolo", "seats": [1, 3]}),
    ("normal by one", _kop(declarers=(2,)),
     "declarers", "kop.declarers_need_two", {"contract": "normal", "seats": [2]}),
    ("seat 5", _kop(declarers=(1, 5)), "declarers", "kop.seat_invalid", {"value": "5"}),
    ("declarers not a list", _kop(declarers=3),
     "declarers", "kop.seats_not_a_list", {"value": "3"}),
    ("no doublings given", _kop(doublings=None),
     "doublings", "kop.doublings_missing", {}),
    ("both doublings and seats", kop.KopDeal(contract="normal", declarers=(1, 3), doublings=1,
                                             doubling_seats=(2,), declarer_points=60),
     "doubling_seats", "kop.doublings_both", {}),
    ("doublings below zero", _kop(doublings=-1),
     "doublings", "kop.doublings_negative", {"value": -1}),
    ("five doublings, cap four", _kop(doublings=5),
     "doublings", "kop.doublings_above_cap", {"value": 5, "cap": 4, "contract": "normal"}),
    ("doublings not a number", _kop(doublings="2"),
     "doublings", "kop.not_an_integer", {"value": '"2"'}),
    ("five alternating doublers", _kop(seats=(2, 1, 4, 3, 2)),
     "doubling_seats", "kop.doubling_seats_above_cap",
     {"seats": [2, 1, 4, 3, 2], "k": 5, "cap": 4, "contract": "normal"}),
    ("doubler seat 0", _kop(seats=(0,)),
     "doubling_seats", "kop.seat_invalid", {"value": "0"}),
    ("105 points", _kop(points=105),
     "declarer_points", "kop.points_out_of_range", {"value": 105, "low": 0, "high": 104}),
    ("points as text", _kop(points="60"),
     "declarer_points", "kop.not_an_integer", {"value": '"60"'}),
]
# fmt: on


@pytest.mark.parametrize(
    ("deal", "field", "code", "params"),
    [case[1:] for case in KOP_BAD],
    ids=[case[0] for case in KOP_BAD],
)
def test_kop_bad_deal_codes(deal, field, code, params):
    problems = kop.check_deal(deal, KOP)
    assert [(p.code, p.params, p.field, p.root) for p in problems] == [(code, params, field, field)]
    with pytest.raises(RuleError) as error:
        kop.score_deal(deal, KOP)
    assert (error.value.code, error.value.params, error.value.root) == (code, params, field)


def test_kop_table_error_keeps_the_code_and_names_the_deal():
    with pytest.raises(RuleError) as error:
        kop.score_table([_kop(), _kop(points=105)], KOP)
    assert error.value.message == "deal 2: 105 is outside 0..104"
    assert error.value.code == "kop.points_out_of_range"
    assert error.value.params == {"value": 105, "low": 0, "high": 104, IN_DEAL: 2}
    assert error.value.field == error.value.root == "declarer_points"


def test_kop_warning_for_points_no_tricks_make():
    result = kop.score_deal(_kop(points=30), KOP)
    assert result.warning_problems == (
        Problem(
            "kop.points_impossible",
            {"points": 30, "opponents": 74},
            "declarer_points",
            "declarer_points: 30 : 74 cannot occur (no set of tricks is worth that); "
            "please confirm",
        ),
    )
    assert result.warning_problems[0].root == "declarer_points"
    assert result.warnings == tuple(p.message for p in result.warning_problems)


def test_kop_seat_rule_warnings():
    r5 = kop.score_deal(_kop(contract="zolo", declarers=(3,), points=60, seats=(3, 4)), KOP)
    assert [(p.code, p.params, p.field) for p in r5.warning_problems] == [
        ("kop.soloist_doubled_first", {"seat": 3, "contract": "zolo"}, "doubling_seats")
    ]
    r6 = kop.score_deal(_kop(contract="wesele", declarers=(2, 4), seats=(1, 2)), KOP)
    assert [(p.code, p.params, p.field) for p in r6.warning_problems] == [
        ("kop.wesele_bidder_doubled", {"seat": 2}, "doubling_seats")
    ]
    # Scored twice (the second from the memo), the warnings are the same.
    again = kop.score_deal(_kop(contract="wesele", declarers=(2, 4), seats=(1, 2)), KOP)
    assert again.warning_problems == r6.warning_problems and again.warnings == r6.warnings


def test_kop_both_warnings_in_order():
    result = kop.score_deal(_kop(contract="cicha", declarers=(1,), points=30, seats=(1,)), KOP)
    assert [p.code for p in result.warning_problems] == [
        "kop.points_impossible",
        "kop.soloist_doubled_first",
    ]
    assert len(result.warnings) == 2


# fmt: off
KOP_BAD_OPTIONS = [
    ("misspelt", {"trump_ordr": "T14"}, "trump_ordr", "trump_ordr", "rules.option_misspelt",
     {"option": "trump_ordr", "game": "kop", "suggestion": "trump_order"}),
    ("unknown", {"colour": 1}, "colour", "colour", "rules.option_unknown",
     {"option": "colour", "game": "kop"}),
    ("choice", {"auction_end": "never"}, "auction_end", "auction_end", "rules.option_choice",
     {"option": "auction_end", "value": '"never"',
      "allowed": ["three_passes", "all_pass", "four_passes", "free_order"]}),
    ("flag", {"margin_on_du": 1}, "margin_on_du", "margin_on_du", "rules.option_flag",
     {"option": "margin_on_du", "value": "1"}),
    ("trump order", {"trump_order": "G"}, "trump_order", "trump_order",
     "kop.option_trump_order", {"option": "trump_order", "value": '"G"'}),
    ("target", {"declarer_target": 61}, "declarer_target", "declarer_target",
     "kop.option_declarer_target", {"option": "declarer_target", "value": "61", "target": 53}),
    ("bez wyjścia", {"bez_wyjscia_max": 60}, "bez_wyjscia_max", "bez_wyjscia_max",
     "kop.option_bez_wyjscia_max",
     {"option": "bez_wyjscia_max", "value": "60", "low": 0, "high": 52}),
    ("one cap", {"doubling_cap": {"zolo": -1}}, "doubling_cap.zolo", "doubling_cap",
     "kop.option_doubling_cap", {"option": "doubling_cap.zolo", "value": "-1"}),
    ("every cap", {"doubling_cap": "many"}, "doubling_cap", "doubling_cap",
     "kop.option_doubling_cap", {"option": "doubling_cap", "value": '"many"'}),
    ("cap of a Baśka contract", {"doubling_cap": {"grand": 3}}, "doubling_cap", "doubling_cap",
     "kop.option_cap_contract",
     {"option": "doubling_cap", "value": '"grand"', "game": "kop", "allowed": KOP_CONTRACTS}),
    ("names", {"doubling_names": []}, "doubling_names", "doubling_names",
     "kop.option_doubling_names", {"option": "doubling_names", "value": "[]"}),
    ("game", {"game": "baska"}, "game", "game", "kop.option_game_mismatch",
     {"option": "game", "value": '"baska"', "game": "kop"}),
]
# fmt: on


@pytest.mark.parametrize(
    ("options", "field", "root", "code", "params"),
    [case[1:] for case in KOP_BAD_OPTIONS],
    ids=[case[0] for case in KOP_BAD_OPTIONS],
)
def test_kop_bad_option_codes(options, field, root, code, params):
    _, problems = kop.collect_rules("kop", options)
    assert [(p.code, p.params, p.field, p.root) for p in problems] == [(code, params, field, root)]


def test_kop_options_not_an_object_and_unknown_game():
    _, problems = kop.collect_rules("kop", [1])
    assert [(p.code, p.params, p.field) for p in problems] == [
        ("rules.options_not_an_object", {"value": "[1]"}, "rules")
    ]
    _, problems = kop.collect_rules("skat", {})
    assert [(p.code, p.params, p.field) for p in problems] == [
        ("kop.game_unknown", {"value": '"skat"'}, "game")
    ]


# ---------------------------------------------------------------------------- rules


# fmt: off
PROFILE_BAD = [
    ("unknown game", lambda: rules.validate_profile_options("skat", {}),
     "game", "rules.game_unknown", {"value": '"skat"', "games": ["kop", "baska", "vint"]}),
    ("Vint scale", lambda: rules.validate_profile_options("vint", {"scale": 2}),
     "scale", "rules.option_choice", {"option": "scale", "value": "2", "allowed": ["1", "10"]}),
    ("Kop option", lambda: rules.validate_profile_options("baska", {"baska_bid": "won"}),
     "baska_bid", "rules.option_choice",
     {"option": "baska_bid", "value": '"won"', "allowed": ["played", "auto_win"]}),
    ("tournament key", lambda: rules.validate_tournament({"rounds": 5}),
     "rounds", "rules.tournament_setting_unknown",
     {"setting": "rounds", "known": ["big_points", "tie_breaks"]}),
    ("big points rise", lambda: rules.validate_tournament(
        {"big_points": [1, 2, 3, 4], "tie_breaks": []}),
     "big_points", "rules.big_points_invalid", {"value": "[1, 2, 3, 4]"}),
    ("tie-break", lambda: rules.validate_tournament(
        {"big_points": [3, 2, 1, 0], "tie_breaks": ["coin"]}),
     "tie_breaks", "rules.tie_breaks_invalid",
     {"value": '["coin"]',
      "allowed": ["small_points", "round_wins", "second_places", "third_places"]}),
    ("profile", lambda: rules.get_profile("bridge"),
     "profile", "rules.profile_unknown",
     {"value": '"bridge"',
      "profiles": ["kop-pagat", "kop-koscian", "kop-wolsztyn", "baska", "baska-puck",
                   "baska-no-grand", "vint"]}),
    ("version", lambda: rules.validate_profile(
        rules.Profile(slug="x", name="x", game="kop", version=0)),
     "version", "rules.version_invalid", {"value": "0"}),
]
# fmt: on


@pytest.mark.parametrize(
    ("call", "field", "code", "params"),
    [case[1:] for case in PROFILE_BAD],
    ids=[case[0] for case in PROFILE_BAD],
)
def test_profile_validation_codes(call, field, code, params):
    with pytest.raises(RuleError) as error:
        call()
    assert (error.value.code, error.value.params, error.value.field, error.value.root) == (
        code,
        params,
        field,
        field,
    )


# ----------------------------------------------------------------------------- Vint

D = contract_deal
PASS = all_pass_deal
H5 = ("NS", 5)

# fmt: off
VINT_BAD = [
    ("level 9", VintDeal(vint.Contract(9, "H"), "N", 0, 10),
     "contract", "contract", "vint.contract_invalid", {"value": '"9H"'}),
    ("14 tricks", D("4H", "N", 14, honours=H5),
     "declarer_tricks", "declarer_tricks", "vint.tricks_out_of_range",
     {"value": 14, "low": 0, "high": 13}),
    ("no declarer", D("4H", None, 10, honours=H5),
     "declarer", "declarer", "vint.declarer_missing", {}),
    ("declarer X", D("4H", "X", 10, honours=H5),
     "declarer", "declarer", "vint.seat_invalid", {"value": '"X"'}),
    ("tripled", D("4H", "N", 10, doubling=3, honours=H5),
     "doubling", "doubling", "vint.doubling_invalid", {"value": "3"}),
    ("honours missing", D("5S", "N", 11),
     "honours", "honours", "vint.honours_missing", {"contract": "5S"}),
    ("4 honour units", D("4H", "N", 10, honours=("NS", 4)),
     "honours.count", "honours", "vint.honours_count_out_of_range",
     {"value": 4, "low": 5, "high": 9}),
    ("honours side NE", D("4H", "N", 10, honours=("NE", 5)),
     "honours.side", "honours", "vint.side_invalid", {"value": '"NE"'}),
    ("honours at grand", D("4G", "N", 10, honours=H5),
     "honours", "honours", "vint.honours_not_here", {"contract": "4G", "kind": "grand"}),
    ("grand aces at a suit", D("4H", "N", 10, honours=H5, grand_aces=("NS", 3)),
     "grand_aces", "grand_aces", "vint.grand_aces_not_here", {"contract": "4H", "kind": "suit"}),
    ("5 grand aces", D("4G", "N", 10, grand_aces=("EW", 5)),
     "grand_aces.count", "grand_aces", "vint.grand_aces_count_out_of_range",
     {"value": 5, "low": 3, "high": 4}),
    ("two hands of aces", D("4G", "N", 10, aces_in_hand=[("N", 3), ("E", 3)]),
     "aces_in_hand", "aces_in_hand", "vint.aces_in_hand_several", {"count": 2}),
    ("5 aces in hand", D("4G", "N", 10, aces_in_hand=[("N", 5)]),
     "aces_in_hand[1].count", "aces_in_hand", "vint.hand_count_out_of_range",
     {"value": 5, "low": 3, "high": 4, "index": 1}),
    ("holdings in misère", D("4M", "N", 3, aces_in_hand=[("N", 3)]),
     "aces_in_hand", "aces_in_hand", "vint.holdings_not_here",
     {"contract": "4M", "kind": "misere"}),
    ("run of 2", D("4G", "N", 10, sequences=[("N", "S", 3), ("E", "H", 2)]),
     "sequences[2].length", "sequences", "vint.sequence_length_out_of_range",
     {"value": 2, "low": 3, "high": 13, "index": 2}),
    ("suit X", D("4G", "N", 10, sequences=[("N", "X", 3)]),
     "sequences[1].suit", "sequences", "vint.suit_invalid", {"value": '"X"', "index": 1}),
    ("two heart runs", D("4G", "N", 10, sequences=[("N", "H", 3), ("S", "H", 4)]),
     "sequences[2].suit", "sequences", "vint.sequence_suit_repeated",
     {"suit": "H", "index": 2, "first": 1}),
    ("14 cards of runs", D("4G", "N", 10, sequences=[("N", "S", 7), ("N", "H", 7)]),
     "sequences", "sequences", "vint.sequences_too_long_hand",
     {"seat": "N", "cards": 14, "limit": 13}),
    ("three runs, no aces_in_hand", D("4G", "N", 10, sequences=[
        ("E", "S", 3), ("E", "H", 3), ("E", "D", 3)]),
     "aces_in_hand", "aces_in_hand", "vint.aces_in_hand_implied", {"seat": "E", "runs": 3}),
    ("honours short of the runs", D("4H", "N", 10, honours=("EW", 8),
                                    sequences=[("N", "H", 5)]),
     "honours", "honours", "vint.honours_contradicted", {"side": "NS", "least": 6, "has": 1}),
    ("dumps at a suit", D("4H", "N", 10, honours=H5, ace_dumps=[("E", 3)]),
     "ace_dumps", "ace_dumps", "vint.ace_dumps_not_here", {"contract": "4H", "kind": "suit"}),
    ("dump on trick 0", D("4M", "N", 3, ace_dumps=[("E", 0)]),
     "ace_dumps[1].trick", "ace_dumps", "vint.dump_trick_out_of_range",
     {"value": 0, "low": 1, "high": 13, "index": 1}),
    ("eldest dumps on the lead", D("4M", "N", 3, ace_dumps=[("W", 1)]),
     "ace_dumps[1]", "ace_dumps", "vint.ace_dump_eldest_leads", {"seat": "W", "index": 1}),
    ("all-pass 12 tricks", PASS(6, 6),
     "tricks", "tricks", "vint.tricks_sum", {"ns": 6, "ew": 6, "sum": 12}),
    ("all-pass 14 NS", PASS(14, 0),
     "tricks.NS", "tricks", "vint.side_tricks_out_of_range",
     {"value": 14, "low": 0, "high": 13, "side": "NS"}),
    ("all-pass without tricks", VintDeal(None),
     "tricks", "tricks", "vint.tricks_missing", {}),
    ("all-pass doubled", VintDeal(None, doubling=1, tricks=vint.TrickSplit(6, 7)),
     "doubling", "doubling", "vint.doubling_on_all_pass", {}),
]
# fmt: on


@pytest.mark.parametrize(
    ("deal", "field", "root", "code", "params"),
    [case[1:] for case in VINT_BAD],
    ids=[case[0] for case in VINT_BAD],
)
def test_vint_bad_deal_codes(deal, field, root, code, params):
    problems = deal_problems(deal)
    assert [(p.code, p.params, p.field, p.root) for p in problems] == [(code, params, field, root)]
    with pytest.raises(RuleError) as error:
        vint.score_deal(deal)
    assert (error.value.code, error.value.params, error.value.root) == (code, params, root)
    assert error.value.field == field
    assert problems[0].problem == Problem(code, params, field, problems[0].line, root)


def test_every_vint_problem_belongs_to_a_deal_field():
    deal_fields = {f.name for f in fields(VintDeal)}
    problems = [p for case in VINT_BAD for p in deal_problems(case[1])]
    assert {p.root for p in problems} <= deal_fields


def test_a_problem_without_a_given_root_is_its_own_root():
    assert vint.DealProblem("declarer", "required").root == "declarer"
    assert vint.DealProblem("tricks.NS", "x", "c", {}, "tricks").root == "tricks"


@pytest.mark.parametrize(
    ("text", "code"),
    [("9H", "vint.contract_invalid"), ("4X", "vint.contract_denomination_invalid")],
)
def test_vint_contract_codes(text, code):
    with pytest.raises(RuleError) as error:
        parse_contract(text)
    assert (error.value.code, error.value.params, error.value.field) == (
        code,
        {"value": f'"{text}"'},
        "contract",
    )


# fmt: off
VINT_BAD_OPTIONS = [
    ({"scal": 1}, "rules.option_misspelt",
     {"option": "scal", "game": "vint", "suggestion": "scale"}),
    ({"colour": 1}, "rules.option_unknown", {"option": "colour", "game": "vint"}),
    ({"holdings_in_misere": 1}, "rules.option_flag",
     {"option": "holdings_in_misere", "value": "1"}),
    ({"all_pass": "skip"}, "rules.option_choice",
     {"option": "all_pass", "value": '"skip"', "allowed": ["play", "redeal"]}),
    ({"overtrick_4": -50}, "rules.option_integer", {"option": "overtrick_4", "value": "-50"}),
    ({"level_min": 1}, "vint.option_level_min_unsupported",
     {"option": "level_min", "value": "1"}),
]
# fmt: on


@pytest.mark.parametrize(("options", "code", "params"), VINT_BAD_OPTIONS)
def test_vint_option_codes(options, code, params):
    with pytest.raises(RuleError) as error:
        vint.parse_rules(options)
    assert (error.value.code, error.value.params) == (code, params)
    assert error.value.field == error.value.root == params["option"]
    _, pairs = vint.rules_problems(options)
    assert pairs == [(params["option"], error.value.message)]


def test_a_finished_rubber_refuses_another_deal():
    over = RubberState(games_ns=2, winner="NS", extra_played=4, deals_played=9)
    with pytest.raises(RuleError) as error:
        rubber_apply(over, D("4H", "N", 10, honours=H5))
    assert (error.value.code, error.value.params, error.value.field) == (
        "vint.rubber_over",
        {"deal": 9},
        None,
    )
