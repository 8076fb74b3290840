"""English and Polish: every string has a Polish translation, and pages switch language.
Russian and Estonian: every Vint string (pages, sheet, standings, ratings) is translated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils.translation import ngettext, override

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


# ---------------------------------------------------------------- Russian and Estonian
# The Vint players' languages cover the Vint pages, the sheet, the standings and the
# ratings: every string marked in these files, and the Vint and scoresheet problem sentences.
VINT_LANGUAGES = {"ru": 3, "et": 2}  # language: number of plural forms
VINT_SOURCES = [
    "templates/base.html",
    "templates/scoring/vint/*.html",
    # The pages every game's table draws its parts in.
    "templates/scoring/session.html",
    "templates/scoring/sheet.html",
    "templates/scoring/history.html",
    "templates/scoring/deal_edit.html",
    "templates/scoring/_history_list.html",
    "templates/scoring/_entry_conflict.html",
    "templates/scoring/_offline_box.html",
    "templates/scoring/_entry_keys.html",
    "templates/scoring/_round_clock.html",
    "templates/scoring/_table_aside.html",
    "scoring/games/vint/*.py",
    "templates/tournaments/standings*.html",
    "templates/tournaments/rating_*.html",
    "templates/tournaments/player_page.html",
    "tournaments/rating_views.py",
    "tournaments/tables.py",
]
TEMPLATE_VARIABLE = re.compile(r"\{\{\s*(\w+)\s*\}\}")
BLOCK_STRING = re.compile(
    r"\{%\s*blocktrans(?:late)?\b[^%]*%\}(.*?)\{%\s*(?:plural|endblocktrans)", re.S
)
PLURAL_STRING = re.compile(r"""\bngettext(?:_lazy)?\(\s*(["'])(.+?)\1""")


def _vint_files() -> list[Path]:
    files = sorted({path for pattern in VINT_SOURCES for path in ROOT.glob(pattern)})
    assert len(files) > 15, files
    return files


def _vint_problem_messages() -> set[str]:
    from django.utils.translation import override

    from scoring.problems import MESSAGES

    with override("en"):
        # A Vint sheet's import problems too: its structure (sheet.*) and its deals.
        return {
            str(text) for code, text in MESSAGES.items() if code.startswith(("vint.", "sheet."))
        }


def _collapsed(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _vint_strings() -> set[str]:
    """What the Vint files mark for translation (whitespace collapsed): translate tags,
    blocktranslate bodies with ``{{ n }}`` read as ``%(n)s``, gettext and ngettext calls;
    and the Vint problem sentences."""
    found = set(_vint_problem_messages())
    for path in _vint_files():
        text = path.read_text()
        if path.suffix == ".html":
            found |= {m.group(2) for m in TEMPLATE_STRING.finditer(text)}
            found |= {
                TEMPLATE_VARIABLE.sub(r"%(\1)s", m.group(1)) for m in BLOCK_STRING.finditer(text)
            }
        else:
            found |= {m.group(2) or m.group(4) for m in PY_STRING.finditer(text)}
            found |= {m.group(2) for m in PLURAL_STRING.finditer(text)}
    return {_collapsed(s) for s in found}


def _catalogue(language: str) -> dict[str, list[str]]:
    """msgid -> its msgstr forms (empty for a fuzzy entry)."""
    path = ROOT / f"locale/{language}/LC_MESSAGES/django.po"
    entries: dict[str, list[str]] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        msgid = _field(block, "msgid")
        if not msgid:
            continue
        if _field(block, "msgid_plural"):
            count = len(re.findall(r"^msgstr\[\d\] ", block, re.M))
            forms = [_field(block, rf"msgstr\[{i}\]") for i in range(count)]
        else:
            forms = [_field(block, "msgstr")]
        entries[msgid] = [] if "#, fuzzy" in block else forms
    return entries


def _vint_msgids(catalogue: dict[str, list[str]]) -> set[str]:
    """The catalogue entries of the Vint strings."""
    vint = _vint_strings()
    return {m for m in catalogue if _collapsed(m) in vint}


@pytest.mark.parametrize("language", VINT_LANGUAGES)
def test_every_marked_vint_string_is_in_the_catalogue(language):
    catalogue = {_collapsed(m) for m in _catalogue(language)}
    marked = _vint_strings()
    missing = sorted(s for s in marked if s not in catalogue)
    assert missing == [], f"run makemessages -l {language} and translate"


@pytest.mark.parametrize("language", VINT_LANGUAGES)
def test_every_vint_message_is_translated(language):
    catalogue = _catalogue(language)
    vint = _vint_msgids(catalogue)
    assert len(vint) > 250, "the Vint strings were not found"
    untranslated = sorted(m for m in vint if not all(catalogue.get(m) or [""]))
    assert untranslated == []


@pytest.mark.parametrize(("language", "forms"), VINT_LANGUAGES.items())
def test_vint_plurals_have_the_language_s_forms(language, forms):
    po = (ROOT / f"locale/{language}/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    assert f"nplurals={forms};" in po
    plural_blocks = [b for b in po.split("\n\n") if "msgid_plural" in b]
    vint = _vint_msgids(_catalogue(language))
    counted = [b for b in plural_blocks if _field(b, "msgid") in vint]
    assert counted
    for block in counted:
        assert len(re.findall(r"^msgstr\[\d\] \"(?!\"$)", block, re.M)) == forms, block


@pytest.mark.parametrize("language", VINT_LANGUAGES)
def test_compiled_vint_catalogue_matches_the_po_file(language):
    from django.utils.translation import gettext, ngettext, override

    catalogue = _catalogue(language)
    stale = []
    with override(language):
        for msgid in _vint_msgids(catalogue):
            forms = catalogue[msgid]
            said = gettext(msgid) if len(forms) == 1 else ngettext(msgid, msgid + "s", 1)
            if said != forms[0]:
                stale.append(msgid)
    assert stale == [], "run compilemessages"


def test_russian_plurals_follow_the_number():
    from django.utils.translation import ngettext, override

    with override("ru"):
        said = [ngettext("%(n)s trick", "%(n)s tricks", n) % {"n": n} for n in (1, 3, 5, 11, 21)]
    assert said == ["1 взятка", "3 взятки", "5 взяток", "11 взяток", "21 взятка"]
    with override("et"):
        assert ngettext("%(n)s trick", "%(n)s tricks", 2) % {"n": 2} == "2 tihti"


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "word"), [("ru", "Турниры"), ("et", "Turniirid")])
def test_language_switch_offers_russian_and_estonian(client, language, word):
    html = client.get("/").content.decode()
    assert f'value="{language}"' in html
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    html = client.get("/").content.decode()
    assert f'<html lang="{language}">' in html and word in html


# Counts in Polish take Polish plural forms: 1 rozdanie, 2-4 rozdania, 5-21 rozdań,
# 22 rozdania; "8 z 8 rozdań" (after "z", the genitive).
DEALS = {1: "rozdanie", 2: "rozdania", 4: "rozdania", 5: "rozdań", 12: "rozdań", 21: "rozdań"}
DEALS |= {22: "rozdania", 24: "rozdania", 25: "rozdań", 112: "rozdań", 102: "rozdania"}


@pytest.mark.parametrize(("n", "word"), DEALS.items())
def test_deal_counts_use_the_polish_plural_forms(n, word):
    with override("pl"):
        assert ngettext("%(n)s deal", "%(n)s deals", n) % {"n": n} == f"{n} {word}"
        played = ngettext("%(n)s deal played", "%(n)s deals played", n) % {"n": n}
        assert played == f"rozegrano {n} {word}"


@pytest.mark.parametrize(("n", "word"), [(1, "rozdania"), (2, "rozdań"), (8, "rozdań")])
def test_of_n_deals_takes_the_genitive(n, word):
    with override("pl"):
        said = ngettext("%(d)s of %(n)s deal", "%(d)s of %(n)s deals", n) % {"d": 0, "n": n}
        assert said == f"0 z {n} {word}"
        said = ngettext("%(d)s of %(n)s deal played", "%(d)s of %(n)s deals played", n)
        assert said % {"d": n, "n": n} == f"rozegrano {n} z {n} {word}"


# ---------------------------------------------------------------- every catalogue complete
# Every message in Polish, Russian and Estonian: translated, not fuzzy, every plural form
# the language has, and the same placeholders as the English (a missing ``%(n)s`` would
# show a wrong number, a stray one a 500).
CATALOGUES = {"pl": 4, "ru": 3, "et": 2}  # plural forms (Polish: 3 and one for fractions)
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def _catalogue_faults(po: str, forms: int) -> list[str]:
    """What keeps a .po text from being complete: ``untranslated``, ``fuzzy``, ``forms``
    (a plural entry without the language's number of forms) or ``placeholders``, each with
    its msgid."""
    faults = []
    for block in po.split("\n\n"):
        msgid = _field(block, "msgid")
        if not msgid or block.lstrip().startswith("#~"):
            continue
        if re.search(r"^#,.*\bfuzzy\b", block, re.M):
            faults.append(f"fuzzy: {msgid}")
        if _field(block, "msgid_plural"):
            count = len(re.findall(r"^msgstr\[\d\] ", block, re.M))
            said = [_field(block, rf"msgstr\[{i}\]") for i in range(count)]
            if count != forms:
                faults.append(f"forms: {msgid}")
        else:
            said = [_field(block, "msgstr")]
        if not all(said):
            faults.append(f"untranslated: {msgid}")
            continue
        english = msgid + _field(block, "msgid_plural")
        wanted = {a or b for a, b in PLACEHOLDER.findall(english)}
        for text in said:
            if {a or b for a, b in PLACEHOLDER.findall(text)} - wanted:
                faults.append(f"placeholders: {msgid}")
    return faults


def test_catalogue_faults_are_found():
    """The check itself: each fault of a small catalogue is named."""
    po = "\n\n".join(
        [
            'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3;\\n"',
            'msgid "Table"\nmsgstr "Stolik"',
            'msgid "Round"\nmsgstr ""',
            '#, fuzzy\nmsgid "Seat"\nmsgstr "Miejsce"',
            'msgid "%(n)s deal"\nmsgid_plural "%(n)s deals"\nmsgstr[0] "%(n)s rozdanie"\n'
            'msgstr[1] "%(n)s rozdania"',
            'msgid "%(n)s point"\nmsgid_plural "%(n)s points"\nmsgstr[0] "%(n)s punkt"\n'
            'msgstr[1] ""\nmsgstr[2] "%(n)s punktów"',
            'msgid "by %(who)s"\nmsgstr "przez %(kto)s"',
            '#~ msgid "Gone"\n#~ msgstr ""',
        ]
    )
    assert _catalogue_faults(po, 3) == [
        "untranslated: Round",
        "fuzzy: Seat",
        "forms: %(n)s deal",
        "untranslated: %(n)s point",
        "placeholders: by %(who)s",
    ]


@pytest.mark.parametrize(("language", "forms"), CATALOGUES.items())
def test_every_catalogue_is_complete(language, forms):
    po = (ROOT / f"locale/{language}/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    assert f"nplurals={forms};" in po
    assert len(po.split("\n\n")) > 1000, "the catalogue was not read"
    assert _catalogue_faults(po, forms) == []
