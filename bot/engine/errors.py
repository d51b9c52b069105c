"""Why a decision was refused, in words a player can read."""

from __future__ import annotations

from bot.engine.text import Text


class EngineError(Exception):
    """Base for refusals; carries a bilingual, player-readable reason."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason.en)
        self.reason = reason


class IllegalDecision(EngineError):
    """The decision breaks a rule or is not pending; the state is unchanged."""


class StaleDecision(EngineError):
    """The decision was made against a state that has moved on since."""
