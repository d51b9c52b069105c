"""MAD (rules/mad.fr.txt): the two-player game of teleporting fleets; registers ``mad``."""

from bot.games.mad import native

native.select()  # before anything imports the search: its compiled twin only if current

from bot.engine.registry import register  # noqa: E402
from bot.games.mad.game import GAME, MadGame  # noqa: E402

register(GAME)

__all__ = ["GAME", "MadGame"]
