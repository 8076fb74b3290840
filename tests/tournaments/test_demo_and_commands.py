"""Demo data and the tournament commands."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from clubs.models import Club
from scoring.games.kop.models import KopDeal
from scoring.models import TableSession
from tournaments.models import StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_demo_data_is_complete_and_idempotent(capsys, settings, monkeypatch):
    settings.DEBUG = True  # as `make run`: with DEBUG off it refuses (test_production_guard.py)
    monkeypatch.setenv("PORT", "8123")  # as `make run PORT=8123` passes it
    monkeypatch.delenv("HOST", raising=False)
    call_command("demo_data")
    call_command("demo_data")
    out = capsys.readouterr().out
    assert "Demo director login: director / tablescore-demo" in out
    assert "Open http://127.0.0.1:8123/" in out and ":8000" not in out
    club = Club.objects.get(name__contains="demo", city="Kościan")
    assert club.players.count() == 12
    assert TableSession.objects.filter(game="kop", title__startswith="Demo").exists()
    assert TableSession.objects.filter(game="vint", title__startswith="Demo").exists()
    tournament = Tournament.objects.get()
    assert tournament.rounds.count() == 3  # two accepted, the third in progress
    assert tournament.rounds.get(number=3).tables.filter(accepted_at__isnull=True).count() == 4
    assert StandingsSnapshot.objects.filter(tournament=tournament).exists()


def test_simulate_tournament_command(capsys):
    call_command(
        "simulate_tournament",
        "--game",
        "baska",
        "--players",
        "8",
        "--rounds",
        "2",
        "--seed",
        "4",
        "--deals",
        "6",
    )
    tournament = Tournament.objects.get()
    assert tournament.game == "baska" and tournament.rounds.count() == 2
    assert KopDeal.objects.count() == 2 * 2 * 6
    snapshot = StandingsSnapshot.objects.get(
        tournament=tournament, results_version=tournament.results_version
    )
    assert len(snapshot.data["individual"]) == 8
    assert "/standings/" in capsys.readouterr().out


def test_seating_command_prints_the_schedule(capsys):
    call_command("seating", "--players", "16", "--rounds", "5", "--seed", "1")
    out = json.loads(capsys.readouterr().out)
    assert out["repeats"] == 0
    assert len(out["rounds"]) == 5 and all(len(r) == 4 for r in out["rounds"])
    pairs = {
        (min(a, b), max(a, b)) for rnd in out["rounds"] for t in rnd for a in t for b in t if a != b
    }
    assert len(pairs) == 120


def test_seating_command_is_reproducible(capsys):
    call_command("seating", "--players", "33", "--rounds", "5", "--seed", "9")
    first = capsys.readouterr().out
    call_command("seating", "--players", "33", "--rounds", "5", "--seed", "9")
    assert capsys.readouterr().out == first
    assert all(len(b) == 1 for b in json.loads(first)["byes"])


def test_seating_command_seats_4000_players(capsys):
    call_command("seating", "--players", "4000", "--rounds", "5", "--seed", "1")
    out = json.loads(capsys.readouterr().out)
    assert [len(r) for r in out["rounds"]] == [1000] * 5
    for rnd in out["rounds"]:
        assert sorted(p for t in rnd for p in t) == list(range(1, 4001))
    assert out["repeats"] == 0 and out["max_meetings"] == 1


def test_seating_command_refuses_more_than_4000_players_in_words(capsys):
    with pytest.raises(SystemExit) as stopped:
        call_command("seating", "--players", "4001", "--rounds", "5", "--seed", "1")
    assert stopped.value.code == 2
    assert "seating is limited to 4,000 players; 4,001 is too many" in capsys.readouterr().err
