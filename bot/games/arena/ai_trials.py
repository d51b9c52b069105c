"""Whole Arena! matches between AI levels (or a random-legal player), counted.

Shared by the AI tests and ``bench/bench_arena_ai.py``, so both measure the same
way: the engine's own :class:`Match` with fixed seeds, seats swapped between
matches, the CPU time of every AI answer (:mod:`bot.engine.cputime`: neither a busy
machine nor a garbage collection inflates it) and how many answers each turn took
(the clicks a player would make with the same choices).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import bot.games.arena  # noqa: F401  (registers the game)
from bot.engine.cputime import answer_time
from bot.engine.decisions import Choice
from bot.engine.game import SeatSpec
from bot.engine.match import Match

RANDOM = "random"
"""A player that picks uniformly among the legal options."""


@dataclass
class Tally:
    """What a series of matches gave, from the first player kind's side."""

    matches: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    """Nobody won: more than one survivor after round 10 (everyone loses)."""
    times: list[float] = field(default_factory=list)
    """Seconds per AI answer (every AI seat)."""
    answers_per_turn: list[int] = field(default_factory=list)
    """Answers each AI turn took (posture, action, moves and attacks)."""

    @property
    def score(self) -> float:
        """Wins plus half the matches nobody won, per match."""
        return (self.wins + 0.5 * self.draws) / max(1, self.matches)


def play_match(players: list[str], seed: str, tally: Tally) -> int | None:
    """One match, ``players[i]`` in seat ``i`` (a level id or :data:`RANDOM`); the winner's seat."""
    seats = [
        SeatSpec(name=f"P{i}", ai=True, ai_level=None if p == RANDOM else p)
        for i, p in enumerate(players)
    ]
    match = Match.create("arena", seats, seed=seed)
    rnd = random.Random(seed)
    per_turn: dict[str, int] = {}
    for _ in range(2000):
        pending = match.pending()
        if not pending:
            break
        d = pending[0]
        if players[d.seat] == RANDOM:
            choice = Choice(seat=d.seat, key=d.key, option=rnd.choice(d.options).id)
        else:
            with answer_time(tally.times):
                choice = match.ai_choice(d)
            turn = d.key.split(":")[0]
            per_turn[turn] = per_turn.get(turn, 0) + 1
        match.apply(choice)
    tally.answers_per_turn += per_turn.values()
    outcome = match.outcome()
    assert outcome is not None, "the match did not end"
    return outcome.winners[0] if outcome.winners else None


def duel(first: str, second: str, matches: int, prefix: str = "duel") -> Tally:
    """``matches`` two-player matches, ``first`` in seat 0 then seat 1 alternately."""
    tally = Tally()
    for n in range(matches):
        swap = n % 2 == 1
        players = [second, first] if swap else [first, second]
        winner = play_match(players, f"{prefix}-{n}", tally)
        tally.matches += 1
        if winner is None:
            tally.draws += 1
        elif (winner == 1) == swap:
            tally.wins += 1
        else:
            tally.losses += 1
    return tally
