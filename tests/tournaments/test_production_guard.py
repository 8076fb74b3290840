"""The demo logins never carry their published password into production."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.checks import run_checks
from django.core.management import CommandError, call_command

from tournaments.checks import demo_passwords_check
from tournaments.demo_logins import DEMO_DIRECTOR

pytestmark = pytest.mark.django_db(transaction=True)


def test_demo_data_refuses_to_run_in_production(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--force"):
        call_command("demo_data")
    assert not get_user_model().objects.filter(username=DEMO_DIRECTOR[0]).exists()


def test_forced_demo_data_in_production_prints_random_passwords(settings, capsys):
    settings.DEBUG = False
    call_command("demo_data", "--force")
    out = capsys.readouterr().out
    assert DEMO_DIRECTOR[1] not in out
    director = get_user_model().objects.get(username=DEMO_DIRECTOR[0])
    assert not director.check_password(DEMO_DIRECTOR[1])
    printed = out.split("Demo director login: director / ")[1].split()[0]
    assert director.check_password(printed)
    assert demo_passwords_check() == []


def test_forcing_again_replaces_a_published_password_left_from_development(settings, capsys):
    settings.DEBUG = True
    call_command("demo_data")  # as `make run`: the published password
    settings.DEBUG = False
    assert [w.id for w in demo_passwords_check()] == ["tablescore.W001"]
    call_command("demo_data", "--force")
    assert demo_passwords_check() == []


def test_the_system_check_warns_about_a_demo_password_with_debug_off(settings):
    get_user_model().objects.create_user(DEMO_DIRECTOR[0], password=DEMO_DIRECTOR[1])
    settings.DEBUG = True
    assert demo_passwords_check() == []
    settings.DEBUG = False
    warnings = [m for m in run_checks() if m.id == "tablescore.W001"]
    assert len(warnings) == 1 and "director" in warnings[0].msg


def test_the_check_is_quiet_for_a_changed_password(settings):
    get_user_model().objects.create_user(DEMO_DIRECTOR[0], password="something-else-entirely")
    settings.DEBUG = False
    assert demo_passwords_check() == []
