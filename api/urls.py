"""``/api/v1/``: the read API's addresses (namespace ``api``)."""

from __future__ import annotations

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from api import views
from api.base import Conditional
from api.errors import not_found


class Schema(Conditional, SpectacularAPIView):
    pass


class Docs(Conditional, SpectacularRedocView):
    pass


app_name = "api"
urlpatterns = [
    path("v1/", views.Index.as_view(), name="index"),
    path("v1/schema/", Schema.as_view(), name="schema"),
    path("v1/docs/", Docs.as_view(url_name="api:schema"), name="docs"),
    path("v1/clubs/", views.ClubList.as_view(), name="clubs"),
    path("v1/clubs/<int:pk>/", views.ClubDetail.as_view(), name="club"),
    path("v1/players/", views.PlayerList.as_view(), name="players"),
    path("v1/players/<int:pk>/", views.PlayerDetail.as_view(), name="player"),
    path("v1/players/<int:pk>/ratings/", views.PlayerRatings.as_view(), name="player_ratings"),
    path("v1/tournaments/", views.TournamentList.as_view(), name="tournaments"),
    path("v1/tournaments/<slug:slug>/", views.TournamentDetail.as_view(), name="tournament"),
    path("v1/tournaments/<slug:slug>/rounds/", views.RoundList.as_view(), name="rounds"),
    path(
        "v1/tournaments/<slug:slug>/rounds/<int:number>/",
        views.RoundDetail.as_view(),
        name="round",
    ),
    path("v1/tournaments/<slug:slug>/standings/", views.Standings.as_view(), name="standings"),
    path("v1/tournaments/<slug:slug>/event/", views.EventFile.as_view(), name="event"),
    path("v1/sessions/<int:pk>/scoresheet/", views.Scoresheet.as_view(), name="scoresheet"),
    path("v1/leagues/", views.LeagueList.as_view(), name="leagues"),
    path("v1/leagues/<slug:slug>/", views.LeagueDetail.as_view(), name="league"),
    path("v1/series/", views.SeriesList.as_view(), name="series"),
    path("v1/series/<slug:slug>/", views.SeriesDetail.as_view(), name="series_detail"),
    path("v1/ratings/", views.RatingGames.as_view(), name="ratings"),
    path("v1/ratings/<slug:game>/", views.RatingLeaderboard.as_view(), name="rating_leaderboard"),
    re_path(r"^.*$", not_found, name="not_found"),
]
