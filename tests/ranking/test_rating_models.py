"""The experiment that chose the Kop rating model (``tests/ranking/rating_models.py``)
stays deterministic: the same seed gives the same figures."""

from __future__ import annotations

from tests.ranking.rating_models import SimConfig, compare_models


def test_the_model_comparison_is_deterministic():
    config = SimConfig(players=12, evenings=5, deals=8)
    first = compare_models(config, seeds=(7,))
    again = compare_models(config, seeds=(7,))
    assert first == again
    assert set(first) == {"deal", "deal_sum", "table", "none"}
    (none,) = first["none"]
    assert none.deal_auc == 0.5
