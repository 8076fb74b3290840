from django.urls import include, path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("players/", views.player_index, name="players"),
    path("players/add/", views.player_add, name="player_add"),
    path("tournaments/", views.tournament_index, name="index"),
    path("tournaments/new/", views.tournament_new, name="new"),
    path("tournaments/<slug:slug>/", views.tournament_detail, name="detail"),
    path("tournaments/<slug:slug>/entries/", views.entry_add, name="entry_add"),
    path("tournaments/<slug:slug>/entries/paste/", views.entries_paste, name="entries_paste"),
    path(
        "tournaments/<slug:slug>/entries/check-in/",
        views.entries_check_in_all,
        name="entries_check_in_all",
    ),
    path("tournaments/<slug:slug>/entries/<int:number>/", views.entry_update, name="entry_update"),
    path("tournaments/<slug:slug>/rounds/next/", views.round_next, name="round_next"),
    path("tournaments/<slug:slug>/rounds/import/", views.round_import, name="round_import"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    path("tournaments/<slug:slug>/board/", views.progress_board, name="board"),
    path("tournaments/<slug:slug>/find/", views.find_table, name="find"),
    path("tournaments/<slug:slug>/display/", views.hall_display, name="display"),
    path(
        "tournaments/<slug:slug>/tables/<int:table_id>/accept/",
        views.table_accept,
        name="table_accept",
    ),
    path("tournaments/<slug:slug>/standings/", views.standings, name="standings"),
    path("tournaments/<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path(
        "tournaments/<slug:slug>/players/<int:number>/", views.player_results, name="player_results"
    ),
    path("tournaments/<slug:slug>/meetings/", views.meetings, name="meetings"),
    path("", include("tournaments.rating_urls")),
]
