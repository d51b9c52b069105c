"""Words a game declares for itself, so no generic layer knows any game's terms.

The Discord layer names stats, subjects and AI levels from these declarations
(``GameInfo.stats``, ``GameInfo.subjects``, ``GameInfo.ai_levels``); a new
game brings its own words by registering, without touching ``bot/i18n``.
"""

from __future__ import annotations

from pydantic import BaseModel

from bot.engine.text import Text


class StatInfo(BaseModel):
    """A value shown on an option (a card's initiative): symbol on buttons, name in text."""

    key: str
    symbol: str
    names: Text


class LevelInfo(BaseModel):
    """An AI level a game offers (``easy``, ``medium``, ``hard``...)."""

    id: str
    names: Text
    summary: Text | None = None
    process: bool = False
    """Its thinking takes long enough (more than a few milliseconds) to run in a worker
    process, off the bot's interpreter lock (:mod:`bot.gm.thinking`)."""


EASY, MEDIUM, HARD = "easy", "medium", "hard"
LEVEL_NAMES: dict[str, Text] = {
    EASY: Text(fr="Facile", en="Easy"),
    MEDIUM: Text(fr="Moyen", en="Medium"),
    HARD: Text(fr="Difficile", en="Hard"),
}
"""The names of the shared level ids: ``/arena start`` offers one level choice for
every game, so a level id must read the same in each."""


def standard_level(id: str, summary: Text, process: bool = False) -> LevelInfo:
    """``easy``, ``medium`` or ``hard`` with its shared name and the game's own summary."""
    return LevelInfo(id=id, names=LEVEL_NAMES[id], summary=summary, process=process)
