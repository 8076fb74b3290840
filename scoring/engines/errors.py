"""Exceptions and problem records shared by the pure engines.

Two families, kept apart on purpose:

* ``RuleError`` (and ``SheetError``): the user's mistake -- an impossible deal,
  an unknown option, a malformed sheet. The ``score`` command prints the
  English ``message`` and exits 2; a page shows the sentence the Django layer
  builds from ``code`` and ``params`` beside the field ``root``.
* ``EngineBug``: something that "cannot happen" (a deal that does not sum to
  zero). It is never caught for display; it is a defect.

Problems are data until they meet a person
------------------------------------------
code
    A stable, dotted name of what is wrong (``kop.contract_unknown``,
    ``vint.tricks_out_of_range``, ``rules.option_unknown``). Each engine module
    lists the codes it can emit in its ``CODES``; ``scoring/problems.py`` holds
    one translatable sentence per code.
params
    The values the sentence needs, by name: ints, strs or lists of them. A
    ``value`` is the offending input spelt as the JSON a scorer typed
    (``"zolo"``, ``true``); the other names say what they hold (``seat``,
    ``contract``, ``low``, ``high``...). A problem found in deal *n* of a batch
    (``kop.score_table``) also carries ``params[IN_DEAL] = n``.
field, root
    ``field`` names the input exactly as a scoresheet spells it
    (``sequences[2].length``, ``doubling_cap.zolo``); ``root`` is the top-level
    input it belongs to (``sequences``, ``doubling_cap``), the thing a form
    puts the message beside. The engine sets both where it finds the problem.
message
    The English sentence, for the command line and sheet imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Final

#: A parameter value: plain enough to render in any language and to store as JSON.
Param = int | str | list[int] | list[str]
Params = dict[str, Param]

#: The param a batch adds to a problem found in one of its deals (1-based).
IN_DEAL: Final = "in_deal"


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem or warning as data; see the module docstring for the terms.

    ``root`` defaults to ``field`` (most fields are top-level inputs). Treat
    ``params`` as read-only: scored results, warnings included, are shared
    between equal deals.
    """

    code: str
    params: Params = dataclass_field(default_factory=dict, hash=False)
    field: str | None = None
    message: str = ""
    root: str | None = None

    def __post_init__(self) -> None:
        if self.root is None and self.field is not None:
            object.__setattr__(self, "root", self.field)


class RuleError(ValueError):
    """Input that breaks the rules. ``field`` names the offending input, if one does.

    ``code`` and ``params`` say what is wrong as data, ``root`` which top-level
    input it concerns (``field`` by default); ``problem`` bundles them.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        code: str = "",
        params: Mapping[str, Param] | None = None,
        root: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code
        self.params: Params = dict(params or {})
        self.root = root if root is not None else field

    @property
    def problem(self) -> Problem:
        return Problem(self.code, dict(self.params), self.field, self.message, self.root)


class SheetError(RuleError):
    """A scoresheet with one or more problems; ``problems`` holds one line each.

    The lines stay English (a director importing a file, the command line), so
    a ``SheetError`` has no code.
    """

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


class EngineBug(AssertionError):
    """An internal invariant failed (not the user's fault)."""
