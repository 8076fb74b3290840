"""Kop and Baśka put together from their parts and registered (``ScoringConfig.ready``).

Both share every part: the engine's variant is the session's game code."""

from __future__ import annotations

from scoring.games import register
from scoring.games.interface import Game
from scoring.games.kop.deals import contract_label
from scoring.games.kop.entry import KopEntry
from scoring.games.kop.ledger import KopLedger
from scoring.games.kop.results import KopResults
from scoring.games.kop.sheet import KopSheet
from scoring.problems import words_register

ENTRY, LEDGER, SHEET, RESULTS = KopEntry(), KopLedger(), KopSheet(), KopResults()

KOP = register(
    Game(code="kop", label="Kop", entry=ENTRY, ledger=LEDGER, sheet=SHEET, results=RESULTS)
)
BASKA = register(
    Game(code="baska", label="Baśka", entry=ENTRY, ledger=LEDGER, sheet=SHEET, results=RESULTS)
)

# A Kop problem names its contracts as clubs say them.
words_register("kop.", {"contract": contract_label, "contracts": contract_label})
