"""The §7 options of ``rules/kop.md``: names, values, defaults per game, round trip."""

from __future__ import annotations

import pytest

from scoring.engines.errors import RuleError
from scoring.engines.kop import (
    OPTION_NAMES,
    KopRules,
    collect_rules,
    default_rules,
    parse_rules,
    rules_to_options,
)

# The table of shared/formats/scoresheet-json.md: these must be accepted.
FORMAT_TABLE = [
    ("bez_wyjscia_max", 25),
    ("bez_wyjscia_max", 26),
    ("margin_on_du", False),
    ("margin_on_du", True),
    ("doubling_count", "alternating_sides_only"),
    ("doubling_count", "every_call"),
    ("doubling_cap", 4),
    ("doubling_cap", 5),
    ("doubling_cap", {"zolo": 3}),
]


@pytest.mark.parametrize("game", ["kop", "baska"])
@pytest.mark.parametrize(("option", "value"), FORMAT_TABLE)
def test_format_table_options_are_accepted(game: str, option: str, value: object) -> None:
    parse_rules(game, {option: value})


def test_kop_defaults() -> None:
    rules = default_rules("kop")
    assert rules.trump_order == "T14"
    assert rules.baska_loss_double is False
    assert rules.doubling_names == ("kontra", "rej", "bok", "słup")
    assert dict(rules.doubling_cap) == {
        "normal": 4,
        "cicha": 4,
        "wesele": 4,
        "zolo": 4,
        "zolo_du": 4,
    }
    assert rules.declarer_target == 53
    assert rules.bez_wyjscia_max == 25
    assert rules.margin_on_du is False
    assert rules.wesele_partner == "highest_missing_jack"
    assert rules.wesele_bidder_may_double is False
    assert rules.soloist_may_double_first is False
    assert rules.doubling_count == "alternating_sides_only"
    assert rules.higher_bid_cancels_doublings is True
    assert rules.auction_end == "three_passes"
    assert rules.wesele_first_call_only is False
    assert rules.baska_bid == "played"
    assert rules.du_as_suffix is False


def test_baska_defaults() -> None:
    rules = default_rules("baska")
    assert rules.trump_order == "T12"
    assert rules.baska_loss_double is True
    assert rules.doubling_names == ("kontra", "rekontra", "bok", "hirsz")
    assert set(rules.doubling_cap) == {
        "normal",
        "cicha",
        "wesele",
        "zolo",
        "zolo_du",
        "grand",
        "grand_du",
        "baska",
    }
    assert set(rules.doubling_cap.values()) == {4}


def test_cap_object_keeps_the_default_for_missing_contracts() -> None:
    rules = parse_rules("kop", {"doubling_cap": {"zolo": 3, "normal": "unlimited"}})
    assert dict(rules.doubling_cap) == {
        "normal": None,
        "cicha": 4,
        "wesele": 4,
        "zolo": 3,
        "zolo_du": 4,
    }


@pytest.mark.parametrize("unlimited", [None, "unlimited"])
def test_unlimited_cap(unlimited: object) -> None:
    rules = parse_rules("baska", {"doubling_cap": unlimited})
    assert set(rules.doubling_cap.values()) == {None}


def test_caps_are_read_only() -> None:
    rules = default_rules("kop")
    with pytest.raises(TypeError):
        rules.doubling_cap["zolo"] = 9  # type: ignore[index]


def test_trump_order_accepts_the_snake_case_spelling() -> None:
    assert parse_rules("kop", {"trump_order": "t12"}).trump_order == "T12"


@pytest.mark.parametrize(
    ("game", "options", "field"),
    [
        ("kop", {"bez_wyjscia_maks": 25}, "bez_wyjscia_maks"),
        ("kop", {"bezWyjsciaMax": 25}, "bezWyjsciaMax"),
        ("kop", {"bez_wyjscia_max": "25"}, "bez_wyjscia_max"),
        ("kop", {"bez_wyjscia_max": True}, "bez_wyjscia_max"),
        ("kop", {"bez_wyjscia_max": 25.0}, "bez_wyjscia_max"),
        ("kop", {"bez_wyjscia_max": 53}, "bez_wyjscia_max"),
        ("kop", {"bez_wyjscia_max": -1}, "bez_wyjscia_max"),
        ("kop", {"margin_on_du": 1}, "margin_on_du"),
        ("kop", {"margin_on_du": "true"}, "margin_on_du"),
        ("kop", {"doubling_count": "everyCall"}, "doubling_count"),
        ("kop", {"doubling_cap": -1}, "doubling_cap"),
        ("kop", {"doubling_cap": True}, "doubling_cap"),
        ("kop", {"doubling_cap": "lots"}, "doubling_cap"),
        ("kop", {"doubling_cap": {"grand": 3}}, "doubling_cap"),
        ("kop", {"doubling_cap": {"zolo": -3}}, "doubling_cap.zolo"),
        ("kop", {"doubling_names": "kontra"}, "doubling_names"),
        ("kop", {"doubling_names": []}, "doubling_names"),
        ("kop", {"doubling_names": ["kontra", ""]}, "doubling_names"),
        ("kop", {"trump_order": "G"}, "trump_order"),
        ("kop", {"declarer_target": 52}, "declarer_target"),
        ("kop", {"wesele_partner": "namedJack"}, "wesele_partner"),
        ("kop", {"auction_end": "3"}, "auction_end"),
        ("kop", {"baska_bid": "autoWin"}, "baska_bid"),
        ("kop", {"game": "baska"}, "game"),
        ("vint", {}, "game"),
    ],
)
def test_bad_options_raise_naming_the_option(
    game: str, options: dict[str, object], field: str
) -> None:
    with pytest.raises(RuleError) as err:
        parse_rules(game, options)
    assert err.value.field == field
    if field != "game":
        assert field in err.value.message


def test_a_misspelt_option_gets_a_suggestion() -> None:
    with pytest.raises(RuleError, match="did you mean bez_wyjscia_max"):
        parse_rules("kop", {"bez_wyjsica_max": 26})


def test_collect_rules_reports_every_problem_and_keeps_the_good_options() -> None:
    rules, problems = collect_rules(
        "kop", {"margin_on_du": 1, "colour": "red", "bez_wyjscia_max": 26}
    )
    assert [p.field for p in problems] == ["margin_on_du", "colour"]
    assert rules is not None and rules.bez_wyjscia_max == 26 and rules.margin_on_du is False


def test_options_must_be_an_object() -> None:
    _, problems = collect_rules("kop", [1, 2])
    assert [p.field for p in problems] == ["rules"]


def test_game_may_repeat_in_the_options() -> None:
    assert parse_rules("baska", {"game": "baska"}) == default_rules("baska")


def test_direct_construction_is_validated_too() -> None:
    with pytest.raises(RuleError) as err:
        KopRules(doubling_count="sometimes")
    assert err.value.field == "doubling_count"


ROUND_TRIP = [
    ("kop", {}),
    ("baska", {}),
    ("kop", {"doubling_cap": {"normal": 5, "wesele": 5, "cicha": 3, "zolo": 3, "zolo_du": 3}}),
    ("kop", {"doubling_cap": "unlimited", "doubling_names": ["a", "b"]}),
    ("baska", {"doubling_cap": {"grand": None}, "baska_bid": "auto_win", "margin_on_du": True}),
    ("kop", {"trump_order": "T12", "auction_end": "free_order", "bez_wyjscia_max": 26}),
]


@pytest.mark.parametrize(("game", "options"), ROUND_TRIP)
def test_rules_to_options_round_trip(game: str, options: dict[str, object]) -> None:
    rules = parse_rules(game, options)
    full = rules_to_options(rules)
    assert set(full) == set(OPTION_NAMES) - {"game"}
    assert parse_rules(game, full) == rules
    assert parse_rules(game, rules_to_options(rules, only_changed=True)) == rules


def test_only_changed_leaves_out_the_defaults() -> None:
    rules = parse_rules("kop", {"bez_wyjscia_max": 26, "doubling_cap": {"zolo": 3}})
    assert rules_to_options(rules, only_changed=True) == {
        "bez_wyjscia_max": 26,
        "doubling_cap": {"normal": 4, "cicha": 4, "wesele": 4, "zolo": 3, "zolo_du": 4},
    }
    assert rules_to_options(default_rules("baska"), only_changed=True) == {}


def test_options_are_json_ready() -> None:
    import json

    rules = parse_rules("kop", {"doubling_cap": {"zolo": None}})
    text = json.dumps(rules_to_options(rules))
    assert parse_rules("kop", json.loads(text)) == rules


def test_rules_pickle_and_copy() -> None:
    import copy
    import pickle

    rules = parse_rules("baska", {"doubling_cap": {"grand": None}, "bez_wyjscia_max": 26})
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert copy.deepcopy(rules) == rules
    assert copy.copy(rules) == rules
