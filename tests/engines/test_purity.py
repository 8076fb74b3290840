"""The pure packages import in a fresh interpreter without loading Django."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PURE_PACKAGES = ["scoring.engines", "tournaments.seating", "tournaments.ranking"]


def _modules() -> list[str]:
    names = []
    for package in PURE_PACKAGES:
        path = ROOT / package.replace(".", "/")
        names.append(package)
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules([str(path)])]
    return names


def test_pure_packages_do_not_load_django():
    modules = _modules()
    assert "scoring.engines.errors" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print('LEAKED' if leaked else 'CLEAN', leaked[:5])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("CLEAN"), result.stdout
