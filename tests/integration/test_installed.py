"""tablescore as a club installs it (issue 28): a wheel built from a clean copy of the
checkout, installed with its runtime dependencies only into a fresh virtual environment,
and its ``tablescore hall`` serving from a fresh data folder.

The wheel and the environment are made once per run (``installed``, session-scoped, about
a minute); each test gets halls with data folders of its own from ``installed.hall``.
Checks of the installed command's other work (backups, restores, upgrades) belong here
too and take the same fixtures.
"""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.integration.halls import Hall, HttpPhone, hall_env
from tests.integration.pads import kop_deal, new_key

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "tests" / "fixtures" / "events"
# None of these may come with the app: they are the dev and load groups' top packages.
DEVELOPMENT_TOOLS = {
    "pytest",
    "pytest-django",
    "hypothesis",
    "factory-boy",
    "ruff",
    "mypy",
    "django-stubs",
    "playwright",
    "import-linter",
    "locust",
}


def run(*command: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed:\n{done.stderr[-4000:]}"
    return done.stdout


def clean_checkout(into: Path) -> Path:
    """What a fresh clone of this checkout holds: the files git tracks or would track
    (changes not yet committed included), none of the ignored ones (.venv, databases,
    collected static files)."""
    listed = run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


@dataclass(frozen=True)
class Installed:
    """A virtual environment with the wheel installed, and nothing else of the project."""

    wheel: Path
    venv: Path

    @property
    def tablescore(self) -> Path:
        return self.venv / "bin" / "tablescore"

    def packages(self) -> set[str]:
        listed = run(self.venv / "bin" / "python", "-m", "pip", "list", "--format=freeze")
        return {line.split("==")[0].lower() for line in listed.splitlines()}

    def hall(self, home: Path, log: Path) -> Hall:
        """A hall of this installation with the data folder ``home`` (SQLite there)."""
        return Hall([str(self.tablescore)], hall_env(home), log)


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Installed:
    work = tmp_path_factory.mktemp("installed")
    source = clean_checkout(work / "checkout")
    # pip builds with the backend pyproject.toml names, fetched like any package (the
    # machine's package index: no network needed where it is local).
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", work / "dist", source)
    (wheel,) = (work / "dist").glob("tablescore-*.whl")
    venv = work / "venv"
    run(sys.executable, "-m", "venv", venv)
    # The wheel's own pins, every other package as the runtime lock has it.
    pip = [venv / "bin" / "python", "-m", "pip", "install", "-q"]
    run(*pip, "-c", ROOT / "requirements.lock", wheel, cwd=work)
    return Installed(wheel, venv)


@pytest.fixture
def hall(installed, tmp_path) -> Iterator[Hall]:
    server = installed.hall(tmp_path / "home", tmp_path / "hall.log")
    yield server
    server.close()


def test_the_wheel_holds_the_templates_static_files_catalogues_and_migrations(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert "config/resources/templates/base.html" in names
    assert "config/resources/static/js/pad.js" in names
    for language in ("pl", "ru", "et"):
        assert f"config/resources/locale/{language}/LC_MESSAGES/django.mo" in names
    for app in ("clubs", "ops", "scoring", "tournaments"):
        assert f"{app}/migrations/0001_initial.py" in names
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/")) or n.endswith(".po")]


def test_the_installed_environment_has_no_development_tool(installed):
    packages = installed.packages()
    assert {"tablescore", "django", "gunicorn", "whitenoise"} <= packages
    assert not packages & DEVELOPMENT_TOOLS


def test_a_deal_saved_in_the_installed_hall_is_there_after_a_restart(hall):
    home = Path(hall.env["TABLESCORE_HOME"])
    hall.start()
    (table,) = hall.tables(1)
    phone = HttpPhone(hall, table)
    answer = phone.save(kop_deal(64), expected_number=1, submission_key=new_key())
    assert answer.outcome == "saved", answer
    assert hall.stop() == 0  # Ctrl+C: a clean stop
    printed = hall.log.read_text()
    assert f"Phones at the tables open: {hall.base}/" in printed
    assert "█" in printed  # and its QR code

    hall.start()
    assert [deal["declarer_points"] for deal in phone.sheet()["deals"]] == [64]
    # The compiled catalogues came along: the page in Polish.
    assert "Turnieje" in phone.request("GET", "/", **{"Accept-Language": "pl"}).html
    assert hall.stop() == 0

    assert (home / "db.sqlite3").is_file()
    assert stat.S_IMODE((home / "secret_key").stat().st_mode) == 0o600
    assert "Listening at" in (home / "logs" / "tablescore.log").read_text()


def test_the_secret_key_is_made_once_and_kept(installed, tmp_path):
    hall = installed.hall(tmp_path / "home", tmp_path / "hall.log")
    check = "from django.conf import settings; print(settings.SECRET_KEY)"
    first = hall.manage("shell", "-c", check).strip().splitlines()[-1]
    assert hall.manage("shell", "-c", check).strip().splitlines()[-1] == first
    assert first == (tmp_path / "home" / "secret_key").read_text().strip()


def test_a_backup_restored_into_a_new_data_folder_exports_the_same_bytes(installed, tmp_path):
    """``tablescore backup`` while the hall serves; ``tablescore restore`` into a new data
    folder; the table's scoresheet exports (JSON and CSV) and a finished tournament's event
    file byte for byte as before."""
    first = installed.hall(tmp_path / "home", tmp_path / "hall.log")
    backup = tmp_path / "usb" / "club.zip"
    try:
        first.start()
        (table,) = first.tables(1)
        phone = HttpPhone(first, table)
        for number, points in enumerate((64, 40), start=1):
            answer = phone.save(kop_deal(points), expected_number=number, submission_key=new_key())
            assert answer.outcome == "saved", answer
        # A finished tournament too, from the format's first worked example: its event file.
        imported = first.manage("event", "import", str(EVENTS / "example-1-input.json"))
        (event,) = [
            f"{line.split()[-1]}event.json"
            for line in imported.splitlines()
            if line.startswith("imported: /tournaments/")
        ]
        assert str(backup) in first.manage("backup", str(backup))  # the hall still serving
        exports = [f"/sessions/{table.pk}/export.json", f"/sessions/{table.pk}/export.csv", event]
        before = [phone.request("GET", path) for path in exports]
        assert [a.status for a in before] == [200, 200, 200]
        before = [a.html for a in before]
        assert '"rounds"' in before[2]
        assert first.stop() == 0
    finally:
        first.close()

    second = installed.hall(tmp_path / "new-home", tmp_path / "new-hall.log")
    try:
        assert "Restored the backup" in second.manage("restore", str(backup))
        second.start()
        phone = HttpPhone(second, table)
        after = [phone.request("GET", path).html for path in exports]
        assert after == before
        assert second.stop() == 0
    finally:
        second.close()
    assert (tmp_path / "new-home" / "db.sqlite3").is_file()
