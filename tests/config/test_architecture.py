"""The private-names contract (tests/architecture.py) reads imports the way Python does."""

from __future__ import annotations

import pytest

from tests.architecture import private_uses

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
