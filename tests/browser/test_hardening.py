"""Pages under the Content-Security-Policy, and a hall on plain HTTP with DEBUG off."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config.hall import lan_address
from tests.browser.conftest import login
from tests.browser.test_kop_scorer import keypad, tap, totals
from tests.factories import TableSessionFactory, club_players

ROOT = Path(__file__).resolve().parents[2]


def _watch_csp(page) -> list[str]:
    """Collect CSP violations the page reports (console and securitypolicyviolation)."""
    seen: list[str] = []
    page.on(
        "console",
        lambda m: seen.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e =>"
        " console.error('Content Security Policy violation: ' + e.violatedDirective))"
    )
    return seen


@pytest.mark.django_db(transaction=True)
def test_the_pad_works_under_the_content_security_policy(phone, live_server, scorer):
    table = TableSessionFactory(
        profile="kop-pagat",
        players=club_players(["Ala", "Bartek", "Celina", "Darek"]),
        title="Stół CSP",
        created_by=scorer,
        planned_deals=8,
    )
    violations = _watch_csp(phone)
    login(phone, live_server, scorer.username)
    response = phone.goto(f"{live_server.url}/sessions/{table.pk}/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert phone.evaluate("typeof window.htmx") == "object"
    # pad.js runs: the keypad fills the points and the preview appears; htmx saves.
    tap(phone, "1\u00a0Ala")
    tap(phone, "3\u00a0Celina")
    keypad(phone, "60")
    assert phone.locator("#other-points").inner_text() == "44"
    phone.locator("#save-deal").click()
    phone.get_by_text("Deal 1 saved.").wait_for()
    assert totals(phone) == [1, -1, 1, -1]
    # The print button is wired by print.js, not an inline handler.
    phone.evaluate("window.print = () => { window.__printed = true; }")
    phone.goto(f"{live_server.url}/sessions/{table.pk}/sheet/")
    phone.evaluate("window.print = () => { window.__printed = true; }")
    phone.locator("[data-print]").first.click()
    assert phone.evaluate("window.__printed === true")
    assert violations == []


def _free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def hall_server(tmp_path):
    """The production settings in hall mode (DEBUG off, plain HTTP), served by gunicorn on
    the machine's LAN address: Chromium treats only localhost as secure, so a Secure cookie
    would be dropped there and the login would fail CSRF."""
    host = lan_address()
    port = _free_port(host)
    password = secrets.token_urlsafe(12)
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_", "_TABLESCORE")) and k != "REDIS_URL"
    }
    env = {
        **clean,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_HALL_HTTP": "true",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": host,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'hall.sqlite3'}",
    }

    def manage(*args: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)

    manage("migrate", "--noinput", "-v", "0")
    manage("collectstatic", "--noinput", "-v", "0")
    manage(
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model; from clubs.roles import make_director; "
        "from clubs.models import Club; "
        f"u = get_user_model().objects.create_user('hall-director', password='{password}'); "
        "make_director(u, Club.objects.create(name='Hall club'))",
    )
    log = tmp_path / "gunicorn.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "config.wsgi",
                "--bind",
                f"{host}:{port}",
                "--workers",
                "1",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"gunicorn exited:\n{log.read_text()}", pytrace=False)
        try:
            with socket.create_connection((host, port), timeout=1):
                break
        except OSError:
            time.sleep(0.2)
    yield f"http://{host}:{port}", password, log
    proc.terminate()
    proc.wait(timeout=15)


def test_a_director_logs_in_over_plain_http_in_hall_mode(browser, hall_server):
    url, password, log = hall_server
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{url}/accounts/login/")
        page.fill("input[name=username]", "hall-director")
        page.fill("input[name=password]", password)
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        assert "CSRF verification failed" not in page.content()
        assert page.get_by_role("button", name="Log out").is_visible()
        cookies = {c["name"]: c for c in context.cookies()}
        assert not cookies["sessionid"]["secure"] and not cookies["csrftoken"]["secure"]
        # Static files are served (WhiteNoise, DEBUG off) and htmx is there.
        assert page.evaluate("typeof window.htmx") == "object"
    finally:
        context.close()
    assert "DJANGO_HALL_HTTP=true" in log.read_text()
