"""Template helpers for the table pages."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.problems import kop_contract_label

register = template.Library()


@register.filter
def short_name(name: str) -> str:
    """A name for a small button: the first name and the initial of the last word
    ("Aleksandra Przybyszewska-Wiśniewska" -> "Aleksandra P."). The full name stays in
    the pad's title attribute and in the table's seat list."""
    parts = str(name).split()
    if len(parts) < 2:
        return str(name)
    return f"{parts[0]} {parts[-1][0]}."


@register.filter
def kop_contract(name: str) -> str:
    """A stored Kop/Baśka contract key ("zolo_du") as players say it ("zolo du")."""
    return kop_contract_label(str(name)) if name else ""


@register.simple_tag
def waiting_labels() -> str:
    """JSON {count: "N deals waiting to send"} for the offline pad's script, so the
    count reads right in every language's plural forms (0 to 99; more use 99's form)."""
    return json.dumps(
        {
            n: ngettext("%(n)s deal waiting to send", "%(n)s deals waiting to send", n) % {"n": n}
            for n in range(1, 100)
        }
    )


_OPTION_LABELS = {
    "trump_order": _("Trump order"),
    "auction_end": _("End of the auction"),
    "doubling_cap": _("Most doublings"),
    "doubling_names": _("Names of the doublings"),
    "wesele_bidder_may_double": _("The wesele bidder may double"),
    "wesele_first_call_only": _("Wesele only in the first call"),
    "soloist_doubling": _("Doublings by the soloist"),
    "du_as_suffix": _("DU said after zolo or grand"),
    "contracts": _("Contracts played"),
    "contract_factor": _("Contract factors"),
    "bez_wyjscia_declarers": _("Bez wyjścia when the declarers lose"),
    "bez_wyjscia_defenders": _("Bez wyjścia when the defenders lose"),
    "session_structure": _("Session"),
}


def _option_value(value: Any) -> str:
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, dict):
        return ", ".join(f"{_option_value(k)} {_option_value(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_option_value(v) for v in value)
    if isinstance(value, str):
        return kop_contract_label(value).replace("_", " ")
    return str(value)


@register.filter
def option_lines(options: dict[str, Any] | None) -> list[tuple[str, str]]:
    """A profile's stored options as (label, value) lines a person reads: no dicts, no
    keys with underscores, yes/no for booleans, contracts as players say them."""
    return [
        (str(_OPTION_LABELS.get(key, key.replace("_", " ").capitalize())), _option_value(value))
        for key, value in (options or {}).items()
    ]
