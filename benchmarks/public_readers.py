"""Locust users for ``bench_public_page.py``: readers asking for one address back to back
(``BENCH_HOST`` + ``BENCH_PATH``), each keeping its cookies as a phone does."""

from __future__ import annotations

import os

from locust import constant, task
from locust.contrib.fasthttp import FastHttpUser


class Reader(FastHttpUser):
    host = os.environ["BENCH_HOST"]
    wait_time = constant(0)

    @task
    def read(self) -> None:
        self.client.get(os.environ["BENCH_PATH"], name="read")
