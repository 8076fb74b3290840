"""Every problem code of the competition rules, leagues and the event file is listed in its
module's ``CODES`` (a page needs one sentence per code), and each code is dotted snake case."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tournaments.events import event_json
from tournaments.ranking import competition, kop, league

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r'"((?:competition|event|ranking|league)\.[a-z0-9_]+)"')
MODULES = {
    "tournaments/ranking/competition.py": competition,
    "tournaments/ranking/kop.py": kop,
    "tournaments/ranking/league.py": league,
    "tournaments/events/event_json.py": event_json,
}


@pytest.mark.parametrize("path", MODULES)
def test_codes_lists_exactly_the_codes_the_module_uses(path):
    used = set(CODE.findall((ROOT / path).read_text()))
    if path.endswith("competition.py"):
        used -= kop.CODES  # check_big_points' code, spelt again for a list that is not four
    assert used == set(MODULES[path].CODES)


def test_codes_are_dotted_snake_case():
    every = competition.CODES | kop.CODES | league.CODES | event_json.CODES
    assert all(
        re.fullmatch(r"(competition|event|ranking|league)\.[a-z][a-z0-9_]*", c) for c in every
    )
