"""Every CSV the site writes goes through ``csv_response``: safe to open in a spreadsheet.

Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with
``=``, ``+``, ``-`` or ``@`` (and, in some, a tab or a carriage return) as a formula, so a
player named ``=HYPERLINK("http://x")`` would become a link on the director's laptop.
``cell`` prefixes such text with ``'``, which shows it as the text it is. Numbers are
left alone: an ``int``, ``float`` or ``Decimal`` is written as a number (a small-points total of -13
stays a number), and only text is escaped, so a name ``-2+3`` or ``+1`` stays text.

The file starts with a UTF-8 byte-order mark, so Excel on Windows reads Polish letters
(it takes a file without one as the system's code page); other spreadsheets and
``csv`` readers opened with ``utf-8-sig`` skip it.

``localized=True`` writes the file as a spreadsheet in the reader's language opens it:
where the language writes a decimal comma (Polish, Russian, Estonian), cells are
separated by ``;`` and fractions written with a comma (3,5), as Excel expects there.

A file asked for by a person (``request`` given) is written for a person: headings and
coded values in the reader's language (a ``Coded`` cell says both), yes/no for a
flag, in the language's separators. ``?format=raw`` asks for the file a program reads:
the codes (``big_points``, ``zolo_du``), ``,`` and a decimal point, whatever the
language.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from numbers import Number
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import formats
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

#: What a spreadsheet may take as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"
RAW = "raw"  # ?format=raw: the machine-readable file

#: Every code a CSV heading names, in words (``heading``).
HEADINGS: dict[str, Promise] = {
    "rank": _("Rank"),
    "place": _("Rank as a number"),
    "table_place": _("Place at the table"),
    "number": _("Start number"),
    "name": _("Name"),
    "club": _("Club"),
    "big_points": _("Big points"),
    "small_points": _("Small points"),
    "firsts": _("First places"),
    "seconds": _("Second places"),
    "thirds": _("Third places"),
    "fourths": _("Fourth places"),
    "rounds": _("Rounds played"),
    "rounds_played": _("Rounds played"),
    "byes": _("Byes"),
    "walkouts": _("Walkovers"),
    "adjustment_big": _("Big points adjustment"),
    "adjustment_small": _("Small points adjustment"),
    "adjustment_net": _("Net adjustment"),
    "net": _("Net"),
    "rubbers_won": _("Rubbers won"),
    "total_points": _("Total points"),
    "table": _("Table"),
    "player": _("Player"),
    "rating": _("Rating"),
    "mu": _("Skill estimate"),
    "sigma": _("Uncertainty"),
    "games": _("Games"),
    "change": _("Change"),
    "cause": _("Cause"),
    "deal": _("Deal"),
    "dealer": _("Dealer"),
    "contract": _("Contract"),
    "declarers": _("Declarers"),
    "declarer": _("Declarer"),
    "doublings": _("Doublings"),
    "doubling": _("Doubling"),
    "declarer_points": _("Declarers' card points"),
    "value": _("Value"),
    "payment": _("Payment"),
    "declarers_won": _("Declarers won"),
    "voided": _("Voided"),
    "total": _("Total"),
    "rubber": _("Rubber"),
    "phase": _("Phase"),
    "declarer_tricks": _("Declarer's tricks"),
    "tricks NS": _("Tricks N–S"),
    "tricks EW": _("Tricks E–W"),
    "NS above": _("N–S above the line"),
    "NS below": _("N–S below the line"),
    "EW above": _("E–W above the line"),
    "EW below": _("E–W below the line"),
    "games NS": _("Games N–S"),
    "games EW": _("Games E–W"),
}


@dataclass(frozen=True)
class Coded:
    """A cell a person reads as ``words`` and a program as ``code`` (``?format=raw``)."""

    code: Any
    words: Any

    def __str__(self) -> str:
        return str(self.words)


def heading(code: str, **parts: Any) -> Coded:
    """A heading by its code: ``HEADINGS``' words, or ``parts`` put into a phrase such as
    ``heading("round 2 place", phrase=_("Round %(n)s: %(what)s"), n=2, what="place")``
    (``what`` a code of ``HEADINGS`` again)."""
    phrase = parts.pop("phrase", None)
    if phrase is None:
        return Coded(code, HEADINGS.get(code, code))
    words = {k: HEADINGS[v] if k == "what" else v for k, v in parts.items()}
    return Coded(code, phrase % words)


def voided_cell(voided: bool) -> Coded | str:
    """A deal's "voided" column: the word, or empty for a deal that counts."""
    return Coded("voided", _("voided")) if voided else ""


def won_or_lost(won: bool) -> Coded:
    return Coded("won", _("won")) if won else Coded("lost", _("lost"))


def seat_heading(what: str, seat: int, name: str) -> Coded:
    """A column of one seat's player: "Total: seat 2 (Anna)"; raw "total 2 Anna"."""
    return Coded(
        f"{what} {seat} {name}",
        _("%(what)s: seat %(seat)s (%(name)s)")
        % {"what": HEADINGS[what], "seat": seat, "name": name},
    )


def shown(value: Any, *, raw: bool) -> Any:
    """What a cell holds for a program (``raw``) or a person."""
    if isinstance(value, Coded):
        return value.code if raw else str(value.words)
    if isinstance(value, bool) and not raw:
        return gettext("yes") if value else gettext("no")
    return value


def cell(value: Any, decimal: str = ".") -> Any:
    """``value`` as written: text that could start a formula gets a leading ``'``; a
    fraction with ``decimal`` as its separator (a number still, never escaped)."""
    if isinstance(value, Number) or value is None:
        if decimal != "." and isinstance(value, float | Decimal):
            return str(value).replace(".", decimal)
        return value
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def csv_response(
    rows: Iterable[Sequence[Any]],
    *,
    filename: str,
    localized: bool = False,
    request: HttpRequest | None = None,
) -> HttpResponse:
    """An attachment ``filename`` holding ``rows``, each cell passed through ``cell``
    (``localized``: in the active language's separators; ``request``: for a person unless
    it asks for ``?format=raw``, see above)."""
    raw = request is None or request.GET.get("format") == RAW
    localized = localized or not raw
    decimal = str(formats.get_format("DECIMAL_SEPARATOR")) if localized else "."
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write(BOM)
    writer = csv.writer(response, delimiter=";" if decimal == "," else ",")
    for row in rows:
        writer.writerow([cell(shown(value, raw=raw), decimal) for value in row])
    return response
