"""An import-linter contract type: no module uses another module's private names.

A **private name** starts with one underscore (``_round_table``; dunders such as
``__version__`` are public). It belongs to the module that defines it: another module
of the project may not import it (``from scoring.views import _round_table``) nor
reach it through an imported module (``services._players_by_name``). A **private
module** (``pkg/_helpers.py``) belongs to its package: only modules inside ``pkg`` may
import it or anything from it.

Only the root packages of ``[tool.importlinter]`` are read, so tests (and benchmarks),
which may poke at private names, are not checked. Registered in ``pyproject.toml``::

    contract_types = ["private_names: tests.architecture.PrivateNamesContract"]
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, output


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
