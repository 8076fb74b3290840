"""Ratings, player pages and series; included into the ``tournaments`` namespace."""

from django.urls import path

from tournaments import person_views
from tournaments import rating_views as views

urlpatterns = [
    path("ratings/", views.rating_index, name="ratings"),
    path("ratings/<slug:game>.csv", views.rating_leaderboard_csv, name="rating_leaderboard_csv"),
    path("ratings/<slug:game>/", views.rating_leaderboard, name="rating_leaderboard"),
    path("players/<int:pk>/", views.player_page, name="player_page"),
    path("players/<int:pk>/edit/", person_views.player_edit, name="player_edit"),
    path(
        "players/<int:pk>/same-person/",
        person_views.player_merge_search,
        name="player_merge_search",
    ),
    path(
        "players/<int:pk>/same-person/<int:other>/",
        person_views.player_merge_confirm,
        name="player_merge_confirm",
    ),
    path("players/<int:pk>/split/", person_views.player_split_view, name="player_split"),
    path("series/", views.series_index, name="series_index"),
    path("series/new/", views.series_new, name="series_new"),
    path("series/<slug:slug>/", views.series_detail, name="series_detail"),
    path("series/<slug:slug>/edit/", views.series_edit, name="series_edit"),
]
