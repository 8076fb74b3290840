"""The tier runner fails a tier whose service is down, naming it and how to start it."""

from __future__ import annotations

from tests import tiers


def test_unreachable_services_fail_the_integration_tier_with_start_commands(monkeypatch, capsys):
    monkeypatch.setattr(tiers, "PG_URL", "postgres://postgres@127.0.0.1:1/none")
    monkeypatch.setattr(tiers, "REDIS_URL", "redis://127.0.0.1:2/0")
    outcome = tiers.integration_tier()
    out = capsys.readouterr().out
    assert outcome.ok is False and outcome.passed == 0
    assert "PostgreSQL is unreachable at postgres://postgres@127.0.0.1:1/none" in out
    assert "pg_ctlcluster" in out
    assert "Redis is unreachable at redis://127.0.0.1:2/0" in out
    assert "redis-server --daemonize yes" in out


def test_missing_chromium_fails_the_browser_tier_with_what_to_install(monkeypatch, capsys):
    monkeypatch.setattr(tiers, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(tiers.os, "geteuid", lambda: 1000)  # not root: say what to install
    outcome = tiers.browser_tier()
    assert outcome.ok is False
    assert "apt-get install chromium" in capsys.readouterr().out


def test_a_tier_that_ran_no_test_is_not_ok(monkeypatch):
    monkeypatch.setattr(tiers, "run", lambda cmd, env=None: 5)  # pytest's "no tests ran"
    assert tiers.pytest_tier("empty", ["tests/nothing"], {}, []).ok is False


def test_a_pytest_run_that_exits_0_with_no_test_executed_fails_its_tier(monkeypatch):
    """pytest can exit 0 having run nothing (e.g. every test deselected): the tier must
    still fail, since CI would otherwise land a run that tested nothing."""
    monkeypatch.setattr(tiers, "run", lambda cmd, env=None: 0)  # no report written either
    outcome = tiers.pytest_tier("empty", ["tests/nothing"], {}, [])
    assert (outcome.ok, outcome.passed, outcome.note) == (False, 0, "no test ran")
