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

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Final

#: A parameter value: plain enough to render in any language and to store as JSON.
Param = int | str | list[int] | list[str]
Params = dict[str, Param]

#: The param a batch adds to a problem found in one of its deals (1-based).
IN_DEAL: Final = "in_deal"


def show_value(value: object) -> str:
    """``value`` spelt as the JSON a scorer typed (``true``, ``null``, ``"4H"``): how
    messages quote an input and how a ``value`` param holds it."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


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
    """A scoresheet with one or more problems, one line each.

    Each line is a ``Problem`` (``coded``): a ``sheet.*`` code for what is wrong with
    the file's structure, or the engine's own code for a deal or an option, with the
    place it was found in its params (``in_rubber``, ``in_deal``, ``sheet_field``).
    ``problems`` are the same lines in English, for the command line; the import page
    says them in the director's language. A plain string is a line with no code.
    """

    def __init__(self, problems: Sequence[str | Problem]) -> None:
        self.coded = [p if isinstance(p, Problem) else Problem("", message=p) for p in problems]
        self.problems = [p.message for p in self.coded]
        super().__init__("; ".join(self.problems))


#: The params that say where on a sheet a problem is: the rubber, the deal (``IN_DEAL``)
#: and the key (a path such as ``seats.N`` or ``sequences[2].length``).
IN_RUBBER: Final = "in_rubber"
SHEET_FIELD: Final = "sheet_field"


def sheet_problem(
    code: str, text: str, field: str | None = None, *, said: str | None = None, **params: Param
) -> Problem:
    """One line of a ``SheetError``: ``code`` and ``params`` for the page, and the English
    ``text`` (after ``field:``, or ``said:`` where the line names the field in words) for
    the command line. ``located`` adds the place."""
    if field is not None:
        params[SHEET_FIELD] = field
    head = said if said is not None else field
    return Problem(code, params, field, f"{head}: {text}" if head is not None else text)


def located(problem: Problem, *, rubber: int | None = None, deal: int | None = None) -> Problem:
    """``problem`` found in ``rubber`` and/or ``deal`` of a sheet: the place joins its
    params and starts its English line ("rubber 2, deal 5: ...")."""
    params = dict(problem.params)
    where = []
    if rubber is not None:
        params[IN_RUBBER] = rubber
        where.append(f"rubber {rubber}")
    if deal is not None:
        params[IN_DEAL] = deal
        where.append(f"deal {deal}")
    message = f"{', '.join(where)}: {problem.message}" if where else problem.message
    return Problem(problem.code, params, problem.field, message, problem.root)


def field_problem(problem: Problem, *, named: bool = False) -> Problem:
    """An engine's problem with its field named first, as a sheet line names it
    (``named``: its English message names the field already)."""
    params = dict(problem.params)
    message = problem.message
    if problem.field is not None:
        params[SHEET_FIELD] = problem.field
        if not named:
            message = f"{problem.field}: {problem.message}"
    return Problem(problem.code, params, problem.field, message, problem.root)


class EngineBug(AssertionError):
    """An internal invariant failed (not the user's fault)."""


def rules_problem(problem: Problem) -> Problem:
    """A problem in a sheet's ``rules`` (its options): the sentence names the option."""
    params = {**problem.params, SHEET_FIELD: "rules"}
    return Problem(problem.code, params, problem.field, f"rules: {problem.message}", problem.root)
