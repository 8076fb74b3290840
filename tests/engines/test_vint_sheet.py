"""The Vint scoresheet JSON (``formats/scoresheet-json.md``, section "Vint").

The fixtures in ``tests/fixtures/sheets/vint_*.json`` hold the §6 material of
``rules/vint.md``: the three rubbers of the session, the same session under
``extra_game_count=overall`` (§6.5), and E1-E16 as one-deal rubbers. The
expected figures are the document's, typed in ``test_vint.py`` and here.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engines.errors import SheetError
from scoring.engines.vint import session_partnerships
from scoring.engines.vint_sheet import (
    SheetRubber,
    VintSheet,
    check_vint_sheet,
    read_vint_sheet,
    score_vint_sheet,
    vint_sheet_from_session,
)
from tests.engines.test_vint import (
    RUBBER_1_SHEET,
    RUBBER_2_SHEET,
    RUBBER_3_SHEET,
    SINGLE_DEALS,
)
from tests.engines.test_vint_properties import SETTINGS, rubbers, rules

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sheets"


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


# ================================================================ the session


def test_session_sheet_deal_by_deal():
    out = score_vint_sheet(load("vint_session.json"))
    tables = [RUBBER_1_SHEET, RUBBER_2_SHEET, RUBBER_3_SHEET]
    for r, (rubber, table) in enumerate(zip(out["rubbers"], tables, strict=True), 1):
        assert len(rubber["deals"]) == len(table)
        for n, (deal, row) in enumerate(zip(rubber["deals"], table, strict=True), 1):
            phase, ns_above, ns_below, ew_above, ew_below, games, _part, _ns, _ew = row
            assert deal == {
                "above": {"NS": ns_above, "EW": ew_above},
                "below": {"NS": ns_below, "EW": ew_below},
                "games": {"NS": games[0], "EW": games[1]},
                "phase": phase,
                "warnings": [],
            }, f"rubber {r}, deal {n}"


def test_session_sheet_rubbers_and_standings():
    out = score_vint_sheet(load("vint_session.json"))
    assert [(r["rubber_winner"], r["finished"]) for r in out["rubbers"]] == [
        ("NS", True),
        ("NS", True),
        ("EW", True),
    ]
    assert [r["totals"] for r in out["rubbers"]] == [
        {"Anna": 12756, "Boris": 6508, "Carl": 12756, "Dina": 6508},
        {"Anna": 10599, "Carl": 16914, "Boris": 10599, "Dina": 16914},
        {"Anna": 2927, "Boris": 17198, "Dina": 2927, "Carl": 17198},
    ]
    # The format doc's own output example carries these figures too.
    assert out["session"] == {
        "totals": {"Anna": 26282, "Boris": 34305, "Carl": 46868, "Dina": 26349},
        "net": {"Anna": -7169, "Boris": 854, "Carl": 13417, "Dina": -7102},
    }


def test_output_has_exactly_the_documented_keys():
    out = score_vint_sheet(load("vint_session.json"))
    assert list(out) == ["game", "rubbers", "session"]
    assert out["game"] == "vint"
    for rubber in out["rubbers"]:
        assert set(rubber) == {"deals", "rubber_winner", "finished", "totals"}
        for deal in rubber["deals"]:
            assert set(deal) == {"above", "below", "games", "phase", "warnings"}
    assert set(out["session"]) == {"totals", "net"}
    json.dumps(out)  # plain JSON


def test_session_sheet_under_overall():
    # §6.5: rubber totals and the session under extra_game_count=overall.
    out = score_vint_sheet(load("vint_session_overall.json"))
    assert [r["totals"]["Anna"] for r in out["rubbers"]] == [12956, 10999, 3527]
    assert [(r["totals"]["Boris"], r["totals"]["Carl"]) for r in out["rubbers"]] == [
        (6508, 12956),
        (10999, 18314),
        (17398, 17398),
    ]
    assert out["session"]["totals"] == {"Anna": 27482, "Boris": 34905, "Carl": 48668, "Dina": 28349}


def test_single_deal_sheet():
    out = score_vint_sheet(load("vint_single_deals.json"))
    assert len(out["rubbers"]) == len(SINGLE_DEALS)
    for rubber, (name, _deal, _items, ns, ew) in zip(out["rubbers"], SINGLE_DEALS, strict=True):
        (deal,) = rubber["deals"]
        totals = (
            deal["above"]["NS"] + deal["below"]["NS"],
            deal["above"]["EW"] + deal["below"]["EW"],
        )
        assert totals == (ns, ew), name
        assert deal["phase"] == "main"
        assert rubber["rubber_winner"] is None
        assert rubber["finished"] is False
    games = [r["deals"][0]["games"] for r in out["rubbers"]]
    assert games[1] == {"NS": 1, "EW": 0}  # E2: "60 -> game if starting from 0"
    assert games[2] == {"NS": 0, "EW": 1}  # E3: "EW make game although they failed"
    assert games[5] == {"NS": 1, "EW": 0}  # E6: "Default: NS (200 > 60) get the game"


def test_option_keys_appear_only_under_their_options():
    sheet = load("vint_session.json")
    sheet["rules"] = {"result_method": "rubber_differential"}
    out = score_vint_sheet(sheet)
    assert out["session"]["differential"] == {
        "Anna": -14338,
        "Boris": 1708,
        "Carl": 26834,
        "Dina": -14204,
    }
    sheet = load("vint_session.json")
    sheet["rules"] = {"unfinished_rubber_bonus": "200_per_game_lead"}
    del sheet["rubbers"][1]["deals"][2:]  # rubber 2 stopped after deal 2: EW 1 game to 0
    rubber = score_vint_sheet(sheet)["rubbers"][1]
    assert rubber["unfinished_bonus"] == {"NS": 0, "EW": 200}
    assert rubber["totals"]["Carl"] == 2355 + 832 + 200
    assert "unfinished_bonus" not in score_vint_sheet(load("vint_session.json"))["rubbers"][1]


def test_a_rubber_without_deals_is_valid():
    sheet = load("vint_session.json")
    sheet["rubbers"][2]["deals"] = []
    rubber = score_vint_sheet(sheet)["rubbers"][2]
    assert rubber == {
        "deals": [],
        "rubber_winner": None,
        "finished": False,
        "totals": {"Anna": 0, "Boris": 0, "Dina": 0, "Carl": 0},
    }
    assert check_vint_sheet(sheet) == []


# ================================================================= round trip


def test_fixture_round_trips_through_the_writer():
    sheet = read_vint_sheet(load("vint_session.json"))
    written = vint_sheet_from_session(sheet.rules, sheet.rubbers)
    again = read_vint_sheet(json.loads(json.dumps(written)))
    assert again == sheet
    assert score_vint_sheet(written) == score_vint_sheet(load("vint_session.json"))


def test_writer_output_matches_the_fixture_deal_for_deal():
    fixture = load("vint_session.json")
    sheet = read_vint_sheet(fixture)
    written = vint_sheet_from_session(sheet.rules, sheet.rubbers)
    assert written["rubbers"] == fixture["rubbers"]
    assert written["rules"]["extra_game_count"] == "per_side"


@SETTINGS
@given(st.data())
def test_any_session_round_trips(data):
    chosen = data.draw(rules())
    seatings = session_partnerships(["Ala", "Bo", "Cy", "Di"])
    session = tuple(
        SheetRubber(seating, data.draw(st.sampled_from("NESW")), tuple(data.draw(rubbers(chosen))))
        for seating in seatings
    )
    written = json.loads(json.dumps(vint_sheet_from_session(chosen, session)))
    assert read_vint_sheet(written) == VintSheet(chosen, session)


# ================================================================== bad input


def test_bad_sheet_fixture_lists_every_problem():
    with pytest.raises(SheetError) as error:
        read_vint_sheet(load("vint_bad_sheet.json"))
    problems = error.value.problems
    assert problems[0] == (
        'rules: double_scope: "everything" is not one of "play", "all", "contract_only"'
    )
    assert problems[1].startswith("rules: bonus_for_style: unknown option (known: ")
    assert problems[2:] == [
        "rubber 1, deal 1: declarer_tricks: 14 is outside 0..13",
        "rubber 1, deal 2: doubling: expected an integer, got true",
        "rubber 1, deal 2: honours.count: 4 is outside 5..9",
        'rubber 1, deal 3: contract: "8C" is not a level 4..7 followed by S, C, D, H, G or M,'
        ' or "pass"',
        "rubber 1, deal 4: declarer_tricks: expected an integer, got 9.0",
        "rubber 1, deal 4: honours: required on 4S: the side holding 5 or more of the 9 honour"
        " units, and how many (5..9)",
        'rubber 1, deal 5: declarer: "X" is not a seat (N, E, S, W)',
        "rubber 1, deal 5: honours: only on suit contracts; 4G is a grand",
        "rubber 1, deal 6: ace_dumps[1].trick: 14 is outside 1..13",
        "rubber 1, deal 7: declarer: not on an all-pass deal",
        "rubber 1, deal 7: tricks: NS 5 + EW 7 = 12, not 13",
        "rubber 1, deal 8: sequences[1].lenght: unknown key (allowed: seat, suit, length)",
        "rubber 1, deal 8: sequences[1].length: missing",
        "rubber 1, deal 9: colour: unknown key (allowed: contract, declarer, doubling,"
        " declarer_tricks, honours, grand_aces, aces_in_hand, sequences, ace_dumps, tricks,"
        " voided)",
        "rubber 1, deal 9: grand_aces: expected an object with side, count (omit it on a 2-2"
        " split), got null",
        'rubber 2: first_dealer: "Q" is not a seat (N, E, S, W)',
        'rubber 2, deal 1: expected an object, got ["4H", "N", 10]',
        'rubber 2: seats: the players differ from rubber 1 (new: "Eve"; missing: "Carl")',
    ]


DELETE = object()


def mutated(path: tuple, value: object) -> dict:
    sheet = copy.deepcopy(load("vint_session.json"))
    *parents, last = path
    target = sheet
    for key in parents:
        target = target[key]
    if value is DELETE:
        del target[last]
    elif isinstance(target, list) and last == len(target):
        target.append(value)
    else:
        target[last] = value
    return sheet


def d(n: int, *rest: object) -> tuple:
    """Path to deal ``n`` (1-based, as in §6.2) of rubber 1."""
    return ("rubbers", 0, "deals", n - 1, *rest)


# (path, new value or DELETE, the one problem line expected). Rubber 1 of
# §6.2: deal 3 is 6C with a heart run, 4 is 4S by E, 5 is 4G, 6 is 4M, 7 all-pass.
# fmt: off
MUTATIONS = [
    # numbers: JSON integers only
    (d(4, "declarer_tricks"), 14, "rubber 1, deal 4: declarer_tricks: 14 is outside 0..13"),
    (d(4, "declarer_tricks"), -1, "rubber 1, deal 4: declarer_tricks: -1 is outside 0..13"),
    (d(4, "declarer_tricks"), True,
     "rubber 1, deal 4: declarer_tricks: expected an integer, got true"),
    (d(4, "declarer_tricks"), 9.0,
     "rubber 1, deal 4: declarer_tricks: expected an integer, got 9.0"),
    (d(4, "declarer_tricks"), "9",
     'rubber 1, deal 4: declarer_tricks: expected an integer, got "9"'),
    (d(4, "declarer_tricks"), DELETE, "rubber 1, deal 4: declarer_tricks: missing"),
    (d(4, "doubling"), 3,
     "rubber 1, deal 4: doubling: 3 is not 0 (none), 1 (doubled) or 2 (redoubled)"),
    (d(4, "doubling"), False, "rubber 1, deal 4: doubling: expected an integer, got false"),
    (d(4, "doubling"), DELETE, "rubber 1, deal 4: doubling: missing"),
    # seats, contract, unknown keys
    (d(4, "declarer"), "X", 'rubber 1, deal 4: declarer: "X" is not a seat (N, E, S, W)'),
    (d(4, "declarer"), 2, "rubber 1, deal 4: declarer: expected a seat (N, E, S, W), got 2"),
    (d(4, "declarer"), DELETE, "rubber 1, deal 4: declarer: missing"),
    (d(4, "contract"), "3S",
     'rubber 1, deal 4: contract: "3S" is not a level 4..7 followed by S, C, D, H, G or M, '
     'or "pass"'),
    (d(4, "contract"), "4N",
     'rubber 1, deal 4: contract: "4N": the denomination must be S, C, D, H, G (grand) or M '
     "(misère)"),
    (d(4, "contract"), 4,
     'rubber 1, deal 4: contract: expected a contract such as "4H" or "pass", got 4'),
    (d(4, "contract"), DELETE, "rubber 1, deal 4: contract: missing"),
    (d(4, "tricks"), {"NS": 4, "EW": 9},
     "rubber 1, deal 4: tricks: only on an all-pass deal (a contract uses declarer_tricks)"),
    (d(4, "colour"), "red",
     "rubber 1, deal 4: colour: unknown key (allowed: contract, declarer, doubling, "
     "declarer_tricks, honours, grand_aces, aces_in_hand, sequences, ace_dumps, tricks, voided)"),
    # honours, grand aces, holdings
    (d(4, "honours"), DELETE,
     "rubber 1, deal 4: honours: required on 4S: the side holding 5 or more of the 9 honour "
     "units, and how many (5..9)"),
    (d(4, "honours", "count"), 4, "rubber 1, deal 4: honours.count: 4 is outside 5..9"),
    (d(4, "honours", "count"), DELETE, "rubber 1, deal 4: honours.count: missing"),
    (d(4, "honours", "side"), "NE", 'rubber 1, deal 4: honours.side: "NE" is not a side (NS, EW)'),
    (d(4, "honours", "who"), "E",
     "rubber 1, deal 4: honours.who: unknown key (allowed: side, count)"),
    (d(4, "honours"), [], "rubber 1, deal 4: honours: expected an object with side, count, got []"),
    (d(5, "honours"), {"side": "NS", "count": 5},
     "rubber 1, deal 5: honours: only on suit contracts; 4G is a grand"),
    (d(5, "grand_aces"), None,
     "rubber 1, deal 5: grand_aces: expected an object with side, count (omit it on a 2-2 "
     "split), got null"),
    (d(5, "grand_aces", "count"), 2, "rubber 1, deal 5: grand_aces.count: 2 is outside 3..4"),
    (d(4, "grand_aces"), {"side": "EW", "count": 3},
     "rubber 1, deal 4: grand_aces: only on grand contracts; 4S is a suit contract"),
    (d(5, "aces_in_hand"), [{"seat": "E", "count": 3}],
     "rubber 1, deal 5: grand_aces: EW holds at least 3 aces (aces_in_hand, sequences); "
     "grand_aces gives EW 1"),
    (d(5, "aces_in_hand"), [{"seat": "N", "count": 3}, {"seat": "S", "count": 3}],
     "rubber 1, deal 5: aces_in_hand: 2 players given; only one player can hold 3 or 4 aces"),
    (d(3, "sequences", 0, "suit"), "X",
     'rubber 1, deal 3: sequences[1].suit: "X" is not a suit (S, C, D, H)'),
    (d(3, "sequences", 0, "length"), "3",
     'rubber 1, deal 3: sequences[1].length: expected an integer, got "3"'),
    (d(3, "sequences", 0, "length"), 14,
     "rubber 1, deal 3: sequences[1].length: 14 is outside 3..13"),
    (d(3, "sequences"), {"seat": "S", "suit": "H", "length": 3},
     'rubber 1, deal 3: sequences: expected a list, got {"seat": "S", "suit": "H", "length": 3}'),
    (d(6, "sequences"), [{"seat": "N", "suit": "H", "length": 3}],
     "rubber 1, deal 6: sequences: no holding premiums here; 4M is a misère"),
    # ace dumps
    (d(6, "ace_dumps", 0, "trick"), 14,
     "rubber 1, deal 6: ace_dumps[1].trick: 14 is outside 1..13"),
    (d(6, "ace_dumps", 0), {"seat": "N", "trick": 1},  # N is the eldest of E's misère
     "rubber 1, deal 6: ace_dumps[1]: N is the eldest and leads trick 1; a led ace wins its trick"),
    (d(6, "ace_dumps", 0, "seat"), "NS", 'rubber 1, deal 6: ace_dumps[1].seat: "NS" is not a seat'),
    (d(6, "ace_dumps"), [{"seat": "N", "trick": 2}, {"seat": "N", "trick": 4},
                         {"seat": "S", "trick": 5}, {"seat": "S", "trick": 8}],
     "rubber 1, deal 6: ace_dumps: NS lost aces on 4 different tricks, but EW took only 3"),
    (d(4, "ace_dumps"), [{"seat": "N", "trick": 2}],
     "rubber 1, deal 4: ace_dumps: only in misère and all-pass deals; 4S is a suit contract"),
    # all-pass deals
    (d(7, "tricks", "NS"), 4, "rubber 1, deal 7: tricks: NS 4 + EW 8 = 12, not 13"),
    (d(7, "tricks", "NS"), None, "rubber 1, deal 7: tricks.NS: expected an integer, got null"),
    (d(7, "tricks"), DELETE,
     "rubber 1, deal 7: tricks: required on an all-pass deal (NS and EW tricks)"),
    (d(7, "declarer"), "N", "rubber 1, deal 7: declarer: not on an all-pass deal"),
    (d(7, "doubling"), 0, "rubber 1, deal 7: doubling: not on an all-pass deal"),
    (d(7, "honours"), {"side": "NS", "count": 5},
     "rubber 1, deal 7: honours: only on suit contracts; this is an all-pass deal"),
    # deals and rubbers
    (d(2), ["5D", "W", 11], 'rubber 1, deal 2: expected an object, got ["5D", "W", 11]'),
    (d(10), {"contract": "4H", "declarer": "N", "doubling": 0, "declarer_tricks": 10,
             "honours": {"side": "NS", "count": 5}},
     "rubber 1, deal 10: the rubber is over: it ended with deal 9, the fourth extra deal "
     "after the rubber was won"),
    (("rubbers", 0, "seats", "W"), "Carl", 'rubber 1: seats.W: "Carl" already sits at S'),
    (("rubbers", 0, "seats", "W"), " ", "rubber 1: seats.W: the name is blank"),
    (("rubbers", 0, "seats", "W"), DELETE, "rubber 1: seats.W: missing"),
    (("rubbers", 0, "seats", "X"), "Xena",
     "rubber 1: seats.X: unknown key (allowed: N, E, S, W)"),
    (("rubbers", 0, "seats"), ["Anna", "Boris", "Carl", "Dina"],
     'rubber 1: seats: expected an object with N, E, S, W, got ["Anna", "Boris", "Carl", "Dina"]'),
    (("rubbers", 0, "first_dealer"), "Q", 'rubber 1: first_dealer: "Q" is not a seat (N, E, S, W)'),
    (("rubbers", 0, "first_dealer"), DELETE, "rubber 1: first_dealer: missing"),
    (("rubbers", 0, "notes"), "",
     "rubber 1: notes: unknown key (allowed: seats, first_dealer, deals)"),
    (("rubbers", 0, "deals"), "x", 'rubber 1: deals: expected a list of deals, got "x"'),
    (("rubbers", 1), [], "rubber 2: expected an object with seats, first_dealer, deals, got []"),
    (("rubbers", 2, "seats", "S"), "Eve",
     'rubber 3: seats: the players differ from rubber 1 (new: "Eve"; missing: "Dina")'),
    # the sheet itself
    (("game",), "kop", 'game: "kop" is not "vint"'),
    (("game",), DELETE, "game: missing"),
    (("rubbers",), DELETE, "rubbers: missing"),
    (("rubbers",), [], "rubbers: expected a non-empty list of rubbers, got []"),
    (("players",), ["Anna"], "players: unknown key (allowed: game, rules, rubbers)"),
    (("rules",), "fast", 'rules: expected an object of options, got "fast"'),
    (("rules",), {"extra_game_count": "per-side"},
     'rules: extra_game_count: "per-side" is not one of "per_side", "overall"'),
    (("rules",), {"grand_doubles_ace_premium": 1},
     "rules: grand_doubles_ace_premium: 1 is not one of false, true"),
]
# fmt: on


@pytest.mark.parametrize(
    ("path", "value", "line"),
    MUTATIONS,
    # The same ids in every process (pytest-xdist compares them): no object address.
    ids=[
        f"{'.'.join(map(str, p))}={'deleted' if v is DELETE else repr(v)}"[:60]
        for p, v, _ in MUTATIONS
    ],
)
def test_each_kind_of_bad_input_names_rubber_deal_and_field(path, value, line):
    with pytest.raises(SheetError) as error:
        read_vint_sheet(mutated(path, value))
    assert error.value.problems == [line]
    with pytest.raises(SheetError):
        score_vint_sheet(mutated(path, value))


def test_problems_in_several_fields_of_one_deal_are_all_listed():
    sheet = mutated(d(4, "doubling"), True)
    sheet["rubbers"][0]["deals"][3]["declarer_tricks"] = 14
    sheet["rubbers"][0]["deals"][3]["honours"]["count"] = 10
    with pytest.raises(SheetError) as error:
        read_vint_sheet(sheet)
    assert error.value.problems == [
        "rubber 1, deal 4: doubling: expected an integer, got true",
        "rubber 1, deal 4: declarer_tricks: 14 is outside 0..13",
        "rubber 1, deal 4: honours.count: 10 is outside 5..9",
    ]


def test_deals_are_checked_against_the_options_of_the_sheet():
    # A misère run scores under holdings_in_misere; without it, it is a problem.
    sheet = mutated(d(6, "sequences"), [{"seat": "N", "suit": "H", "length": 3}])
    sheet["rules"] = {"holdings_in_misere": True}
    out = score_vint_sheet(sheet)
    assert out["rubbers"][0]["deals"][5]["above"]["NS"] == 100


def test_not_an_object():
    with pytest.raises(SheetError) as error:
        read_vint_sheet([])
    assert error.value.problems == ["sheet: expected a JSON object, got []"]


# ================================================================ voided deals


def test_a_voided_deal_keeps_its_place_and_writes_nothing():
    sheet = load("vint_session.json")
    plain = score_vint_sheet(sheet)
    voided = copy.deepcopy(sheet["rubbers"][0]["deals"][1])
    struck = copy.deepcopy(sheet)
    struck["rubbers"][0]["deals"].insert(1, {**voided, "voided": True})
    out = score_vint_sheet(struck)
    deals = out["rubbers"][0]["deals"]
    assert deals[1] == {
        "above": {"NS": 0, "EW": 0},
        "below": {"NS": 0, "EW": 0},
        "games": deals[0]["games"],
        "phase": "main",
        "voided": True,
        "warnings": [],
    }
    assert [deals[0], *deals[2:]] == plain["rubbers"][0]["deals"]
    assert out["session"] == plain["session"]
    read = read_vint_sheet(struck)
    assert read.rubbers[0].voided == frozenset({2})
    assert read.rubbers[0].counted == read_vint_sheet(sheet).rubbers[0].deals


def test_a_voided_deal_may_follow_the_rubbers_end_and_needs_only_its_contract():
    sheet = load("vint_session.json")
    rubber = sheet["rubbers"][0]
    rubber["deals"].append({"contract": "5S", "voided": True})
    out = score_vint_sheet(sheet)
    last = out["rubbers"][0]["deals"][-1]
    assert last["voided"] is True and last["phase"] == "extra"
    rubber["deals"].append({"contract": "5S", "declarer": "X", "voided": True})
    rubber["deals"].append({"contract": "5S", "voided": 1})
    with pytest.raises(SheetError) as error:
        read_vint_sheet(sheet)
    n = len(rubber["deals"])
    assert error.value.problems[0].startswith(f"rubber 1, deal {n - 1}: declarer:")
    assert error.value.problems[1] == f"rubber 1, deal {n}: voided: expected true or false, got 1"


def test_written_sheet_with_voided_deals_reads_back_identically():
    sheet = load("vint_session.json")
    rubber = sheet["rubbers"][1]
    rubber["deals"][2] = {**rubber["deals"][2], "voided": True}
    rubber["deals"].insert(0, {"contract": "pass", "voided": True})
    read = read_vint_sheet(sheet)
    written = vint_sheet_from_session(read.rules, read.rubbers)
    assert written["rubbers"][1]["deals"][:4] == rubber["deals"][:4]
    assert read_vint_sheet(json.loads(json.dumps(written))) == read
