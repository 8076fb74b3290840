"""The Kop and Baśka pad's form: what the scorer tapped, parsed into a deal's facts.

The form only parses; the rules are checked by the engine (``deals.evaluate``) and its
messages are put beside the fields.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engines import kop
from scoring.forms import EntryKeys, SharedFields

SEAT_CHOICES = [(1, "1"), (2, "2"), (3, "3"), (4, "4")]
SEATS = ("1", "2", "3", "4")
DOUBLING_MODES = [("count", _("count")), ("seats", _("seats in order"))]


def _parse_seat_list(raw: str) -> list[int]:
    seats = []
    for part in raw.replace(",", " ").split():
        if part.lstrip("0") not in SEATS:  # not int(): "9" * 5000 is past int()'s limit
            raise forms.ValidationError(_("Seats are 1 to 4, e.g. 2 1 4."))
        seats.append(int(part))
    return seats


class KopDealForm(EntryKeys):
    contract = forms.ChoiceField(label=_("Contract"))
    declarers = forms.TypedMultipleChoiceField(
        label=_("Declarers"), choices=SEAT_CHOICES, coerce=int, required=False
    )
    doubling_mode = forms.ChoiceField(choices=DOUBLING_MODES, initial="count", required=False)
    doublings = forms.IntegerField(label=_("Doublings"), min_value=0, required=False, initial=0)
    doubling_seats = forms.CharField(label=_("Seats that doubled, in order"), required=False)
    declarer_points = forms.IntegerField(label=_("Declarers' card points"), required=False)
    confirm = forms.BooleanField(label=_("Yes, this is what happened"), required=False)
    reason = forms.CharField(label=_("Reason for the correction"), required=False, max_length=500)
    # The order the declarers were tapped in (the pad's script fills it): in a wesele the
    # bidder is tapped first, which the R6 check (bidder may not double) needs.
    declarer_order = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, game: str, rules: kop.KopRules | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        # Only the contracts the session's profile allows (rules/kop.md §7.1 ``contracts``):
        # this form's own copy of the one field it changes (the others are shared).
        contract = cast(forms.ChoiceField, copy.deepcopy(self.fields["contract"]))
        contract.choices = [(c.name, c.name) for c in kop.contracts_for(game, rules)]
        self.fields["contract"] = contract

    def clean_doubling_seats(self) -> list[int]:
        return _parse_seat_list(self.cleaned_data.get("doubling_seats") or "")

    def clean_declarer_points(self) -> int:
        points: int | None = self.cleaned_data.get("declarer_points")
        if points is None:
            raise forms.ValidationError(_("Type the declarers' card points (0 to 104)."))
        return points

    def facts(self) -> dict[str, Any]:
        data = self.cleaned_data
        declarers = list(data.get("declarers") or [])
        order = (data.get("declarer_order") or "").split()
        tapped = [int(x) for x in order if x in SEATS]
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

    def deal_facts(self) -> dict[str, Any] | None:
        return self.facts() if self.is_valid() else None

    def deal_extra(self) -> dict[str, Any]:
        return {}

    def field_errors(self, name: str) -> list[str]:
        return [str(m) for m in self.errors.get(name, [])] if self.is_bound else []

    def add_engine_errors(self, errors: Mapping[str, list[str]]) -> None:
        for field, messages in errors.items():
            target = field if field in self.fields else None
            for message in messages:
                self.add_error(target, message)


KopDealForm.base_fields = SharedFields(KopDealForm.base_fields)
