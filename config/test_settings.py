"""Settings for the test suite: fast hashing, no SSL redirect, in-process tasks.

The integration tier overrides DATABASE_URL/REDIS_URL through the environment
before Django starts (see ``tests/integration/conftest.py``).
"""

from __future__ import annotations

import os

from config.settings import *  # noqa: F403
from config.settings import DATABASES, REDIS_URL

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SECURE_SSL_REDIRECT = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # In memory, unless TEST_SQLITE_NAME names a file: the browser tier's live server
    # answers requests on several threads, and an in-memory database shared between
    # threads locks whole tables (a request that meets another's lock fails at once,
    # "database table is locked"), where a file's locks wait (the busy timeout).
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("TEST_SQLITE_NAME") or ":memory:"}
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
# The in-process heartbeat (ops.heartbeat) would run after every test client's request;
# its tests turn it on.
HEARTBEAT_IN_PROCESS = False
