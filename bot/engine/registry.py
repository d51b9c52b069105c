"""Which games exist. Games register themselves on import of ``bot.games``."""

from __future__ import annotations

import importlib
from typing import Any

from bot.engine.game import Game, GameInfo

_GAMES: dict[str, Game[Any, Any]] = {}
_GAME_MODULES = (
    "bot.games.mad",
    "bot.games.arena",
    "bot.games.mad_arena",
    "bot.games.ultimate_warriorz",
    "bot.games.madsteam",
)
_loaded = False


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    _GAMES[game.info.id] = game
    return game


def _load_all() -> None:
    """Import every game package that exists; a game not written yet is simply absent."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in _GAME_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def get_game(game_id: str) -> Game[Any, Any]:
    _load_all()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(_GAMES))}") from None


def all_games() -> list[GameInfo]:
    _load_all()
    return [g.info for g in _GAMES.values()]
