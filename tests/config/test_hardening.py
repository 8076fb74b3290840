"""Headers, hall mode, `check --deploy` in both modes, and the 500/503 pages."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError
from django.template.loader import render_to_string
from django.test import RequestFactory

ROOT = Path(__file__).resolve().parents[2]
GOOD_KEY = "k" * 20 + "-random-production-secret-key-0123456789"
TEMPLATES = ROOT / "templates"


def _django(args: list[str], tmp_path: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_", "_TABLESCORE")) and k != "REDIS_URL"
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": GOOD_KEY,
            "DJANGO_ALLOWED_HOSTS": "example.org",
            # A database of its own: a developer's db.sqlite3 may hold the demo logins.
            "DATABASE_URL": f"sqlite:///{tmp_path / 'check.sqlite3'}",
            **environ,
        },
    )


SHOW = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({k: getattr(s, k) for k in ('SESSION_COOKIE_SECURE', "
    "'CSRF_COOKIE_SECURE', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', "
    "'SECURE_PROXY_SSL_HEADER', 'SILENCED_SYSTEM_CHECKS')}))"
)


def test_production_is_secure_transport_and_trusts_no_proxy_header(tmp_path):
    result = _django(["-c", SHOW], tmp_path)
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert got["SESSION_COOKIE_SECURE"] and got["CSRF_COOKIE_SECURE"]
    assert got["SECURE_SSL_REDIRECT"] and got["SECURE_HSTS_SECONDS"] > 0
    assert got["SECURE_PROXY_SSL_HEADER"] is None
    assert got["SILENCED_SYSTEM_CHECKS"] == []
    assert "HALL" not in result.stderr


def test_hall_mode_is_plain_http_and_says_so_once(tmp_path):
    result = _django(["-c", SHOW], tmp_path, DJANGO_HALL_HTTP="true")
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert not got["SESSION_COOKIE_SECURE"] and not got["CSRF_COOKIE_SECURE"]
    assert not got["SECURE_SSL_REDIRECT"] and got["SECURE_HSTS_SECONDS"] == 0
    assert result.stderr.count("DJANGO_HALL_HTTP=true") == 1


def test_the_proxy_header_is_trusted_only_behind_a_declared_proxy(tmp_path):
    result = _django(["-c", SHOW], tmp_path, DJANGO_BEHIND_PROXY="true")
    assert json.loads(result.stdout)["SECURE_PROXY_SSL_HEADER"] == [
        "HTTP_X_FORWARDED_PROTO",
        "https",
    ]


@pytest.mark.parametrize("hall", ["false", "true"])
def test_check_deploy_is_clean_in_production_and_in_hall_mode(tmp_path, hall):
    result = _django(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        tmp_path,
        DJANGO_HALL_HTTP=hall,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
    silenced = re.search(r"\((\d+) silenced\)", result.stdout)
    # Hall mode silences exactly the four transport checks it turns off on purpose.
    assert silenced and int(silenced.group(1)) == (4 if hall == "true" else 0)


@pytest.mark.django_db
def test_content_security_policy_allows_no_inline_script(client):
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert "unsafe-inline" not in directives["script-src"]
    assert "unsafe-eval" not in policy
    assert "camera=()" in response.headers["Permissions-Policy"]


def test_no_template_has_an_inline_script_or_event_handler():
    offenders = []
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        for match in re.finditer(r"<script(?![^>]*\bsrc=)[^>]*>", text):
            if "application/json" not in match.group(0):
                offenders.append(f"{path.name}: {match.group(0)}")
        offenders += [f"{path.name}: {m}" for m in re.findall(r"\son[a-z]+\s*=", text)]
    assert offenders == []


@pytest.mark.parametrize("name", ["500.html", "503.html"])
def test_error_pages_are_static_and_in_both_languages(name):
    html = render_to_string(name)  # as Django's server_error renders it: no context
    assert '<section lang="en">' in html and '<section lang="pl">' in html
    assert "{%" not in html and "{{" not in html
    code = name[:3]
    assert f"error {code}" in html and f"błąd {code}" in html


def test_the_500_handler_uses_the_page():
    from django.views.defaults import server_error

    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Coś poszło nie tak" in response.content.decode()


def test_an_unreachable_database_answers_the_503_page(settings):
    from config.middleware import ServiceUnavailableMiddleware

    settings.DEBUG = False
    middleware = ServiceUnavailableMiddleware(lambda request: None)  # type: ignore[arg-type,return-value]
    response = middleware.process_exception(RequestFactory().get("/"), OperationalError("down"))
    assert response is not None and response.status_code == 503
    assert "Wyniki są chwilowo niedostępne" in response.content.decode()
    assert middleware.process_exception(RequestFactory().get("/"), ValueError("bug")) is None
