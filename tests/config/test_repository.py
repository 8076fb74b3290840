"""What the repository holds: no file over 1 MB, but for the screenshots and the vendored
assets (a wheel or a database dump belongs to a registry or to nobody)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 1_000_000  # bytes
# Screenshots (docs/screenshots/, made by the browser tests) and vendored assets: static
# files kept as their authors ship them (static/vendor/) and the browser tests' axe-core.
LARGE_FILES_MAY_LIVE_IN = ("docs/screenshots/", "static/vendor/", "tests/browser/vendor/")


def tracked_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True
    ).stdout
    return [name for name in listed.split("\0") if name]


def too_large(names: list[str]) -> list[str]:
    return [
        f"{name} ({(ROOT / name).stat().st_size:,} bytes)"
        for name in names
        if not name.startswith(LARGE_FILES_MAY_LIVE_IN)
        and (ROOT / name).is_file()
        and (ROOT / name).stat().st_size > LIMIT
    ]


def test_no_tracked_file_is_over_1_mb_outside_screenshots_and_vendored_assets():
    names = tracked_files()
    assert "manage.py" in names
    assert too_large(names) == []


def test_a_large_file_is_found(tmp_path, monkeypatch):
    import tests.config.test_repository as this

    monkeypatch.setattr(this, "ROOT", tmp_path)
    (tmp_path / "docs" / "screenshots").mkdir(parents=True)
    (tmp_path / "docs" / "screenshots" / "big.png").write_bytes(b"x" * (LIMIT + 1))
    (tmp_path / "tool.whl").write_bytes(b"x" * (LIMIT + 1))
    (tmp_path / "small.py").write_bytes(b"x" * LIMIT)
    found = too_large(["docs/screenshots/big.png", "tool.whl", "small.py", "gone.txt"])
    assert found == [f"tool.whl ({LIMIT + 1:,} bytes)"]
