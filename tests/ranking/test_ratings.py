"""Club ratings and series standings (pure): known small inputs, order, sitting out, series.

Exact figures appear only where openskill documents them (its README's two-against-two
example, computed before openskill had τ, hence ``Params(tau=0)``; and the ordinal
μ − 3σ of 43.07, 2.42 being 35.81). Everything else is stated as a direction.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ranking.ratings import (
    DEFAULT_MODEL,
    MODELS,
    KopDeal,
    KopTable,
    Match,
    Params,
    Rater,
    Rating,
    RatingInputError,
    RatingOptionError,
    SeriesRules,
    Source,
    VintRubber,
    kop_matches,
    parse_model,
    placings,
    series_standings,
    vint_matches,
)

A, B, C, D = 1, 2, 3, 4
PRIOR = Rating(25.0, 25.0 / 3.0)


def deal(declarers, won=True, voided=False):
    defenders = tuple(p for p in (A, B, C, D) if p not in declarers)
    return KopDeal(tuple(declarers), defenders, won, voided)


def table(*deals, points=(0, 0, 0, 0)):
    return KopTable(tuple(deals), tuple(zip((A, B, C, D), points, strict=True)))


def rate(matches, start=None):
    return Rater().replay([Source(1, tuple(matches))], start=start)


# ------------------------------------------------------------------ openskill's figures


def test_openskill_readme_two_against_two():
    state = {
        1: (25.0, 25.0 / 3.0),
        2: (32.444, 5.123),
        3: (43.381, 2.421),
        4: (25.188, 6.211),
    }
    Rater(Params(tau=0.0)).rate(state, Match(((1, 2), (3, 4)), (0, 1)))
    assert state[1] == pytest.approx((28.669648436582808, 8.071520788025197), abs=1e-12)
    assert state[2] == pytest.approx((33.83086971107981, 5.062772998705765), abs=1e-12)
    assert state[3] == pytest.approx((43.071274808241974, 2.4166900452721256), abs=1e-12)
    assert state[4] == pytest.approx((23.149503312339064, 6.1378606973362135), abs=1e-12)


def test_displayed_rating_is_mu_minus_three_sigma():
    assert Rating(43.07, 2.42).display == pytest.approx(35.81)
    assert PRIOR.display == pytest.approx(0.0)


@settings(max_examples=300, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 3), min_size=2, max_size=4),
    places=st.lists(st.integers(0, 3), min_size=4, max_size=4),
    ratings=st.lists(st.tuples(st.floats(-20, 60), st.floats(0.3, 10)), min_size=12, max_size=12),
    tau=st.sampled_from([0.0, 25.0 / 300.0, 0.5]),
)
def test_fast_update_equals_openskill_float_for_float(sizes, places, ratings, tau):
    ids = iter(range(100, 112))
    sides = tuple(tuple(next(ids) for _ in range(n)) for n in sizes)
    match = Match(sides, tuple(places[: len(sides)]))
    start = {100 + i: r for i, r in enumerate(ratings)}
    fast, slow = dict(start), dict(start)
    Rater(Params(tau=tau)).rate(fast, match)
    Rater(Params(tau=tau), fast=False).rate(slow, match)
    assert fast == slow


# ---------------------------------------------------------------------- Kop per deal


def test_the_winning_pair_goes_up_and_the_losing_pair_down():
    out = rate(kop_matches(table(deal((A, C), won=True))))
    for p in (A, C):
        assert out.ratings[p].mu > PRIOR.mu
    for p in (B, D):
        assert out.ratings[p].mu < PRIOR.mu
    for p in (A, B, C, D):
        assert out.ratings[p].sigma < PRIOR.sigma  # one game says something about everyone


def test_a_won_solo_lifts_the_soloist_and_lowers_the_three_defenders_alike():
    out = rate(kop_matches(table(deal((B,), won=True))))
    assert out.ratings[B].mu > PRIOR.mu
    defenders = {out.ratings[p] for p in (A, C, D)}
    assert len(defenders) == 1
    assert defenders.pop().mu < PRIOR.mu


def test_a_lost_solo_lowers_the_soloist_and_lifts_the_defenders():
    out = rate(kop_matches(table(deal((D,), won=False))))
    assert out.ratings[D].mu < PRIOR.mu
    assert all(out.ratings[p].mu > PRIOR.mu for p in (A, B, C))


def test_a_solo_is_four_sides_with_the_defenders_sharing_a_place():
    (match,) = kop_matches(table(deal((B,), won=True)))
    assert match.sides == ((B,), (A,), (C,), (D,))
    assert match.places == (0, 1, 1, 1)
    (lost,) = kop_matches(table(deal((B,), won=False)))
    assert lost.places == (1, 0, 0, 0)


def test_voided_deals_are_not_rated():
    matches = kop_matches(table(deal((A, B)), deal((C,), voided=True), deal((A, D), won=False)))
    assert len(matches) == 2
    assert kop_matches(table(deal((A, B), voided=True))) == []


def test_each_deal_counts_one_game():
    out = rate(kop_matches(table(deal((A, B)), deal((C,)), deal((A, D), won=False))))
    assert out.games == {A: 3, B: 3, C: 3, D: 3}
    (source,) = out.sources
    assert [c.games for c in source.changes] == [3, 3, 3, 3]


def test_a_deal_is_two_against_two_or_one_against_three():
    with pytest.raises(RatingInputError):
        KopDeal((A, B, C), (D,), True)
    with pytest.raises(RatingInputError):
        KopDeal((A,), (B, C), True)
    with pytest.raises(RatingInputError):
        Match(((A, B), (B, C)), (0, 1))


# --------------------------------------------------------------------- Kop per table


def test_per_table_places_by_small_points_and_shares_equal_ones():
    (match,) = kop_matches(table(deal((A, B)), points=(10, 5, 5, -20)), "table")
    assert match.sides == ((A,), (B,), (C,), (D,))
    assert match.places == (0, 1, 1, 3)
    assert match.games == 1
    out = rate([match])
    assert out.ratings[A].mu > out.ratings[B].mu == out.ratings[C].mu > out.ratings[D].mu


def test_places_most_points_first():
    assert placings({1: 3, 2: 7, 3: 3, 4: -13}) == {2: 0, 1: 1, 3: 1, 4: 3}


def test_models_are_validated_up_front():
    assert DEFAULT_MODEL in MODELS
    assert parse_model("table") == "table"
    with pytest.raises(RatingOptionError, match="did you mean 'table'"):
        parse_model("tabel")
    with pytest.raises(RatingOptionError):
        kop_matches(table(deal((A, B))), "elo")


# ----------------------------------------------------------------------------- Vint


def test_vint_rubber_is_partnership_against_partnership():
    won, tied = vint_matches(
        [VintRubber((A, C), (B, D), 120, 870), VintRubber((A, B), (C, D), 300, 300)]
    )
    assert won.sides == ((A, C), (B, D)) and won.places == (1, 0)
    assert tied.places == (0, 0)
    out = rate([won])
    assert out.ratings[B].mu > PRIOR.mu > out.ratings[A].mu


# ------------------------------------------------------------- order, sitting out


def _history():
    return [
        Source(1, tuple(kop_matches(table(deal((A, B)), deal((C,), won=False))))),
        Source(2, tuple(kop_matches(table(deal((A, D), won=False), deal((B,)))))),
        Source(3, (Match(((A, 5), (B, 6)), (0, 1)),)),
        Source(4, tuple(kop_matches(table(deal((C, D)), deal((A,)))))),
    ]


def test_rating_the_rest_from_stored_states_equals_a_full_rebuild():
    sources = _history()
    full = Rater().replay(sources)
    head = Rater().replay(sources[:2])
    tail = Rater().replay(sources[2:], start=head.ratings)
    assert tail.ratings == full.ratings
    assert head.sources + tail.sources == full.sources


def test_a_player_who_sits_out_is_unchanged():
    sources = _history()
    start = {A: Rating(30.0, 4.0), 99: Rating(31.5, 2.5)}
    out = Rater().replay(sources, start=start)
    assert out.ratings[99] == Rating(31.5, 2.5)
    assert all(c.player != 99 for s in out.sources for c in s.changes)
    assert 99 not in out.games
    # Player 5 played only source 3: sources 1, 2 and 4 record nothing for them.
    assert [s.key for s in out.sources if any(c.player == 5 for c in s.changes)] == [3]


def test_changes_chain_from_one_source_to_the_next():
    out = Rater().replay(_history())
    seen: dict[int, Rating] = {}
    for source in out.sources:
        for change in source.changes:
            assert change.before == seen.get(change.player, PRIOR)
            assert change.delta == pytest.approx(change.after.display - change.before.display)
            seen[change.player] = change.after
    assert seen == out.ratings


def test_params_are_validated():
    with pytest.raises(RatingOptionError):
        Params(beta=0)
    with pytest.raises(RatingOptionError):
        Params(tau=-1)


# ----------------------------------------------------------------------------- series

GP = (25, 18, 15, 12, 10)


def test_series_sums_points_by_place():
    rows = series_standings([{A: 1, B: 2, C: 3}, {A: 2, B: 1, C: 3}], SeriesRules(GP))
    assert [(r.player, r.rank, r.total) for r in rows] == [(A, 1, 43), (B, 1, 43), (C, 3, 30)]


def test_series_ties_share_the_points_of_the_places_they_cover():
    (row_a, row_b, row_c) = series_standings([{A: 1, B: 2, C: 2}], SeriesRules(GP))
    assert row_a.total == 25
    assert row_b.total == row_c.total == Fraction(33, 2)  # (18 + 15) / 2


def test_places_beyond_the_table_score_nothing():
    rows = series_standings([{A: 1, B: 6, C: 7}], SeriesRules((10, 5)))
    assert {r.player: r.total for r in rows} == {A: 10, B: 0, C: 0}


def test_series_drops_each_players_worst_result_an_absence_first():
    placings_ = [{A: 1, B: 2}, {A: 4, B: 1}, {B: 3}]
    rows = series_standings(placings_, SeriesRules(GP, drop_worst=True))
    by = {r.player: r for r in rows}
    assert by[A].points == (25, 12, None)
    assert by[A].dropped == 2 and by[A].total == 37  # the absence goes, both results stay
    assert by[B].points == (18, 25, 15)
    assert by[B].dropped == 2 and by[B].total == 43
    assert [r.player for r in rows] == [B, A]


def test_series_countback_breaks_equal_totals():
    # Both 30: B has a win (25 + 5), A two mid places (15 + 15).
    rules = SeriesRules((25, 15, 5))
    rows = series_standings([{A: 2, B: 1}, {A: 2, B: 3}], rules)
    assert [(r.player, r.rank) for r in rows] == [(B, 1), (A, 2)]


def test_series_minimum_number_of_tournaments():
    rows = series_standings([{A: 1, B: 2}, {B: 1}], SeriesRules(GP, min_tournaments=2))
    assert [(r.player, r.rank, r.played) for r in rows] == [(B, 1, 2), (A, None, 1)]


def test_series_rules_are_validated():
    with pytest.raises(RatingOptionError):
        SeriesRules(())
    with pytest.raises(RatingOptionError):
        SeriesRules((10, -1))
