"""Arena! (Pascal Colpron, 2011): a tactical hex-grid duel for 2-6 fighters."""

from bot.engine.registry import register
from bot.games.arena.game import ArenaGame

GAME = register(ArenaGame())

__all__ = ["GAME", "ArenaGame"]
