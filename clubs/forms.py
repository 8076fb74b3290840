"""Form fields for choosing players, shared by the scoring and tournaments forms."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db.models import QuerySet
from django.forms.models import ModelChoiceIterator
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Membership, Player
from clubs.selectors import player_label, several_clubs, sorted_by_name


class _AlphabeticalChoices(ModelChoiceIterator):
    """The queryset's players in Polish alphabetical order (a database sorts bytewise)."""

    def __iter__(self) -> Iterator[Any]:
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        self.field.several = several_clubs()  # type: ignore[attr-defined]
        for player in sorted_by_name(self.queryset.select_related("club")):
            yield self.choice(player)


class PlayerChoiceField(forms.ModelChoiceField):
    """A select of players: alphabetical (Ł after L), each named with their club number,
    and the club too where more than one club keeps a register."""

    iterator = _AlphabeticalChoices
    several = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("empty_label", _("(choose a player)"))
        super().__init__(*args, **kwargs)

    def label_from_instance(self, obj: Player) -> str:
        return player_label(obj, several=self.several)


class RoleForm(forms.Form):
    """A role in one of the clubs the director directs, for an account by user name."""

    username = forms.CharField(label=_("User name"), max_length=150)
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), empty_label=None)
    role = forms.ChoiceField(label=_("Role"), choices=Membership.ROLES)

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs  # type: ignore[attr-defined]

    def clean_username(self) -> str:
        name = self.cleaned_data["username"].strip()
        validator = UnicodeUsernameValidator()
        try:
            validator(name)
        except forms.ValidationError:
            raise forms.ValidationError(
                _("A user name holds letters, digits and @ . + - _ only.")
            ) from None
        return name


def own_club_field(
    clubs: QuerySet[Club], *, label: Any = None, help_text: Any = ""
) -> forms.ModelChoiceField[Club]:
    """A choice of the club that owns what a form makes, among ``clubs`` (those the user
    directs, or scores for): preselected when there is one, else chosen (no default, so
    nobody files a table under another of his clubs by accident)."""
    only = list(clubs[:2])
    one = len(only) == 1
    return forms.ModelChoiceField(
        label=label or _("Club"),
        queryset=clubs,
        empty_label=None if one else _("(choose a club)"),
        initial=only[0].pk if one else None,
        help_text=help_text,
    )


class ApiTokenForm(forms.Form):
    """A new read-API token: a label that says where it is used."""

    label = forms.CharField(
        label=_("What is it for?"),
        max_length=80,
        help_text=_("For example: the club's website. Only you see it."),
    )
