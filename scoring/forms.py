"""Forms that turn what the scorer tapped into the facts of a deal.

The form only parses; the rules are checked by the engine (through
``services.kop_deal_evaluate``) and its messages are put beside the fields.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engines import kop

SEAT_CHOICES = [(1, "1"), (2, "2"), (3, "3"), (4, "4")]
DOUBLING_MODES = [("count", _("count")), ("seats", _("seats in order"))]


def _parse_seat_list(raw: str) -> list[int]:
    seats = []
    for part in raw.replace(",", " ").split():
        if not part.isdigit() or int(part) not in (1, 2, 3, 4):
            raise forms.ValidationError(_("Seats are 1 to 4, e.g. 2 1 4."))
        seats.append(int(part))
    return seats


class KopDealForm(forms.Form):
    contract = forms.ChoiceField(label=_("Contract"))
    declarers = forms.TypedMultipleChoiceField(
        label=_("Declarers"), choices=SEAT_CHOICES, coerce=int, required=False
    )
    doubling_mode = forms.ChoiceField(choices=DOUBLING_MODES, initial="count", required=False)
    doublings = forms.IntegerField(label=_("Doublings"), min_value=0, required=False, initial=0)
    doubling_seats = forms.CharField(label=_("Seats that doubled, in order"), required=False)
    declarer_points = forms.IntegerField(label=_("Declarers' card points"), required=False)
    confirm = forms.BooleanField(label=_("Yes, this is what happened"), required=False)
    reason = forms.CharField(label=_("Reason for the correction"), required=False)
    # The order the declarers were tapped in (the pad's script fills it): in a wesele the
    # bidder is tapped first, which the R6 check (bidder may not double) needs.
    declarer_order = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, game: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["contract"].choices = [(c.name, c.name) for c in kop.contracts_for(game)]
        self.warnings: list[str] = []

    def clean_doubling_seats(self) -> list[int]:
        return _parse_seat_list(self.cleaned_data.get("doubling_seats") or "")

    def clean_declarer_points(self) -> int | None:
        points = self.cleaned_data.get("declarer_points")
        if points is None:
            raise forms.ValidationError(_("Type the declarers' card points (0 to 104)."))
        return points

    def facts(self) -> dict[str, Any]:
        data = self.cleaned_data
        declarers = list(data.get("declarers") or [])
        tapped = [int(x) for x in (data.get("declarer_order") or "").split() if x.isdigit()]
        if sorted(tapped) == sorted(declarers):
            declarers = tapped
        facts: dict[str, Any] = {
            "contract": data["contract"],
            "declarers": declarers,
            "declarer_points": data["declarer_points"],
        }
        if data.get("doubling_mode") == "seats":
            facts["doubling_seats"] = data.get("doubling_seats") or []
        else:
            facts["doublings"] = data.get("doublings") or 0
        return facts

    def add_engine_errors(self, errors: dict[str, list[str]]) -> None:
        field_of = {"doubling_seats": "doubling_seats", "doublings": "doublings"}
        for field, messages in errors.items():
            target = field_of.get(field, field)
            if target not in self.fields:
                target = None  # type: ignore[assignment]
            for message in messages:
                self.add_error(target, message)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class SessionForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=160, required=False)
    profile = forms.ModelChoiceField(label=_("Rule profile"), queryset=None, empty_label=None)
    seat_1 = forms.ModelChoiceField(label=_("Seat 1 (deals first)"), queryset=None)
    seat_2 = forms.ModelChoiceField(label=_("Seat 2"), queryset=None)
    seat_3 = forms.ModelChoiceField(label=_("Seat 3"), queryset=None)
    seat_4 = forms.ModelChoiceField(label=_("Seat 4"), queryset=None)
    planned_deals = forms.IntegerField(
        label=_("Planned deals"), min_value=1, max_value=400, required=False, initial=32
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from clubs.models import Player
        from scoring.models import RuleProfile

        self.fields["profile"].queryset = RuleProfile.objects.all()
        players = Player.objects.select_related("club").order_by("name")
        for i in range(1, 5):
            self.fields[f"seat_{i}"].queryset = players

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = [data.get(f"seat_{i}") for i in range(1, 5)]
        if all(chosen) and len({p.pk for p in chosen if p}) != 4:
            raise forms.ValidationError(_("Choose four different players."))
        return data

    def players(self) -> list[Any]:
        return [self.cleaned_data[f"seat_{i}"] for i in range(1, 5)]


class SheetUploadForm(forms.Form):
    sheet = forms.FileField(label=_("Scoresheet (JSON)"))
    title = forms.CharField(label=_("Title"), max_length=160, required=False)


class ProfileForm(forms.Form):
    """A custom rule profile: options and tournament settings as JSON, checked by the engine."""

    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(
        label=_("Game"), choices=[("kop", "Kop"), ("baska", "Baśka"), ("vint", "Vint")]
    )
    options = forms.JSONField(label=_("Rule options (JSON)"), initial=dict, required=False)
    tournament = forms.JSONField(
        label=_("Tournament settings (JSON)"), initial=dict, required=False
    )

    def clean(self) -> dict[str, Any]:
        from scoring.engines.errors import RuleError
        from scoring.engines.rules import validate_profile_options, validate_tournament

        data = super().clean() or {}
        from scoring.engines.rules import KOSCIAN_BIG_POINTS, TIE_BREAKS

        options = data.get("options") or {}
        tournament = data.get("tournament") or {
            "big_points": list(KOSCIAN_BIG_POINTS),
            "tie_breaks": list(TIE_BREAKS),
        }
        if not isinstance(options, dict):
            self.add_error("options", _("Write the options as a JSON object."))
        elif data.get("game"):
            try:
                validate_profile_options(data["game"], options)
            except RuleError as exc:
                self.add_error("options", exc.message)
        if not isinstance(tournament, dict):
            self.add_error("tournament", _("Write the settings as a JSON object."))
        else:
            try:
                validate_tournament(tournament)
            except RuleError as exc:
                self.add_error("tournament", exc.message)
        data["options"], data["tournament"] = options, tournament
        return data
