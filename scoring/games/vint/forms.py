"""The Vint pad's form: what the scorer tapped, parsed into a deal's facts.

The form asks for what the chosen contract needs; facts are built only from the fields the
contract uses, so a value left in a hidden field (honours after switching to grand) does
not count. The rules are checked by the engine (``deals.deal_check``) and its messages are
put beside the part of the pad they concern.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engines import vint
from scoring.forms import EntryKeys, SharedFields

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

SUITS = ("S", "C", "D", "H")
VINT_SEAT_CHOICES = [(s, s) for s in vint.SEATS]
OPTIONAL_SEAT = [("", "—"), *VINT_SEAT_CHOICES]
CONTRACT_CHOICES = [
    *[(f"{level}{d}", f"{level}{d}") for level in range(4, 8) for d in vint.DENOMINATIONS],
    ("pass", "pass"),
]
# Where the Vint pad shows a problem: the engine's field names, grouped by the part of the pad.
SLOTS = {
    "contract": "contract",
    "declarer": "declarer",
    "doubling": "doubling",
    "declarer_tricks": "tricks",
    "ns_tricks": "tricks",
    "tricks": "tricks",
    "honours": "honours",
    "honours_side": "honours",
    "honours_count": "honours",
    "grand_aces": "grand_aces",
    "grand_aces_side": "grand_aces",
    "grand_aces_count": "grand_aces",
    "aces_in_hand": "aces_in_hand",
    "hand_seat": "aces_in_hand",
    "hand_count": "aces_in_hand",
    "sequences": "sequences",
    "ace_dumps": "ace_dumps",
    "first_dealer": "first_dealer",
    "reason": "reason",
}


def contract_kind(contract: str | None) -> str:
    """ "suit", "grand", "misere", "pass", or "" when nothing is chosen."""
    if not contract:
        return ""
    if contract == "pass":
        return "pass"
    return {"G": "grand", "M": "misere"}.get(contract[-1], "suit")


class VintDealForm(EntryKeys):
    rubber = forms.IntegerField(required=False, widget=forms.HiddenInput)
    first_dealer = forms.ChoiceField(
        label=_("First dealer"), choices=VINT_SEAT_CHOICES, required=False
    )
    contract = forms.ChoiceField(label=_("Contract"), choices=CONTRACT_CHOICES, required=False)
    declarer = forms.ChoiceField(label=_("Declarer"), choices=VINT_SEAT_CHOICES, required=False)
    doubling = forms.TypedChoiceField(
        label=_("Doubling"), choices=[(0, "0"), (1, "1"), (2, "2")], coerce=int, required=False
    )
    declarer_tricks = forms.IntegerField(label=_("Declaring side's tricks"), required=False)
    ns_tricks = forms.IntegerField(label=_("NS tricks"), required=False)
    honours_side = forms.ChoiceField(choices=[("NS", "NS"), ("EW", "EW")], required=False)
    honours_count = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(5, 10)], coerce=int, required=False
    )
    grand_aces_side = forms.ChoiceField(
        choices=[("", "2-2"), ("NS", "NS"), ("EW", "EW")], required=False
    )
    grand_aces_count = forms.TypedChoiceField(
        choices=[(3, "3"), (4, "4")], coerce=int, required=False
    )
    hand_seat = forms.ChoiceField(choices=OPTIONAL_SEAT, required=False)
    hand_count = forms.TypedChoiceField(choices=[(3, "3"), (4, "4")], coerce=int, required=False)
    reason = forms.CharField(label=_("Reason for the correction"), required=False, max_length=500)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slot_errors: dict[str, list[str]] = {}
        self._facts: dict[str, Any] = {}
        self._complete: bool | None = None

    # -------------------------------------------------------------- parsing

    def _need(self, slot: str, message: StrOrPromise) -> None:
        messages = self.slot_errors.setdefault(slot, [])
        if str(message) not in messages:
            messages.append(str(message))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        contract = data.get("contract") or ""
        kind = contract_kind(contract)
        if not kind:
            self._need("contract", _("Choose a contract, or all pass."))
            return data
        facts: dict[str, Any] = {"contract": contract}
        if kind == "pass":
            ns = data.get("ns_tricks")
            if ns is not None:
                facts["tricks"] = {"NS": ns, "EW": 13 - ns}
            elif "ns_tricks" not in self.errors:  # else the field's own error is shown
                self._need("tricks", _("Set the tricks NS took (EW took the rest)."))
        else:
            if not data.get("declarer"):
                self._need("declarer", _("Tap the declarer's seat."))
            facts["declarer"] = data.get("declarer") or None
            facts["doubling"] = data.get("doubling") or 0
            tricks = data.get("declarer_tricks")
            if tricks is None and "declarer_tricks" not in self.errors:
                self._need("tricks", _("Set the tricks the declaring side took."))
            facts["declarer_tricks"] = tricks
        if kind == "suit":
            side, count = data.get("honours_side"), data.get("honours_count")
            if not side or count in (None, ""):
                self._need(
                    "honours",
                    _("Tap the side holding 5 or more of the 9 honour units, and how many."),
                )
            else:
                facts["honours"] = {"side": side, "count": count}
        if kind == "grand":
            side, count = data.get("grand_aces_side"), data.get("grand_aces_count")
            if side and count in (None, ""):
                self._need("grand_aces", _("Tap how many aces the side holds (3 or 4)."))
            elif side:
                facts["grand_aces"] = {"side": side, "count": count}
        if kind in ("suit", "grand"):
            seat, count = data.get("hand_seat"), data.get("hand_count")
            if seat and count in (None, ""):
                self._need("aces_in_hand", _("Tap how many aces are in that hand (3 or 4)."))
            elif seat:
                facts["aces_in_hand"] = [{"seat": seat, "count": count}]
            runs = []
            for suit in SUITS:
                seat, length = data.get(f"seq_{suit}_seat"), data.get(f"seq_{suit}_length")
                if seat and length is None:
                    self._need("sequences", _("Choose the length of each run."))
                elif length is not None and not seat:
                    self._need("sequences", _("Choose who holds each run."))
                elif seat:
                    runs.append({"seat": seat, "suit": suit, "length": length})
            if runs:
                facts["sequences"] = runs
        if kind in ("misere", "pass"):
            dumps = []
            for i in range(1, 5):
                seat, trick = data.get(f"dump_{i}_seat"), data.get(f"dump_{i}_trick")
                if seat and trick is None:
                    self._need("ace_dumps", _("Choose the trick of each dumped ace."))
                elif trick is not None and not seat:
                    self._need("ace_dumps", _("Choose whose ace was dumped."))
                elif seat:
                    dumps.append({"seat": seat, "trick": trick})
            if dumps:
                facts["ace_dumps"] = dumps
        self._facts = facts
        return data

    def is_complete(self) -> bool:
        """Valid and nothing the contract needs is missing."""
        if self._complete is None:
            valid = self.is_valid()
            for name, errors in self.errors.items():
                for message in errors:
                    self._need(SLOTS.get(name, "all"), str(message))
            self._complete = valid and not self.slot_errors
        return self._complete

    def facts(self) -> dict[str, Any]:
        return dict(self._facts)

    def deal_facts(self) -> dict[str, Any] | None:
        return self.facts() if self.is_complete() else None

    def deal_extra(self) -> dict[str, Any]:
        return {
            "rubber": self.cleaned_data.get("rubber"),
            "first_dealer": self.cleaned_data.get("first_dealer") or None,
        }

    def field_errors(self, name: str) -> list[str]:
        return list(self.slot_errors.get(name, []))

    def add_engine_errors(self, errors: Mapping[str, list[str]]) -> None:
        """Put ``DealRejected`` messages beside the part of the pad they concern."""
        for name, messages in errors.items():
            slot = SLOTS.get(name, "all")
            for message in messages:
                self._need(slot, message)

    def has_extras(self) -> bool:
        """Whether aces in one hand or a run were entered (the pad then opens that part)."""
        return bool(self._facts.get("aces_in_hand") or self._facts.get("sequences")) or bool(
            self.slot_errors.get("aces_in_hand") or self.slot_errors.get("sequences")
        )


# The sequences' and ace dumps' fields, a seat and a number per suit and per dump:
# declared once with the class (a form copies its declared fields; building them on
# every save cost more).
def _seat_and_number(seat: str, number: str, numbers: range) -> dict[str, forms.Field]:
    return {
        seat: forms.ChoiceField(choices=OPTIONAL_SEAT, required=False),
        number: forms.TypedChoiceField(
            choices=[("", "—"), *[(n, str(n)) for n in numbers]],
            coerce=int,
            empty_value=None,
            required=False,
        ),
    }


for _suit in SUITS:
    VintDealForm.base_fields.update(
        _seat_and_number(f"seq_{_suit}_seat", f"seq_{_suit}_length", range(3, 14))
    )
for _dump in range(1, 5):
    VintDealForm.base_fields.update(
        _seat_and_number(f"dump_{_dump}_seat", f"dump_{_dump}_trick", range(1, 14))
    )


VintDealForm.base_fields = SharedFields(VintDealForm.base_fields)


def initial_from_facts(facts: dict[str, Any]) -> dict[str, Any]:
    """Form values for a stored deal (the correction page starts from them)."""
    initial: dict[str, Any] = {"contract": facts["contract"]}
    if facts["contract"] == "pass":
        initial["ns_tricks"] = facts.get("tricks", {}).get("NS")
    else:
        initial.update(
            declarer=facts.get("declarer"),
            doubling=facts.get("doubling", 0),
            declarer_tricks=facts.get("declarer_tricks"),
        )
    if facts.get("honours"):
        initial["honours_side"] = facts["honours"]["side"]
        initial["honours_count"] = facts["honours"]["count"]
    if facts.get("grand_aces"):
        initial["grand_aces_side"] = facts["grand_aces"]["side"]
        initial["grand_aces_count"] = facts["grand_aces"]["count"]
    for hand in facts.get("aces_in_hand", [])[:1]:
        initial["hand_seat"], initial["hand_count"] = hand["seat"], hand["count"]
    for run in facts.get("sequences", []):
        initial[f"seq_{run['suit']}_seat"] = run["seat"]
        initial[f"seq_{run['suit']}_length"] = run["length"]
    for i, dump in enumerate(facts.get("ace_dumps", [])[:4], 1):
        initial[f"dump_{i}_seat"], initial[f"dump_{i}_trick"] = dump["seat"], dump["trick"]
    return initial
