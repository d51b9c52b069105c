"""Which games exist: every game package under ``bot/games`` registers itself on import.

Discovery is by convention, not by a list: each package directly under
``bot/games`` (names starting with ``_`` excepted) is imported once, and a game
package's ``__init__`` calls :func:`register`. A shared package that is not a
game (the ``fighters`` kit) registers nothing, so it is imported and adds no
game. A new game therefore exists by being a package that registers.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from bot.engine.game import Game, GameInfo

GAMES_PACKAGE = "bot.games"

_GAMES: dict[str, Game[Any, Any]] = {}
_loaded = False


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Make ``game`` known by its id (a game package calls this in its ``__init__``)."""
    _GAMES[game.info.id] = game
    return game


def game_packages() -> list[str]:
    """The packages under ``bot/games`` that discovery imports, sorted by name."""
    package = importlib.import_module(GAMES_PACKAGE)
    return sorted(
        f"{GAMES_PACKAGE}.{m.name}"
        for m in pkgutil.iter_modules(package.__path__)
        if m.ispkg and not m.name.startswith("_")
    )


def _load_all() -> None:
    """Import every package under ``bot/games`` once; an import error is a real error."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in game_packages():
        importlib.import_module(name)


def get_game(game_id: str) -> Game[Any, Any]:
    _load_all()
    try:
        return _GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(sorted(_GAMES))}") from None


def all_games() -> list[GameInfo]:
    _load_all()
    return [g.info for g in _GAMES.values()]


def discovered_games() -> list[Game[Any, Any]]:
    """The registered games that live under ``bot/games`` (not test fixtures), by id."""
    _load_all()
    prefix = GAMES_PACKAGE + "."
    return [
        g
        for _, g in sorted(_GAMES.items())
        if type(g).__module__.startswith(prefix) or type(g).__module__ == GAMES_PACKAGE
    ]
