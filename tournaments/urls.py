from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("players/", views.player_index, name="players"),
    path("players/add/", views.player_add, name="player_add"),
]
