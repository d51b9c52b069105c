"""Madsteam (game id ``madsteam``): registers the game with the engine."""

from bot.engine.registry import register
from bot.games.madsteam.game import Madsteam

GAME = register(Madsteam())

__all__ = ["GAME", "Madsteam"]
