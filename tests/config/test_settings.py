"""config/settings.py parses the environment strictly and is safe in production."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import env

ROOT = Path(__file__).resolve().parents[2]
GOOD_KEY = "k" * 20 + "-random-production-secret-key-0123456789"


def _settings_in_subprocess(**environ: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    clean.pop("REDIS_URL", None)
    return subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        cwd=ROOT,
        env={**clean, **environ},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("name", "value", "parser"),
    [
        ("DJANGO_DEBUG", "maybe", lambda: env.env_bool("DJANGO_DEBUG", True)),
        ("CELERY_BROKER_TIMEOUT", "3s", lambda: env.env_int("CELERY_BROKER_TIMEOUT", 3)),
        ("CELERY_BROKER_TIMEOUT", "0", lambda: env.env_int("CELERY_BROKER_TIMEOUT", 3, minimum=1)),
        ("REDIS_URL", "http://x", lambda: env.env_url("REDIS_URL", None, schemes=("redis",))),
    ],
)
def test_bad_value_is_an_error_naming_the_variable(monkeypatch, name, value, parser):
    monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=name):
        parser()


def test_booleans_accept_the_usual_spellings(monkeypatch):
    for raw, expected in [("true", True), ("1", True), ("no", False), ("False", False)]:
        monkeypatch.setenv("X_FLAG", raw)
        assert env.env_bool("X_FLAG", not expected) is expected


def test_bad_database_url_stops_start_up_naming_it():
    result = _settings_in_subprocess(DATABASE_URL="mysql://x/y")
    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr


def test_production_refuses_the_default_secret_key():
    result = _settings_in_subprocess(DJANGO_DEBUG="false", DJANGO_ALLOWED_HOSTS="example.org")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_accepts_a_real_secret_key():
    result = _settings_in_subprocess(
        DJANGO_DEBUG="false", DJANGO_SECRET_KEY=GOOD_KEY, DJANGO_ALLOWED_HOSTS="example.org"
    )
    assert result.returncode == 0, result.stderr


def test_the_login_limit_per_address_is_read_from_the_environment():
    result = _settings_in_subprocess(AXES_ADDRESS_FAILURE_LIMIT="0")
    assert result.returncode != 0
    assert "AXES_ADDRESS_FAILURE_LIMIT=0 must be at least 1" in result.stderr


# `check --deploy` in production and hall mode: tests/config/test_hardening.py


def test_without_redis_tasks_run_in_process(settings):
    assert settings.REDIS_URL is None
    assert settings.CELERY_TASK_ALWAYS_EAGER is True
