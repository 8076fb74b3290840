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
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from decimal import Decimal
from numbers import Number
from typing import Any

from django.http import HttpResponse
from django.utils import formats

#: What a spreadsheet may take as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"


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
    rows: Iterable[Sequence[Any]], *, filename: str, localized: bool = False
) -> HttpResponse:
    """An attachment ``filename`` holding ``rows``, each cell passed through ``cell``
    (``localized``: in the active language's separators, see above)."""
    decimal = str(formats.get_format("DECIMAL_SEPARATOR")) if localized else "."
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write(BOM)
    writer = csv.writer(response, delimiter=";" if decimal == "," else ",")
    for row in rows:
        writer.writerow([cell(value, decimal) for value in row])
    return response
