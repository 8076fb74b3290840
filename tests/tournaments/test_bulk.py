"""``tournaments.bulk.json_text`` writes what ``json.dumps`` writes, read back."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tournaments.bulk import json_text

SCALARS = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text()
SCALARS |= st.floats(allow_nan=False, allow_infinity=False)
DOCS = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text() | st.integers(0, 10**6), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(DOCS)
def test_json_text_reads_back_as_json_dumps_does(doc):
    assert json.loads(json_text(doc)) == json.loads(json.dumps(doc))


def test_a_standings_row_with_polish_names_and_number_keys():
    row = {"name": "Łucja Żółć-Gęślą", "by_round": {1: {"place": 2}}, "small": 12.5}
    assert json.loads(json_text(row)) == {
        "name": "Łucja Żółć-Gęślą",
        "by_round": {"1": {"place": 2}},
        "small": 12.5,
    }
