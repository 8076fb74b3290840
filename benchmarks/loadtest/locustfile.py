"""The load test's users (``make loadtest`` runs this headless; see ``run.py``).

``Scorer``: one phone per table: opens the table link, then saves Kop deals back to
back (the pad's htmx post). ``Accepter``: a director who, once the run is well under
way, accepts one table with a reason (that table's phone stops: its table is locked).
``Reader``: a public phone on the standings page, polling its status now and then.
Requests go round-robin to the app servers in ``LOADTEST_HOSTS``.
"""

from __future__ import annotations

import itertools
import json
import os
import time

from locust import HttpUser, between, constant, events, task

PLAN = json.loads(open(os.environ["LOADTEST_PLAN"]).read())  # noqa: SIM115
HOSTS = os.environ["LOADTEST_HOSTS"].split()
ACCEPT_AFTER = float(os.environ.get("LOADTEST_ACCEPT_AFTER", "30"))
DEALS = [
    {"contract": "normal", "declarers": ["1", "3"], "doublings": "1", "declarer_points": "60"},
    {"contract": "cicha", "declarers": ["4"], "doublings": "0", "declarer_points": "70"},
    {"contract": "zolo", "declarers": ["2"], "doublings": "0", "declarer_points": "28"},
]
_tables = itertools.count()
_accepts = itertools.count()
_hosts = itertools.cycle(HOSTS)
ACCEPTED: list[tuple[float, int]] = []  # (when, results version just after it)
START = time.time()


def results_version() -> int:
    """The tournament's results version now (read straight from the database)."""
    import psycopg

    with psycopg.connect(os.environ["LOADTEST_DSN"]) as conn:
        row = conn.execute(
            "SELECT results_version FROM tournaments_tournament WHERE id = %s",
            [PLAN["tournament"]],
        ).fetchone()
    return int(row[0]) if row else 0


class Phone(HttpUser):
    abstract = True
    host = HOSTS[0]

    def on_start(self) -> None:
        self.base = next(_hosts)

    def csrf(self) -> dict[str, str]:
        return {"X-CSRFToken": self.client.cookies.get("csrftoken", "")}


class Scorer(Phone):
    fixed_count = int(os.environ.get("LOADTEST_SCORERS", "98"))
    wait_time = constant(0)

    def on_start(self) -> None:
        super().on_start()
        self.table = PLAN["tables"][next(_tables) % len(PLAN["tables"])]
        link = f"{self.base}/t/{self.table['token']}/"
        self.client.get(link, name="table link")
        self.client.post(link, {"seat": "1"}, headers=self.csrf(), name="table link")
        self.n = 0

    @task
    def save(self) -> None:
        self.n += 1
        with self.client.post(
            f"{self.base}/sessions/{self.table['session']}/deals/",
            DEALS[self.n % len(DEALS)],
            headers={**self.csrf(), "HX-Request": "true"},
            name="deal save",
            catch_response=True,
        ) as response:
            if response.status_code == 403:  # accepted: the table is locked now
                response.success()
                self.stop()
            elif response.headers.get("X-Deal-Outcome") != "saved":
                response.failure(f"outcome {response.headers.get('X-Deal-Outcome')}")


class Accepter(Phone):
    fixed_count = int(os.environ.get("LOADTEST_ACCEPTERS", "50"))
    wait_time = constant(1)

    def on_start(self) -> None:
        super().on_start()
        self.table = PLAN["tables"][next(_accepts) % len(PLAN["tables"])]
        self.client.cookies.set("sessionid", PLAN["director_sessions"][0])
        self.client.get(f"{self.base}/sessions/{self.table['session']}/", name="table page")
        self.done = False

    @task
    def accept(self) -> None:
        if self.done or time.time() - START < ACCEPT_AFTER:
            return
        response = self.client.post(
            f"{self.base}/tournaments/{PLAN['slug']}/tables/{self.table['id']}/accept/",
            {"reason": "load test: the paper sheet agrees"},
            headers=self.csrf(),
            name="acceptance",
            allow_redirects=False,
        )
        if response.status_code == 302:
            ACCEPTED.append((time.time(), results_version()))
        self.done = True


class Reader(Phone):
    fixed_count = int(os.environ.get("LOADTEST_READERS", "500"))
    wait_time = between(2, 6)

    @task(3)
    def standings(self) -> None:
        self.client.get(f"{self.base}/tournaments/{PLAN['slug']}/standings/", name="standings")

    @task(1)
    def poll(self) -> None:
        self.client.get(
            f"{self.base}/tournaments/{PLAN['slug']}/standings/?status=1",
            headers={"HX-Request": "true"},
            name="standings poll",
        )


@events.quitting.add_listener
def _keep_acceptances(environment, **kwargs) -> None:  # type: ignore[no-untyped-def]
    with open(os.environ["LOADTEST_ACCEPTED"], "w") as out:
        json.dump(ACCEPTED, out)
