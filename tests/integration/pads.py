"""Phones at a table: the helpers of the entry concurrency tests.

Vocabulary
----------
phone
    One browser at a table: its own ``django.test.Client`` that opened the
    table link (``/t/<entry_token>/``) and chose its seat, so it may enter deals there. Two phones
    made ``like`` each other share one browser session (a double tap).
pad
    The entry form of a session page. Besides the facts of the deal it carries
    two hidden fields: ``expected_number`` (the number the deal will get) and
    ``submission_key`` (made when the form was rendered; a resubmission of the
    same form carries the same key).
answer
    What the deal endpoint sends back. Its ``X-Deal-Outcome`` header says
    ``saved``, ``replayed`` (the key was already stored), ``conflict`` (another
    phone took the expected number; the pad offers the next one) or
    ``rejected``; for saved and replayed ``X-Deal-Number`` names the stored deal
    (Kop "7", Vint "<rubber>.<number>").

The tests run requests from real threads: ``run_together`` starts them at one
``threading.Barrier`` and closes each thread's database connection at its end.
"""

from __future__ import annotations

import re
import secrets
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from html.parser import HTMLParser
from typing import Any

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.models import TableSession

HTMX = {"HX-Request": "true"}
KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")
DEAL_ADD = {"kop": "scoring:deal_add", "baska": "scoring:deal_add", "vint": "scoring:deal_add"}


def new_key() -> str:
    """A submission key of our own making (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def kop_deal(points: int, declarers: Sequence[int] = (1, 3)) -> dict[str, Any]:
    """A normal Kop deal; ``points`` (the declarers' card points) tells deals apart."""
    return {
        "contract": "normal",
        "declarers": [str(s) for s in declarers],
        "doubling_mode": "count",
        "doublings": "0",
        "declarer_points": str(points),
        "confirm": "on",  # some point counts cannot occur and ask for confirmation
    }


def vint_all_pass(ns_tricks: int, rubber: int = 1) -> dict[str, Any]:
    """An all-pass Vint deal: it scores above the line only, so the rubber never ends."""
    return {"rubber": str(rubber), "contract": "pass", "ns_tricks": str(ns_tricks)}


class _Inputs(HTMLParser):
    """The values of the named ``<input>``s of a page (radios and checkboxes: the checked)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "input":
            return
        a = dict(attrs)
        name = a.get("name")
        if not name:
            return
        if a.get("type") in ("radio", "checkbox") and "checked" not in a:
            return
        self.values.setdefault(name, []).append(a.get("value") or "")


@dataclass(frozen=True)
class Answer:
    """One response of a pad page or a deal endpoint."""

    status: int
    outcome: str | None
    number: str | None
    html: str

    @cached_property
    def inputs(self) -> dict[str, list[str]]:
        parser = _Inputs()
        parser.feed(self.html)
        return parser.values

    def value(self, name: str) -> str | None:
        values = self.inputs.get(name)
        return values[0] if values else None

    @property
    def expected_number(self) -> int | None:
        raw = self.value("expected_number")
        return int(raw) if raw and raw.isdigit() else None

    @property
    def submission_key(self) -> str | None:
        return self.value("submission_key")

    def __repr__(self) -> str:  # what an assertion message shows
        return (
            f"Answer(status={self.status}, outcome={self.outcome!r}, number={self.number!r}, "
            f"expected_number={self.expected_number!r})"
        )


class Phone:
    """A browser at one table."""

    def __init__(self, session: TableSession, *, like: Phone | None = None, seat: int = 1) -> None:
        # A server error must come back as a 500 answer to count, not as an exception; and
        # the test client's exception capture is not per thread.
        self.client = Client(raise_request_exception=False)
        self.session = session
        self.add_url = reverse(DEAL_ADD[session.game], kwargs={"pk": session.pk})
        self.pad_url = reverse("scoring:session", kwargs={"pk": session.pk})
        if like is None:
            link = reverse("scoring:table_link", kwargs={"token": session.entry_token})
            response = self.client.post(link, {"seat": str(seat)})  # "which seat are you?"
            assert response.status_code == 302, f"table link answered {response.status_code}"
        else:
            cookie = settings.SESSION_COOKIE_NAME
            self.client.cookies[cookie] = like.client.cookies[cookie].value

    def pad(self) -> Answer:
        """The session page, as the phone shows it."""
        return _answer(self.client.get(self.pad_url))

    def post(
        self,
        facts: Mapping[str, Any],
        *,
        expected_number: int | None,
        submission_key: str | None,
    ) -> Answer:
        """Tap save. A field given as None is left out (the form did not carry it)."""
        data = dict(facts)
        if expected_number is not None:
            data["expected_number"] = str(expected_number)
        if submission_key is not None:
            data["submission_key"] = submission_key
        return _answer(self.client.post(self.add_url, data, headers=HTMX))


def _answer(response: Any) -> Answer:
    return Answer(
        status=response.status_code,
        outcome=response.headers.get("X-Deal-Outcome"),
        number=response.headers.get("X-Deal-Number"),
        html=response.content.decode(),
    )


def run_together(*calls: Callable[[], Any], timeout: float = 60.0) -> list[Any]:
    """Run each call in its own thread, all released by one barrier; their results in order.

    Each thread closes its database connection at its end. An exception in a thread is
    raised here (the first one), after every thread finished.
    """
    barrier = threading.Barrier(len(calls), timeout=timeout)
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            barrier.abort()
            errors.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(i, c), name=f"phone-{i}") for i, c in enumerate(calls)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout + 30)
    assert not any(t.is_alive() for t in threads), "a thread did not finish"
    if errors:
        raise errors[0]
    return results


@contextmanager
def server_errors() -> Iterator[list[str]]:
    """Collect the requests that failed with an exception (in any thread), one line each:
    the thread, the exception and the project line it came from. (Django logs the full
    traceback; pytest shows it under "Captured log".)"""
    seen: list[str] = []

    def record(sender: Any, request: Any = None, **kwargs: Any) -> None:
        exc = sys.exc_info()[1]
        frames = traceback.extract_tb(exc.__traceback__) if exc else []
        root = str(settings.BASE_DIR)
        ours = [f for f in frames if f.filename.startswith(root) and ".venv" not in f.filename]
        where = f" at {ours[-1].filename}:{ours[-1].lineno}" if ours else ""
        message = str(exc).replace("\n", " ")
        seen.append(f"[{threading.current_thread().name}] {type(exc).__name__}: {message}{where}")

    got_request_exception.connect(record, weak=False, dispatch_uid="entry-concurrency")
    try:
        yield seen
    finally:
        got_request_exception.disconnect(dispatch_uid="entry-concurrency")
