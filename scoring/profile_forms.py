"""The rule profile editor's form: a custom profile's options and tournament settings.

Every field is a plain one with a label and a one-line explanation, built from the one
description of the options (``scoring.option_fields``); options are checked by the engine
(``validate_profile_options``). The options the editor does not offer
(``option_text.IMPORT_ONLY``) are kept as the profile stored them.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from clubs.forms import own_club_field
from clubs.models import Club
from scoring.engines.errors import RuleError
from scoring.engines.rules import (
    KOSCIAN_BIG_POINTS,
    TIE_BREAKS,
    validate_profile_options,
    validate_tournament,
)
from scoring.games import all_games, game_choices, game_for
from scoring.games.interface import OptionFields
from scoring.problems import problem_text

#: The big-points fields' labels, first place first, and the tie-breaks in words.
PLACES = (
    _("Big points for 1st place"),
    _("Big points for 2nd place"),
    _("Big points for 3rd place"),
    _("Big points for 4th place"),
)
TIE_BREAK_WORDS = {
    "small_points": _("small points"),
    "round_wins": _("round wins (first places)"),
    "second_places": _("second places"),
    "third_places": _("third places"),
}


def _tournament_fields() -> dict[str, forms.Field]:
    fields: dict[str, forms.Field] = {}
    for i, place in enumerate(PLACES, 1):
        fields[f"big_points_{i}"] = forms.IntegerField(
            label=place,
            initial=KOSCIAN_BIG_POINTS[i - 1],
            min_value=0,
            max_value=1000,
            help_text=_("What a place at a table earns in a round; tied places share.")
            if i == 1
            else "",
        )
    for i in range(1, len(TIE_BREAKS) + 1):
        fields[f"tie_break_{i}"] = forms.ChoiceField(
            label=_("Tie-break %(n)s") % {"n": i},
            required=False,
            initial=TIE_BREAKS[i - 1],
            choices=[("", _("none")), *TIE_BREAK_WORDS.items()],
            help_text=_("Players level on big points are separated by these, in this order.")
            if i == 1
            else "",
        )
    return fields


class ProfileForm(forms.Form):
    """A custom rule profile: its options and tournament settings, checked by the engine.

    ``initial["options"]``: the stored options; the ones with fields go there, the rest
    (``kept``) are saved again as they were. A field left empty leaves the option to the
    game's default.
    """

    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)

    def __init__(self, *args: Any, clubs: QuerySet[Club] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if clubs is not None:  # a new profile: the club whose directors edit it
            self.fields["club"] = own_club_field(
                clubs, help_text=_("Its directors edit the profile; its tables may use it.")
            )
            self.order_fields(["name", "club"])
        self.groups: list[tuple[Any, list[str]]] = []
        for game, own in option_parts():
            made = own.fields()
            self.fields.update(made)
            self.groups.append((game, list(made)))
        tournament = _tournament_fields()
        self.fields.update(tournament)
        self.groups.append((_("Tournament settings"), list(tournament)))
        self.kept: dict[str, Any] = {}
        options = self.initial.get("options")
        if isinstance(options, dict):
            options = dict(options)
            for _game, own in option_parts():
                self.initial.update(own.initial(options))
            self.kept = options
        stored = self.initial.get("tournament")
        if isinstance(stored, dict):
            for i, points in enumerate(stored.get("big_points") or [], 1):
                self.initial[f"big_points_{i}"] = points
            breaks = list(stored.get("tie_breaks") or [])
            for i in range(1, len(TIE_BREAKS) + 1):
                self.initial[f"tie_break_{i}"] = breaks[i - 1] if i <= len(breaks) else ""

    def grouped(self) -> list[tuple[Any, list[forms.BoundField]]]:
        """The option fields under each game's heading, then the tournament settings."""
        return [(title, [self[name] for name in names]) for title, names in self.groups]

    def _with_fields(self, game: str, options: dict[str, Any], data: dict[str, Any]) -> None:
        """Put the filled option fields into ``options``; one of another game is an error."""
        own = game_for(game).entry.option_fields
        for _game, other in option_parts():
            if other is own:
                continue
            for name in other.names:
                if data.get(name) not in (None, "", [], {}):
                    self.add_error(name, _("This option is not one of this game's."))
        own.to_options(data, options)

    def _tournament(self, data: dict[str, Any]) -> dict[str, Any]:
        points = [data.get(f"big_points_{i}") for i in range(1, len(PLACES) + 1)]
        breaks = [data.get(f"tie_break_{i}") for i in range(1, len(TIE_BREAKS) + 1)]
        chosen = [b for b in breaks if b]
        if len(set(chosen)) != len(chosen):
            self.add_error("tie_break_1", _("Name each tie-break once."))
        return {"big_points": points, "tie_breaks": chosen}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        options = dict(self.kept)
        if data.get("game"):
            self._with_fields(data["game"], options, data)
            try:
                validate_profile_options(data["game"], options)
            except RuleError as exc:
                option = str(exc.params.get("option", exc.root or ""))
                field: str | None = game_for(data["game"]).entry.option_fields.field_of(option)
                if field not in self.fields or field in self.errors:
                    field = None  # an option kept from the import: the whole form
                self.add_error(field, problem_text(exc))
        tournament = self._tournament(data)
        if not self.errors:
            try:
                validate_tournament(tournament)
            except RuleError as exc:
                field = "big_points_1" if exc.field == "big_points" else "tie_break_1"
                self.add_error(field, problem_text(exc))
        data["options"], data["tournament"] = options, tournament
        return data


def option_parts() -> list[tuple[str, OptionFields]]:
    """Each game's option fields once (Kop and Baśka share theirs), in the games' order,
    under the names of the games that share them ("Kop, Baśka")."""
    parts: list[tuple[list[str], OptionFields]] = []
    for game in all_games():
        own = game.entry.option_fields
        for names, part in parts:
            if part is own:
                names.append(game.label)
                break
        else:
            parts.append(([game.label], own))
    return [(", ".join(names), part) for names, part in parts]
