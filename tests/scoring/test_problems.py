"""Engine problems become translated sentences, and know their form field, from the code.

``SAMPLES`` makes one real problem per code by feeding the engines bad input,
so the sentences are checked against the params the engines really send. The
expected texts are written by hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.utils.translation import override

from scoring.engines import kop, kop_sheet, rules, sheet_checks, vint, vint_sheet
from scoring.engines.errors import RuleError, SheetError, sheet_problem
from scoring.engines.scoresheet import MAX_SHEET_BYTES, load_sheet
from scoring.engines.sheets import score_sheet
from scoring.problems import FIELD_OF, MESSAGES, problem_field, problem_text, render

ALL_CODES = (
    kop.CODES | vint.CODES | rules.CODES | kop_sheet.CODES | vint_sheet.CODES | sheet_checks.CODES
)
KOP = kop.default_rules("kop")
D = vint.contract_deal
H5 = ("NS", 5)
SPLIT = vint.TrickSplit(6, 7)
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _raised(call: Callable[[], object]) -> list[object]:
    try:
        call()
    except RuleError as error:
        return [error]
    raise AssertionError("no RuleError")


def _kop_deal(contract="normal", declarers=(1, 3), points=60, doublings=0, seats=None):
    return kop.KopDeal(
        contract=contract,
        declarers=declarers,
        doublings=None if seats is not None else doublings,
        doubling_seats=seats,
        declarer_points=points,
    )


def _vint(deal: vint.VintDeal, **options: object) -> list[object]:
    return list(vint.deal_problems(deal, vint.parse_rules(options)))


SAMPLES: list[Callable[[], list[object]]] = [
    # Kop and profile options.
    lambda: kop.collect_rules("skat", {})[1],
    lambda: kop.collect_rules(
        "kop",
        {
            "trump_ordr": "T14",
            "colour": 1,
            "auction_end": "never",
            "margin_on_du": 1,
            "trump_order": "G",
            "declarer_target": 61,
            "bez_wyjscia_max": 60,
            "doubling_names": [],
            "game": "baska",
        },
    )[1],
    lambda: kop.collect_rules("kop", [1])[1],
    lambda: kop.collect_rules("kop", {"doubling_cap": {"zolo": -1}})[1],
    lambda: kop.collect_rules("kop", {"doubling_cap": {"grand": 3}})[1],
    lambda: _raised(lambda: rules.validate_profile_options("skat", {})),
    lambda: _raised(lambda: rules.validate_tournament({"rounds": 5})),
    lambda: _raised(lambda: rules.validate_tournament({"big_points": [1, 2, 3, 4]})),
    lambda: _raised(
        lambda: rules.validate_tournament({"big_points": [3, 2, 1, 0], "tie_breaks": ["coin"]})
    ),
    lambda: _raised(lambda: rules.get_profile("bridge")),
    lambda: _raised(
        lambda: rules.validate_profile(rules.Profile(slug="x", name="x", game="kop", version=0))
    ),
    # Kop deals.
    lambda: kop.check_deal(_kop_deal(contract="grand", declarers=3, doublings=None), KOP),
    lambda: kop.check_deal(_kop_deal(declarers=(1, 1), doublings=-1, points="60"), KOP),
    lambda: kop.check_deal(_kop_deal(declarers=(1, 5), doublings=5, points=105), KOP),
    lambda: kop.check_deal(_kop_deal(contract="zolo", declarers=(1, 3), seats=(0,)), KOP),
    lambda: kop.check_deal(_kop_deal(declarers=(2,), doublings="2", seats=7), KOP),
    lambda: kop.check_deal(
        kop.KopDeal(
            contract="normal",
            declarers=(1, 3),
            doublings=1,
            doubling_seats=(2,),
            declarer_points=60,
        ),
        KOP,
    ),
    lambda: kop.check_deal(_kop_deal(seats=(2, 1, 4, 3, 2)), KOP),
    lambda: _raised(lambda: kop.dealer_for_deal(0)),
    lambda: _raised(lambda: kop_sheet.kop_sheet_from_deals("baska", KOP, "ABCD", [])),
    lambda: list(
        kop.score_deal(
            _kop_deal(contract="cicha", declarers=(1,), points=30, seats=(1,)), KOP
        ).warning_problems
    ),
    lambda: list(
        kop.score_deal(
            _kop_deal(contract="wesele", declarers=(2, 4), seats=(1, 2)), KOP
        ).warning_problems
    ),
    # Vint options and contracts.
    # Options of rules/kop.md §7.1.
    lambda: kop.collect_rules(
        "kop",
        {
            "bez_wyjscia_max": {"losers": 26},
            "contract_factor": {"cicha": 0},
            "contracts": ["zolo"],
        },
    )[1],
    lambda: kop.collect_rules(
        "baska",
        {"contract_factor": {"bridge": 2}, "contracts": ["normal", "zolo", "zolo"]},
    )[1],
    lambda: kop.collect_rules(
        "kop", {"contracts": [], "soloist_may_double_first": True, "soloist_doubling": "never"}
    )[1],
    lambda: kop.check_deal(
        _kop_deal(contract="grand", declarers=(2,)),
        kop.parse_rules("baska", {"contracts": ["normal", "zolo"]}),
    ),
    lambda: list(
        kop.score_deal(
            _kop_deal(contract="zolo", declarers=(1,), points=60, seats=(2, 1)),
            kop.parse_rules("kop", {"soloist_doubling": "never"}),
        ).warning_problems
    ),
    # Vint session structure (A31).
    lambda: vint.session_problems([vint.Seating("a", "b", "c", "d")] * 4),
    lambda: _raised(lambda: vint.parse_rules({"scal": 1})),
    lambda: _raised(lambda: vint.parse_rules({"colour": 1})),
    lambda: _raised(lambda: vint.parse_rules({"overtrick_4": -50})),
    lambda: _raised(lambda: vint.parse_rules({"level_min": 1})),
    lambda: _raised(lambda: vint.parse_contract("9H")),
    lambda: _raised(lambda: vint.parse_contract("4X")),
    lambda: _raised(lambda: D("pass", "N", 0)),
    # Vint deals.
    lambda: _vint(vint.VintDeal(vint.Contract(4, "H"), None, 3, "ten", honours=None, tricks=SPLIT)),
    lambda: _vint(D("4H", "X", 14, honours=("NE", 4))),
    lambda: _vint(D("4H", None, None, honours=H5)),
    lambda: _vint(D("4G", "N", 10, honours=H5, grand_aces=("EW", 5))),
    lambda: _vint(D("4H", "N", 10, honours=H5, grand_aces=("NS", 3), ace_dumps=[("E", 3)])),
    lambda: _vint(D("4G", "N", 10, aces_in_hand=[("N", 5), ("Q", 3)])),
    lambda: _vint(D("4M", "N", 3, aces_in_hand=[("N", 3)])),
    lambda: _vint(
        D("4G", "N", 10, sequences=[("N", "S", 3), ("E", "H", 2), ("Q", "X", 3), ("S", "S", 4)])
    ),
    lambda: _vint(D("4G", "N", 10, sequences=[("N", "S", 7), ("N", "H", 7)])),
    lambda: _vint(
        D("4G", "N", 10, sequences=[("N", "S", 13), ("S", "H", 13), ("N", "D", 3)]),
        sequences_partnership=True,
    ),
    lambda: _vint(D("4G", "N", 10, sequences=[("E", "S", 3), ("E", "H", 3), ("E", "D", 3)])),
    lambda: _vint(
        D(
            "4G",
            "N",
            10,
            aces_in_hand=[("N", 3)],
            sequences=[("N", "S", 3), ("N", "H", 3), ("N", "D", 3), ("N", "C", 3)],
        )
    ),
    lambda: _vint(D("4G", "N", 10, aces_in_hand=[("N", 3)], sequences=[("E", "S", 3)] * 1)),
    lambda: _vint(
        D("4G", "N", 10, aces_in_hand=[("N", 3)], sequences=[("E", "S", 3), ("E", "H", 3)])
    ),
    lambda: _vint(D("4G", "N", 10, grand_aces=("EW", 4), aces_in_hand=[("N", 3)])),
    lambda: _vint(D("4H", "N", 10, honours=("EW", 8), sequences=[("N", "H", 5)])),
    lambda: _vint(D("5S", "N", 11)),
    lambda: _vint(D("4M", "N", 3, ace_dumps=[("E", 0), ("X", 2)])),
    lambda: _vint(D("4M", "N", 3, ace_dumps=[("E", 2), ("E", 3), ("E", 4), ("E", 5), ("E", 6)])),
    lambda: _vint(D("4M", "N", 3, ace_dumps=[("E", 2), ("E", 2), ("N", 2), ("W", 1)])),
    lambda: _vint(D("4M", "N", 0, ace_dumps=[("E", 2)])),
    lambda: _vint(vint.VintDeal(None, declarer="N", doubling=1, declarer_tricks=5)),
    lambda: _vint(vint.VintDeal(None, honours=vint.Holding("NS", 5), tricks=vint.TrickSplit(6, 6))),
    lambda: _vint(
        vint.VintDeal(None, grand_aces=vint.Holding("NS", 3), tricks=vint.TrickSplit(14, 0))
    ),
    lambda: _vint(
        vint.VintDeal(None, tricks=SPLIT, ace_dumps=(vint.AceDump("N", 2),)), all_pass="redeal"
    ),
    # Rubbers and sessions.
    lambda: _raised(
        lambda: vint.rubber_apply(
            vint.RubberState(games_ns=2, winner="NS", extra_played=4, deals_played=9),
            D("4H", "N", 10, honours=H5),
        )
    ),
    lambda: _raised(lambda: vint.Seating("a", "b", "c", "d").seat_of("z")),
    lambda: _raised(lambda: vint.session_partnerships(["a", "a", "b", "c"])),
    lambda: _raised(lambda: vint.dealer_of("N", 0)),
    lambda: _raised(lambda: vint.dealer_of("X", 1)),
    lambda: _raised(lambda: vint.session_result([])),
    lambda: _raised(lambda: vint.session_result([{"a": 1}])),
    lambda: _raised(
        lambda: vint.session_result([dict.fromkeys("abcd", 0), dict.fromkeys("abce", 0)])
    ),
]


def _sheet(call: Callable[[], object]) -> list[object]:
    try:
        call()
    except SheetError as error:
        return list(error.coded)
    raise AssertionError("no SheetError")


def _kop_sheet(**change: object) -> dict[str, object]:
    deal = {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 60}
    sheet = {"game": "kop", "players": ["Ala", "Bartek", "Celina", "Darek"], "deals": [deal]}
    return {**sheet, **change}


def _vint_sheet(deals: list[object], **rubber: object) -> dict[str, object]:
    seats = {"N": "Anna", "E": "Boris", "S": "Carl", "W": "Dina"}
    one = {"seats": seats, "first_dealer": "N", "deals": deals, **rubber}
    return {"game": "vint", "rubbers": [one]}


_VINT_SEATS = {"N": "Anna", "E": "Boris", "S": "Carl", "W": "Dina"}
_SUIT = {"contract": "4H", "declarer": "N", "doubling": 0, "declarer_tricks": 10}

SHEET_SAMPLES: list[Callable[[], list[object]]] = [
    # Reading the file.
    lambda: _sheet(lambda: load_sheet(b" " * (MAX_SHEET_BYTES + 1))),
    lambda: _sheet(lambda: load_sheet(b"\xff{}")),
    lambda: _sheet(lambda: load_sheet("{")),
    lambda: _sheet(lambda: load_sheet("[" * 30 + "]" * 30)),
    lambda: _sheet(lambda: load_sheet('{"a": 1234567890123456789012}')),
    lambda: _sheet(lambda: load_sheet('{"a": 1e999}')),
    lambda: _sheet(lambda: load_sheet('{"a": NaN}')),
    lambda: _sheet(lambda: load_sheet('{"a": "\\u0000", "\\u0000": 1}')),
    lambda: _sheet(lambda: load_sheet('{"a": "\\ud800", "\\ud800": 1}')),
    lambda: _sheet(lambda: load_sheet("[]")),
    lambda: _sheet(lambda: score_sheet({"game": "skat"})),
    # Kop sheets.
    lambda: _sheet(lambda: kop_sheet.read_kop_sheet([])),
    lambda: _sheet(lambda: kop_sheet.read_kop_sheet({"game": "skat", "colour": 1})),
    lambda: _sheet(lambda: kop_sheet.read_kop_sheet(_kop_sheet(players=["Ala"], deals=5))),
    lambda: _sheet(lambda: kop_sheet.read_kop_sheet(_kop_sheet(players=[" ", "Ala", "Ala", 7]))),
    lambda: _sheet(
        lambda: kop_sheet.read_kop_sheet(_kop_sheet(players=["A" * 200, "B", "C", "D"]))
    ),
    lambda: _sheet(
        lambda: kop_sheet.read_kop_sheet(
            _kop_sheet(
                deals=[
                    5,
                    {"contract": "normal", "voided": 1, "warnings": 5, "doublings": None},
                    {"contract": "zolo", "declarers": [1], "doubling_seats": None},
                ]
            )
        )
    ),
    # Vint sheets.
    lambda: _sheet(lambda: vint_sheet.read_vint_sheet({"game": "kop", "rules": 5, "rubbers": []})),
    lambda: _sheet(
        lambda: vint_sheet.read_vint_sheet(
            {"game": "vint", "rubbers": [5, {"seats": {**_VINT_SEATS, "N": "Eve"}, "deals": 5}]}
        )
    ),
    lambda: _sheet(
        lambda: vint_sheet.read_vint_sheet(
            {
                "game": "vint",
                "rubbers": [
                    {"seats": _VINT_SEATS, "first_dealer": "N", "deals": []},
                    {"seats": {**_VINT_SEATS, "W": "Eve"}, "first_dealer": "X", "deals": []},
                ],
            }
        )
    ),
    lambda: _sheet(
        lambda: vint_sheet.read_vint_sheet(
            _vint_sheet(
                [
                    5,
                    {"contract": 5},
                    {**_SUIT, "declarer": 5, "declarer_tricks": "x", "honours": None},
                    {**_SUIT, "honours": 5, "sequences": 5, "voided": 1},
                    {**_SUIT, "honours": {"side": 5, "count": 5}},
                    {
                        **_SUIT,
                        "honours": {"side": "NS", "count": 5},
                        "sequences": [{"seat": "N", "suit": 5, "length": 3}],
                    },
                    {
                        "contract": "5G",
                        "declarer": "N",
                        "doubling": 0,
                        "declarer_tricks": 11,
                        "grand_aces": None,
                    },
                    {"contract": "pass", "declarer": "N", "tricks": {"NS": 6, "EW": 7}},
                ]
            )
        )
    ),
    lambda: [sheet_problem("sheet.players_same_person", "...", "players")],  # needs the DB
]


def _samples() -> list[object]:
    return [problem for make in (*SAMPLES, *SHEET_SAMPLES) for problem in make()]


def test_every_engine_code_has_a_sentence():
    assert sorted(ALL_CODES - set(MESSAGES)) == []
    assert sorted(set(MESSAGES) - ALL_CODES) == [], "a sentence for a code no engine emits"


def test_the_samples_cover_every_code():
    assert sorted(ALL_CODES - {p.code for p in _samples()}) == []


@pytest.mark.parametrize("language", ["en", "pl"])
def test_every_sample_renders_from_its_params(language):
    with override(language):
        for problem in _samples():
            text = render(problem)  # KeyError if a param the sentence needs is missing
            assert text and "%(" not in text, problem.code


def test_polish_sentences_use_the_same_params_as_the_english():
    for code, template in MESSAGES.items():
        with override("en"):
            english = str(template)
        with override("pl"):
            polish = str(template)
        assert polish != english, code
        assert set(PLACEHOLDER.findall(polish)) == set(PLACEHOLDER.findall(english)), code


def _one(problems: list[object], code: str) -> object:
    found = [p for p in problems if p.code == code]
    assert len(found) == 1, [p.code for p in problems]
    return found[0]


# ------------------------------------------------------------------ sentences


def test_kop_contract_names_are_words_and_only_normal_is_translated():
    (problem,) = kop.check_deal(_kop_deal(contract="grand", declarers=(1,)), KOP)
    with override("en"):
        assert problem_text(problem) == (
            '"grand" is not a Kop contract (normal, cicha, wesele, zolo, zolo du).'
        )
    with override("pl"):
        assert problem_text(problem) == (
            '"grand" nie jest kontraktem w grze Kop (normalna, cicha, wesele, zolo, zolo du).'
        )


def test_kop_declarers_and_cap_in_polish():
    (two,) = kop.check_deal(_kop_deal(declarers=(2,)), KOP)
    (cap,) = kop.check_deal(_kop_deal(doublings=5), KOP)
    with override("pl"):
        assert problem_text(two) == "normalna: tę grę grają dwa różne miejsca, a nie 2."
        assert problem_text(cap) == "Liczba kontr 5 przekracza limit w tej grze (normalna: 4)."


def test_kop_warnings_in_polish():
    result = kop.score_deal(_kop_deal(contract="cicha", declarers=(1,), points=30, seats=(1,)), KOP)
    with override("pl"):
        assert [problem_text(p) for p in result.warning_problems] == [
            "Podział punktów 30 : 74 nie może wystąpić (żaden zestaw lew nie jest tyle wart); "
            "potwierdź, proszę.",
            "Solista (miejsce 1) kontrował pierwszy, a zasada R5 tego zabrania; potwierdź, proszę.",
        ]
    # The stored English strings are unchanged.
    assert result.warnings[1] == (
        "doubling_seats: seat 1, the soloist, made the first doubling (R5 forbids it); "
        "please confirm"
    )


def test_a_batch_problem_names_its_deal():
    error = _raised(lambda: kop.score_table([_kop_deal(), _kop_deal(points=105)], KOP))[0]
    with override("en"):
        assert problem_text(error) == "Deal 2: Card points must be from 0 to 104, not 105."
    with override("pl"):
        assert problem_text(error) == (
            "Rozdanie 2: Punkty kartowe muszą wynosić od 0 do 104, a podano 105."
        )


def test_vint_kind_of_deal_in_words_and_seats_as_letters():
    honours = _one(_vint(D("4G", "N", 10, honours=H5)), "vint.honours_not_here")
    dump = _one(_vint(D("4M", "N", 3, ace_dumps=[("W", 1)])), "vint.ace_dump_eldest_leads")
    with override("en"):
        assert problem_text(honours) == ("Honours count only at suit contracts; this is a grand.")
    with override("pl"):
        assert problem_text(honours) == (
            "Honory liczą się tylko w kontraktach kolorowych; to jest kontrakt bez atu."
        )
        assert problem_text(dump) == (
            "Zrzucony as 1: W wistuje do 1. lewy, a as zagrany na wist bierze lewę."
        )


def test_option_problems_name_the_option():
    error = _raised(lambda: rules.validate_profile_options("vint", {"scale": 2}))[0]
    with override("pl"):
        assert problem_text(error) == ("scale: wartość 2 jest niedozwolona (dozwolone: 1, 10).")
    misspelt = kop.collect_rules("baska", {"trump_ordr": "T12"})[1][0]
    with override("pl"):
        assert problem_text(misspelt) == (
            "trump_ordr: gra Baśka nie ma takiej opcji; czy chodziło o trump_order?"
        )


def test_an_unknown_code_falls_back_to_the_english_message():
    sheet = SheetError(["deal 3: contract: missing"])
    assert problem_text(sheet) == "deal 3: contract: missing"
    assert problem_field(sheet) == "__all__"


# --------------------------------------------------------------------- fields


@pytest.mark.parametrize(
    ("make", "code", "field"),
    [
        (
            lambda: kop.check_deal(_kop_deal(doublings=-1), KOP),
            "kop.doublings_negative",
            "doublings",
        ),
        (
            lambda: kop.check_deal(_kop_deal(seats=(2, 1, 4, 3, 2)), KOP),
            "kop.doubling_seats_above_cap",
            "doubling_seats",
        ),
        (
            lambda: _vint(D("4G", "N", 10, sequences=[("N", "S", 3), ("E", "H", 2)])),
            "vint.sequence_length_out_of_range",
            "sequences",
        ),
        (
            lambda: _vint(D("4H", "N", 10, honours=("NS", 4))),
            "vint.honours_count_out_of_range",
            "honours",
        ),
        (lambda: _vint(vint.all_pass_deal(14, 0)), "vint.side_tricks_out_of_range", "tricks"),
        (
            lambda: kop.collect_rules("kop", {"doubling_cap": {"zolo": -1}})[1],
            "kop.option_doubling_cap",
            "options",
        ),
        (lambda: _raised(lambda: vint.parse_rules({"scale": 2})), "rules.option_choice", "options"),
        (
            lambda: _raised(lambda: rules.validate_tournament({"big_points": [1]})),
            "rules.big_points_invalid",
            "tournament",
        ),
        (
            lambda: _raised(lambda: rules.validate_profile_options("skat", {})),
            "rules.game_unknown",
            "game",
        ),
        (
            lambda: _raised(
                lambda: vint.rubber_apply(
                    vint.RubberState(games_ns=2, winner="NS", extra_played=4, deals_played=9),
                    D("4H", "N", 10, honours=H5),
                )
            ),
            "vint.rubber_over",
            "__all__",
        ),
    ],
)
def test_problem_field_comes_from_the_code_or_root(make, code, field):
    assert problem_field(_one(make(), code)) == field


def test_field_of_names_only_known_codes():
    assert set(FIELD_OF) <= ALL_CODES
