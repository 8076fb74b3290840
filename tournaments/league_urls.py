"""Leagues; included into the ``tournaments`` namespace."""

from django.urls import path

from tournaments.views import leagues as views

urlpatterns = [
    path("leagues/", views.league_index, name="league_index"),
    path("leagues/new/", views.league_new, name="league_new"),
    path("leagues/<slug:slug>/", views.league_detail, name="league_detail"),
    path("leagues/<slug:slug>.csv", views.league_csv, name="league_csv"),
    path("leagues/<slug:slug>/manage/", views.league_manage, name="league_manage"),
    path("leagues/<slug:slug>/licences/", views.league_licences, name="league_licences"),
    path("leagues/<slug:slug>/teams/<int:pk>/", views.league_roster, name="league_roster"),
    path(
        "leagues/<slug:slug>/events/<int:pk>/lineups/",
        views.league_lineups,
        name="league_lineups",
    ),
    path("leagues/<slug:slug>/recompute/", views.league_recompute, name="league_recompute"),
]
