"""What a Russian or Estonian Vint player sees on the pad and the sheet: their own
words, not English ones."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services
from tests.factories import TableSessionFactory

pytestmark = pytest.mark.django_db

# English words the Vint pad and sheet show in English; none may be left in ru or et.
ENGLISH = [
    "Rubber",
    "rubber",
    "Declarer",
    "Doubling",
    "Dealer",
    "Tricks",
    "tricks",
    "Honours",
    "All pass",
    "all pass",
    "Save deal",
    "Scoresheet",
    "History",
    "above the line",
    "below the line",
    "Session totals",
    "not started",
    "misère",
    "extra deal",
    "Log in",
    "Estonian",
]
# Estonian players keep "misère" and "grand" as the rules write them (rules/vint.md).
KEPT = {"ru": set(), "et": {"misère"}}
# The words each language must show instead.
OWN_WORDS = {
    "ru": ["Роббер", "Играющий", "Все пас", "взят", "под чертой", "онёры".capitalize()],
    "et": ["Robber", "Mängija", "Kõik pass", "tihi", "joone all", "Onöörid"],
}


@pytest.fixture
def played(profiles, four_players, scorer):
    session = TableSessionFactory(
        game="vint", players=four_players, title="Vint", created_by=scorer
    )
    actor = services.Actor(label="sam", is_director=False)
    services.deal_record(
        session=session,
        facts={
            "contract": "4H",
            "declarer": "N",
            "doubling": 1,
            "declarer_tricks": 10,
            "honours": {"side": "NS", "count": 5},
        },
        actor=actor,
        extra={"rubber": 1, "first_dealer": "N"},
    )
    services.deal_record(
        session=session,
        facts={"contract": "pass", "tricks": {"NS": 5, "EW": 8}},
        actor=actor,
    )
    return session


def visible_text(html: str) -> str:
    """The words a reader sees: no tags, scripts, styles or attribute values."""
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    html = re.sub(r"(?s)<!--.*?-->", " ", html)
    return re.sub(r"\s+", " ", re.sub(r"(?s)<[^>]*>", " ", html))


@pytest.mark.parametrize("language", ["ru", "et"])
@pytest.mark.parametrize("page", ["scoring:session", "scoring:sheet"])
def test_the_vint_pad_and_sheet_speak_the_players_language(scorer_client, played, language, page):
    scorer_client.cookies["django_language"] = language
    response = scorer_client.get(reverse(page, args=[played.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    text = visible_text(html)
    left = [w for w in ENGLISH if w not in KEPT[language] and re.search(rf"\b{w}\b", text)]
    assert left == [], text
    assert any(word in text for word in OWN_WORDS[language]), text
