"""The podium's fairness data (issue 3's seed commitment) does not depend on the bot's
history: a match reloaded after a restart holds only the events since, yet its podium
shows the seed exactly when the uninterrupted run's would (found by
``tests/crash/test_kill.py`` killing an Ultimate Warriorz match after its last roll)."""

from __future__ import annotations

import random

from bot.engine import Match, SeatSpec
from bot.engine.events import RollEvent
from bot.gm.ending import has_dice


def played(game: str, seats: int) -> Match:
    m = Match.create(game, [SeatSpec(name=f"P{i}", ai=True) for i in range(seats)], seed="podium")
    rnd = random.Random(0)
    while not m.over:
        d = rnd.choice(m.pending())
        m.apply(m.ai_choice(d))
    return m


def test_a_match_with_dice_shows_its_seed_after_a_restart() -> None:
    m = played("arena", 2)
    assert any(isinstance(e, RollEvent) for e in m.events)
    reloaded = Match.from_snapshot(m.snapshot())
    assert not reloaded.events  # nothing of the match's past rolls in memory
    assert has_dice(m) and has_dice(reloaded)


def test_a_game_without_chance_shows_no_seed() -> None:
    m = played("mad", 2)
    assert not has_dice(m) and not has_dice(Match.from_snapshot(m.snapshot()))
