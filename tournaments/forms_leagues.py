"""The forms of a league's director pages (``tournaments.views.leagues``): parse and
check the shape of what was sent; the rules are the services' (``services.leagues``)."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from clubs.roles import directed_clubs
from tournaments import ratings
from tournaments.models import League, Tournament
from tournaments.services import leagues

# A licence list upload larger than this is refused before it is read.
LICENCE_FILE_MAX_BYTES = 2_000_000


class LeagueForm(forms.Form):
    organiser = forms.ModelChoiceField(
        label=_("Organiser"), queryset=Club.objects.none(), empty_label=None
    )
    name = forms.CharField(label=_("Name"), max_length=160)
    season = forms.CharField(label=_("Season"), max_length=20, initial="2026")
    game = forms.ChoiceField(label=_("Game"), choices=leagues.league_game_choices)
    counting = forms.ChoiceField(label=_("Counting"), choices=League.COUNTINGS)
    points_table = forms.CharField(
        label=_("Points for 1st, 2nd, 3rd, ... place (counting by place)"),
        initial="25, 18, 15, 12, 10, 8, 6, 4, 2, 1",
        max_length=400,
        required=False,
    )
    licences_required = forms.BooleanField(
        label=_("Licences required (results count from the day a licence was granted)"),
        required=False,
    )
    team_size_min = forms.IntegerField(
        label=_("Fewest regular players of a team"), min_value=1, max_value=20, initial=4
    )
    team_size_max = forms.IntegerField(
        label=_("Most regular players of a team"), min_value=1, max_value=20, initial=5
    )
    team_counting = forms.IntegerField(
        label=_("Best results that count for a team"), min_value=1, max_value=20, initial=4
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        organiser = cast(forms.ModelChoiceField, self.fields["organiser"])
        organiser.queryset = directed_clubs(user).order_by("-kind", "name")

    def clean_points_table(self) -> tuple[int, ...]:
        text = self.cleaned_data.get("points_table") or ""
        if self.data.get("counting") != League.PLACEMENT:
            return ()
        try:
            return ratings.parse_points_table(text)
        except ratings.RatingError as exc:
            raise forms.ValidationError(str(exc)) from exc


class TournamentChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        day = obj.date.isoformat() if obj.date else ""
        club = obj.club.name if obj.club else ""
        return " · ".join(x for x in (obj.name, club, day) if x)


class EventAddForm(forms.Form):
    tournament = TournamentChoice(label=_("Tournament"), queryset=Tournament.objects.none())

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.ModelChoiceField, self.fields["tournament"])
        # Any tournament of the organiser's clubs: the service says why one is refused.
        field.queryset = (
            Tournament.objects.filter(
                Q(club=league.organiser_id) | Q(club__association=league.organiser_id)
            )
            .select_related("club")
            .order_by("-date", "-created_at")
        )


class LicenceUploadForm(forms.Form):
    file = forms.FileField(label=_("Licence list (CSV: licence number, name, date)"))

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > LICENCE_FILE_MAX_BYTES:
            raise forms.ValidationError(_("The file is too large (at most 2 MB)."))
        return leagues.read_upload(upload.read())


class LicenceConfirmForm(forms.Form):
    text = forms.CharField(widget=forms.HiddenInput, max_length=LICENCE_FILE_MAX_BYTES)


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=80)


def league_players(league: League) -> QuerySet[Player]:
    """The players a league's rosters and line-ups choose from: the registers of its
    organiser and of the organiser's member clubs."""
    return (
        Player.objects.filter(
            Q(club=league.organiser_id) | Q(club__association=league.organiser_id)
        )
        .select_related("club")
        .order_by("name", "pk")
    )


class PlayerChoices(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        extra = ", ".join(x for x in (obj.club.name, obj.federation_id) if x)
        return f"{obj.name} ({extra})"


class PlayersForm(forms.Form):
    """A roster or a line-up: the players chosen."""

    players = PlayerChoices(
        label=_("Players"),
        queryset=Player.objects.none(),
        widget=forms.SelectMultiple(attrs={"size": 12}),
    )

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.ModelMultipleChoiceField, self.fields["players"])
        field.queryset = league_players(league)
