from django.urls import include, path

from tournaments.views import actions, competition, events, mend, pages, standings

app_name = "tournaments"

urlpatterns = [
    path("players/", pages.player_index, name="players"),
    path("words/", pages.words, name="words"),
    path("players/add/", actions.player_add, name="player_add"),
    path("tournaments/", pages.tournament_index, name="index"),
    path("tournaments/new/", actions.tournament_new, name="new"),
    path("tournaments/import/", events.event_upload, name="event_import"),
    path("tournaments/<slug:slug>/", pages.tournament_detail, name="detail"),
    path("tournaments/<slug:slug>/edit/", mend.tournament_edit, name="edit"),
    path("tournaments/<slug:slug>/competition/", competition.competition, name="competition"),
    path("tournaments/<slug:slug>/entries/", actions.entry_add, name="entry_add"),
    path("tournaments/<slug:slug>/entries/paste/", actions.entries_paste, name="entries_paste"),
    path(
        "tournaments/<slug:slug>/entries/check-in/",
        actions.entries_check_in_all,
        name="entries_check_in_all",
    ),
    path(
        "tournaments/<slug:slug>/entries/<int:number>/", actions.entry_update, name="entry_update"
    ),
    path(
        "tournaments/<slug:slug>/entries/<int:number>/withdrawal/",
        mend.entry_withdrawal,
        name="entry_withdrawal",
    ),
    path("tournaments/<slug:slug>/rounds/next/", actions.round_next, name="round_next"),
    path("tournaments/<slug:slug>/rounds/import/", actions.round_import, name="round_import"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", pages.round_detail, name="round"),
    path("tournaments/<slug:slug>/rounds/<int:number>/mend/", mend.round_mend, name="round_mend"),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/walkouts/",
        competition.round_situations,
        name="round_situations",
    ),
    path("tournaments/<slug:slug>/board/", pages.progress_board, name="board"),
    path("tournaments/<slug:slug>/find/", pages.find_table, name="find"),
    path("tournaments/<slug:slug>/display/", pages.hall_display, name="display"),
    path(
        "tournaments/<slug:slug>/tables/<int:table_id>/accept/",
        actions.table_accept,
        name="table_accept",
    ),
    path("tournaments/<slug:slug>/standings/", standings.standings, name="standings"),
    path("tournaments/<slug:slug>/standings.csv", standings.standings_csv, name="standings_csv"),
    path("tournaments/<slug:slug>/event.json", events.event_json, name="event_json"),
    path(
        "tournaments/<slug:slug>/players/<int:number>/", pages.player_results, name="player_results"
    ),
    path("tournaments/<slug:slug>/meetings/", pages.meetings, name="meetings"),
    path("", include("tournaments.rating_urls")),
    path("", include("tournaments.league_urls")),
]
