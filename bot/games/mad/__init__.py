"""MAD (rules/mad.fr.txt): the two-player game of teleporting fleets; registers ``mad``."""

from bot.engine.registry import register
from bot.games.mad.game import GAME, MadGame

register(GAME)

__all__ = ["GAME", "MadGame"]
