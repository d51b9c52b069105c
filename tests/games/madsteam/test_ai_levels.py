"""The AI levels (issue 14): declared, deterministic for a seed, and ordered in strength."""

from __future__ import annotations

import random

from bot.engine import Match, SeatSpec
from bot.engine.registry import get_game


def _play(levels: list[str], seed: str) -> tuple[list[int], list[int]]:
    """One match between AI seats of the given levels; (winners, scores by seat)."""
    seats = [SeatSpec(name=f"S{i}", ai=True, ai_level=lv) for i, lv in enumerate(levels)]
    m = Match.create("madsteam", seats, seed, "standard", {})
    rnd = random.Random(seed)
    while not m.over:
        m.apply(m.ai_choice(rnd.choice(m.pending())))
    outcome = m.outcome()
    assert outcome is not None
    scores = [int(outcome.scores[i]) for i in range(len(levels))]
    return list(outcome.winners), scores


def test_three_levels_are_declared_strongest_first() -> None:
    info = get_game("madsteam").info
    assert [lv.id for lv in info.ai_levels] == ["hard", "medium", "easy"]
    for lv in info.ai_levels:
        assert lv.names.fr and lv.names.en and lv.summary.fr and lv.summary.en


def test_a_level_is_deterministic_for_a_seed() -> None:
    assert _play(["hard", "medium"], "det") == _play(["hard", "medium"], "det")


def test_hard_beats_easy_over_a_seeded_series() -> None:
    wins = 0.0
    n = 6
    for i in range(n):
        seat = i % 2
        levels = ["easy", "easy"]
        levels[seat] = "hard"
        winners, _ = _play(levels, f"hard-easy-{i}")
        if seat in winners:
            wins += 1 / len(winners)
    assert wins >= 5


def test_hard_outscores_medium_over_a_seeded_series() -> None:
    """Hard recruits by the score and saves resources from needless comfort."""
    hard = medium = 0
    for i in range(6):
        seat = i % 2
        levels = ["medium", "medium"]
        levels[seat] = "hard"
        _, scores = _play(levels, f"hard-medium-{i}")
        hard += scores[seat]
        medium += scores[1 - seat]
    assert hard > medium
