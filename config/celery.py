"""The Celery application.

Configured from Django settings (``CELERY_*``). Without ``REDIS_URL`` every
task runs eagerly, in-process; with it, tasks go to Redis and a worker started
with ``make worker`` runs them.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# DjangoTask adds delay_on_commit: enqueue only after the transaction commits.
app = Celery("tablescore", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
