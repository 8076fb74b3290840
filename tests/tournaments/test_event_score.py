"""``python manage.py event score``: the examples of event-json.md, every kind of bad input,
and any bytes at all answered with exit 0 or 2, never a traceback.

The expected outputs are the format document's own (``tests/fixtures/events``, copied
from ``shared/formats/event-json.md``), not produced by the code under test.
"""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.events.event_json import read_event

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "tests/fixtures/events"


def fixture(name: str) -> dict:
    return json.loads((EVENTS / f"{name}.json").read_text())


KOP = fixture("example-1-input")
VINT = fixture("example-2-input")


def run(raw: bytes, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("event", "score", "-", *args, stdin=io.BytesIO(raw), stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def encoded(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")


# ------------------------------------------------------------------ the format's examples


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_examples_score_to_the_documented_output_key_order_included(n):
    code, out, err = run((EVENTS / f"example-{n}-input.json").read_bytes())
    assert (code, err) == (0, "")
    expected = fixture(f"example-{n}-output")
    got = json.loads(out)
    assert got == expected
    # Same keys in the same order at every level: compare the JSON text.
    assert json.dumps(got) == json.dumps(expected)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_check_prints_nothing_and_exits_0_on_a_good_file(n):
    assert run((EVENTS / f"example-{n}-input.json").read_bytes(), "--check") == (0, "", "")


def test_the_command_reads_a_file_path_as_a_user_runs_it():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    result = subprocess.run(
        [sys.executable, "manage.py", "event", "score", str(EVENTS / "example-2-input.json")],
        capture_output=True,
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == fixture("example-2-output")


def test_exact_numbers_are_integers_when_whole_and_p_over_q_strings_otherwise():
    out = json.loads(run(encoded(KOP))[1])
    grazyna = next(row for row in out["individual"] if row["player"] == 7)
    assert grazyna["big_points"] == "7/2" and isinstance(out["individual"][0]["big_points"], int)


def test_a_half_point_adjustment_reads_and_writes_as_a_string():
    event = copy.deepcopy(KOP)
    event["adjustments"].append({"player": 1, "big": "1/2", "small": -3, "reason": "award"})
    out = json.loads(run(encoded(event))[1])
    ala = next(row for row in out["individual"] if row["player"] == 1)
    # Ala: 3 big and +6 small in the example, then +1/2 and -3.
    assert ala["big_points"] == "7/2" and ala["small_points"] == 3
    assert ala["adjustments"] == {"big": "1/2", "small": -3}
    assert out["adjustments"][1] == {
        "player": 1,
        "round": None,
        "big": "1/2",
        "small": -3,
        "reason": "award",
    }


# ------------------------------------------------------------------ bad input


def mutated(base: dict, change) -> bytes:
    event = copy.deepcopy(base)
    change(event)
    return encoded(event)


def kop(change) -> bytes:
    return mutated(KOP, change)


def vint(change) -> bytes:
    return mutated(VINT, change)


def table(event: dict, r: int, t: int) -> dict:
    return event["rounds"][r - 1]["tables"][t - 1]


BAD = [
    # file
    ("not-json", b'{"format": ', "file: not valid JSON: Expecting value (line 1, column 12)"),
    (
        "key-twice",
        b'{"format": "tablescore-event/1", "format": "x"}',
        'file: the key "format" is given twice in one object',
    ),
    ("not-an-object", b"[1, 2]", "file: expected a JSON object, got [1, 2]"),
    ("nul", b'{"name": "A\\u0000"}', "name: contains a NUL character"),
    # unknown keys at every level
    (
        "unknown-top",
        kop(lambda e: e.update(venue="Puck")),
        "venue: unknown key (allowed: format, name, date, game, rules, competition, players,"
        " teams, rounds, adjustments)",
    ),
    (
        "walkout-on-vint",
        vint(lambda e: table(e, 1, 1).update(walkout={"player": 1, "after_deal": 0})),
        "round 1, table 1: walkout: unknown key (allowed: number, seats, rubbers, totals,"
        " rubbers_won)",
    ),
    (
        "net-on-kop-adjustment",
        kop(lambda e: e["adjustments"][0].update(net=1)),
        "adjustment 1: net: unknown key (allowed: player, round, big, small, reason)",
    ),
    (
        "byes-in-vint",
        vint(lambda e: e["rounds"][0].update(byes=[])),
        "round 1: byes: unknown key (allowed: number, tables)",
    ),
    (
        "unknown-in-player",
        kop(lambda e: e["players"][0].update(club="Puck")),
        "player 1: club: unknown key (allowed: id, name, classes, licence)",
    ),
    # format, game
    ("no-format", kop(lambda e: e.pop("format")), "format: missing"),
    (
        "bad-format",
        kop(lambda e: e.update(format="tablescore-event/2")),
        'format: expected "tablescore-event/1", got "tablescore-event/2"',
    ),
    (
        "bad-game",
        kop(lambda e: e.update(game="bridge")),
        'game: expected one of kop, baska, vint, got "bridge"',
    ),
    # rules
    (
        "bad-rules",
        kop(lambda e: e.update(rules={"bogus": 1})),
        "rules: bogus: not an option of kop",
    ),
    # competition
    (
        "unknown-option",
        kop(lambda e: e["competition"].update(bogus=1)),
        "competition: bogus: unknown option (allowed: big_points, tie_breaks, bye_score,"
        " walkout_score, classes, team_size_min, team_size_max, team_counting)",
    ),
    (
        "option-of-another-game",
        vint(lambda e: e["competition"].update(big_points=[5, 3, 1, 0])),
        "competition: big_points: not an option of a Vint event",
    ),
    (
        "big-points-rising",
        kop(lambda e: e["competition"].update(big_points=[0, 1, 3, 5])),
        "competition: big_points: big points must be four whole numbers from 1st to 4th place,"
        " not rising: (0, 1, 3, 5)",
    ),
    (
        "unknown-tie-break",
        kop(lambda e: e["competition"].update(tie_breaks=["coin_toss"])),
        "competition: tie_breaks: unknown tie-break 'coin_toss'; choose from small_points,"
        " round_wins, second_places, third_places, head_to_head",
    ),
    (
        "repeated-tie-break",
        kop(lambda e: e["competition"].update(tie_breaks=["round_wins", "round_wins"])),
        "competition: tie_breaks: tie-break 'round_wins' is listed twice",
    ),
    (
        "bad-bye-score",
        kop(lambda e: e["competition"].update(bye_score={"big": 3})),
        'competition: bye_score: expected "average" or {"big": B, "small": S} (whole numbers,'
        ' B >= 0), got {"big": 3}',
    ),
    (
        "class-without-code",
        kop(lambda e: e["competition"].update(classes=[{"label": "Women"}])),
        "competition: classes[1]: a class needs a code",
    ),
    (
        "class-code-twice",
        kop(
            lambda e: e["competition"].update(
                classes=[{"code": "W", "label": "Women"}, {"code": "W", "label": "Wives"}]
            )
        ),
        'competition: classes[2]: class code "W" is given twice',
    ),
    (
        "team-sizes-crossed",
        kop(lambda e: e["competition"].update(team_size_min=5, team_size_max=4)),
        "competition: team_size_min: team_size_min 5 is more than team_size_max 4",
    ),
    (
        "team-counting-too-high",
        kop(lambda e: e["competition"].update(team_counting=6)),
        'competition: team_counting: expected "all" or a whole number from 1 to team_size_max,'
        " got 6",
    ),
    # players
    (
        "no-players",
        kop(lambda e: e.update(players=[])),
        "players: expected a non-empty list of players, got []",
    ),
    (
        "id-not-whole",
        kop(lambda e: e["players"][0].update(id="1")),
        'players[1]: id: expected a whole number of at least 1, got "1"',
    ),
    (
        "id-zero",
        kop(lambda e: e["players"].append({"id": 0, "name": "Zenon"})),
        "player 0: id: expected a whole number of at least 1, got 0",
    ),
    (
        "id-twice",
        kop(lambda e: e["players"].append({"id": 9, "name": "Irena B"})),
        "player 9: id: given twice",
    ),
    (
        "empty-name",
        kop(lambda e: e["players"][1].update(name=" ")),
        "player 2: name: the name is blank",
    ),
    (
        "unknown-class",
        kop(lambda e: e["players"][1].update(classes=["M"])),
        'player 2: classes: "M" is not a class of the event',
    ),
    (
        "bad-licence",
        kop(lambda e: e["players"][0].update(licence={"number": "", "since": "2025-13-01"})),
        'player 1: licence.number: expected a non-empty string, got ""',
    ),
    (
        "bad-licence-date",
        kop(lambda e: e["players"][0]["licence"].update(since="2025-02-30")),
        'player 1: licence.since: expected a date "YYYY-MM-DD", got "2025-02-30"',
    ),
    (
        "bad-date",
        kop(lambda e: e.update(date="4.10.2025")),
        'date: expected a date "YYYY-MM-DD", got "4.10.2025"',
    ),
    # teams
    ("teams-in-vint", vint(lambda e: e.update(teams=[])), "teams: a Vint event has no teams"),
    (
        "team-id-twice",
        kop(lambda e: e["teams"][1].update(id="KAR")),
        "team KAR: id: given twice",
    ),
    (
        "team-unknown-player",
        kop(lambda e: e["teams"][1]["members"].append(20)),
        "team PUC: members: 20 is not a player of the event",
    ),
    (
        "player-in-two-teams",
        kop(lambda e: e["teams"][1]["members"].append(5)),
        "team PUC: members: player 5 is also in team KAR",
    ),
    (
        "line-up-too-small",
        kop(lambda e: e["teams"][1].update(members=[6, 7, 8])),
        "team PUC: members: 3 players, a line-up has 4 to 5",
    ),
    # rounds
    ("no-rounds", kop(lambda e: e.update(rounds=[])), "rounds: an event needs at least one round"),
    (
        "rounds-out-of-order",
        kop(lambda e: e["rounds"][1].update(number=3)),
        "round 2: number: expected 2 (rounds are numbered 1, 2, ... in order), got 3",
    ),
    (
        "round-without-tables",
        kop(lambda e: e["rounds"][1].update(tables=[])),
        "round 2: a round needs at least one table",
    ),
    (
        "table-number-twice",
        kop(lambda e: table(e, 2, 2).update(number=1)),
        "round 2, table 1: number given twice",
    ),
    # seats
    (
        "unknown-seat",
        kop(lambda e: table(e, 1, 2)["seats"].__setitem__(3, 20)),
        "round 1, table 2: seats: 20 is not a player of the event",
    ),
    (
        "three-seats-not-short",
        kop(lambda e: table(e, 1, 2).update(seats=[5, 6, 7])),
        'round 1, table 2: seats: 3 players; a table has 4 (3 only with "short": true)',
    ),
    (
        "player-at-two-tables",
        kop(lambda e: table(e, 1, 2)["seats"].__setitem__(3, 1)),
        "round 1, table 2: seats: player 1 is twice in round 1 (table 1 and table 2)",
    ),
    (
        "player-at-a-table-and-on-a-bye",
        kop(lambda e: e["rounds"][0]["byes"].append(5)),
        "round 1: byes: player 5 is twice in round 1 (table 2 and the byes)",
    ),
    (
        "two-seats",
        kop(lambda e: table(e, 1, 2)["seats"].__setitem__(3, 7)),
        "round 1, table 2: seats: player 7 is given twice at table 2 in round 1",
    ),
    # Kop results
    (
        "deals-and-small-points",
        kop(lambda e: table(e, 1, 1).update(small_points=[1, -1, 0, 0])),
        "round 1, table 1: give exactly one of deals and small_points",
    ),
    (
        "no-result",
        kop(lambda e: table(e, 1, 2).pop("small_points")),
        "round 1, table 2: give exactly one of deals and small_points",
    ),
    (
        "small-points-not-whole",
        kop(lambda e: table(e, 1, 2).update(small_points=[25, 5, -15, -15.0])),
        "round 1, table 2: small_points: expected 4 whole numbers, one per seat,"
        " got [25, 5, -15, -15.0]",
    ),
    (
        "small-points-not-zero",
        kop(lambda e: table(e, 1, 2).update(small_points=[25, 5, -15, -10])),
        "round 1, table 2: small_points: sum to 5, not 0",
    ),
    (
        "no-deals-without-walkout",
        kop(lambda e: table(e, 1, 1).update(deals=[])),
        "round 1, table 1: deals: a table without a walkout needs deals",
    ),
    (
        "bad-deal",
        kop(lambda e: table(e, 1, 1)["deals"][2].update(declarer_points=105)),
        "round 1, table 1: deal 3: declarer_points: 105 is outside 0..104",
    ),
    (
        "short-with-result",
        kop(lambda e: table(e, 1, 2).update(seats=[5, 6, 7], short=True)),
        "round 1, table 2: a short table has no small_points",
    ),
    # walkout
    (
        "walkout-not-seated",
        kop(lambda e: table(e, 2, 2)["walkout"].update(player=1)),
        "round 2, table 2: walkout: player 1 is not at the table",
    ),
    (
        "walkout-after-negative",
        kop(lambda e: table(e, 2, 2)["walkout"].update(after_deal=-1)),
        "round 2, table 2: walkout.after_deal: expected a whole number of at least 0, got -1",
    ),
    (
        "walkout-deal-count",
        kop(
            lambda e: (
                table(e, 2, 2).update(
                    deals=KOP["rounds"][0]["tables"][0]["deals"], small_points=None
                )
                or table(e, 2, 2).pop("small_points")
            )
        ),
        "round 2, table 2: deals: 3 deals recorded, but the walkout came after deal 12",
    ),
    # Vint results
    (
        "rubbers-and-totals",
        vint(lambda e: table(e, 1, 1).update(rubbers=[])),
        "round 1, table 1: give exactly one of rubbers and totals",
    ),
    (
        "neither-rubbers-nor-totals",
        vint(lambda e: table(e, 1, 1).pop("totals")),
        "round 1, table 1: give exactly one of rubbers and totals",
    ),
    (
        "rubbers-won-with-rubbers",
        mutated(
            fixture("example-3-input"), lambda e: table(e, 1, 1).update(rubbers_won=[0, 0, 0, 0])
        ),
        "round 1, table 1: rubbers_won: only with totals",
    ),
    (
        "rubbers-won-odd",
        vint(lambda e: table(e, 1, 1).update(rubbers_won=[2, 1, 2, 0])),
        "round 1, table 1: rubbers_won: add up to 5; each finished rubber has two winners",
    ),
    (
        "rubbers-won-malformed",
        vint(lambda e: table(e, 1, 1).update(rubbers_won=[2, 1])),
        "round 1, table 1: rubbers_won: expected 4 whole numbers, one per seat, got [2, 1]",
    ),
    (
        "rubber-seats-not-the-table",
        mutated(
            fixture("example-3-input"),
            lambda e: table(e, 1, 1)["rubbers"][0]["seats"].update(W=15),
        ),
        "round 1, table 1: rubber 1: seats: expected the table's four players"
        ' [11, 12, 13, 14], got {"N": 11, "E": 12, "S": 13, "W": 15}',
    ),
    (
        "bad-rubber-deal",
        mutated(
            fixture("example-3-input"),
            lambda e: table(e, 1, 1)["rubbers"][0]["deals"][0].update(declarer_tricks=14),
        ),
        "round 1, table 1: rubber 1, deal 1: declarer_tricks: 14 is outside 0..13",
    ),
    # adjustments
    (
        "adjustment-unknown-player",
        kop(lambda e: e["adjustments"][0].update(player=20)),
        "adjustment 1: player: 20 takes part in no round of the event",
    ),
    (
        "adjustment-not-a-participant",
        kop(
            lambda e: (
                e["players"].append({"id": 10, "name": "Jan"}),
                e["adjustments"][0].update(player=10),
            )
        ),
        "adjustment 1: player: 10 takes part in no round of the event",
    ),
    (
        "adjustment-round-unknown",
        kop(lambda e: e["adjustments"][0].update(round=3)),
        "adjustment 1: round: 3 is not a round of the event (1..2)",
    ),
    (
        "adjustment-third",
        kop(lambda e: e["adjustments"][0].update(big="1/3")),
        'adjustment 1: big: "1/3" is neither a whole number nor an exact half',
    ),
    (
        "adjustment-not-lowest-terms",
        kop(lambda e: e["adjustments"][0].update(big="2/4")),
        'adjustment 1: big: expected a whole number or an exact half ("1/2"), got "2/4"',
    ),
    (
        "adjustment-whole-as-text",
        kop(lambda e: e["adjustments"][0].update(big="-1")),
        'adjustment 1: big: expected a whole number or an exact half ("1/2"), got "-1"',
    ),
    (
        "adjustment-float",
        kop(lambda e: e["adjustments"][0].update(big=0.5)),
        'adjustment 1: big: expected a whole number or an exact half ("1/2"), got 0.5',
    ),
    (
        "adjustment-zero",
        kop(lambda e: e["adjustments"][0].update(big=0, small=0)),
        "adjustment 1: give big or small, not 0",
    ),
    (
        "adjustment-no-amount",
        vint(lambda e: e["adjustments"][0].pop("net")),
        "adjustment 1: give net, not 0",
    ),
    (
        "adjustment-no-reason",
        kop(lambda e: e["adjustments"][0].pop("reason")),
        "adjustment 1: reason: missing",
    ),
    (
        "adjustment-empty-reason",
        kop(lambda e: e["adjustments"][0].update(reason="  ")),
        "adjustment 1: reason: missing or empty",
    ),
]


@pytest.mark.parametrize(("raw", "says"), [case[1:] for case in BAD], ids=[c[0] for c in BAD])
@pytest.mark.parametrize("check", [False, True], ids=["score", "check"])
def test_bad_input_exits_2_with_its_line_and_prints_nothing(raw, says, check):
    code, out, err = run(raw, *(["--check"] if check else []))
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert says in lines, lines
    assert all(line.strip() and line.isprintable() for line in lines)


def test_one_slip_is_one_line():
    """A table left out for its own problem does not make its players or round look empty."""
    raw = kop(lambda e: table(e, 2, 1).update(small_points=[12, -8, 20, "-24"]))
    code, out, err = run(raw)
    assert code == 2
    assert err.splitlines() == [
        "round 2, table 1: small_points: expected 4 whole numbers, one per seat,"
        ' got [12, -8, 20, "-24"]'
    ]


def test_many_problems_are_all_reported_at_once():
    def spoil(e):
        e["competition"]["team_counting"] = 0
        e["players"][1]["name"] = ""
        table(e, 1, 2)["small_points"] = [1, 1, 1, 1]
        e["adjustments"][0]["reason"] = ""

    code, _out, err = run(kop(spoil))
    assert code == 2
    assert len(err.splitlines()) == 4


# ------------------------------------------------------------------ fuzzing

MUTATIONS = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=6),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=3),
    max_leaves=8,
)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _paths(child, (*path, i))


KOP_PATHS = list(_paths(KOP))[1:]
VINT3 = fixture("example-3-input")
VINT_PATHS = list(_paths(VINT3))[1:]


@st.composite
def broken_events(draw):
    """An example event with one to three values replaced, removed or extended."""
    base, paths = draw(st.sampled_from([(KOP, KOP_PATHS), (VINT3, VINT_PATHS), (VINT, None)]))
    event = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        candidates = paths or list(_paths(event))[1:]
        path = draw(st.sampled_from(candidates))
        parent = event
        try:
            for step in path[:-1]:
                parent = parent[step]
            key = path[-1]
            action = draw(st.sampled_from(["replace", "remove", "add"]))
            if action == "replace":
                parent[key] = draw(MUTATIONS)
            elif action == "remove":
                del parent[key]
            elif isinstance(parent, dict):
                parent[draw(st.text(max_size=8))] = draw(MUTATIONS)
            else:
                parent.append(draw(MUTATIONS))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed the way there
    return encoded(event)


ANY_BYTES = st.one_of(
    st.binary(max_size=200),
    broken_events(),
    MUTATIONS.map(encoded),
)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
@given(ANY_BYTES)
def test_any_input_exits_0_or_2_never_a_traceback(raw):
    code, out, err = run(raw)
    if code == 0:
        assert err == ""
        result = json.loads(out)
        assert list(result) == ["format", "game", "individual", "classes", "teams", "adjustments"]
    else:
        assert code == 2 and out == ""
        lines = err.splitlines()
        assert lines and all(line.strip() and line.isprintable() for line in lines)
    assert run(raw, "--check")[0] == code


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000,
        b'{"format": "tablescore-event/1", "players": [' + b"9" * 5000 + b"]}",
        b"\xc3\x28 invalid",
        b'{"game\nkop": 1}',
        encoded({**KOP, "name": "Pu\ud800ck"}),
    ],
    ids=["nested", "5000-digits", "invalid-utf8", "newline-key", "surrogate"],
)
def test_extreme_files_exit_2_with_printable_lines(raw):
    code, out, err = run(raw)
    assert (code, out) == (2, "")
    assert err.splitlines() and all(line.isprintable() for line in err.splitlines())


def test_the_event_file_code_loads_no_django():
    code = (
        "import sys\n"
        "import tournaments.events.event_json\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'clubs', 'config')"
        " or m.endswith('.models')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_walkout_table_given_by_its_deals_scores_as_its_paper_result():
    """E13 with round 2, table 2 given by the deals played before Henryk left: they are
    kept for the record and score nothing, so the output is the format's example 1."""
    deals = KOP["rounds"][0]["tables"][0]["deals"]

    def by_deals(e):
        walkout = table(e, 2, 2)
        walkout.pop("small_points")
        walkout["deals"] = deals
        walkout["walkout"]["after_deal"] = 3

    code, out, err = run(kop(by_deals))
    assert (code, err) == (0, "")
    assert json.loads(out) == fixture("example-1-output")


def test_e7_a_short_table_and_an_absent_player_from_an_event_file():
    psb = {"big": 3, "small": 35}
    event = {
        "format": "tablescore-event/1",
        "game": "baska",
        "competition": {"bye_score": psb, "walkout_score": psb},
        "players": [{"id": p, "name": f"P{p}"} for p in range(1, 9)],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {"number": 1, "seats": [1, 2, 3, 4], "small_points": [10, 6, -4, -12]},
                    {"number": 2, "seats": [5, 6, 7, 8], "small_points": [9, 3, -3, -9]},
                ],
            },
            {
                "number": 2,
                "tables": [
                    {"number": 1, "seats": [1, 5, 2, 6], "small_points": [8, -2, 4, -10]},
                    {"number": 2, "seats": [3, 7, 4], "short": True},
                ],
            },
        ],
    }
    code, out, err = run(encoded(event))
    assert (code, err) == (0, "")
    rows = json.loads(out)["individual"]
    # competitions.md E7: player, total big / small, rank; rounds played.
    assert [(r["player"], r["big_points"], r["small_points"], r["rank"]) for r in rows] == [
        (1, 10, 18, "1"),
        (2, 6, 10, "2"),
        (5, 6, 7, "3"),
        (7, 4, 32, "4"),
        (3, 4, 31, "5"),
        (4, 3, 23, "6"),
        (6, 3, -7, "7"),
        (8, 0, -9, "8"),
    ]
    played = {r["player"]: r["rounds_played"] for r in rows}
    assert (played[3], played[4], played[7], played[8]) == (2, 2, 2, 1)


def test_a_read_event_keeps_each_scored_sheet_for_an_import():
    kop_file = read_event(KOP)
    assert list(kop_file.sheets) == [(1, 1)]  # the other tables are paper results
    sheet = kop_file.sheets[(1, 1)]
    assert sheet["players"] == ["1", "2", "3", "4"]
    assert sheet["deals"] == KOP["rounds"][0]["tables"][0]["deals"]
    vint_file = read_event(fixture("example-3-input"))
    (rubber,) = vint_file.sheets[(1, 1)]["rubbers"]
    assert rubber["seats"] == {"N": "11", "E": "12", "S": "13", "W": "14"}


# ------------------------------------------------------------------ valid random events

E3_DEALS = KOP["rounds"][0]["tables"][0]["deals"]  # seat small points -6, -4, +14, -4


@st.composite
def valid_events(draw):
    """A random valid Kop event: tables decided by play (paper or deals), walkouts, short
    tables, byes and absences, adjustments, classes and teams, PSB or average scores.
    Returns the file and the big and small points it must hand out in total."""
    big_points = sorted(draw(st.lists(st.integers(0, 6), min_size=4, max_size=4)), reverse=True)
    fixed = draw(st.booleans())
    score = {"big": 3, "small": 35} if fixed else "average"
    bye = (F(3), F(35)) if fixed else (F(sum(big_points), 4), F(0))
    count = draw(st.integers(4, 13))
    ids = list(range(1, count + 1))
    total_big, total_small = F(0), F(0)
    rounds = []
    for number in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(ids))
        absent = draw(st.integers(0, (count - 4) // 2))
        present = order[absent:]
        tables, t = [], 0
        while len(present) >= 4:
            seats, present = list(present[:4]), present[4:]
            t += 1
            kind = draw(st.sampled_from(["paper", "deals", "walkout"]))
            if kind == "deals":
                tables.append({"number": t, "seats": seats, "deals": E3_DEALS})
                small = [-6, -4, 14, -4]
            else:
                small = draw(st.lists(st.integers(-9, 9), min_size=3, max_size=3))
                small.append(-sum(small))
                tables.append({"number": t, "seats": seats, "small_points": small})
            if kind == "walkout":
                tables[-1]["walkout"] = {"player": draw(st.sampled_from(seats)), "after_deal": 9}
                total_big += 3 * bye[0]
                total_small += 3 * bye[1]
            else:
                total_big += sum(big_points)
        if len(present) == 3 and draw(st.booleans()):
            tables.append({"number": t + 1, "seats": list(present), "short": True})
            total_big += 3 * bye[0]
            total_small += 3 * bye[1]
            present = []
        if not tables:
            tables.append({"number": 1, "seats": list(order[:4]), "small_points": [0, 0, 0, 0]})
            total_big += sum(big_points)
            present = [p for p in present if p not in order[:4]]
        total_big += len(present) * bye[0]
        total_small += len(present) * bye[1]
        rounds.append({"number": number, "tables": tables, "byes": list(present)})
    seen = sorted(
        {p for r in rounds for t in r["tables"] for p in t["seats"]}
        | {p for r in rounds for p in r["byes"]}
    )
    adjustments = []
    for _ in range(draw(st.integers(0, 3))):
        big, small = draw(st.integers(-4, 4)), draw(st.integers(-10, 10))
        if big or small:
            adjustments.append(
                {
                    "player": draw(st.sampled_from(seen)),
                    "big": f"{big}/2" if big % 2 else big // 2,
                    "small": small,
                    "reason": "r",
                }
            )
            total_big += F(big, 2)
            total_small += small
    event = {
        "format": "tablescore-event/1",
        "game": draw(st.sampled_from(["kop", "baska"])),
        "competition": {
            "big_points": big_points,
            "bye_score": score,
            "walkout_score": score,
            "classes": [{"code": "W", "label": "Women"}],
            "team_size_min": 1,
            "team_counting": draw(st.just("all") | st.integers(1, 5)),
        },
        "players": [{"id": p, "name": f"P{p}", "classes": ["W"] if p % 2 else []} for p in ids],
        "teams": [
            {"id": f"T{i}", "name": f"Team {i}", "members": ids[i : i + 3]}
            for i in range(0, len(ids), 3)
        ],
        "rounds": rounds,
        "adjustments": adjustments,
    }
    return encoded(event), total_big, total_small, len(seen)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(valid_events())
def test_a_valid_event_scores_and_hands_out_what_the_rules_say(case):
    raw, total_big, total_small, participants = case
    code, out, err = run(raw)
    assert (code, err) == (0, ""), err
    result = json.loads(out)
    rows = result["individual"]
    assert len(rows) == participants
    assert sum(F(r["big_points"]) for r in rows) == total_big
    assert sum(F(r["small_points"]) for r in rows) == total_small
    ranks = [int(r["rank"].lstrip("=")) for r in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    women = result["classes"][0]["standings"]
    assert [w["player"] for w in women] == [r["player"] for r in rows if r["player"] % 2]
    counted = [p for team in result["teams"] for p in team["counted"]]
    assert len(counted) == len(set(counted))


def test_a_bad_classes_option_is_one_line_not_one_per_member():
    raw = kop(lambda e: e["competition"].update(classes=[{"code": "W"}]))
    assert run(raw)[2].splitlines() == ["competition: classes[1]: a class needs a label"]
