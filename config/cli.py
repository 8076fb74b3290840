"""The ``tablescore`` command (pyproject.toml's console script).

``tablescore hall [--port N]`` serves a hall from one laptop; any other arguments go to
Django's management commands (``tablescore migrate``, ``tablescore event score FILE``,
``tablescore createsuperuser``).

Every run uses a data folder, ``TABLESCORE_HOME`` (default ``$XDG_DATA_HOME/tablescore``,
else ``~/.local/share/tablescore``): the SQLite database, backups, the secret key made
on the first run (``secret_key``, readable by its owner only) and the logs. The command
runs with ``DJANGO_DEBUG=false`` unless the environment says otherwise.

The hall server is gunicorn (already what ``make serve`` runs; the machines we test on are
Linux): one worker process with threads, which is plenty for a hall (a deal save is a few
milliseconds, a hall makes a couple a second) and keeps SQLite's writers in one process.
gunicorn's arbiter starts a new worker if one dies, and its timeouts follow the monotonic
clock, which stands still while a laptop sleeps: on waking, the server carries on instead
of killing its worker as if it had hung. Database connections are checked before reuse
(``conn_health_checks``), so one dropped during the sleep is opened again.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

USAGE = """tablescore hall [--port N]   serve the hall's phones from this machine (Ctrl+C stops)
tablescore COMMAND [...]      one of the commands below (tablescore help COMMAND)
data folder: {home} (TABLESCORE_HOME)
"""
KEY_FILE = "secret_key"
EVERY_INTERFACE = {"0.0.0.0", "::", ""}
LOG_DIR = "logs"


def default_home() -> Path:
    """Where the data folder is when ``TABLESCORE_HOME`` is not set (XDG base directories)."""
    xdg = os.environ.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "tablescore"


def secret_key(home: Path) -> str:
    """The data folder's secret key, made on the first run (mode 0600) and kept."""
    from django.core.management.utils import get_random_secret_key

    path = home / KEY_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        os.chmod(path, 0o600)
        key = path.read_text().strip()
        if len(key) < 50:
            raise SystemExit(
                f"{path} does not hold a secret key (50 characters or more). "
                "Delete it and start again: a new key signs everyone out, nothing else."
            ) from None
        return key
    key = get_random_secret_key()
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
    return key


def prepare_home() -> Path:
    """The data folder, made if missing, with its key; the environment set to use them."""
    home = Path(os.environ.get("TABLESCORE_HOME") or default_home()).expanduser().resolve()
    (home / LOG_DIR).mkdir(parents=True, exist_ok=True)
    os.environ["TABLESCORE_HOME"] = str(home)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DJANGO_DEBUG", "false")
    if "DJANGO_SECRET_KEY" not in os.environ:
        os.environ["DJANGO_SECRET_KEY"] = secret_key(home)
    return home


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    home = prepare_home()
    if args[:1] == ["hall"]:
        return hall(args[1:], home)
    if args[:1] in ([], ["help"], ["--help"], ["-h"]):
        print(USAGE.format(home=home))
    from django.core.management import execute_from_command_line

    execute_from_command_line(["tablescore", *args])
    return 0


def hall_options(args: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tablescore hall",
        description="Serve the hall's phones from this machine (plain HTTP on the LAN).",
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--host", default="0.0.0.0", help="address to listen on (0.0.0.0: every interface)"
    )
    parser.add_argument(
        "--threads", type=int, default=8, help="requests served at once (8; a hall needs few)"
    )
    return parser.parse_args(args)


def hall(args: Sequence[str], home: Path) -> int:
    """Migrate, collect the static files, print the address and its QR code, then serve
    until stopped (Ctrl+C). With ``REDIS_URL`` a Celery worker (with its beat) runs
    beside the server; without it, background work runs in-process."""
    options = hall_options(args)
    os.environ.setdefault("DJANGO_HALL_HTTP", "true")
    os.environ.setdefault("TABLESCORE_LOG_FILE", str(home / LOG_DIR / "tablescore.log"))

    import django
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    from config.hall import announce

    django.setup()
    from ops.backup import migrations_behind

    print(f"tablescore: data folder {home}; preparing the database ...", flush=True)
    if migrations_behind():
        # A new release, or a new data folder: `upgrade` backs up a database that holds
        # data before migrating it, and checks the result (ops.backup).
        call_command("upgrade")
    collect_static()
    connections.close_all()  # none is carried into the server's worker process
    announce(options.port, None if options.host in EVERY_INTERFACE else options.host)
    worker = _celery_worker(home) if settings.REDIS_URL else None
    try:
        serve(bind=f"{options.host}:{options.port}", threads=options.threads)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
    return 0


def collect_static() -> bool:
    """Collect (and compress) the static files into the data folder, unless the files
    collected last time came from the same sources: a restart then takes seconds, not the
    half minute compressing them takes. True if it collected."""
    import hashlib

    from django.conf import settings
    from django.contrib.staticfiles.finders import get_finders
    from django.core.management import call_command

    sources = hashlib.sha256()
    for finder in get_finders():
        for path, storage in sorted(finder.list([]), key=lambda found: found[0]):
            stat = os.stat(storage.path(path))
            sources.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    stamp = Path(settings.STATIC_ROOT) / ".collected"
    if stamp.is_file() and stamp.read_text() == sources.hexdigest():
        return False
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(sources.hexdigest())
    return True


def _celery_worker(home: Path) -> subprocess.Popen[bytes]:
    log = home / LOG_DIR / "worker.log"
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--beat"]
    command += ["--loglevel=INFO", f"--logfile={log}", "--concurrency=2"]
    command += [f"--schedule={home / 'celerybeat-schedule'}"]
    return subprocess.Popen(command)


def server_settings(*, bind: str, threads: int) -> dict[str, Any]:
    """gunicorn's settings for a hall (see the module's docstring)."""
    return {
        "bind": [bind],
        "workers": 1,
        "worker_class": "gthread",
        "threads": threads,
        # The app is loaded before the worker is forked: a worker that dies is replaced
        # at once, and a broken install fails here, on the volunteer's screen.
        "preload_app": True,
        "timeout": 60,
        "graceful_timeout": 10,
        "control_socket_disable": True,  # gunicorn's runtime control is not needed here
        # Its messages (started, stopped, a worker replaced) go to the terminal, and with
        # the app's to the data folder's log (settings.LOGGING, from TABLESCORE_LOG_FILE).
        "errorlog": "-",
        "loglevel": "info",
    }


def serve(*, bind: str, threads: int) -> None:
    """Run gunicorn in this process until it is stopped."""
    from gunicorn.app.base import BaseApplication

    from config.wsgi import application

    config = server_settings(bind=bind, threads=threads)

    class Hall(BaseApplication):
        def load_config(self) -> None:
            for name, value in config.items():
                self.cfg.set(name, value)

        def load(self) -> Callable[..., Any]:
            return application

    Hall().run()


if __name__ == "__main__":
    sys.exit(main())
