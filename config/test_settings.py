"""Settings for the test suite: fast hashing, no SSL redirect, in-process tasks.

The integration tier overrides DATABASE_URL/REDIS_URL through the environment
before Django starts (see ``tests/integration/conftest.py``).
"""

from __future__ import annotations

from config.settings import *  # noqa: F403
from config.settings import DATABASES, REDIS_URL

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SECURE_SSL_REDIRECT = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
