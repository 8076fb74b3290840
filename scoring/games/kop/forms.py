"""The Kop and Baśka pad's form: what the scorer tapped, parsed into a deal's facts.

The form only parses; the rules are checked by the engine (``deals.evaluate``) and its
messages are put beside the fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engines import kop
from scoring.forms import EntryKeys
from scoring.games.kop.deals import contract_choices
from scoring.profile_forms import option_choice_field

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
        contract = cast(forms.ChoiceField, self.fields["contract"])
        # Only the contracts the session's profile allows (rules/kop.md §7.1 ``contracts``).
        contract.choices = [(c.name, c.name) for c in kop.contracts_for(game, rules)]

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


BEZ_DEFAULT = 25  # the card points bez wyjścia is lost with by default (rules/kop.md §7.1)


class KopOptionFields:
    """The profile editor's fields for the Kop and Baśka options of rules/kop.md §7.1 that
    clubs differ on most."""

    names: tuple[str, ...] = (
        "contracts",
        "contract_factor",
        "bez_wyjscia_declarers",
        "bez_wyjscia_defenders",
        "soloist_doubling",
    )
    _FIELD_OF = {
        "contracts": "contracts",
        "contract_factor": "contract_factor",
        "bez_wyjscia_max": "bez_wyjscia_declarers",
        "soloist_doubling": "soloist_doubling",
    }

    def fields(self) -> dict[str, Any]:
        return {
            "contracts": forms.MultipleChoiceField(
                label=_("Contracts played (Kop and Baśka)"),
                choices=contract_choices("baska"),
                required=False,
                widget=forms.CheckboxSelectMultiple,
                help_text=_(
                    "The contracts the club plays; the pad offers only these and a deal with another is refused. None ticked: every contract of the game. The normal game is always played; grand, grand du and baśka are Baśka's."  # noqa: E501
                ),
            ),
            "contract_factor": forms.JSONField(
                label=_("Contract factors (Kop and Baśka)"),
                required=False,
                help_text=_(
                    'Replaces the factor C of the contracts named, e.g. {"cicha": 1} pays a cicha like a normal game. Whole numbers from 1 to 100; the contracts not named keep normal 1, wesele 1, cicha 4, zolo 5, zolo du 10, grand 5, grand du 10, baśka 10.'  # noqa: E501
                ),
            ),
            "bez_wyjscia_declarers": forms.IntegerField(
                label=_("Bez wyjścia when the declarers lose (Kop and Baśka)"),
                required=False,
                min_value=0,
                max_value=52,
                help_text=_(
                    "Losing declarers (the Old, the wesele pair, a soloist) with at most this many card points lose bez wyjścia, which doubles the value. Empty: 25."  # noqa: E501
                ),
            ),
            "bez_wyjscia_defenders": forms.IntegerField(
                label=_("Bez wyjścia when the defenders lose (Kop and Baśka)"),
                required=False,
                min_value=0,
                max_value=52,
                help_text=_(
                    "The same for losing defenders (the Young in a normal game). Some clubs count 26 for one side and 25 for the other. Empty: 25."  # noqa: E501
                ),
            ),
            "soloist_doubling": option_choice_field(
                "soloist_doubling",
                label=_("Doublings by the soloist (Kop and Baśka)"),
                default=_("as in the JSON options (by default: not the first doubling)"),
                help_text=_(
                    "A soloist's doubling these rules forbid is shown as a warning the scorer confirms before saving; it never changes the count of doublings."  # noqa: E501
                ),
            ),
        }

    def initial(self, options: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {}
        bez = options.pop("bez_wyjscia_max", None)
        if isinstance(bez, int):
            initial["bez_wyjscia_declarers"] = initial["bez_wyjscia_defenders"] = bez
        elif isinstance(bez, dict):
            initial["bez_wyjscia_declarers"] = bez.get("declarers")
            initial["bez_wyjscia_defenders"] = bez.get("defenders")
        for name in ("contracts", "contract_factor", "soloist_doubling"):
            if name in options:
                initial[name] = options.pop(name)
        return initial

    def to_options(self, data: Mapping[str, Any], options: dict[str, Any]) -> None:
        if data.get("contracts"):
            options["contracts"] = list(data["contracts"])
        if data.get("contract_factor") not in (None, {}):
            options["contract_factor"] = data["contract_factor"]
        declarers, defenders = data.get("bez_wyjscia_declarers"), data.get("bez_wyjscia_defenders")
        if declarers is not None or defenders is not None:
            declarers = BEZ_DEFAULT if declarers is None else declarers
            defenders = BEZ_DEFAULT if defenders is None else defenders
            options["bez_wyjscia_max"] = (
                declarers
                if declarers == defenders
                else {"declarers": declarers, "defenders": defenders}
            )
        if data.get("soloist_doubling"):
            options["soloist_doubling"] = data["soloist_doubling"]

    def field_of(self, option: str) -> str:
        return self._FIELD_OF.get(option, "options")
