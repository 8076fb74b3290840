"""Every rule option a profile can hold is read in words: a label per option, a phrase
per choice value, each translated into Polish (``scoring.option_text``)."""

from __future__ import annotations

import pytest
from django.utils.translation import override

from scoring import option_text
from scoring.engines import kop, vint

KOP_CHOICES = {
    "trump_order": kop.TRUMP_ORDERS,
    "auction_end": kop.AUCTION_ENDS,
    "wesele_partner": kop.WESELE_PARTNERS,
    "doubling_count": kop.DOUBLING_COUNTS,
    "baska_bid": kop.BASKA_BIDS,
    "soloist_doubling": kop.SOLOIST_DOUBLINGS,
}
VINT_CHOICES = {
    name: tuple(v for v in spec.values or () if isinstance(v, str))
    for name, spec in vint.OPTIONS.items()
}
CHOICES = [
    (name, value)
    for table in (KOP_CHOICES, VINT_CHOICES)
    for name, values in table.items()
    for value in values
]


@pytest.mark.parametrize("option", sorted({*kop.OPTION_NAMES, *vint.OPTIONS}))
def test_every_option_has_a_polish_label(option):
    with override("en"):
        english = option_text.option_label(option)
    with override("pl"):
        polish = option_text.option_label(option)
    assert option in option_text.LABELS
    assert polish != english, option


@pytest.mark.parametrize(("option", "value"), CHOICES)
def test_every_choice_value_is_a_polish_phrase(option, value):
    with override("en"):
        english = option_text.option_value(option, value)
    with override("pl"):
        polish = option_text.option_value(option, value)
    assert polish != value and polish != english, (option, value, polish)
    assert "_" not in polish


def test_mixed_values_read_as_words():
    options = {
        "bez_wyjscia_max": {"declarers": 26, "defenders": 25},
        "doubling_cap": {"zolo_du": 3, "normal": None},
        "wesele_bidder_may_double": True,
        "contracts": ["normal", "zolo_du"],
    }
    with override("pl"):
        lines = dict(option_text.option_lines(options))
    assert lines == {
        "Bez wyjścia najwyżej": "gdy przegrywają grający 26, gdy przegrywają obrońcy 25",
        "Najwięcej kontr": "zolo du 3, normalna bez limitu",
        "Licytujący wesele może kontrować": "tak",
        "Grane kontrakty": "normalna, zolo du",
    }
