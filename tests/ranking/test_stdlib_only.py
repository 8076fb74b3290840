"""Seating and standings load nothing but the standard library (ratings are apart) and the
pure ranking-with-ties helper they share with the scoresheets (``scoring.engines.ranks``)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOT_OURS = {"tournaments.ranking.ratings"}  # club ratings use openskill, on purpose


def _modules() -> list[str]:
    names = []
    for package in ("tournaments.seating", "tournaments.ranking"):
        names.append(package)
        path = ROOT / package.replace(".", "/")
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules([str(path)])]
    return [n for n in names if n not in NOT_OURS]


def test_seating_and_standings_import_only_the_standard_library():
    code = (
        "import importlib, sys\n"
        "before = set(sys.modules)\n"
        f"for name in {_modules()!r}: importlib.import_module(name)\n"
        "loaded = set(sys.modules) - before\n"
        "new = {m.split('.')[0] for m in loaded if not m.startswith('scoring.engines')}\n"
        "shared = 'scoring.engines.ranks'\n"
        "new |= {m for m in loaded if m.startswith('scoring.engines.') and m != shared}\n"
        "ours = {'tournaments', 'scoring'} | set(sys.stdlib_module_names)\n"
        "foreign = sorted(new - ours)\n"
        "print('FOREIGN', foreign) if foreign else print('CLEAN')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "CLEAN", result.stdout
