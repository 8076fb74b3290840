"""Template helpers for the table pages."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.translation import ngettext

from scoring import option_text

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


@register.filter
def option_lines(options: dict[str, Any] | None) -> list[tuple[str, str]]:
    """A profile's stored options as (label, value) lines a person reads
    (``scoring.option_text``)."""
    return option_text.option_lines(options)
