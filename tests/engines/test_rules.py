"""Rule profiles (``scoring/engines/rules.py``): data, validated by the game engines."""

from __future__ import annotations

import json

import pytest

from scoring.engines.errors import RuleError
from scoring.engines.kop import KopDeal, KopRules, parse_rules, score_deal
from scoring.engines.rules import (
    BUILTIN_PROFILES,
    Profile,
    get_profile,
    profiles_for,
    validate_profile,
    validate_profile_options,
    validate_tournament,
)

TIE_BREAKS = ["small_points", "round_wins", "second_places", "third_places"]


def test_the_builtin_profiles() -> None:
    assert {"kop-pagat", "kop-koscian", "kop-wolsztyn", "baska", "vint"} <= set(BUILTIN_PROFILES)
    for slug, profile in BUILTIN_PROFILES.items():
        assert profile.slug == slug
        assert profile.name
        assert profile.game in ("kop", "baska", "vint")
        assert profile.version >= 1
        json.dumps([profile.options, profile.tournament])  # JSON-ready data


@pytest.mark.parametrize("slug", ["kop-pagat", "kop-koscian", "kop-wolsztyn", "baska"])
def test_kop_and_baska_profiles_validate(slug: str) -> None:
    profile = BUILTIN_PROFILES[slug]
    rules = validate_profile(profile)
    assert isinstance(rules, KopRules)
    assert rules.game == profile.game


def test_kop_pagat() -> None:
    rules = parse_rules("kop", BUILTIN_PROFILES["kop-pagat"].options)
    assert rules.trump_order == "T12"
    assert rules.auction_end == "three_passes"
    assert set(rules.doubling_cap.values()) == {4}
    assert rules.wesele_bidder_may_double is False


def test_kop_koscian() -> None:
    profile = BUILTIN_PROFILES["kop-koscian"]
    rules = parse_rules("kop", profile.options)
    assert rules.trump_order == "T14"
    assert dict(rules.doubling_cap) == {
        "normal": 5,
        "wesele": 5,
        "cicha": 3,
        "zolo": 3,
        "zolo_du": 3,
    }
    assert rules.wesele_bidder_may_double is True
    assert rules.wesele_first_call_only is True
    assert rules.auction_end == "four_passes"
    assert rules.doubling_names == ("kontra", "rej", "bok", "skok", "zub")
    assert profile.tournament["big_points"] == [5, 3, 1, 0]
    assert profile.tournament["tie_breaks"] == TIE_BREAKS


def test_kop_koscian_scores_e22() -> None:
    # §6.3 E22: five alternating doublings up to zub, Old take everything: 96.
    rules = parse_rules("kop", BUILTIN_PROFILES["kop-koscian"].options)
    deal = KopDeal(
        contract="normal", declarers=(1, 3), doubling_seats=(2, 1, 4, 3, 2), declarer_points=104
    )
    assert score_deal(deal, rules).payments == (96, -96, 96, -96)


def test_kop_wolsztyn() -> None:
    profile = BUILTIN_PROFILES["kop-wolsztyn"]
    rules = parse_rules("kop", profile.options)
    assert rules.trump_order == "T14"
    assert rules.auction_end == "all_pass"
    assert profile.tournament["big_points"] == [4, 3, 2, 1]
    assert profile.tournament["tie_breaks"] == TIE_BREAKS


def test_baska_profile_has_baska_defaults() -> None:
    rules = parse_rules("baska", BUILTIN_PROFILES["baska"].options)
    assert rules.trump_order == "T12"
    assert rules.baska_loss_double is True
    assert rules.doubling_names == ("kontra", "rekontra", "bok", "hirsz")


def test_vint_profile_is_defaults() -> None:
    profile = BUILTIN_PROFILES["vint"]
    assert profile.game == "vint" and profile.options == {}


def test_vint_options_go_to_the_vint_engine() -> None:
    vint = pytest.importorskip("scoring.engines.vint")  # written alongside this module
    assert validate_profile(BUILTIN_PROFILES["vint"]) == vint.parse_rules({})
    with pytest.raises(RuleError):
        validate_profile_options("vint", {"no_such_option": 1})


def test_validation_dispatches_on_the_game() -> None:
    assert validate_profile_options("baska", {"baska_bid": "auto_win"}) == parse_rules(
        "baska", {"baska_bid": "auto_win"}
    )
    with pytest.raises(RuleError) as err:
        validate_profile_options("kop", {"doubling_cap": {"grand": 2}})
    assert err.value.field == "doubling_cap"
    with pytest.raises(RuleError) as err:
        validate_profile_options("skat", {})
    assert err.value.field == "game"


def test_a_profile_with_a_bad_option_fails_validation() -> None:
    tournament = {"big_points": [5, 3, 1, 0], "tie_breaks": TIE_BREAKS}
    profile = Profile("mine", "Mine", "kop", 1, {"bez_wyjscia_max": "26"}, tournament)
    with pytest.raises(RuleError) as err:
        validate_profile(profile)
    assert err.value.field == "bez_wyjscia_max"


@pytest.mark.parametrize(
    ("tournament", "field"),
    [
        ({"tie_breaks": TIE_BREAKS}, "big_points"),
        ({"big_points": [5, 3, 1], "tie_breaks": TIE_BREAKS}, "big_points"),
        ({"big_points": [1, 3, 5, 0], "tie_breaks": TIE_BREAKS}, "big_points"),
        ({"big_points": [5, 3, 1, -1], "tie_breaks": TIE_BREAKS}, "big_points"),
        ({"big_points": [5, 3, True, 0], "tie_breaks": TIE_BREAKS}, "big_points"),
        ({"big_points": [5, 3, 1, 0]}, "tie_breaks"),
        ({"big_points": [5, 3, 1, 0], "tie_breaks": ["coin_toss"]}, "tie_breaks"),
        ({"big_points": [5, 3, 1, 0], "tie_breaks": ["round_wins", "round_wins"]}, "tie_breaks"),
        ({"big_points": [5, 3, 1, 0], "tie_breaks": [], "bonus": 1}, "bonus"),
    ],
)
def test_bad_tournament_settings(tournament: dict[str, object], field: str) -> None:
    with pytest.raises(RuleError) as err:
        validate_tournament(tournament)
    assert err.value.field == field


def test_bad_version() -> None:
    with pytest.raises(RuleError) as err:
        validate_profile(Profile("x", "X", "kop", 0, {}, {"big_points": [5, 3, 1, 0]}))
    assert err.value.field == "version"


def test_get_profile_hands_out_a_private_copy() -> None:
    mine = get_profile("kop-koscian")
    assert mine == BUILTIN_PROFILES["kop-koscian"]
    mine.options["doubling_cap"] = 9  # type: ignore[index]
    mine.tournament["big_points"][0] = 7  # type: ignore[index]
    assert BUILTIN_PROFILES["kop-koscian"].options["doubling_cap"] != 9
    assert BUILTIN_PROFILES["kop-koscian"].tournament["big_points"] == [5, 3, 1, 0]
    with pytest.raises(RuleError) as err:
        get_profile("kop-unknown")
    assert err.value.field == "profile"


def test_profile_copies_its_input() -> None:
    options: dict[str, object] = {"doubling_names": ["a", "b"]}
    profile = Profile("x", "X", "kop", 1, options, {})
    options["doubling_names"].append("c")  # type: ignore[attr-defined]
    assert profile.options["doubling_names"] == ["a", "b"]


def test_profiles_are_hashable_by_identity_fields() -> None:
    assert len({BUILTIN_PROFILES["baska"], get_profile("baska")}) == 1


def test_profiles_for_a_game() -> None:
    assert [p.slug for p in profiles_for("kop")] == ["kop-pagat", "kop-koscian", "kop-wolsztyn"]
    assert [p.slug for p in profiles_for("baska")] == ["baska", "baska-puck", "baska-no-grand"]


def test_profile_rules_method() -> None:
    assert BUILTIN_PROFILES["kop-pagat"].rules() == parse_rules("kop", {"trump_order": "T12"})
