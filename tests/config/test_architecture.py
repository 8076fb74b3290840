"""The contracts of tests/architecture.py read imports the way Python does: the private
names, the import cycles and the libraries' private names."""

from __future__ import annotations

import pytest

from tests.architecture import (
    import_cycles,
    library_private_uses,
    private_uses,
    project_members,
)

MODULES = frozenset(
    {
        "app",
        "app.views",
        "app.services",
        "app.core",
        "app.core._helpers",
        "app.core.rules",
        "other",
        "other.views",
    }
)


def _uses(source: str, module: str = "other.views", is_package: bool = False) -> list[str]:
    found = private_uses(
        module=module, is_package=is_package, source=source, path="x.py", modules=MODULES
    )
    return [f"{u.line}:{u.name}" for u in found]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from app.views import _row", ["1:app.views._row"]),
        ("from app.views import _row as row, show", ["1:app.views._row"]),
        ("from app.views import show, __all__", []),
        ("from django.utils import _lazy", []),  # not the project's
        ("from app import services\nservices._players", ["2:app.services._players"]),
        ("import app.services\napp.services._players", ["2:app.services._players"]),
        ("import app.services as s\ns._players\ns.Actor._meta", ["2:app.services._players"]),
        ("from app.core import _helpers", ["1:app.core._helpers"]),
        ("from app.core._helpers import tidy", ["1:app.core._helpers"]),
        ("import app.core._helpers", ["1:app.core._helpers"]),
        ("def f():\n    from app.views import _row", ["2:app.views._row"]),
    ],
)
def test_other_modules_private_names_are_reported(source, expected):
    assert _uses(source) == expected


def test_a_private_module_is_open_to_its_own_package():
    assert _uses("from ._helpers import tidy", module="app.core.rules") == []
    assert _uses("from . import _helpers", module="app.core", is_package=True) == []
    assert _uses("from ..views import _row", module="app.core.rules") == ["1:app.views._row"]


def test_a_module_may_use_its_own_private_names():
    assert _uses("import other.views\nother.views._mine", module="other.views") == []


@pytest.mark.parametrize(
    ("imports", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c", "e"}}, [["a", "b"], ["c", "d"]]),
        ({"a": {"a"}}, []),  # a module importing itself
    ],
)
def test_modules_that_import_each_other_are_a_cycle(imports, expected):
    assert import_cycles(imports) == expected


def test_a_long_chain_is_read_without_recursion():
    chain = {f"m{i}": {f"m{i + 1}"} for i in range(5000)}
    chain["m5000"] = {"m0"}
    assert len(import_cycles(chain)) == 1 and len(import_cycles(chain)[0]) == 5001


def _library_uses(source: str, members: frozenset[str] = frozenset()) -> list[str]:
    found = library_private_uses(source=source, path="x.py", modules=MODULES, members=members)
    return [f"{u.line}:{u.name}:{u.how}" for u in found]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("django._prepare_cursor(c)", ["1:_prepare_cursor:attribute"]),
        ("row._state.adding = False", ["1:_state:attribute"]),
        ("super()._get(k)", ["1:_get:attribute"]),
        ('getattr(s, "_prefetched_objects_cache", {})', ["1:_prefetched_objects_cache:getattr"]),
        ("from django.utils.functional import _lazy", ["1:_lazy:import"]),
        ("from redis._parsers import X", ["1:redis._parsers:import"]),
        ("import redis._parsers", ["1:redis._parsers:import"]),
        ("Deal._meta.db_table", []),  # public
        ("Deal._default_manager.filter(pk=1)", []),  # public too
        ("point._replace(x=1)", []),  # a named tuple's
        ("self.__dict__", []),
        ("from app import services\nservices._players", []),  # the private_names contract's
        ("import app.services\napp.services._players", []),
        ("from app.views import _row", []),
    ],
)
def test_a_librarys_private_names_are_reported(source, expected):
    assert _library_uses(source) == expected


def test_the_projects_own_members_may_be_underscored():
    source = (
        "class Pad:\n    _size = 1\n    def _need(self): ...\n"
        "    def __init__(self):\n        self._cells = []\n"
        "user._groups = set()\nsetattr(table, '_url', '')\n"
    )
    members = project_members(source, "x.py")
    assert members == {"_size", "_need", "_cells", "_groups", "_url"}
    uses = "pad._need()\npad._cells\nuser._groups\ngetattr(t, '_url')\nrow._state"
    assert _library_uses(uses, frozenset(members)) == ["5:_state:attribute"]
