"""The rule profile editor's fields for a game's options, built from one description.

Each option's kind comes from the engine's own default (``KopRules``, ``VintRules``): a
yes/no option is a select of yes, no and the game's default; an option with phrases in
``option_text.VALUES`` is a select of those phrases; a number is a number box; a mapping
(per contract or per losing side) is one number box per key; the contracts played are
tick boxes. The words (label, one-line explanation, value phrases) are ``option_text``'s.
A field left empty leaves the option out, so the game's default applies. The options
``option_text.IMPORT_ONLY`` names have no field: a stored profile keeps them, and the
scoresheet import format sets them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import option_text

YES, NO = "yes", "no"
KEY_SEP = "__"  # a per-key field's name: option__key ("contract_factor__cicha")


def _default_choice() -> tuple[str, Any]:
    return ("", _("the game's default"))


class DescribedOptions:
    """``OptionFields`` for the options of one engine's rules (see the module docstring).

    ``defaults``: the engine's default value of every option, by name; ``keys``: the
    (key, words) pairs of a per-contract option (the game's contracts).
    """

    def __init__(
        self,
        *,
        defaults: Callable[[], Mapping[str, Any]],
        keys: Callable[[], Sequence[tuple[str, Any]]] = list,
    ) -> None:
        self._defaults, self._keys = defaults, keys

    def _shown(self) -> dict[str, Any]:
        return {
            name: value
            for name, value in self._defaults().items()
            if name not in option_text.IMPORT_ONLY and name in option_text.LABELS
        }

    def _keys_of(self, option: str) -> list[tuple[str, Any]]:
        sides = option_text.VALUES.get(option)
        return list(sides.items()) if sides is not None else list(self._keys())

    @staticmethod
    def _keyed(option: str, default: Any) -> bool:
        return isinstance(default, Mapping) or (
            option in option_text.VALUES and not isinstance(default, str)
        )

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.fields())

    def fields(self) -> dict[str, forms.Field]:
        made: dict[str, forms.Field] = {}
        for option, default in self._shown().items():
            label: Any = option_text.LABELS[option]
            help_text: Any = option_text.HELP.get(option, "")
            if self._keyed(option, default):
                for i, (key, words) in enumerate(self._keys_of(option)):
                    made[f"{option}{KEY_SEP}{key}"] = forms.IntegerField(
                        label=_("%(option)s: %(key)s") % {"option": label, "key": words},
                        required=False,
                        help_text=help_text if i == 0 else "",
                    )
            elif isinstance(default, bool):
                made[option] = forms.ChoiceField(
                    label=label,
                    required=False,
                    choices=[_default_choice(), (YES, _("yes")), (NO, _("no"))],
                    help_text=help_text,
                )
            elif isinstance(default, str):
                made[option] = forms.ChoiceField(
                    label=label,
                    required=False,
                    choices=[_default_choice(), *option_text.value_choices(option)],
                    help_text=help_text,
                )
            elif isinstance(default, int):
                made[option] = forms.IntegerField(label=label, required=False, help_text=help_text)
            else:  # the contracts played: none ticked, every contract of the game
                made[option] = forms.MultipleChoiceField(
                    label=label,
                    required=False,
                    choices=self._keys(),
                    widget=forms.CheckboxSelectMultiple,
                    help_text=help_text,
                )
        return made

    def initial(self, options: dict[str, Any]) -> dict[str, Any]:
        """The fields' values from stored ``options``, taking the options they show out
        of it; a value no field can show (an unlimited cap) stays in ``options``."""
        initial: dict[str, Any] = {}
        for option, default in self._shown().items():
            if option not in options:
                continue
            value = options[option]
            if self._keyed(option, default):
                keys = [key for key, _words in self._keys_of(option)]
                values = value if isinstance(value, Mapping) else dict.fromkeys(keys, value)
                if not all(_whole(v) for v in values.values()):
                    continue
                initial.update({f"{option}{KEY_SEP}{k}": v for k, v in values.items()})
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    continue
                initial[option] = YES if value else NO
            else:
                initial[option] = value
            del options[option]
        return initial

    def to_options(self, data: Mapping[str, Any], options: dict[str, Any]) -> None:
        for option, default in self._shown().items():
            if self._keyed(option, default):
                keys = [key for key, _words in self._keys_of(option)]
                given = {
                    k: data[f"{option}{KEY_SEP}{k}"]
                    for k in keys
                    if data.get(f"{option}{KEY_SEP}{k}") is not None
                }
                if not given:
                    continue
                one = set(given.values())
                # Every key alike is one number, where the option takes one.
                alike = not isinstance(default, Mapping) and len(given) == len(keys)
                options[option] = one.pop() if alike and len(one) == 1 else given
            elif data.get(option) in (None, "", []):
                continue
            elif isinstance(default, bool):
                options[option] = data[option] == YES
            elif isinstance(data[option], list):
                options[option] = list(data[option])
            else:
                options[option] = data[option]

    def field_of(self, option: str) -> str:
        """The field beside which a problem with ``option`` ("contract_factor.cicha") is
        shown; "options" for one without a field."""
        name, _dot, key = option.partition(".")
        fields = self.fields()
        if key and f"{name}{KEY_SEP}{key}" in fields:
            return f"{name}{KEY_SEP}{key}"
        if name in fields:
            return name
        first = next((f for f in fields if f.startswith(f"{name}{KEY_SEP}")), None)
        return first or "options"


def rules_defaults(rules: Any) -> dict[str, Any]:
    """An engine's default rules (a dataclass) as option -> default value."""
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
