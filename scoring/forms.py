"""Forms shared by every game's pages.

Each game's pad has its form in its package (``scoring/games/<game>/forms.py``); every
one carries ``EntryKeys``: the deal number the form will create and a key made when the
form was rendered, which make a save idempotent (``scoring.services.deal_record``). Here
too: the new-table form, the reason a director gives, the scoresheet upload.
"""

from __future__ import annotations

import re
import secrets
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.forms import PlayerChoiceField, own_club_field
from clubs.models import Player
from clubs.roles import directed_clubs, scored_clubs
from scoring.games.interface import Slot
from scoring.models import RuleProfile
from scoring.selectors import default_profile, usable_profiles

SUBMISSION_KEY = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class EntryKeys(forms.Form):
    """The slot a pad's form expects to create and its submission key (both hidden)."""

    expected_number = forms.IntegerField(
        required=False, min_value=1, max_value=100_000, widget=forms.HiddenInput
    )
    submission_key = forms.RegexField(
        regex=SUBMISSION_KEY, required=False, widget=forms.HiddenInput
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.warnings: list[str] = []  # what the scorer must confirm (``NeedsConfirmation``)

    @staticmethod
    def posted_key(data: Any) -> str:
        """The submission key of posted data, before the form is made (the save's locked
        read looks up what it stored): "" unless the form's own check would accept it."""
        key = str(data.get("submission_key", "")).strip()
        return key if SUBMISSION_KEY.match(key) else ""

    def entry_keys(self) -> tuple[Slot | None, str]:
        """(expected slot or None, submission key or "") from a valid form; the slot's
        rubber is the form's ``rubber`` where the game has rubbers (0 otherwise)."""
        data = self.cleaned_data
        number = data.get("expected_number")
        rubber = data.get("rubber") or 0
        return (Slot(rubber, number) if number else None), data.get("submission_key") or ""

    def reason_given(self) -> str:
        """The reason a correction gives ("" without one: the write path asks for it)."""
        return str(self.cleaned_data.get("reason") or "")

    def confirmed(self) -> bool:
        """Whether the scorer confirmed the deal's warnings."""
        return bool(self.cleaned_data.get("confirm"))


class SharedFields(dict[str, forms.Field]):
    """A form's declared fields that its instances share instead of copying each. A form
    deep-copies its fields (with their widgets and choices) so that one instance may change
    them; the pads' forms change at most one (``KopDealForm``'s contracts follow the
    session's rules: it copies that one itself), and copying all of them cost more than the
    rest of the form's work on every save."""

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, forms.Field]:
        return dict(self)


def new_submission_key() -> str:
    return secrets.token_urlsafe(24)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class SessionForm(forms.Form):
    """A new table: its club (one the user scores for: its directors manage the table,
    its scorers may be given it, its register takes the newcomers), a rule profile that
    club may use, and four players from any club's register, or newcomers by name."""

    title = forms.CharField(label=_("Title"), max_length=160, required=False)
    profile: forms.ModelChoiceField[RuleProfile] = forms.ModelChoiceField(
        label=_("Rule profile"), queryset=None, empty_label=None
    )
    planned_deals = forms.IntegerField(
        label=_("Planned deals"), min_value=1, max_value=400, required=False, initial=32
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        profiles = cast(forms.ModelChoiceField, self.fields["profile"])
        profiles.queryset = usable_profiles(user, for_tables=True)
        self.fields["profile"].initial = default_profile()
        self.fields["club"] = own_club_field(
            scored_clubs(user),
            help_text=_("Its directors manage the table; newcomers join its register."),
        )
        players = Player.objects.select_related("club")
        # Each seat: a registered player of any club (a guest too), or a newcomer typed in
        # by name (a guest at a club evening), registered in the table's club.
        fields = dict(self.fields)
        self.fields.clear()
        for name in ("title", "club", "profile"):
            self.fields[name] = fields.pop(name)
        for i in range(1, 5):
            label = _("Seat 1 (deals first)") if i == 1 else _("Seat %(n)s") % {"n": i}
            self.fields[f"seat_{i}"] = PlayerChoiceField(
                label=label, queryset=players, required=False, empty_label=_("(choose a player)")
            )
            self.fields[f"new_{i}"] = forms.CharField(
                label=_("or a newcomer's name"), max_length=120, required=False
            )
        self.fields.update(fields)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for i in range(1, 5):
            if not data.get(f"seat_{i}") and not (data.get(f"new_{i}") or "").strip():
                self.add_error(f"seat_{i}", _("Choose a player, or type a newcomer's name."))
        profile, club = data.get("profile"), data.get("club")
        if profile and club and profile.club_id not in (None, club.pk):
            self.add_error("profile", _("This rule profile is another club's."))
        chosen = [p for i in range(1, 5) if (p := data.get(f"seat_{i}")) is not None]
        if len({p.pk for p in chosen}) != len(chosen):
            raise forms.ValidationError(_("Choose four different players."))
        return data

    def newcomers(self) -> dict[int, str]:
        """Seat -> name of each newcomer (a seat with a typed name and no player chosen)."""
        return {
            i: " ".join(self.cleaned_data[f"new_{i}"].split())
            for i in range(1, 5)
            if not self.cleaned_data.get(f"seat_{i}") and self.cleaned_data.get(f"new_{i}")
        }

    def players(self, registered: dict[int, Any] | None = None) -> list[Any]:
        registered = registered or {}
        return [self.cleaned_data.get(f"seat_{i}") or registered[i] for i in range(1, 5)]


class SheetUploadForm(forms.Form):
    """A scoresheet to import as a table of one of the clubs the user directs."""

    sheet = forms.FileField(label=_("Scoresheet (JSON)"))
    title = forms.CharField(label=_("Title"), max_length=160, required=False)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"] = own_club_field(
            directed_clubs(user), help_text=_("Players not in its register join it.")
        )
