"""The game registry: each game is a package here, registered by its code.

A game (``scoring.games.interface.Game``) is four parts, one per kind of caller: its
entry (the pad), its ledger (the writes), its sheet (pages, exports, imports) and its
results (what tournaments read). Views, the write path, exports, the tournament standings
and the ratings ask ``game_for(code)`` for the part they need and never test the game.

Each package in ``GAME_PACKAGES`` has a ``models`` module (its deal rows: ``scoring.models``
imports it) and a ``game`` module that calls ``register`` (``ScoringConfig.ready`` imports
it). Every list of games (a model's or a form's choices) comes from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoring.games.interface import Game
    from scoring.models import TableSession

GAME_PACKAGES = ("scoring.games.kop", "scoring.games.vint")
_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.code] = game
    return game


def game_for(code: str) -> Game:
    """The game ``code`` names (``KeyError`` for an unknown game)."""
    return _GAMES[code]


def game_of(session: TableSession) -> Game:
    return _GAMES[session.game]


def all_games() -> list[Game]:
    """Every game, in the order the packages register them."""
    return list(_GAMES.values())


def game_codes() -> list[str]:
    return list(_GAMES)


def game_choices() -> list[tuple[str, str]]:
    """(code, name) of every game: the choices of every field that names a game (game
    names are proper names, alike in every language)."""
    return [(g.code, g.label) for g in _GAMES.values()]
