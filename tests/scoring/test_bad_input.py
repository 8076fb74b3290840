"""Bad input on the scoring pages and in ``manage.py score``: a clear answer that changes nothing.

Each case was a server error (or a traceback) before issue 10. The queries run under
``tests.strict_db.postgres_rules``, so what PostgreSQL refuses (a NUL) fails on SQLite too.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Player
from scoring.engines.errors import SheetError
from scoring.engines.scoresheet import load_sheet
from scoring.engines.sheets import score_sheet
from scoring.models import TableSession
from tests.actors import home_club
from tests.factories import KOSCIAN
from tests.strict_db import postgres_rules

ROOT = Path(__file__).resolve().parents[2]
SHEETS = ROOT / "tests/fixtures/sheets"
KOP = json.loads((SHEETS / "kop_format_example.json").read_text())
VINT = json.loads((SHEETS / "vint_single_deals.json").read_text())


def with_name(sheet, name):
    sheet = json.loads(json.dumps(sheet))
    if "players" in sheet:
        sheet["players"][1] = name
    else:
        for rubber in sheet["rubbers"]:
            rubber["seats"]["E"] = name
    return json.dumps(sheet).encode("utf-8", "surrogatepass")


def test_a_nul_in_a_table_link_is_not_found(client, kop_session):
    with postgres_rules():
        assert client.get("/t/%00/").status_code == 404
        assert client.get("/t/ab%00cd/").status_code == 404
        assert (
            client.get(f"/t/{kop_session.entry_token}/").status_code == 200
        )  # "which seat are you?"


def test_a_nul_in_the_profile_copy_is_refused_with_a_message(director_client, profiles):
    with postgres_rules():
        refused = director_client.get(reverse("scoring:profile_new") + "?copy=%00")
        assert refused.status_code == 400 and "cannot be used" in refused.content.decode()
        missing = director_client.get(reverse("scoring:profile_new") + "?copy=no-such-profile")
        assert missing.status_code == 404
        ok = director_client.get(reverse("scoring:profile_new") + "?copy=kop-pagat")
    assert ok.status_code == 200


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "Nested deeper than 20 levels"),
        (b'{"game": "kop", "players": [' + b"9" * 5000 + b"]}", "A number of 5000 digits"),
        (with_name(KOP, "B" * 121), "The name is longer than 120 characters"),
        (with_name(KOP, "Bar\x00tek"), "contains a NUL character"),
        (with_name(KOP, "Bar\ud800tek"), "contains an unpaired surrogate"),
        (with_name(VINT, "B" * 121), "The name is longer than 120 characters"),
        (b"\xff\xfe", "not UTF-8 text"),
    ],
    ids=["nested", "5000-digits", "long-name", "nul-name", "surrogate-name", "vint-long", "utf16"],
)
def test_a_bad_sheet_file_is_a_problem_on_the_page_and_imports_nothing(
    director_client, profiles, raw, says
):
    sessions, players = TableSession.objects.count(), Player.objects.count()
    with postgres_rules():
        response = director_client.post(
            reverse("scoring:session_import"),
            {"sheet": SimpleUploadedFile("s.json", raw), "club": home_club().pk},
        )
    assert response.status_code == 200
    assert says in response.content.decode()
    assert (TableSession.objects.count(), Player.objects.count()) == (sessions, players)


@pytest.fixture
def english_afterwards():
    """A Polish request leaves Polish active in this thread: later tests read English."""
    yield
    translation.activate("en")


def test_a_bad_sheet_s_problems_are_polish_sentences_on_a_polish_import_page(
    director_client, profiles, english_afterwards
):
    """Structure problems (a key the format does not name, a missing one, a value of the
    wrong kind) and the engines' own (a deal that breaks the rules), each where it is."""
    sheet = json.loads(json.dumps(KOP))
    sheet["colour"] = "red"
    del sheet["players"]
    sheet["deals"][0]["voided"] = 1
    sheet["deals"][1]["declarer_points"] = 105
    vint = json.loads(json.dumps(VINT))
    vint["rubbers"][0]["deals"][0]["honours"] = None
    director_client.cookies["django_language"] = "pl"
    pages = [
        director_client.post(
            reverse("scoring:session_import"),
            {
                "sheet": SimpleUploadedFile("s.json", json.dumps(data).encode()),
                "club": home_club().pk,
            },
        ).content.decode()
        for data in (sheet, vint, {"game": "kop", "players": 5, "deals": []})
    ]
    problems = [
        html.unescape(re.sub(r"<[^>]+>", "", li))
        for page in pages
        for li in re.findall(r"<li>(.*?)</li>", page.split('class="problems"')[1].split("</ul>")[0])
    ]
    assert problems[:4] == [
        "colour: Nieznany klucz (dozwolone: game, rules, players, deals).",
        "players: Brak.",
        "Rozdanie 1, voided: Potrzebne jest true albo false, a podano 1.",
        "Rozdanie 2, declarer_points: Punkty kartowe muszą wynosić od 0 do 104, a podano 105.",
    ]
    assert problems[4:] == [
        "Robber 1, rozdanie 1, honours: Potrzebny jest obiekt z side i count, a podano null.",
        "players: Potrzebna jest lista 4 graczy (miejsca 1 do 4), a podano 5.",
    ]
    english = re.compile(r"\b(expected|missing|unknown|got|deal|rubber|the|is|not)\b", re.I)
    assert not [p for p in problems if english.search(p)]


@pytest.mark.parametrize(
    "typed",
    ["9" * 5000, "1e999", "3\x00", "3.5", "-"],
    ids=["5000-digits", "infinite", "nul", "fraction", "sign"],
)
def test_a_bad_number_in_the_profile_editor_is_a_form_error(director_client, profiles, typed):
    """Issue 27: 5,000 digits in "Contract factors" answered 500 (``json.loads`` raised
    ``ValueError``); the factors are number boxes now, and any typing is a form error."""
    before = list(profiles)
    with postgres_rules():
        response = director_client.post(
            reverse("scoring:profile_new"),
            {"name": "Mine", "game": "kop", **KOSCIAN, "contract_factor__cicha": typed},
        )
    assert response.status_code == 200
    assert response.context["form"].errors["contract_factor__cicha"]
    assert 'class="error"' in response.content.decode()
    assert sorted(before) == sorted(p.slug for p in type(profiles["kop-pagat"]).objects.all())


# ------------------------------------------------------------------------ manage.py score


def score(raw: bytes, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("score", "-", *args, stdin=io.BytesIO(raw), stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def expected_problems(raw: bytes) -> list[str] | None:
    try:
        score_sheet(load_sheet(raw))
    except SheetError as exc:
        return exc.problems
    return None


def check_command(raw: bytes) -> None:
    code, out, err = score(raw)
    problems = expected_problems(raw)
    if problems is None:
        assert (code, err) == (0, "")
        json.loads(out)
    else:
        assert code == 2 and out == ""
        lines = err.splitlines()
        assert len(lines) == len(problems) >= 1
        assert all(line.strip() and line.isprintable() for line in lines)


SHEET_BYTES = st.one_of(
    st.binary(max_size=300),
    st.sampled_from([json.dumps(KOP).encode(), json.dumps(VINT).encode()]),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
        max_leaves=10,
    ).map(
        lambda v: json.dumps({**KOP, "deals": [v]}, ensure_ascii=False).encode(
            "utf-8", "surrogatepass"
        )
    ),
)


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
@given(SHEET_BYTES)
def test_score_exits_0_or_2_with_one_line_per_problem_for_any_bytes(raw):
    check_command(raw)


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000,
        b'{"game": "kop", "deals": [' + b"9" * 5000 + b"]}",
        with_name(KOP, "Bar\ud800tek"),
        with_name(KOP, "Bar\x00tek"),
        b'{"game\nkop": 1, "players\r\n": 2}',  # a key with a line break: still one line each
        b"\xc3\x28 invalid",
    ],
    ids=["nested", "5000-digits", "surrogate", "nul", "newline-keys", "invalid-utf8"],
)
def test_score_refuses_extreme_sheets_in_process(raw):
    check_command(raw)


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "sheet: nested deeper than 20 levels"),
        (
            with_name(KOP, "Bar\ud800tek"),
            "players[1]: contains an unpaired surrogate (not Unicode text)",
        ),
        (b"\xff\xfe{}", "sheet: not UTF-8 text (byte 1)"),
    ],
    ids=["nested", "surrogate", "invalid-utf8"],
)
def test_score_as_a_user_runs_it_exits_2_with_one_line(raw, says):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    result = subprocess.run(
        [sys.executable, "manage.py", "score", "-"],
        input=raw,
        capture_output=True,
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        timeout=120,
    )
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode().splitlines() == [says]
