"""The Celery application.

Configured from Django settings (``CELERY_*``). Without ``REDIS_URL`` every
task runs eagerly, in-process; with it, tasks go to Redis and a worker started
with ``make worker`` runs them.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tablescore")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
