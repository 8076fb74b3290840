"""Pages for club ratings, player pages and series (thin: parse, call, render).

Public: the leaderboards (and their CSV), a player's page, series standings. Directors
only: creating and editing a series.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tables2 import RequestConfig

from clubs.models import Club, Player
from clubs.roles import director_required, directs, owned_by_directed, require_director_of
from config.csvexport import csv_response
from tournaments import ratings
from tournaments.families import games
from tournaments.forms import DirectedClubField
from tournaments.models import Series, Tournament
from tournaments.tables import (
    PlayerSessionsTable,
    PlayerTournamentsTable,
    RatingTable,
    series_standings_table,
)


def _game(game: str) -> str:
    if game not in dict(games()):
        raise Http404(_("No such game."))
    return game


class LeaderboardFilter(forms.Form):
    min = forms.IntegerField(label=gettext_lazy("Minimum games"), min_value=0, required=False)
    season = forms.TypedChoiceField(
        label=gettext_lazy("Season"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args: Any, seasons: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        season = cast(forms.TypedChoiceField, self.fields["season"])
        season.choices = [("", _("All time")), *[(y, str(y)) for y in seasons]]


def _leaderboard(request: HttpRequest, game: str) -> dict[str, Any]:
    seasons = ratings.rating_seasons(game=game)
    form = LeaderboardFilter(request.GET or None, seasons=seasons)
    min_games = season = None
    if form.is_bound:
        form.is_valid()  # each valid field counts; a bad one falls back to its default
        min_games = form.cleaned_data.get("min")
        season = form.cleaned_data.get("season")
    # Everyone by default: a newcomer finds himself before his 32nd game; a minimum is
    # the reader's choice (the form offers the family's usual one).
    if min_games is None:
        min_games = 0
    rows = ratings.rating_leaderboard(game=game, min_games=min_games, season=season)
    return {
        "game": game,
        "game_label": dict(games())[game],
        "form": form,
        "rows": rows,
        "min_games": min_games,
        "season": season,
        "usual_min": ratings.default_min_games(game),
        "run": ratings.rating_status(game=game),
    }


def rating_index(request: HttpRequest) -> HttpResponse:
    rated = [
        {"game": g, "label": label, "run": ratings.rating_status(game=g)} for g, label in games()
    ]
    return render(request, "tournaments/rating_index.html", {"games": rated})


def rating_leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    context = _leaderboard(request, _game(game))
    table = RatingTable(context["rows"], prefix="r-")
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    context["table"] = table
    context["csv_query"] = request.GET.urlencode()
    context["evenings"] = ratings.rated_evenings(game=game, season=context["season"])
    return render(request, "tournaments/rating_leaderboard.html", context)


def rating_leaderboard_csv(request: HttpRequest, game: str) -> HttpResponse:
    context = _leaderboard(request, _game(game))
    name = f"ratings-{game}" + (f"-{context['season']}" if context["season"] else "")
    return csv_response(
        ratings.leaderboard_csv_rows(context["rows"]), filename=f"{name}.csv", request=request
    )


def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    profile = ratings.player_profile(player=player)
    # The register row a line was played as, when the person stands in several.
    one_row = () if profile["several_rows"] else ("row",)
    sessions = PlayerSessionsTable(profile["sessions"], prefix="s-", exclude=one_row)
    RequestConfig(request, paginate={"per_page": 25}).configure(sessions)
    tournaments = PlayerTournamentsTable(profile["tournaments"], prefix="t-", exclude=one_row)
    RequestConfig(request, paginate={"per_page": 25}).configure(tournaments)
    return render(
        request,
        "tournaments/player_page.html",
        {
            "player": player,
            # A director of the row's club may link it to another club's row of the
            # same person, or split a row of this person off (``clubs.views``).
            "may_merge": directs(request.user, player.club_id),
            "splittable": [
                r["player"] for r in profile["rows"] if directs(request.user, r["player"].club_id)
            ]
            if profile["several_rows"]
            else [],
            **profile,
            "sessions_table": sessions,
            "tournaments_table": tournaments,
        },
    )


# -------------------------------------------------------------------------------- series


class TournamentChoices(forms.ModelMultipleChoiceField):
    """Tournaments by id; an id no database column holds (``9`` * 30) is an invalid choice,
    not a query SQLite cannot run."""

    def clean(self, value: Any) -> Any:
        for pk in value if isinstance(value, list | tuple) else []:
            if not (isinstance(pk, str | int) and 0 < len(str(pk)) <= 18 and str(pk).isdigit()):
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": str(pk)[:20]},
                )
        return super().clean(value)


class SeriesForm(forms.Form):
    club = DirectedClubField()
    name = forms.CharField(label=gettext_lazy("Name"), max_length=160)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=games)
    points_table = forms.CharField(
        label=gettext_lazy("Points for 1st, 2nd, 3rd, ... place"),
        initial="25, 18, 15, 12, 10, 8, 6, 4, 2, 1",
        max_length=400,
    )
    min_tournaments = forms.IntegerField(
        label=gettext_lazy("Minimum number of tournaments to be ranked"),
        min_value=0,
        max_value=100,
        initial=1,
    )
    drop_worst = forms.BooleanField(
        label=gettext_lazy("Drop each player's worst result (a missed tournament counts 0)"),
        required=False,
    )
    tournaments = TournamentChoices(
        label=gettext_lazy("Tournaments"),
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, user: Any, series: Series | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(DirectedClubField, self.fields["club"]).limit_to(user)
        # The tournaments of the clubs the user directs, and those the series has.
        tournaments = cast(forms.ModelMultipleChoiceField, self.fields["tournaments"])
        chosen = owned_by_directed(Tournament.objects.all(), user)
        if series is not None:
            chosen = chosen | Tournament.objects.filter(series=series)
            self.fields["game"].disabled = True
            self.fields["club"].disabled = True  # a series stays its club's
            self.fields["club"].required = False
            cast(DirectedClubField, self.fields["club"]).queryset = Club.objects.filter(
                pk__in=[series.club_id]
            )
        tournaments.queryset = chosen.distinct().order_by("-created_at")

    def clean_points_table(self) -> tuple[int, ...]:
        try:
            return ratings.parse_points_table(self.cleaned_data["points_table"])
        except ratings.RatingError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        game = data.get("game")
        wrong = [t.name for t in data.get("tournaments") or [] if t.game != game]
        if game and wrong:
            self.add_error(
                "tournaments",
                _("Not a tournament of this game: %(names)s.") % {"names": ", ".join(wrong)},
            )
        return data


def series_index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/series_index.html",
        {"series_list": Series.objects.prefetch_related("tournaments")[:200]},
    )


@director_required
def series_new(request: HttpRequest) -> HttpResponse:
    form = SeriesForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        series = ratings.series_create(
            club=data["club"],
            name=data["name"],
            game=data["game"],
            points_table=data["points_table"],
            min_tournaments=data["min_tournaments"],
            drop_worst=data["drop_worst"],
            tournaments=list(data["tournaments"]),
            created_by=request.user,
        )
        return redirect("tournaments:series_detail", slug=series.slug)
    return render(request, "tournaments/series_form.html", {"form": form, "series": None})


@director_required
def series_edit(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    require_director_of(request.user, series.club_id)
    initial = {
        "club": series.club_id,
        "name": series.name,
        "game": series.game,
        "points_table": ", ".join(str(p) for p in series.points_table),
        "min_tournaments": series.min_tournaments,
        "drop_worst": series.drop_worst,
        "tournaments": list(series.tournaments.all()),
    }
    form = SeriesForm(request.POST or None, initial=initial, series=series, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        ratings.series_update(
            series=series,
            name=data["name"],
            points_table=data["points_table"],
            min_tournaments=data["min_tournaments"],
            drop_worst=data["drop_worst"],
            tournaments=list(data["tournaments"]),
        )
        return redirect("tournaments:series_detail", slug=series.slug)
    return render(request, "tournaments/series_form.html", {"form": form, "series": series})


def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    standings = ratings.series_table(series=series)
    table = series_standings_table(standings["rows"], standings["held"])
    RequestConfig(request, paginate=False).configure(table)
    return render(
        request,
        "tournaments/series_detail.html",
        {
            "series": series,
            "table": table,
            "can_direct": directs(request.user, series.club_id),
            **standings,
        },
    )
