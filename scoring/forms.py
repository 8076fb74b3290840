"""Forms that turn what the scorer tapped into the facts of a deal.

The forms only parse; the rules are checked by the engine (through the game's
module in ``scoring.games``) and its messages are put beside the fields. Both pads
carry ``EntryKeys``: the deal number the form will create and a key made when the
form was rendered, which make a save idempotent (``scoring.services.deal_record``).

The Vint pad's form asks for what the chosen contract needs; facts are built only
from the fields the contract uses, so a value left in a hidden field (honours after
switching to grand) does not count.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.forms.fields import InvalidJSONInput
from django.utils.translation import gettext_lazy as _

from clubs.forms import PlayerChoiceField
from clubs.models import Club, Player
from scoring import option_text
from scoring.engines import kop, vint
from scoring.engines.errors import SHEET_FIELD, Params, Problem, RuleError, SheetError
from scoring.engines.rules import (
    KOSCIAN_BIG_POINTS,
    TIE_BREAKS,
    validate_profile_options,
    validate_tournament,
)
from scoring.engines.scoresheet import parse_json
from scoring.games import Slot
from scoring.models import GAME_CHOICES, RuleProfile
from scoring.problems import kop_contract_label, problem_text
from scoring.selectors import default_profile

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

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


SUBMISSION_KEY = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class EntryKeys(forms.Form):
    """The slot a pad's form expects to create and its submission key (both hidden)."""

    expected_number = forms.IntegerField(
        required=False, min_value=1, max_value=100_000, widget=forms.HiddenInput
    )
    submission_key = forms.RegexField(
        regex=SUBMISSION_KEY, required=False, widget=forms.HiddenInput
    )

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


def new_submission_key() -> str:
    return secrets.token_urlsafe(24)


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
        contract = cast(forms.ChoiceField, self.fields["contract"])
        # Only the contracts the session's profile allows (rules/kop.md §7.1 ``contracts``).
        contract.choices = [(c.name, c.name) for c in kop.contracts_for(game, rules)]
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

    def add_engine_errors(self, errors: dict[str, list[str]]) -> None:
        field_of = {"doubling_seats": "doubling_seats", "doublings": "doublings"}
        for field, messages in errors.items():
            target = field_of.get(field, field)
            if target not in self.fields:
                target = None  # type: ignore[assignment]
            for message in messages:
                self.add_error(target, message)


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

    def add_engine_errors(self, errors: dict[str, list[str]]) -> None:
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


class SharedFields(dict[str, forms.Field]):
    """A form's declared fields that its instances share instead of copying each. A form
    deep-copies its fields (with their widgets and choices) so that one instance may change
    them; the Vint pad's form never does, and copying its 32 fields cost more than the
    rest of the form's work on every save. A form whose instances change a field (Kop's
    contracts follow the session's rules) must not use this."""

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, forms.Field]:
        return dict(self)


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


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class SessionForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=160, required=False)
    profile: forms.ModelChoiceField[RuleProfile] = forms.ModelChoiceField(
        label=_("Rule profile"), queryset=None, empty_label=None
    )
    planned_deals = forms.IntegerField(
        label=_("Planned deals"), min_value=1, max_value=400, required=False, initial=32
    )
    club: forms.ModelChoiceField[Club] = forms.ModelChoiceField(
        label=_("Club that registers newcomers"), queryset=None, required=False, empty_label=None
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["profile"]).queryset = RuleProfile.objects.all()
        self.fields["profile"].initial = default_profile()
        cast(forms.ModelChoiceField, self.fields["club"]).queryset = Club.objects.order_by("name")
        players = Player.objects.select_related("club")
        # Each seat: a registered player, or a newcomer typed in by name (a guest at a
        # club evening), registered in the chosen club when the table starts.
        fields = dict(self.fields)
        self.fields.clear()
        for name in ("title", "profile"):
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
        newcomers = any((data.get(f"new_{i}") or "").strip() for i in range(1, 5))
        if newcomers and not data.get("club"):
            self.add_error("club", _("Choose the club that registers the newcomers."))
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
    sheet = forms.FileField(label=_("Scoresheet (JSON)"))
    title = forms.CharField(label=_("Title"), max_length=160, required=False)


def _unplaced(problem: Problem) -> Params:
    """A problem's params without the place "JSON" (the field itself is the place)."""
    return {k: v for k, v in problem.params.items() if (k, v) != (SHEET_FIELD, "JSON")}


class BoundedJSONField(forms.JSONField):
    """JSON typed into a page, read within the limits a scoresheet file is read in
    (``scoring.engines.scoresheet.parse_json``): deep nesting, a number of thousands of
    digits or a NUL is a form error, never a server error."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and value not in self.empty_values and not self.disabled:
            try:
                parse_json(value, where="JSON")
            except SheetError as exc:
                said = [problem_text(replace(p, params=_unplaced(p))) for p in exc.coded]
                raise forms.ValidationError(
                    _("Not valid JSON: %(problem)s"),
                    code="invalid",
                    params={"problem": " ".join(said)},
                ) from None
        return super().to_python(value)

    def bound_data(self, data: Any, initial: Any) -> Any:
        # The page shows what was typed again; Django would parse it with no limits.
        if isinstance(data, str) and not self.disabled:
            try:
                parse_json(data, where="JSON")
            except SheetError:
                return InvalidJSONInput(data)
        return super().bound_data(data, initial)


#: The options of rules/kop.md §7.1 and rules/vint.md A31 that the profile editor offers
#: as fields of their own (the rest are written in the JSON field): field -> option.
KOP_OPTION_FIELDS = (
    "contracts",
    "contract_factor",
    "bez_wyjscia_declarers",
    "bez_wyjscia_defenders",
    "soloist_doubling",
)
VINT_OPTION_FIELDS = ("session_structure",)
_FIELD_OF_OPTION = {
    "contracts": "contracts",
    "contract_factor": "contract_factor",
    "bez_wyjscia_max": "bez_wyjscia_declarers",
    "soloist_doubling": "soloist_doubling",
    "session_structure": "session_structure",
}
_BEZ_DEFAULT = 25


def _option_choice_field(
    option: str, *, label: StrOrPromise, default: StrOrPromise, help_text: StrOrPromise
) -> forms.ChoiceField:
    """A profile option offered as a select of its values in words (``option_text``);
    empty: the option is left to the JSON options."""
    return forms.ChoiceField(
        label=label,
        required=False,
        choices=[("", default), *option_text.value_choices(option)],
        help_text=help_text,
    )


class ProfileForm(forms.Form):
    """A custom rule profile: options and tournament settings as JSON, checked by the engine.

    The options clubs differ on most (rules/kop.md §7.1, rules/vint.md A31) have fields of
    their own with their explanations; a field left empty leaves the option to the JSON
    (and so to its default), a filled one overrides the JSON.
    """

    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)
    contracts = forms.MultipleChoiceField(
        label=_("Contracts played (Kop and Baśka)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "The contracts the club plays; the pad offers only these and a deal with another is refused. None ticked: every contract of the game. The normal game is always played; grand, grand du and baśka are Baśka's."  # noqa: E501
        ),
    )
    contract_factor = forms.JSONField(
        label=_("Contract factors (Kop and Baśka)"),
        required=False,
        help_text=_(
            'Replaces the factor C of the contracts named, e.g. {"cicha": 1} pays a cicha like a normal game. Whole numbers from 1 to 100; the contracts not named keep normal 1, wesele 1, cicha 4, zolo 5, zolo du 10, grand 5, grand du 10, baśka 10.'  # noqa: E501
        ),
    )
    bez_wyjscia_declarers = forms.IntegerField(
        label=_("Bez wyjścia when the declarers lose (Kop and Baśka)"),
        required=False,
        min_value=0,
        max_value=52,
        help_text=_(
            "Losing declarers (the Old, the wesele pair, a soloist) with at most this many card points lose bez wyjścia, which doubles the value. Empty: 25."  # noqa: E501
        ),
    )
    bez_wyjscia_defenders = forms.IntegerField(
        label=_("Bez wyjścia when the defenders lose (Kop and Baśka)"),
        required=False,
        min_value=0,
        max_value=52,
        help_text=_(
            "The same for losing defenders (the Young in a normal game). Some clubs count 26 for one side and 25 for the other. Empty: 25."  # noqa: E501
        ),
    )
    soloist_doubling = _option_choice_field(
        "soloist_doubling",
        label=_("Doublings by the soloist (Kop and Baśka)"),
        default=_("as in the JSON options (by default: not the first doubling)"),
        help_text=_(
            "A soloist's doubling these rules forbid is shown as a warning the scorer confirms before saving; it never changes the count of doublings."  # noqa: E501
        ),
    )
    session_structure = _option_choice_field(
        "session_structure",
        label=_("Session (Vint)"),
        default=_("as in the JSON options (by default: three rubbers)"),
        help_text=_(
            "Under three rubbers a fourth rubber or a partnership seen in an earlier rubber of the session is refused."  # noqa: E501
        ),
    )
    options = BoundedJSONField(
        label=_("Other rule options (JSON)"),
        initial=dict,
        required=False,
        help_text=_("The other options by the names of the rules documents (§7)."),
    )
    tournament = BoundedJSONField(
        label=_("Tournament settings (JSON)"), initial=dict, required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.MultipleChoiceField, self.fields["contracts"]).choices = [
            (c.name, kop_contract_label(c.name)) for c in kop.contracts_for("baska")
        ]
        # A stored profile's options: the ones with fields of their own go there.
        options = self.initial.get("options")
        if isinstance(options, dict):
            options = dict(options)
            bez = options.pop("bez_wyjscia_max", None)
            if isinstance(bez, int):
                self.initial["bez_wyjscia_declarers"] = self.initial["bez_wyjscia_defenders"] = bez
            elif isinstance(bez, dict):
                self.initial["bez_wyjscia_declarers"] = bez.get("declarers")
                self.initial["bez_wyjscia_defenders"] = bez.get("defenders")
            for name in ("contracts", "contract_factor", "soloist_doubling", "session_structure"):
                if name in options:
                    self.initial[name] = options.pop(name)
            self.initial["options"] = options

    def _with_fields(self, game: str, options: dict[str, Any], data: dict[str, Any]) -> None:
        """Put the filled option fields into ``options``; one of the other game is an error."""
        kop_game = game in kop.GAMES
        for name in VINT_OPTION_FIELDS if kop_game else KOP_OPTION_FIELDS:
            if data.get(name) not in (None, "", [], {}):
                self.add_error(name, _("This option is not one of this game's."))
        if not kop_game:
            if data.get("session_structure"):
                options["session_structure"] = data["session_structure"]
            return
        if data.get("contracts"):
            options["contracts"] = list(data["contracts"])
        if data.get("contract_factor") not in (None, {}):
            options["contract_factor"] = data["contract_factor"]
        declarers, defenders = data.get("bez_wyjscia_declarers"), data.get("bez_wyjscia_defenders")
        if declarers is not None or defenders is not None:
            declarers = _BEZ_DEFAULT if declarers is None else declarers
            defenders = _BEZ_DEFAULT if defenders is None else defenders
            options["bez_wyjscia_max"] = (
                declarers
                if declarers == defenders
                else {"declarers": declarers, "defenders": defenders}
            )
        if data.get("soloist_doubling"):
            options["soloist_doubling"] = data["soloist_doubling"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        options = data.get("options") or {}
        tournament = data.get("tournament") or {
            "big_points": list(KOSCIAN_BIG_POINTS),
            "tie_breaks": list(TIE_BREAKS),
        }
        if not isinstance(options, dict):
            self.add_error("options", _("Write the options as a JSON object."))
        elif data.get("game"):
            options = dict(options)
            self._with_fields(data["game"], options, data)
            try:
                validate_profile_options(data["game"], options)
            except RuleError as exc:
                option = str(exc.params.get("option", exc.root or "")).split(".")[0]
                field = _FIELD_OF_OPTION.get(option, "options")
                if field not in self.fields or field in self.errors:
                    field = "options"
                self.add_error(field, problem_text(exc))
        if not isinstance(tournament, dict):
            self.add_error("tournament", _("Write the settings as a JSON object."))
        else:
            try:
                validate_tournament(tournament)
            except RuleError as exc:
                self.add_error("tournament", problem_text(exc))
        data["options"], data["tournament"] = options, tournament
        return data
