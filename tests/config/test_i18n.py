"""English and Polish: every string has a Polish translation, and pages switch language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale/pl/LC_MESSAGES/django.po"
MO = PO.with_suffix(".mo")
SOURCES = ["config", "clubs", "scoring", "tournaments", "templates"]

TEMPLATE_STRING = re.compile(r"""\{%\s*(?:translate|trans)\s+(["'])(.+?)\1""")
PY_STRING = re.compile(r"""\b_?gettext(?:_lazy)?\(\s*(["'])(.+?)\1|\b_\(\s*(["'])(.+?)\3""")


def _po_entries() -> dict[str, str]:
    entries: dict[str, str] = {}
    text = PO.read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        msgid = _field(block, "msgid")
        if msgid and "#, fuzzy" in block:
            entries[msgid] = ""
            continue
        msgstr = _field(block, "msgstr") or _field(block, r"msgstr\[0\]")
        if msgid:
            entries[msgid] = msgstr
    return entries


def _field(block: str, name: str) -> str:
    match = re.search(rf'^{name} ((?:".*"\n?)+)', block + "\n", re.M)
    if not match:
        return ""
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1))).replace('\\"', '"')


def _source_strings() -> set[str]:
    found: set[str] = set()
    for folder in SOURCES:
        for path in (ROOT / folder).rglob("*"):
            if "engines" in path.parts or "migrations" in path.parts:
                continue
            if path.suffix == ".html":
                found |= {m.group(2) for m in TEMPLATE_STRING.finditer(path.read_text())}
            elif path.suffix == ".py":
                for m in PY_STRING.finditer(path.read_text()):
                    found.add(m.group(2) or m.group(4))
    return found


def test_every_message_has_a_polish_translation():
    untranslated = sorted(k for k, v in _po_entries().items() if not v)
    assert untranslated == []


def test_every_marked_string_is_in_the_catalogue():
    catalogue = set(_po_entries())
    missing = sorted(s for s in _source_strings() if s not in catalogue)
    assert missing == [], "run `make messages` and translate"


def test_compiled_catalogue_matches_the_po_file():
    from django.utils.translation import gettext, override

    with override("pl"):
        stale = sorted(k for k, v in _po_entries().items() if "%" not in k and gettext(k) != v)
    assert stale == [], "run `make messages` to recompile the catalogue"


@pytest.mark.django_db
def test_home_page_in_polish(client):
    response = client.get("/", headers={"accept-language": "pl"})
    html = response.content.decode()
    assert '<html lang="pl">' in html
    assert "Zapisuj wyniki przy stoliku" in html
    assert "Wyloguj" not in html and "Zaloguj" in html


@pytest.mark.django_db
def test_language_switch_sets_polish(client):
    response = client.post("/i18n/setlang/", {"language": "pl", "next": "/"})
    assert response.status_code == 302
    assert "Zapisuj wyniki przy stoliku" in client.get("/").content.decode()
