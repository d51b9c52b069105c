"""Play a match forward with the AI: the simulator, property tests and AFK seats use it."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.decisions import Choice, Decision
from bot.engine.events import AnyEvent
from bot.engine.match import Match


class RunawayMatch(RuntimeError):
    """A match did not end within its decision budget: a rules bug, not a player's fault."""


def ai_step(match: Match) -> tuple[Choice, list[AnyEvent]]:
    """Let the AI answer the first pending decision."""
    decision: Decision = match.pending()[0]
    choice = match.ai_choice(decision)
    return choice, match.apply(choice)


def play_out(
    match: Match,
    max_decisions: int = 100_000,
    on_step: Callable[[Match, Choice, list[AnyEvent]], None] | None = None,
) -> Match:
    """AI answers every pending decision until the match is over."""
    steps = 0
    while not match.over:
        if not match.pending():
            raise RunawayMatch(f"{match.game_id}: not over but nothing pending")
        if steps >= max_decisions:
            raise RunawayMatch(f"{match.game_id}: still running after {steps} decisions")
        choice, events = ai_step(match)
        if on_step is not None:
            on_step(match, choice, events)
        steps += 1
    return match
