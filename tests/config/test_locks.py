"""The three locks (requirements.lock, requirements-dev.lock, requirements-load.lock) and
pyproject.toml say the same: each top-level pin in its own lock at the same version, the
development lock on top of the runtime's and the load lock on the development's, and no
package in two locks."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCKS = {
    "runtime": "requirements.lock",
    "dev": "requirements-dev.lock",
    "load": "requirements-load.lock",
}


def name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[\[=<>~ ;]", requirement, maxsplit=1)[0]).lower()


def lock(group: str) -> tuple[dict[str, str], list[str]]:
    """A lock's pins (name -> line) and its includes (``-r`` lines)."""
    pins: dict[str, str] = {}
    includes: list[str] = []
    for line in (ROOT / LOCKS[group]).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r "):
            includes.append(line[3:].strip())
        elif line:
            assert "==" in line, f"{LOCKS[group]}: {line} is not pinned"
            pins[name(line)] = line
    return pins, includes


def declared() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    groups = project["dependency-groups"]
    return {"runtime": project["project"]["dependencies"], **groups}


def test_every_declared_pin_is_in_its_own_lock_at_the_same_version():
    for group, requirements in declared().items():
        pins, _ = lock(group)
        for requirement in requirements:
            version = requirement.split("==", 1)[1]
            assert name(requirement) in pins, f"{requirement} is missing from {LOCKS[group]}"
            assert pins[name(requirement)].endswith(f"=={version}"), (requirement, LOCKS[group])


def test_the_dev_and_load_locks_add_to_the_runtime_lock_and_share_no_package():
    """A chain: the development lock on the runtime's, the load lock on the development's
    (``make bench`` installs both); a package is pinned in one of them only."""
    runtime, runtime_includes = lock("runtime")
    assert runtime_includes == []
    seen = dict.fromkeys(runtime, "runtime")
    for group, below in (("dev", "requirements.lock"), ("load", "requirements-dev.lock")):
        pins, includes = lock(group)
        assert includes == [below], LOCKS[group]
        for package in pins:
            assert package not in seen, f"{package} is in {LOCKS[group]} and {seen[package]}'s"
            seen[package] = group


def test_no_development_tool_is_in_the_runtime_lock():
    runtime, _ = lock("runtime")
    for group in ("dev", "load"):
        assert not {name(r) for r in declared()[group]} & set(runtime), group
