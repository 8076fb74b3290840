"""A hall server in a process of its own, and phones that reach it over HTTP.

Vocabulary
----------
hall
    ``tablescore hall`` started by a test: the checkout's (``python -m config.cli``) or an
    installed one's (``<venv>/bin/tablescore``), on a free port of 127.0.0.1, with a data
    folder of the test's (``TABLESCORE_HOME``). It runs in a session of its own, so
    ``kill`` can SIGKILL it whole (the gunicorn arbiter and its worker at once, as a
    crash or a power cut would).
table
    A Kop table made in the hall's database by ``tables`` (through ``tablescore shell``,
    so it works against an installed package too): its id and its table link's token.
phone
    ``HttpPhone``: one browser at a table, with its own cookies, that opened the table
    link and chose seat 1, then saves deals as the pad does: an htmx POST carrying the
    CSRF token, the deal's ``expected_number`` and a ``submission_key`` of its own
    (``pads.new_key``). The answer's ``X-Deal-Outcome`` says ``saved`` or ``replayed``
    (that key was stored already); a connection that breaks is no answer at all.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

from tests.integration.pads import HTMX, Answer

# Made in the hall's own database by its own code: a club, four players and Kop tables
# (the built-in Kościan rules). Prints one JSON line: [[id, token], ...].
TABLES_CODE = """
import json
from clubs.models import Club
from clubs.services import player_create
from scoring import services
from scoring.models import RuleProfile
from scoring.profile_services import profile_sync_builtin

profile_sync_builtin()
club, _ = Club.objects.get_or_create(name="Hall test club")
players = [player_create(club=club, name=f"Player {n}") for n in range(1, 5)]
version = RuleProfile.objects.get(slug="kop-koscian").current
made = [
    services.session_create(game="kop", profile_version=version, players=players, title=f"T{n}")
    for n in range({count})
]
print(json.dumps([[s.pk, s.entry_token] for s in made]))
"""

# Broken connections: the server died under the request, or was not there.
NO_ANSWER = (OSError, http.client.HTTPException)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def hall_env(home: Path, **overrides: str) -> dict[str, str]:
    """The environment of a hall process: this one's, less the settings the test suite
    runs with, and the data folder ``home`` (SQLite there unless DATABASE_URL is given)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "TABLESCORE_", "_TABLESCORE", "CELERY_"))
    }
    env.update(
        TABLESCORE_HOME=str(home),
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL="",
        REDIS_URL="",
    )
    env.update(overrides)
    return env


@dataclass(frozen=True)
class Table:
    pk: int
    token: str


class Hall:
    """One ``tablescore`` installation's hall server; ``command`` runs ``tablescore``."""

    def __init__(self, command: list[str], env: dict[str, str], log: Path) -> None:
        self.command, self.env, self.log = command, env, log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def manage(self, *args: str) -> str:
        """``tablescore ARGS`` (a management command); its standard output."""
        done = subprocess.run(
            [*self.command, *args], env=self.env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, f"tablescore {args[0]} failed:\n{done.stderr}"
        return done.stdout

    def tables(self, count: int) -> list[Table]:
        out = self.manage("shell", "-c", TABLES_CODE.replace("{count}", str(count)))
        return [Table(pk, token) for pk, token in json.loads(out.strip().splitlines()[-1])]

    def start(self, timeout: float = 300.0) -> None:
        """Start ``tablescore hall`` and wait until ``/health`` answers 200."""
        assert self.process is None, "the hall is running already"
        command = [*self.command, "hall", "--host", "127.0.0.1", "--port", str(self.port)]
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                command, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"tablescore hall exited:\n{self.log.read_text()[-4000:]}")
            try:
                with urllib.request.urlopen(f"{self.base}/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except (*NO_ANSWER, urllib.error.URLError):
                pass
            time.sleep(0.2)
        self.kill()
        raise AssertionError(f"no answer within {timeout} s:\n{self.log.read_text()[-4000:]}")

    def _signal(self, sig: signal.Signals, wait: float) -> int:
        assert self.process is not None, "the hall is not running"
        with contextlib.suppress(ProcessLookupError):  # it ended already
            os.killpg(self.process.pid, sig)
        try:
            code = self.process.wait(timeout=wait)
        finally:
            self.process = None
        return code

    def kill(self) -> None:
        """SIGKILL the server and its worker at once: nothing gets to finish or clean up."""
        self._signal(signal.SIGKILL, 30)

    def stop(self) -> int:
        """Stop as the volunteer does (Ctrl+C: SIGINT to the whole session); its exit code."""
        return self._signal(signal.SIGINT, 60)

    def close(self) -> None:
        if self.process is not None:
            self.kill()


class HttpPhone:
    """A browser at one table of a hall, over HTTP (see the module's docstring)."""

    def __init__(self, hall: Hall, table: Table, *, seat: int = 1) -> None:
        self.hall, self.table = hall, table
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        link = f"/t/{table.token}/"
        self.request("GET", link)  # the seat question, and the CSRF cookie
        answer = self.request("POST", link, {"seat": str(seat)})
        assert answer.status == 200 and f"/sessions/{table.pk}/" in answer.html, answer

    def csrf_token(self) -> str:
        return next(c.value or "" for c in self.cookies if c.name == "csrftoken")

    def request(
        self, method: str, path: str, data: dict[str, Any] | None = None, **headers: str
    ) -> Answer:
        """One request (redirects followed); raises one of ``NO_ANSWER`` if none came."""
        body = None
        if data is not None:
            data = {**data, "csrfmiddlewaretoken": self.csrf_token()}
            body = urllib.parse.urlencode(data, doseq=True).encode()
        request = urllib.request.Request(
            self.hall.base + path, data=body, method=method, headers=headers
        )
        try:
            response = self.opener.open(request, timeout=20)
        except urllib.error.HTTPError as error:  # a 4xx or 5xx is an answer
            response = error
        with response:
            return Answer(
                status=response.status,
                outcome=response.headers.get("X-Deal-Outcome"),
                number=response.headers.get("X-Deal-Number"),
                html=response.read().decode(),
            )

    def save(self, facts: dict[str, Any], *, expected_number: int, submission_key: str) -> Answer:
        """Tap save on the pad."""
        data = {**facts, "expected_number": str(expected_number), "submission_key": submission_key}
        return self.request("POST", f"/sessions/{self.table.pk}/deals/", data, **HTMX)

    def sheet(self) -> dict[str, Any]:
        """The table's scoresheet as its JSON export."""
        answer = self.request("GET", f"/sessions/{self.table.pk}/export.json")
        assert answer.status == 200, answer
        return dict(json.loads(answer.html))
