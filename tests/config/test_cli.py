"""The ``tablescore`` command's pieces (config/cli.py), the hall's host names and the
SQLite settings. The command run for real, installed and as a server, is in
tests/integration/test_installed.py and test_hall_crash.py."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.db.backends.sqlite3.base import DatabaseWrapper
from django.http.request import validate_host
from django.test import override_settings

from config import cli
from config.hall import HallHosts, lan_address

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    """What ``prepare_home`` sets is put back after the test."""
    for name in ("TABLESCORE_HOME", "DJANGO_DEBUG", "DJANGO_SECRET_KEY", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "config.test_settings")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    return monkeypatch


def test_the_data_folder_follows_xdg_and_else_the_home_folder(clean_env, tmp_path):
    assert cli.default_home() == tmp_path / "user" / ".local" / "share" / "tablescore"
    clean_env.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert cli.default_home() == tmp_path / "data" / "tablescore"
    clean_env.setenv("XDG_DATA_HOME", "relative/ignored")  # the spec: only absolute paths
    assert cli.default_home() == tmp_path / "user" / ".local" / "share" / "tablescore"


def test_the_secret_key_is_made_once_readable_by_its_owner_only(tmp_path):
    key = cli.secret_key(tmp_path)
    path = tmp_path / cli.KEY_FILE
    assert len(key) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    assert cli.secret_key(tmp_path) == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_damaged_key_file_stops_with_what_to_do(tmp_path):
    (tmp_path / cli.KEY_FILE).write_text("short\n")
    with pytest.raises(SystemExit, match="Delete it and start again"):
        cli.secret_key(tmp_path)


def test_the_command_makes_the_data_folder_and_runs_in_production(clean_env, tmp_path):
    clean_env.setenv("TABLESCORE_HOME", str(tmp_path / "home"))
    home = cli.prepare_home()
    assert (home / "logs").is_dir()
    assert cli.os.environ["DJANGO_DEBUG"] == "false"
    assert cli.os.environ["DJANGO_SECRET_KEY"] == (home / cli.KEY_FILE).read_text().strip()


def test_other_arguments_go_to_djangos_management_commands(clean_env, tmp_path):
    clean_env.setenv("TABLESCORE_HOME", str(tmp_path / "home"))
    seen: list[list[str]] = []
    clean_env.setattr(
        "django.core.management.execute_from_command_line", lambda argv: seen.append(argv)
    )
    clean_env.setattr(cli, "hall", lambda args, home: seen.append(["HALL", *args]) or 0)
    assert cli.main(["event", "score", "-", "--check"]) == 0
    assert cli.main(["hall", "--port", "9000"]) == 0
    assert seen == [["tablescore", "event", "score", "-", "--check"], ["HALL", "--port", "9000"]]


def test_the_installed_command_runs_a_management_command(tmp_path):
    """The console script's function as a program: `tablescore check` in a fresh process
    (a data folder of its own is made on the way)."""
    done = subprocess.run(
        [sys.executable, "-c", "from config.cli import main; main(['check', '--deploy'])"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "TABLESCORE_HOME": str(tmp_path / "home")},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "System check identified" in done.stdout + done.stderr


def test_help_names_the_hall_and_the_data_folder(clean_env, tmp_path, capsys):
    clean_env.setenv("TABLESCORE_HOME", str(tmp_path / "home"))
    clean_env.setattr("django.core.management.execute_from_command_line", lambda argv: None)
    cli.main(["help"])
    out = capsys.readouterr().out
    assert "tablescore hall [--port N]" in out
    assert str(tmp_path / "home") in out


def test_hall_options_default_to_port_8000_on_every_interface():
    options = cli.hall_options([])
    assert (options.port, options.host) == (8000, "0.0.0.0")
    assert cli.hall_options(["--port", "8080"]).port == 8080
    with pytest.raises(SystemExit):
        cli.hall_options(["--port", "eighty"])


def test_the_hall_server_is_one_preloaded_worker_with_threads():
    config = cli.server_settings(bind="0.0.0.0:8000", threads=8)
    assert config["workers"] == 1
    assert config["worker_class"] == "gthread"
    assert config["threads"] == 8
    assert config["preload_app"] is True


def test_static_files_are_collected_again_only_when_their_sources_change(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path / "static"):
        assert cli.collect_static() is True
        assert (tmp_path / "static" / "js" / "pad.js").is_file()
        assert cli.collect_static() is False
        (tmp_path / "static" / ".collected").write_text("sources of an older release")
        assert cli.collect_static() is True


def test_hall_hosts_are_this_machines_names_and_lan_address():
    hosts = HallHosts()
    for host in ("127.0.0.1", "localhost", lan_address()):
        assert validate_host(host, hosts), host
    assert not validate_host("attacker.example", hosts)
    assert hosts  # Django's deploy check reads an empty ALLOWED_HOSTS as a mistake


def test_a_sqlite_database_file_keeps_a_write_ahead_log(settings, tmp_path, django_db_blocker):
    """The settings' SQLite options (the django tier runs on SQLite) on a database file."""
    database = {**settings.DATABASES["default"], "NAME": str(tmp_path / "db.sqlite3")}
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    wrapper = DatabaseWrapper(database, "hall")
    try:
        with django_db_blocker.unblock(), wrapper.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode")
            assert cursor.fetchone()[0] == "wal"
            cursor.execute("PRAGMA synchronous")
            assert cursor.fetchone()[0] == 2  # FULL
            cursor.execute("PRAGMA busy_timeout")
            assert cursor.fetchone()[0] == 20_000
    finally:
        wrapper.close()


def test_a_kept_database_connection_is_checked_before_reuse(settings):
    """After a laptop's sleep a PostgreSQL connection may be gone: a request opens a new
    one instead of failing."""
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
