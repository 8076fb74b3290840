"""Vint put together from its parts and registered (``ScoringConfig.ready``)."""

from __future__ import annotations

from scoring.games import register
from scoring.games.interface import Game
from scoring.games.vint.entry import VintEntry
from scoring.games.vint.ledger import VintLedger
from scoring.games.vint.results import VintResults
from scoring.games.vint.sheet import VintSheet

VINT = register(
    Game(
        code="vint",
        label="Vint",
        entry=VintEntry(),
        ledger=VintLedger(),
        sheet=VintSheet(),
        results=VintResults(),
    )
)
