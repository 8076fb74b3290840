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
        names += _package_modules(package, ROOT / package.replace(".", "/"))
    return names


def _package_modules(package: str, path: Path) -> list[str]:
    """``package`` and every module under it, subpackages included (none imported here)."""
    names = [package]
    for m in pkgutil.iter_modules([str(path)]):
        if m.ispkg:
            names += _package_modules(f"{package}.{m.name}", path / m.name)
        else:
            names.append(f"{package}.{m.name}")
    return names


def test_pure_packages_do_not_load_django():
    modules = _modules()
    assert "scoring.engines.errors" in modules
    assert "scoring.engines.vint.rubber" in modules
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
