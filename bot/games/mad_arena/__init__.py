"""Mad Arena (game id ``mad-arena``): registers the game with the engine."""

from bot.engine.registry import register
from bot.games.mad_arena.game import MadArena

GAME = register(MadArena())

__all__ = ["GAME", "MadArena"]
