"""Ultimate Warriorz (game id ``ultimate-warriorz``): registers the game with the engine."""

from bot.engine.registry import register
from bot.games.ultimate_warriorz.game import UltimateWarriorz

GAME = register(UltimateWarriorz())

__all__ = ["GAME", "UltimateWarriorz"]
