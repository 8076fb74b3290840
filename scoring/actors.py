"""The label a history row keeps for who acted, and its words in the reader's language.

The label is stored once, in English, when the row is written (``entry_actor``,
imports); the page says it in the language of whoever reads it, so a stored row
never changes. A person's user name is a name and stays as it is."""

from __future__ import annotations

import re

from django.utils.translation import gettext

LINK_LABEL = "table link"
IMPORT_LABEL = "import"
_SEAT_LABEL = re.compile(r"^table link, seat (?P<seat>\d+)(?: \((?P<name>.+)\))?$")


def link_label(seat: int, username: str = "") -> str:
    """The stored label of a phone with the table link at ``seat`` (and its account's name)."""
    name = f" ({username})" if username else ""
    return f"{LINK_LABEL}, seat {seat}{name}"


def actor_words(label: str) -> str:
    """``label`` as the reader says it: "table link, seat 2" in Polish is "link do stolika,
    miejsce 2"; a user name is returned as it is."""
    if label == LINK_LABEL:
        return gettext("table link")
    if label == IMPORT_LABEL:
        return gettext("imported from a file")
    match = _SEAT_LABEL.match(label)
    if match is None:
        return label
    words = gettext("table link, seat %(seat)s") % {"seat": match["seat"]}
    return f"{words} ({match['name']})" if match["name"] else words
