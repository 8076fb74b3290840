"""A hall server killed during a burst of saves loses no deal a phone was told was saved,
and stores none twice when the phones send again (issue 28, item 5).

Real processes: ``tablescore hall`` from this checkout, on SQLite (its data folder's file,
write-ahead log) and on PostgreSQL (the integration tier's test database); phones over
HTTP in threads, each at its own table, saving deals with submission keys of their own.
The server is SIGKILLed (arbiter and worker at once) once some deals are saved, while
the phones keep sending; then it starts again and every phone sends every deal it had
no answer for, two deals it had been told were saved, and the rest of its deals.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.integration.conftest import served_database_url
from tests.integration.halls import NO_ANSWER, Hall, HttpPhone, hall_env
from tests.integration.pads import kop_deal, new_key

pytestmark = pytest.mark.integration

PHONES = 4
DEALS = 16  # each phone's
KILL_AFTER = 12  # saves told, over all phones, before the kill


def points(n: int) -> int:
    """Deal ``n``'s declarer points: they tell a phone's deals apart on its sheet."""
    return 30 + 4 * (n - 1)


@dataclass
class PhoneRun:
    """One phone's deals: its key for each, and which it was told were saved."""

    phone: HttpPhone
    keys: dict[int, str] = field(default_factory=dict)
    told_saved: list[int] = field(default_factory=list)
    unanswered: list[int] = field(default_factory=list)

    def send(self, n: int) -> str | None:
        """Save deal ``n`` (with its key, made once); the outcome, or None if no answer."""
        key = self.keys.setdefault(n, new_key())
        try:
            answer = self.phone.save(kop_deal(points(n)), expected_number=n, submission_key=key)
        except NO_ANSWER:
            return None
        assert answer.status == 200 and answer.number == str(n), (n, answer)
        assert answer.outcome in {"saved", "replayed"}, (n, answer)
        return answer.outcome

    def burst(self, told: threading.Semaphore) -> None:
        """Deals 1, 2, ... until the server stops answering."""
        for n in range(1, DEALS + 1):
            if self.send(n) is None:
                self.unanswered.append(n)
                return
            self.told_saved.append(n)
            told.release()


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    """One data folder for both databases: the static files are collected once."""
    return tmp_path_factory.mktemp("hall-home")


@pytest.fixture(params=["sqlite", "postgresql"])
def hall(request, home, tmp_path) -> Iterator[Hall]:
    if request.param == "sqlite":
        database = f"sqlite:///{tmp_path / 'hall.sqlite3'}"
    else:
        request.getfixturevalue("transactional_db")  # the tables are flushed afterwards
        database = served_database_url(request.getfixturevalue("django_db_blocker"))
    env = hall_env(home, DATABASE_URL=database)
    server = Hall([sys.executable, "-m", "config.cli"], env, tmp_path / "hall.log")
    yield server
    server.close()


def test_a_killed_hall_loses_no_deal_told_saved_and_stores_none_twice(hall):
    hall.start()
    runs = [PhoneRun(HttpPhone(hall, table)) for table in hall.tables(PHONES)]

    told = threading.Semaphore(0)
    threads = [threading.Thread(target=run.burst, args=(told,)) for run in runs]
    for thread in threads:
        thread.start()
    for _ in range(KILL_AFTER):
        assert told.acquire(timeout=60), "the phones' saves stopped before the kill"
    hall.kill()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    # The burst really was cut short: no phone got through all its deals.
    assert all(run.unanswered for run in runs), [run.told_saved for run in runs]

    hall.start()
    for run in runs:
        # What had no answer may or may not have been stored: sent again, it is stored
        # now or found by its key. What was told saved is found by its key.
        for n in run.unanswered:
            assert run.send(n) in {"saved", "replayed"}
        for n in run.told_saved[-2:]:
            assert run.send(n) == "replayed", n
        for n in range(run.unanswered[-1] + 1, DEALS + 1):
            assert run.send(n) == "saved", n

    for run in runs:
        sheet = run.phone.sheet()
        stored = [deal["declarer_points"] for deal in sheet["deals"]]
        assert stored == [points(n) for n in range(1, DEALS + 1)], stored
    hall.stop()
