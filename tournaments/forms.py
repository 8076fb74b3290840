from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.forms import PlayerChoiceField
from clubs.models import Club, Player
from clubs.selectors import players_similar_to
from scoring.models import RuleProfile
from scoring.selectors import default_profile

if TYPE_CHECKING:
    from scoring.models import RuleProfile
from tournaments.seating.generate import MAX_SEED


class PlayerForm(forms.Form):
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.all(), empty_label=None)
    name = forms.CharField(label=_("Name"), max_length=120)
    federation_id = forms.CharField(label=_("Federation id"), max_length=40, required=False)
    different_person = forms.BooleanField(
        label=_("This is a different person: add them anyway"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.similar: list[Player] = []

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Type the player's name."))
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        club, name = data.get("club"), data.get("name")
        if club and name and not data.get("different_person"):
            self.similar = players_similar_to(club=club, name=name)
            if self.similar:
                raise forms.ValidationError(
                    _("Same person? A player with a similar name is already registered."),
                    code="similar",
                )
        return data


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    profile: forms.ModelChoiceField[RuleProfile] = forms.ModelChoiceField(
        label=_("Rule profile"), queryset=None, empty_label=None
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30, initial=5)
    deals_per_round = forms.IntegerField(
        label=_("Deals per round (Kop, Baśka)"), min_value=1, max_value=200, initial=32
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes per round (Vint, optional)"), min_value=10, max_value=600, required=False
    )
    seed = forms.IntegerField(
        label=_("Seating seed (optional)"), min_value=0, max_value=MAX_SEED, required=False
    )
    hide_standings = forms.BooleanField(
        label=_("Hide standings until the last round is finished"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["profile"]).queryset = RuleProfile.objects.all()
        self.fields["profile"].initial = default_profile()


class EntryForm(forms.Form):
    player = PlayerChoiceField(
        label=_("Registered player"), queryset=Player.objects.none(), required=False
    )
    new_name = forms.CharField(label=_("or a new player's name"), max_length=120, required=False)
    pair = forms.CharField(label=_("Pair"), max_length=80, required=False)
    team = forms.CharField(label=_("Team"), max_length=80, required=False)

    def __init__(self, *args: Any, tournament: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        taken = tournament.entries.values_list("player_id", flat=True)
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = Player.objects.exclude(
            pk__in=taken
        ).select_related("club")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not (data.get("new_name") or "").strip():
            raise forms.ValidationError(_("Choose a registered player or type a new name."))
        return data


class SeatingImportForm(forms.Form):
    csv_file = forms.FileField(label=_("Seating table (CSV: round, table, seat, player number)"))


class AcceptForm(forms.Form):
    """Who accepts comes from the phone's seat or the director's account, never from the
    form; a director gives a reason."""

    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class MendReasonField(forms.CharField):
    """Why the director mends: it goes into the tournament's history."""

    def __init__(self, *, required: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Reason (kept in the tournament's history)"))
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 2}))
        super().__init__(max_length=500, required=required, **kwargs)
        self.error_messages["required"] = _(
            "Say why: the reason goes into the tournament's history."
        )


class TournamentEditForm(forms.Form):
    """What a director may change after creation (the service says what is refused)."""

    name = forms.CharField(label=_("Tournament name"), max_length=160)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30)
    deals_per_round = forms.IntegerField(
        label=_("Deals per round (Kop, Baśka)"), min_value=1, max_value=200
    )
    hide_standings = forms.BooleanField(
        label=_("Hide standings until the last round is finished"), required=False
    )
    profile: forms.ModelChoiceField[RuleProfile] = forms.ModelChoiceField(
        label=_("Rule profile"), queryset=None, empty_label=None
    )
    recompute = forms.BooleanField(
        label=_(
            "Deals are already stored: I confirm that the standings are recomputed with the new rule profile."  # noqa: E501
        ),
        required=False,
    )
    reason = MendReasonField(required=False)

    def __init__(self, *args: Any, tournament: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "name": tournament.name,
                "rounds": tournament.rounds_planned,
                "deals_per_round": tournament.deals_per_round,
                "hide_standings": tournament.hide_standings,
                "profile": tournament.profile_version.profile_id,
            },
        )
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["profile"]).queryset = RuleProfile.objects.filter(
            game=tournament.game
        )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Type the tournament's name."))
        return name


class WithdrawalForm(forms.Form):
    """Withdraw or reinstate a player (``action`` says which the director confirmed)."""

    action = forms.ChoiceField(
        choices=[("withdraw", "withdraw"), ("reinstate", "reinstate")], widget=forms.HiddenInput
    )
    reason = MendReasonField()


def _seated_choices(seated: list[tuple[int, str, int]]) -> list[tuple[str, str]]:
    return [("", gettext("(choose a player)"))] + [
        (
            str(number),
            gettext("%(name)s (no. %(n)s), table %(table)s")
            % {"name": name, "n": number, "table": table},
        )
        for number, name, table in seated
    ]


class ReseatForm(forms.Form):
    reason = MendReasonField()


class SwapForm(forms.Form):
    """Two seated players of the round (start numbers) change tables."""

    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("changes tables with"), coerce=int)
    reason = MendReasonField()

    def __init__(self, *args: Any, seated: list[tuple[int, str, int]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = _seated_choices(seated)
        cast(forms.TypedChoiceField, self.fields["first"]).choices = choices
        cast(forms.TypedChoiceField, self.fields["second"]).choices = choices


class SubstituteForm(forms.Form):
    """A seated no-show (start number) and who plays instead: a player of the register
    (registered here or not) or a new name."""

    absent = forms.TypedChoiceField(label=_("Missing player"), coerce=int)
    player = PlayerChoiceField(
        label=_("plays instead: a registered player"),
        queryset=Player.objects.none(),
        required=False,
    )
    new_name = forms.CharField(label=_("or a new player's name"), max_length=120, required=False)
    reason = MendReasonField()

    def __init__(
        self, *args: Any, seated: list[tuple[int, str, int]], seated_players: Any, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.TypedChoiceField, self.fields["absent"]).choices = _seated_choices(seated)
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = Player.objects.exclude(
            pk__in=seated_players
        ).select_related("club")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not (data.get("new_name") or "").strip():
            raise forms.ValidationError(_("Choose a registered player or type a new name."))
        if data.get("player") and (data.get("new_name") or "").strip():
            raise forms.ValidationError(
                _("Choose a registered player or type a new name, not both.")
            )
        return data


class EventUploadForm(forms.Form):
    """An event file (``formats/event-json.md``) to import: its first step uploads it."""

    event_file = forms.FileField(label=_("Event file (JSON)"))
    club = forms.ModelChoiceField(
        label=_("Match players in the register of"),
        queryset=Club.objects.order_by("name"),
        required=False,
    )


class EventConfirmForm(forms.Form):
    """The second step: the file's text, kept in the page the director confirms."""

    event_text = forms.CharField(widget=forms.Textarea(attrs={"hidden": True}), strip=False)
    club = forms.ModelChoiceField(
        queryset=Club.objects.order_by("name"), required=False, widget=forms.HiddenInput
    )
