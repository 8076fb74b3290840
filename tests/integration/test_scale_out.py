"""Two app servers and two Celery workers against one PostgreSQL and one Redis behave as
one: deals entered through both servers at once are each stored once with numbers
without gaps, both servers show the same table, and the standings converge to one
snapshot per results version that equals a recomputation from scratch.

Nothing a request depends on is kept per process: sessions and table-link grants are
in the database, the role cache in Redis, the deal tally on the session row (read under
its lock), and the in-process caches (``scoring.games.kop._RULES_CACHE``, the Vint rules
and pad choices) hold parsed copies of rule profile versions, which never change.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from scoring.games.kop.models import KopDeal
from scoring.models import DealHistory
from tests.actors import DIRECTOR_ACCEPTS
from tests.factories import ClubFactory, RoundFactory, TournamentFactory
from tests.integration.conftest import wait_for
from tests.integration.pads import kop_deal, new_key
from tournaments import services
from tournaments.models import StandingsSnapshot, Tournament
from tournaments.standings import standings_compute

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
DEALS_EACH = 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _up(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"{url} exited at start:\n{log.read_text()}", pytrace=False)
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"{url} did not answer within 60 s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def cluster(celery_worker_process, django_db_blocker, tmp_path_factory):
    """Two gunicorn app servers and a second Celery worker (the session's worker is the
    first) on the test database; yields the two base URLs."""
    from django.db import connection

    with django_db_blocker.unblock():
        db = connection.settings_dict
    url = (
        f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:"
        f"{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": url,
        "REDIS_URL": settings.REDIS_URL,
    }
    logs = tmp_path_factory.mktemp("cluster")
    bin_dir = Path(sys.executable).parent
    procs: list[subprocess.Popen] = []
    hosts = []
    try:
        worker_log = logs / "worker2.log"
        with open(worker_log, "w") as out:
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
                     "--without-gossip", "--without-mingle", "--hostname=it2@%h"],
                    cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                )
            )  # fmt: skip
        for i in range(2):
            port = _free_port()
            log = logs / f"app{i}.log"
            with open(log, "w") as out:
                proc = subprocess.Popen(
                    [str(bin_dir / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}",
                     "--workers", "2", "--threads", "2"],
                    cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                )  # fmt: skip
            procs.append(proc)
            hosts.append(f"http://127.0.0.1:{port}")
            _up(hosts[-1], proc, log)
        yield hosts
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


class RemotePhone:
    """A browser at a table over real HTTP: cookies, the CSRF token, the table link."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def _csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def request(self, path: str, data: dict | None = None, headers: dict | None = None):
        body = urllib.parse.urlencode(data or {}, doseq=True).encode() if data is not None else None
        req = urllib.request.Request(self.base + path, data=body, headers=headers or {})
        if body is not None:
            req.add_header("X-CSRFToken", self._csrf())
        try:
            return self.opener.open(req, timeout=30)
        except urllib.error.HTTPError as exc:
            return exc

    def open_link(self, token: str, seat: int) -> RemotePhone:
        self.request(f"/t/{token}/").read()
        assert self.request(f"/t/{token}/", {"seat": str(seat)}).status == 302
        return self

    def save(self, session_id: int, deal: dict, key: str) -> tuple[str, str]:
        response = self.request(
            f"/sessions/{session_id}/deals/",
            {**deal, "submission_key": key},
            {"HX-Request": "true"},
        )
        assert response.status == 200, response.read()[:500]
        return response.headers["X-Deal-Outcome"], response.headers.get("X-Deal-Number", "")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def _totals(page: str) -> list[str]:
    pad = page[page.index('id="pad"') :]
    return re.findall(r"data-total-seat=\"\d\">([^<]+)<", pad)


def test_two_app_servers_and_two_workers_behave_as_one(worker, cluster):

    tournament = TournamentFactory(
        name="Two servers",
        rounds=1,
        deals_per_round=2 * DEALS_EACH,
        club=ClubFactory(),
        seed=5,
        field=[f"S{i + 1:02d}" for i in range(16)],
    )
    tables = list(RoundFactory(tournament=tournament).tables.select_related("session"))

    # At every table one phone through each server, all tables and phones at once.
    outcomes: list[tuple[int, str, str]] = []
    keys: dict[int, list[str]] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(2 * len(tables))

    def enter(table, base: str, seat: int) -> None:
        try:
            phone = RemotePhone(base).open_link(table.session.entry_token, seat)
            mine = [new_key() for _ in range(DEALS_EACH)]
            keys.setdefault(table.pk, []).extend(mine)
            start.wait(timeout=60)
            for n, key in enumerate(mine):
                outcomes.append((table.pk, *phone.save(table.session_id, kop_deal(40 + n), key)))
            # The same form sent again through the other server: stored once.
            other = RemotePhone(cluster[1 - cluster.index(base)])
            other.open_link(table.session.entry_token, seat + 2)
            outcomes.append((table.pk, *other.save(table.session_id, kop_deal(40), mine[0])))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=enter, args=(t, base, seat))
        for t in tables
        for seat, base in ((1, cluster[0]), (2, cluster[1]))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors

    for table in tables:
        mine = [o for o in outcomes if o[0] == table.pk]
        assert sorted(o[1] for o in mine).count("saved") == 2 * DEALS_EACH
        assert sorted(o[1] for o in mine).count("replayed") == 2
        numbers = list(
            KopDeal.objects.filter(session=table.session)
            .order_by("number")
            .values_list("number", flat=True)
        )
        assert numbers == list(range(1, 2 * DEALS_EACH + 1))  # each once, no gaps
        created = DealHistory.objects.filter(session=table.session, action="created")
        assert sorted(created.values_list("submission_key", flat=True)) == sorted(keys[table.pk])
        # Both servers show the table alike (its tally is on the row both read).
        pages = [RemotePhone(base).request(f"/sessions/{table.session_id}/").read().decode()
                 for base in cluster]  # fmt: skip
        assert _totals(pages[0]) == _totals(pages[1]) != []

    for table in tables:
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="paper agrees")

    def caught_up():
        t = Tournament.objects.get(pk=tournament.pk)
        snap = StandingsSnapshot.objects.filter(tournament=t).order_by("-results_version").first()
        return snap if snap and snap.results_version == t.results_version else None

    snapshot = wait_for(caught_up, timeout=90)
    versions = list(
        StandingsSnapshot.objects.filter(tournament=tournament).values_list(
            "results_version", flat=True
        )
    )
    assert len(versions) == len(set(versions))  # one snapshot per results version
    assert snapshot.data == standings_compute(tournament=Tournament.objects.get(pk=tournament.pk))
