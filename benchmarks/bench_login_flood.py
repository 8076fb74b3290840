"""Deal-save latency on a real server, alone and during floods of requests.

A production-shaped server (gunicorn as ``make serve`` starts it: 3 sync workers,
``DJANGO_DEBUG=false`` in hall mode, the real password hasher; a SQLite file) takes deal
saves from one scorer's phone: first alone, then while 9 clients post wrong passwords as
fast as they can, once for the director's user name and once with a new, made-up user
name on every guess. django-axes locks the user name at that address after a few
failures, and the address itself after ``AXES_ADDRESS_FAILURE_LIMIT`` failures whatever
the names (``config.security.AddressThrottledHandler``); the rest are refused before any
hashing, so a flood costs database lookups, not PBKDF2 runs on the workers deal entry
needs. Each flood starts from no recorded failures and is measured once its lockout
holds. Target: a flood at most doubles the median deal save. For reference, the same
clients then ask for a static file: what any flood costs this machine, whatever the
server does with the requests.
"""

from __future__ import annotations

import http.cookiejar
import itertools
import multiprocessing
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from served import ROOT, gunicorn, start  # noqa: E402

N = int(os.environ.get("BENCH_FLOOD_SAVES", "60"))
FLOODERS = 9
TARGET = 2.0
# Each flood's wait for its lockout to hold (the first guesses are hashed).
LOCKOUT_WAIT_SECONDS = 120
PASSWORD = "bench-" + secrets.token_urlsafe(9)

SEED = f"""
from django.contrib.auth import get_user_model
from clubs.roles import make_director
from scoring import profile_services
from scoring import services
from scoring.models import RuleProfile
from tests.factories import ClubFactory, PlayerFactory
profile_services.profile_sync_builtin()
club = ClubFactory()
players = [PlayerFactory(club=club) for _ in range(4)]
session = services.session_create(game="kop",
    profile_version=RuleProfile.objects.get(slug="kop-koscian").current,
    players=players, planned_deals=10000)
User = get_user_model()
make_director(User.objects.create_user("bench-scorer", password="{PASSWORD}"), club)
make_director(User.objects.create_user("director", password="{PASSWORD}"), club)
print(session.pk)
"""


class Phone:
    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "") or ""

    def open(self, path: str, data: dict[str, object] | None = None, **headers: str) -> int:
        body = None
        if data is not None:
            body = urllib.parse.urlencode(
                {"csrfmiddlewaretoken": self.csrf(), **data}, doseq=True
            ).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers={"Referer": self.base + path, **headers}
        )
        try:
            with self.opener.open(request, timeout=60) as response:
                response.read()
                return int(response.status)
        except urllib.error.HTTPError as error:
            error.read()
            return int(error.code)


# The floods: (what the line says, what each request is). The last is the reference: a
# flood of the cheapest request the server answers (a static file, from whitenoise before
# any view), which no login handling could undercut.
FLOODS = {
    "name": "a login flood on one user name",
    "made-up": "a login flood on a new made-up user name each guess",
    "static": "a flood of a static file (reference: the cheapest request)",
}
STATIC = "/static/img/icon.svg"


def guess_name(kind: str, n: int) -> str:
    return f"guess-{n}" if kind == "made-up" else "director"


def flood(base: str, kind: str, stop: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    """9 clients guessing passwords (the director's, or a made-up name's: a new one each
    guess), or asking for a static file. Each sends bytes on a raw socket: the clients
    share this machine's cores with the server, and a urllib client would spend more CPU
    per request than the server does."""
    host, port = urllib.parse.urlsplit(base).hostname, urllib.parse.urlsplit(base).port
    phone = Phone(base)
    phone.open("/accounts/login/")
    token = phone.csrf()
    head = (
        f"POST /accounts/login/ HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Cookie: csrftoken={token}\r\nReferer: {base}/accounts/login/\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
    )
    close = "Connection: close\r\n\r\n"
    numbers = itertools.count()

    def request() -> bytes:
        if kind == "static":
            return f"GET {STATIC} HTTP/1.1\r\nHost: {host}:{port}\r\n{close}".encode()
        username = guess_name(kind, next(numbers))
        body = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token, "username": username, "password": "guess"}
        ).encode()
        return f"{head}Content-Length: {len(body)}\r\n{close}".encode() + body

    def one() -> None:
        while not stop.is_set():
            with socket.create_connection((host, port), timeout=60) as conn:
                conn.sendall(request())
                while conn.recv(65536):
                    pass

    threads = [threading.Thread(target=one, daemon=True) for _ in range(FLOODERS)]
    for t in threads:
        t.start()
    stop.wait()


def locked_out(base: str, kind: str) -> float | None:
    """Seconds until a guess like the flood's is refused (429), or None if none was."""
    probe = Phone(base)
    probe.open("/accounts/login/")
    began = time.perf_counter()
    for n in itertools.count():
        guess = {"username": guess_name(kind, 10**6 + n), "password": "guess"}
        if probe.open("/accounts/login/", guess) == 429:
            return time.perf_counter() - began
        if time.perf_counter() - began > LOCKOUT_WAIT_SECONDS:
            return None
        time.sleep(0.5)
    return None


def saves(phone: Phone, session_pk: int, n: int) -> list[float]:
    deal = {"contract": "normal", "declarers": ["1", "3"], "doublings": "1"}
    times = []
    for i in range(n):
        start = time.perf_counter()
        status = phone.open(
            f"/sessions/{session_pk}/deals/",
            {**deal, "declarer_points": str(60 + i % 10)},
            **{"HX-Request": "true"},
        )
        times.append((time.perf_counter() - start) * 1000)
        assert status == 200, status
    return times


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="tablescore-flood-"))
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_", "_TABLESCORE")) and k != "REDIS_URL"
    }
    env = {
        **clean,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_HALL_HTTP": "true",
        "_TABLESCORE_HALL_WARNED": "1",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{tmp / 'flood.sqlite3'}",
    }

    def manage(*args: str) -> str:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    manage("migrate", "--noinput")
    manage("collectstatic", "--noinput")
    session_pk = int(manage("shell", "-c", SEED).strip().splitlines()[-1])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    with ExitStack() as stack:
        start(stack, gunicorn(f"127.0.0.1:{port}"), env, tmp / "gunicorn.log")
        for _ in range(150):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        scorer = Phone(base)
        scorer.open("/accounts/login/")
        assert scorer.open(
            "/accounts/login/", {"username": "bench-scorer", "password": PASSWORD}
        ) in (200, 302)
        saves(scorer, session_pk, 10)  # warm-up
        assert Phone(base).open(STATIC) == 200
        figures = {}
        for kind in FLOODS:
            # Saves alone just before each flood: the machine's other load drifts.
            alone = statistics.median(saves(scorer, session_pk, N))
            manage("axes_reset")  # each flood starts from no recorded failures
            stop = multiprocessing.Event()
            flooder = multiprocessing.Process(target=flood, args=(base, kind, stop))
            flooder.start()
            if kind == "static":
                time.sleep(2)
                lockout = ""
            else:
                waited = locked_out(base, kind)
                lockout = (
                    f" (locked out after {waited:.0f} s)"
                    if waited is not None
                    else " (never locked out)"
                )
            during = statistics.median(saves(scorer, session_pk, N))
            stop.set()
            flooder.join(timeout=30)
            figures[kind] = (during, alone, lockout)
    print(
        f"figure, floor, ratio, target (deal-save medians over {N} saves on gunicorn, "
        f"3 workers, SQLite; floor: saves alone just before; {FLOODERS} clients flooding)",
        flush=True,
    )
    for kind, what in FLOODS.items():
        during, alone, lockout = figures[kind]
        ratio = during / alone if alone else float("inf")
        mark = "ok" if ratio <= TARGET else "over"
        target = "no target" if kind == "static" else f"target <= {TARGET:.0f}x [{mark}]"
        print(
            f"Deal save during {what}{lockout}: {during:.1f} ms, "
            f"floor {alone:.1f} ms, ratio {ratio:.1f}x, {target}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
