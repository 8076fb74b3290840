"""Redis down, the hall goes on: a real server whose REDIS_URL points where nothing listens.

The server (``runserver`` in a subprocess, on the test database) must let a director log in,
open a table link and save deals; ``/health`` answers 503 naming Redis and the standings
page says the standings will update later. The recomputes wait in the database outbox and
the real worker (on the live Redis) sends and runs them once it beats.
"""

from __future__ import annotations

import http.cookiejar
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse

from ops.models import TaskOutbox
from scoring import profile_services
from scoring.games.kop.models import KopDeal
from tests.factories import ClubFactory, PlayerFactory
from tests.integration.conftest import wait_for
from tournaments import services
from tournaments.models import StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
NOWHERE = "redis://127.0.0.1:6390/0"  # nothing listens there


class Browser:
    """A phone: cookies kept, CSRF token sent, redirects followed."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "") or ""

    def get(self, path: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict[str, object]) -> tuple[int, str]:
        body = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": self.cookie("csrftoken"), **data}, doseq=True
        ).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers={"Referer": self.base + path}
        )
        return self._open(request)

    def _open(self, request: urllib.request.Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


@pytest.fixture
def server_without_redis(tmp_path):
    db = connection.settings_dict
    user, host, port = db["USER"] or "postgres", db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        http_port = probe.getsockname()[1]
    log = tmp_path / "server.log"
    env = {
        **os.environ,
        # The test settings only for their password hasher (the users were made with it).
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": f"postgres://{user}@{host}:{port}/{db['NAME']}",
        "REDIS_URL": NOWHERE,
    }
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{http_port}"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{http_port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"server exited:\n{log.read_text()}", pytrace=False)
        try:
            with socket.create_connection(("127.0.0.1", http_port), timeout=1):
                break
        except OSError:
            time.sleep(0.2)
    yield base
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
    connection.close()


def test_the_hall_works_with_redis_down_and_standings_catch_up(
    worker, director, server_without_redis
):
    from scoring.models import RuleProfile

    profile_services.profile_sync_builtin()
    club = ClubFactory()
    tournament = services.tournament_create(
        name="Outage Cup",
        game="kop",
        profile_version=RuleProfile.objects.get(slug="kop-koscian").current,
        rounds=1,
        deals_per_round=4,
        club=club,
        seed=3,
    )
    for i in range(4):
        entry = services.registration_add(
            tournament=tournament, player=PlayerFactory(club=club, name=f"Q{i + 1}")
        )
        services.registration_check_in(registration=entry)
    rnd = services.round_generate(tournament=tournament)
    table = rnd.tables.select_related("session").get()
    base = server_without_redis

    # /health names Redis.
    status, body = Browser(base).get("/health")
    assert status == 503 and "Redis unreachable" in body

    # A director logs in.
    director_phone = Browser(base)
    assert director_phone.get("/accounts/login/")[0] == 200
    status, page = director_phone.post(
        "/accounts/login/", {"username": director.username, "password": "pw-secret-123"}
    )
    assert status == 200 and "Log out" in page

    # A player's phone opens the table link and saves a deal.
    phone = Browser(base)
    link = reverse("scoring:table_link", kwargs={"token": table.session.entry_token})
    assert phone.get(link)[0] == 200  # "which seat are you?"
    assert phone.post(link, {"seat": "1"})[0] == 200
    add = reverse("scoring:deal_add", kwargs={"pk": table.session_id})
    deal = {"contract": "normal", "declarers": ["1", "3"], "doublings": "1"}
    status, _page = phone.post(add, {**deal, "declarer_points": "60", "confirm": "on"})
    assert status == 200, _page[:2000]
    assert KopDeal.objects.filter(session=table.session).count() == 1

    # The recompute waits in the outbox; the standings page says so.
    assert TaskOutbox.objects.filter(tournament_id=tournament.pk).exists()
    status, page = Browser(base).get(f"/tournaments/{tournament.slug}/standings/")
    assert status == 200 and "standings will update later" in page

    # The worker (on the live broker) beats: it sends what waited and runs it.
    from ops.tasks import worker_heartbeat

    worker_heartbeat.delay()
    tournament = Tournament.objects.get(pk=tournament.pk)
    wait_for(
        lambda: StandingsSnapshot.objects.filter(
            tournament=tournament, results_version=tournament.results_version
        ).exists(),
        timeout=60,
    )
    assert not TaskOutbox.objects.exists()
