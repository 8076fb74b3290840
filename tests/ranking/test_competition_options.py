"""Competition options (competitions.md §10): validated up front, every problem at once with
a code and its parameters; written out in full and read back to the same options."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ranking import TIE_BREAK_NAMES, RankingError
from tournaments.ranking.competition import (
    VINT_EVENT_TIE_BREAK_NAMES,
    ClassDef,
    FixedScore,
    KopOptions,
    VintOptions,
    kop_options,
    kop_options_json,
    vint_options,
    vint_options_json,
)


def test_omitted_options_take_the_documented_defaults():
    options = kop_options({})
    assert options.big_points == (5, 3, 1, 0)
    assert options.tie_breaks == ("small_points", "round_wins", "second_places", "third_places")
    assert (options.bye_score, options.walkout_score) == ("average", "average")
    assert options.classes == ()
    assert (options.team_size_min, options.team_size_max, options.team_counting) == (4, 5, 4)
    assert vint_options({}).tie_breaks == ("rubbers_won", "total_points")


@pytest.mark.parametrize(
    ("raw", "code", "params"),
    [
        ({"bogus": 1}, "competition.option_unknown", {"option": "bogus"}),
        ({"big_points": [1, 2, 3, 4]}, "ranking.big_points_invalid", {}),
        ({"big_points": [5, 3, 1]}, "ranking.big_points_invalid", {}),
        ({"tie_breaks": ["coin"]}, "ranking.tie_break_unknown", {"value": "coin"}),
        ({"tie_breaks": ["round_wins"] * 2}, "ranking.tie_break_repeated", {"value": "round_wins"}),
        ({"tie_breaks": "small_points"}, "competition.tie_breaks_invalid", {}),
        ({"bye_score": "half"}, "competition.score_invalid", {"option": "bye_score"}),
        ({"walkout_score": {"big": -1, "small": 0}}, "competition.score_invalid", {}),
        ({"walkout_score": {"big": 3, "small": 35, "x": 1}}, "competition.score_invalid", {}),
        ({"classes": [{"code": "", "label": "W"}]}, "competition.class_code", {}),
        ({"classes": [{"code": "W"}]}, "competition.class_label", {}),
        ({"team_size_min": 0}, "competition.team_size_invalid", {"option": "team_size_min"}),
        ({"team_size_min": 5, "team_size_max": 4}, "competition.team_sizes_crossed", {}),
        ({"team_counting": 6}, "competition.team_counting_invalid", {"high": 5}),
        ({"team_counting": "best"}, "competition.team_counting_invalid", {}),
        ({"team_counting": True}, "competition.team_counting_invalid", {}),
    ],
)
def test_a_bad_option_is_an_error_with_a_code_and_its_parameters(raw, code, params):
    with pytest.raises(RankingError) as caught:
        kop_options(raw)
    (problem,) = caught.value.coded
    assert problem.code == code
    assert params.items() <= problem.params.items()


def test_every_bad_option_is_reported_at_once():
    with pytest.raises(RankingError) as caught:
        kop_options({"bogus": 1, "big_points": [0, 0, 0, 1], "team_counting": 0})
    assert len(caught.value.problems) == 3


def test_an_option_of_another_game_is_refused():
    with pytest.raises(RankingError) as caught:
        vint_options({"bye_score": "average", "classes": []})
    assert [p.code for p in caught.value.coded] == ["competition.option_other_game"]


def test_options_built_directly_are_checked_too():
    with pytest.raises(RankingError):
        KopOptions(team_counting=7)
    with pytest.raises(RankingError):
        VintOptions(tie_breaks=("small_points",))


scores = st.just("average") | st.builds(FixedScore, st.integers(0, 9), st.integers(-50, 50))
classes = st.lists(
    st.tuples(st.text("WMJS", min_size=1, max_size=2), st.text("abc", min_size=1, max_size=5)),
    max_size=3,
    unique_by=lambda c: c[0],
).map(lambda items: tuple(ClassDef(code, label) for code, label in items))


@st.composite
def kop_option_sets(draw):
    big = tuple(sorted(draw(st.lists(st.integers(0, 9), min_size=4, max_size=4)), reverse=True))
    low = draw(st.integers(1, 5))
    high = draw(st.integers(low, 6))
    return KopOptions(
        big_points=big,
        tie_breaks=tuple(draw(st.permutations(TIE_BREAK_NAMES))[: draw(st.integers(0, 5))]),
        bye_score=draw(scores),
        walkout_score=draw(scores),
        classes=draw(classes),
        team_size_min=low,
        team_size_max=high,
        team_counting=draw(st.just("all") | st.integers(1, high)),
    )


@settings(max_examples=100, deadline=None)
@given(kop_option_sets())
def test_kop_options_written_out_read_back_the_same(options):
    assert kop_options(kop_options_json(options)) == options


@settings(max_examples=50, deadline=None)
@given(
    st.permutations(VINT_EVENT_TIE_BREAK_NAMES).flatmap(
        lambda names: st.integers(0, 3).map(lambda k: tuple(names[:k]))
    ),
    classes,
)
def test_vint_options_written_out_read_back_the_same(tie_breaks, class_defs):
    options = VintOptions(tie_breaks=tie_breaks, classes=class_defs)
    assert vint_options(vint_options_json(options)) == options
