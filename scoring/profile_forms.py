"""The rule profile editor's form: a custom profile's options and tournament settings.

Options are checked by the engine (``validate_profile_options``); the options clubs
differ on most have fields of their own, the rest are written as JSON, read within the
limits a scoresheet file is read in.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from django import forms
from django.db.models import QuerySet
from django.forms.fields import InvalidJSONInput
from django.utils.translation import gettext_lazy as _

from clubs.forms import own_club_field
from clubs.models import Club
from scoring import option_text
from scoring.engines.errors import SHEET_FIELD, Params, Problem, RuleError, SheetError
from scoring.engines.rules import (
    KOSCIAN_BIG_POINTS,
    TIE_BREAKS,
    validate_profile_options,
    validate_tournament,
)
from scoring.engines.scoresheet import parse_json
from scoring.games import all_games, game_choices, game_for
from scoring.games.interface import OptionFields
from scoring.problems import problem_text

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


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


def option_choice_field(
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
    their own with their explanations, which each game's entry part offers
    (``OptionFields``); a field left empty leaves the option to the JSON (and so to its
    default), a filled one overrides the JSON.
    """

    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    options = BoundedJSONField(
        label=_("Other rule options (JSON)"),
        initial=dict,
        required=False,
        help_text=_("The other options by the names of the rules documents (§7)."),
    )
    tournament = BoundedJSONField(
        label=_("Tournament settings (JSON)"), initial=dict, required=False
    )

    def __init__(self, *args: Any, clubs: QuerySet[Club] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if clubs is not None:  # a new profile: the club whose directors edit it
            self.fields["club"] = own_club_field(
                clubs, help_text=_("Its directors edit the profile; its tables may use it.")
            )
            self.order_fields(["name", "club"])
        # Each game's own option fields, after the game and before the JSON options.
        options_json, tournament = self.fields.pop("options"), self.fields.pop("tournament")
        for own in option_parts():
            self.fields.update(own.fields())
        self.fields.update(options=options_json, tournament=tournament)
        # A stored profile's options: the ones with fields of their own go there.
        options = self.initial.get("options")
        if isinstance(options, dict):
            options = dict(options)
            for own in option_parts():
                self.initial.update(own.initial(options))
            self.initial["options"] = options

    def _with_fields(self, game: str, options: dict[str, Any], data: dict[str, Any]) -> None:
        """Put the filled option fields into ``options``; one of another game is an error."""
        own = game_for(game).entry.option_fields
        for other in option_parts():
            if other is own:
                continue
            for name in other.names:
                if data.get(name) not in (None, "", [], {}):
                    self.add_error(name, _("This option is not one of this game's."))
        own.to_options(data, options)

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
                field = game_for(data["game"]).entry.option_fields.field_of(option)
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


def option_parts() -> list[OptionFields]:
    """Each game's option fields once (Kop and Baśka share theirs), in the games' order."""
    parts: list[OptionFields] = []
    for game in all_games():
        if game.entry.option_fields not in parts:
            parts.append(game.entry.option_fields)
    return parts
