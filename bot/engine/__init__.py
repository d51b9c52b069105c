"""The pure match engine: no discord, no aiosqlite (a test enforces it).

Games implement :class:`bot.engine.game.Game`; :mod:`bot.engine.match` wraps a
game state in a versioned, seeded, replayable match envelope.
"""

from bot.engine.decisions import Choice, Decision, Option
from bot.engine.errors import IllegalDecision, StaleDecision
from bot.engine.events import Event, RollEvent
from bot.engine.game import Ctx, Game, GameInfo, ModeInfo, OptionSpec, Outcome, SeatSpec
from bot.engine.match import Match
from bot.engine.text import Text

__all__ = [
    "Choice",
    "Ctx",
    "Decision",
    "Event",
    "Game",
    "GameInfo",
    "IllegalDecision",
    "Match",
    "ModeInfo",
    "Option",
    "OptionSpec",
    "Outcome",
    "RollEvent",
    "SeatSpec",
    "StaleDecision",
    "Text",
]
