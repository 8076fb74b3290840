"""import-linter contract types for what its own contracts cannot say.

``private_names``: no module uses another module's private names.

A **private name** starts with one underscore (``_round_table``; dunders such as
``__version__`` are public). It belongs to the module that defines it: another module
of the project may not import it (``from scoring.views import _round_table``) nor
reach it through an imported module (``services._players_by_name``). A **private
module** (``pkg/_helpers.py``) belongs to its package: only modules inside ``pkg`` may
import it or anything from it.

Only the root packages of ``[tool.importlinter]`` are read, so tests (and benchmarks),
which may poke at private names, are not checked. Registered in ``pyproject.toml``::

    contract_types = ["private_names: tests.architecture.PrivateNamesContract"]

Two more contract types keep what no import-linter contract says:

* ``acyclic_modules``: no **import cycle** among the project's modules (a module that,
  through its imports, imports itself), function-level imports included: an import inside
  a function that dodges a cycle still is one (``exclude_type_checking_imports`` leaves out
  those under ``if TYPE_CHECKING:``, which never run). ``ignore_imports`` lists known exceptions
  (an exception that no longer matches an import fails the contract, so it cannot outlive
  the cycle).
* ``library_private_names``: no **private name of a library** (Django, Celery, redis,
  ...): ``x._name`` where ``_name`` is no member the project defines (in a class body, or
  assigned to an attribute), ``getattr(x, "_name")``, ``from django.db import _name``, a
  library's private module. ``Model._meta`` and ``Model._default_manager`` are Django's
  public API, as are the underscored methods of named tuples (``PUBLIC_UNDERSCORED``).
  The contract reads the root packages and the folders in ``also``; ``allow`` lists
  ``"path: name"`` uses still to be removed (one that no longer matches fails the
  contract).
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import grimp
from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output
from importlinter.application.contract_utils import AlertLevel, remove_ignored_imports


@dataclass(frozen=True, order=True)
class PrivateUse:
    path: str
    line: int
    importer: str
    owner: str  # the module (or, for a private module, the package) the name belongs to
    name: str  # dotted, as used: "scoring.views._round_table"


def is_private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _private_module_owner(module: str) -> str | None:
    """The package that owns the first private component of ``module``, if any."""
    parts = module.split(".")
    for i, part in enumerate(parts):
        if i and is_private(part):
            return ".".join(parts[:i])
    return None


def private_uses(
    *, module: str, is_package: bool, source: str, path: str, modules: frozenset[str]
) -> list[PrivateUse]:
    """Uses of other modules' private names in ``source`` (the text of ``module``).

    ``modules`` are the project's modules; names of anything else are not checked.
    """
    tree = ast.parse(source, filename=path)
    package = module if is_package else module.rpartition(".")[0]
    found: list[PrivateUse] = []
    bound: dict[str, str] = {}  # local name -> project module it stands for

    def check_module(target: str, line: int) -> None:
        owner = _private_module_owner(target)
        if owner is not None and not _inside(module, owner):
            found.append(PrivateUse(path, line, module, owner, target))

    def check_name(owner: str, name: str, line: int) -> None:
        full = f"{owner}.{name}"
        if full in modules:
            check_module(full, line)
        elif is_private(name) and owner != module:
            found.append(PrivateUse(path, line, module, owner, full))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    check_module(alias.name, node.lineno)
                    local = alias.asname or alias.name.partition(".")[0]
                    bound[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                owner = ".".join([*base, *([node.module] if node.module else [])])
            else:
                owner = node.module or ""
            if owner not in modules:
                continue
            check_module(owner, node.lineno)
            for alias in node.names:
                check_name(owner, alias.name, node.lineno)
                if f"{owner}.{alias.name}" in modules:
                    bound[alias.asname or alias.name] = f"{owner}.{alias.name}"

    for node in ast.walk(tree):
        # "services._players_by_name", "scoring.services._players_by_name": every attribute
        # of a chain is visited once; its prefix must name a module for it to be checked.
        if not isinstance(node, ast.Attribute):
            continue
        chain = [node.attr]
        base = node.value
        while isinstance(base, ast.Attribute):
            chain.insert(0, base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in bound:
            continue
        owner = bound[base.id]
        for attr in chain[:-1]:
            owner = f"{owner}.{attr}"
        if owner in modules:
            check_name(owner, chain[-1], node.lineno)
    return sorted(set(found))


def _source_file(module: str, roots: dict[str, Path]) -> tuple[Path, bool] | None:
    root, _dot, rest = module.partition(".")
    base = roots[root].joinpath(*rest.split(".")) if rest else roots[root]
    if (base / "__init__.py").is_file():
        return base / "__init__.py", True
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py"), False
    return None


class PrivateNamesContract(Contract):
    """No module of the root packages uses another module's private names."""

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        roots: dict[str, Path] = {}
        for name in self.session_options["root_packages"]:
            spec = importlib.util.find_spec(name)
            assert spec is not None and spec.submodule_search_locations, name
            roots[name] = Path(next(iter(spec.submodule_search_locations)))
        modules = frozenset(m for m in graph.modules if m.partition(".")[0] in roots)
        cwd = Path.cwd()
        uses: list[PrivateUse] = []
        for module in sorted(modules):
            located = _source_file(module, roots)
            if located is None:
                continue
            path, is_package = located
            shown = str(path.relative_to(cwd)) if path.is_relative_to(cwd) else str(path)
            output.verbose_print(verbose, f"Reading {shown} ...")
            uses += private_uses(
                module=module,
                is_package=is_package,
                source=path.read_text(encoding="utf-8"),
                path=shown,
                modules=modules,
            )
        return ContractCheck(kept=not uses, metadata={"uses": uses})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for use in check.metadata["uses"]:
            output.print_error(
                f"{use.path}:{use.line}: {use.importer} uses {use.name}, private to {use.owner}",
                bold=False,
            )
        output.new_line()


# ----------------------------------------------------------------------------- cycles


def import_cycles(imports: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The modules that import each other, directly or through others: each group of two
    or more (a strongly connected component of ``imports``, module -> what it imports),
    sorted; a module importing itself is no cycle here."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(root: str) -> None:
        # Tarjan's algorithm, iterative: the project's import chains are deep enough to
        # meet Python's recursion limit.
        work = [(root, iter(sorted(imports.get(root, ()))))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in order:
                    order[target] = low[target] = len(order)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports.get(target, ())))))
                elif target in on_stack:
                    low[module] = min(low[module], order[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == order[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))

    for module in sorted(imports):
        if module not in order:
            visit(module)
    return sorted(groups)


class AcyclicModulesContract(Contract):
    """No import cycle among the modules of the root packages. With
    ``exclude_type_checking_imports``, the imports under ``if TYPE_CHECKING:`` (made for
    the type checker only, never run) are left out."""

    ignore_imports = fields.SetField(subfield=fields.ImportExpressionField(), required=False)
    exclude_type_checking_imports = fields.BooleanField(required=False, default=False)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        if self.exclude_type_checking_imports:
            # import-linter reads them for every contract or for none: this one reads the
            # project again without them.
            graph = grimp.build_graph(
                *self.session_options["root_packages"],
                include_external_packages=False,
                exclude_type_checking_imports=True,
            )
        warnings = remove_ignored_imports(
            graph=graph,
            ignore_imports=self.ignore_imports,
            unmatched_alerting=AlertLevel.ERROR,
        )
        roots = set(self.session_options["root_packages"])
        modules = sorted(m for m in graph.modules if m.partition(".")[0] in roots)
        imports = {
            m: {
                t
                for t in graph.find_modules_directly_imported_by(m)
                if t.partition(".")[0] in roots and t != m
            }
            for m in modules
        }
        chains = []
        for group in import_cycles(imports):
            first = group[0]
            # Every module on a chain back to ``first`` from one it imports is in the group.
            back = min(
                (graph.find_shortest_chain(importer=t, imported=first) or (t,))
                for t in sorted(imports[first] & set(group))
            )
            chains.append((group, (first, *back)))
        return ContractCheck(kept=not chains, warnings=warnings, metadata={"cycles": chains})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for group, chain in check.metadata["cycles"]:
            output.print_error(f"{', '.join(group)} import each other:", bold=False)
            output.print_error("    " + " -> ".join(chain), bold=False)
        output.new_line()


# ----------------------------------------------------------------------------- libraries' names

# Underscored by their library to keep them apart from user names, and documented as public:
# a model's options and managers (Django's "Model _meta API" and "Managers" pages), a named
# tuple's methods.
PUBLIC_UNDERSCORED = frozenset(
    {"_meta", "_default_manager", "_base_manager", "_replace", "_asdict", "_fields", "_make"}
)


@dataclass(frozen=True, order=True)
class LibraryPrivateUse:
    path: str
    line: int
    name: str  # as used: "_prepare_cursor", or a module "redis._parsers"
    how: str  # "attribute", "getattr", "import"


def project_members(source: str, path: str) -> set[str]:
    """The private names ``source`` defines as members: in a class body, assigned to an
    attribute (``self._x = ...``, ``obj._x = ...``) or set with ``setattr(obj, "_x", ...)``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source, filename=path)):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(item.name)
                elif isinstance(item, ast.Assign | ast.AnnAssign):
                    targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                    names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif _attr_call(node) == "setattr":
            name = _attr_name(node)
            if name:
                names.add(name)
    return {n for n in names if is_private(n)}


def _attr_call(node: ast.AST) -> str | None:
    """``getattr``, ``setattr``, ``hasattr`` or ``delattr`` when ``node`` calls one."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
    ):
        return node.func.id
    return None


def _attr_name(node: ast.Call) -> str | None:
    if len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
        value = node.args[1].value
        return value if isinstance(value, str) else None
    return None


def library_private_uses(
    *, source: str, path: str, modules: frozenset[str], members: frozenset[str]
) -> list[LibraryPrivateUse]:
    """Uses in ``source`` of private names that are neither the project's (``modules``:
    its modules, whose private names the ``private_names`` contract keeps; ``members``:
    the private members it defines) nor ``PUBLIC_UNDERSCORED``."""
    tree = ast.parse(source, filename=path)
    found: list[LibraryPrivateUse] = []
    bound: set[str] = set()  # local names that stand for a project module

    def ours(module: str) -> bool:
        return module.partition(".")[0] in {m.partition(".")[0] for m in modules}

    def foreign(name: str) -> bool:
        return is_private(name) and name not in members and name not in PUBLIC_UNDERSCORED

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if ours(alias.name):
                    bound.add(alias.asname or alias.name.partition(".")[0])
                elif any(is_private(p) for p in alias.name.split(".")):
                    found.append(LibraryPrivateUse(path, node.lineno, alias.name, "import"))
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if ours(node.module):
                bound.update(alias.asname or alias.name for alias in node.names)
                continue
            if any(is_private(p) for p in node.module.split(".")):
                found.append(LibraryPrivateUse(path, node.lineno, node.module, "import"))
            for alias in node.names:
                if is_private(alias.name):
                    found.append(LibraryPrivateUse(path, node.lineno, alias.name, "import"))

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and foreign(node.attr):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if not (isinstance(base, ast.Name) and base.id in bound):
                found.append(LibraryPrivateUse(path, node.lineno, node.attr, "attribute"))
        elif _attr_call(node):
            name = _attr_name(node)
            if name and foreign(name):
                found.append(LibraryPrivateUse(path, node.lineno, name, "getattr"))
    return sorted(set(found))


class LibraryPrivateNamesContract(Contract):
    """No module of the root packages (nor of the folders in ``also``) uses a library's
    private names, but for the uses ``allow`` lists (``"path: name"``)."""

    also = fields.ListField(subfield=fields.StringField(), required=False)
    allow = fields.ListField(subfield=fields.StringField(), required=False)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        cwd = Path.cwd()
        roots: dict[str, Path] = {}
        for name in self.session_options["root_packages"]:
            spec = importlib.util.find_spec(name)
            assert spec is not None and spec.submodule_search_locations, name
            roots[name] = Path(next(iter(spec.submodule_search_locations)))
        files = sorted({p for root in roots.values() for p in root.rglob("*.py")})
        extra = sorted({p for d in self.also or [] for p in (cwd / str(d)).rglob("*.py")})
        modules = frozenset(
            [m for m in graph.modules if m.partition(".")[0] in roots]
            + [p.stem for p in extra]  # a benchmark imports its neighbours by file name
        )
        sources = {
            p: p.read_text(encoding="utf-8")
            for p in [*files, *extra]
            if "migrations" not in p.parts
        }
        shown = {p: str(p.relative_to(cwd)) if p.is_relative_to(cwd) else str(p) for p in sources}
        members = frozenset(
            name for p, text in sources.items() for name in project_members(text, shown[p])
        )
        uses: list[LibraryPrivateUse] = []
        for p, text in sources.items():
            output.verbose_print(verbose, f"Reading {shown[p]} ...")
            uses += library_private_uses(
                source=text, path=shown[p], modules=modules, members=members
            )
        allowed = {
            tuple(part.strip() for part in entry.split(":", 1)) for entry in self.allow or []
        }
        unlisted = [u for u in uses if (u.path, u.name) not in allowed]
        stale = sorted(allowed - {(u.path, u.name) for u in uses})
        return ContractCheck(
            kept=not unlisted and not stale, metadata={"uses": unlisted, "stale": stale}
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        for use in check.metadata["uses"]:
            output.print_error(
                f"{use.path}:{use.line}: {use.name} is a library's private name ({use.how})",
                bold=False,
            )
        for path, name in check.metadata["stale"]:
            output.print_error(
                f"allow lists {path}: {name}, which is no longer used: remove it", bold=False
            )
        output.new_line()
