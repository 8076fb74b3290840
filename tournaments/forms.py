from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Player
from tournaments.selectors import players_similar_to


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
