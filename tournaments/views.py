from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.forms import PlayerForm
from tournaments.roles import director_required
from tournaments.selectors import player_list
from tournaments.services import player_create


def player_index(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/players.html", {"players": player_list()})


@director_required
def player_add(request: HttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = player_create(
            club=form.cleaned_data["club"],
            name=form.cleaned_data["name"],
            federation_id=form.cleaned_data["federation_id"],
        )
        messages.success(
            request,
            _("%(name)s registered as number %(number)s.")
            % {
                "name": player.name,
                "number": player.number,
            },
        )
        return redirect("tournaments:players")
    return render(request, "tournaments/player_add.html", {"form": form})
