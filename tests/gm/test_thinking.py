"""AI thinking in worker processes: the same answers as in a thread, a loop that stays free."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bot.engine import Match, SeatSpec
from bot.engine.match import reply_choice
from bot.engine.text import Text
from bot.engine.vocabulary import LevelInfo
from bot.gm import thinking
from bot.gm.workers import NICENESS

LEVELS = [
    LevelInfo(id="hard", names=Text(fr="D", en="H"), process=True),
    LevelInfo(id="easy", names=Text(fr="F", en="E")),
]


@pytest.fixture(autouse=True)
def fresh_pool() -> Iterator[None]:
    yield
    thinking.shutdown()


def test_which_levels_think_in_a_process() -> None:
    assert thinking.needs_process(LEVELS, "hard", {})
    assert not thinking.needs_process(LEVELS, "easy", {"ai_level": "hard"})
    assert thinking.needs_process(LEVELS, None, {"ai_level": "hard"})
    assert not thinking.needs_process(LEVELS, None, {"ai_level": "easy"})
    assert thinking.needs_process(LEVELS, None, {})  # the default, the first level
    assert thinking.needs_process(LEVELS, "grandmaster", {})  # unknown: treated as slow
    assert not thinking.needs_process(LEVELS[1:], "easy", {})


def mad_match(level: str, seed: str, plies: int) -> Match:
    """A MAD match between two ``level`` seats, its first ``plies`` turns played quickly."""
    seats = [SeatSpec(name=n, ai=True, ai_level=level) for n in "rb"]
    m = Match.create("mad", seats, seed=seed)
    for i in range(plies):
        d = m.pending()[0]
        m.apply(reply_choice(d, m.game.ai_choose(m.state, d, random.Random(i), "easy")))
    return m


@pytest.mark.parametrize("level", ["hard", "medium"])
async def test_the_pool_answers_as_the_thread_does(level: str) -> None:
    for seed, plies in (("think-1", 4), ("think-2", 9))[: 1 if level == "hard" else 2]:
        m = mad_match(level, seed, plies)
        d = m.pending()[0]
        assert thinking.needs_process(m.game.info.ai_levels, level, m.options)
        reply = await thinking.think(m, d)
        assert reply is not None, "thought in a process"
        assert await thinking.ai_choice(m, d) == m.ai_choice(d)


ARENA_LEVELS = ["hard", "medium", "easy"]


@pytest.mark.parametrize("level", ARENA_LEVELS)
async def test_every_arena_level_thinks_in_the_pool_as_in_a_thread(level: str) -> None:
    """Arena!'s planner takes milliseconds a move (``bot.games.arena.game.AI_LEVELS``): in
    the pool at every level, with the thread's answer for the same seed."""
    seats = [SeatSpec(name=f"P{k}", ai=True, ai_level=level) for k in range(3)]
    m = Match.create("arena", seats, seed=f"think-arena-{level}")
    compared = 0
    for _ in range(12):
        if m.over:
            break
        d = m.pending()[0]
        assert thinking.needs_process(m.game.info.ai_levels, level, m.options)
        reply = await thinking.think(m, d)
        assert reply is not None, "thought in a process"
        choice = await thinking.ai_choice(m, d)
        assert choice == m.ai_choice(d)
        compared += 1
        m.apply(choice)
    assert compared >= 6


SLOW_LEVELS = [
    ("mad-arena", "hard", 5, 40, {"One"}),
    ("madsteam", "hard", 3, 60, {"One", "Many", "Allocation"}),
    ("madsteam", "medium", 3, 60, {"One", "Many", "Allocation"}),
]
"""Levels whose decisions take milliseconds at their tails (15-22 ms at the 95th percentile
and above on a slow moment of the 2-core machine: ``bot/games/mad_arena/ai_levels.py``,
``bot/games/madsteam/game.py``), with the players, the steps each test plays and the
shapes of answer those steps ask for."""


@pytest.mark.parametrize(("game", "level", "players", "steps", "shapes"), SLOW_LEVELS)
async def test_slow_levels_think_in_the_pool_as_in_a_thread(
    game: str, level: str, players: int, steps: int, shapes: set[str]
) -> None:
    """Every decision of a match's opening (Mad Arena's secret cards; Madsteam's choices of
    one, of several and its allocations) is answered in the pool with the thread's answer
    for the same seed."""
    seats = [SeatSpec(name=f"P{k}", ai=True, ai_level=level) for k in range(players)]
    m = Match.create(game, seats, seed=f"think-{game}-{level}")
    compared, seen = 0, set[str]()
    for _ in range(steps):
        if m.over:
            break
        for d in m.pending():
            assert thinking.needs_process(m.game.info.ai_levels, level, m.options)
            assert await thinking.think(m, d) is not None, "thought in a process"
            choice = await thinking.ai_choice(m, d)
            assert choice == m.ai_choice(d)
            compared += 1
            seen.add(type(d.ask).__name__)
        m.apply(choice)
    assert compared >= steps
    assert seen == shapes


@pytest.mark.parametrize(
    ("game", "level"), [("mad-arena", "medium"), ("mad-arena", "easy"), ("madsteam", "easy")]
)
def test_quick_levels_of_the_other_games_think_in_a_thread(game: str, level: str) -> None:
    """About a millisecond a decision at the median, at most 6: sent to the pool they made
    the load benchmark no better (README, "Mad Arena's and Madsteam's slow AI levels")."""
    m = Match.create(game, [SeatSpec(name=f"P{k}", ai=True, ai_level=level) for k in range(4)], 1)
    assert not thinking.needs_process(m.game.info.ai_levels, level, m.options)


async def test_quick_levels_stay_in_a_thread() -> None:
    m = mad_match("easy", "think-3", 2)
    d = m.pending()[0]
    assert await thinking.think(m, d) is None
    assert await thinking.ai_choice(m, d) == m.ai_choice(d)


async def test_no_pool_falls_back_to_the_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thinking, "_pool_failed", True)
    m = mad_match("hard", "think-4", 2)
    d = m.pending()[0]
    assert await thinking.think(m, d) is None
    assert await thinking.ai_choice(m, d) == m.ai_choice(d)


async def loop_lag_while(task: asyncio.Future[Any]) -> float:
    """The worst lateness of a 5 ms ticker on the loop while ``task`` runs."""
    worst = 0.0
    while not task.done():
        t0 = time.perf_counter()
        await asyncio.sleep(0.005)
        worst = max(worst, time.perf_counter() - t0 - 0.005)
    return worst


async def test_the_loop_stays_free_while_hard_thinks() -> None:
    """A hard move is about a second of CPU; in a process the loop barely notices it.
    The bound is generous: the test machine is shared."""
    m = mad_match("hard", "think-5", 6)
    d = m.pending()[0]
    await thinking.think(m, d)  # start the workers first: the bound is about thinking
    task = asyncio.ensure_future(thinking.think(m, d))
    lag = await loop_lag_while(task)
    assert task.result() is not None
    assert lag < 0.25


async def test_the_ai_processes_run_below_the_bot() -> None:
    """The event loop takes a core before a search does (``bot.gm.workers``)."""
    executor = thinking.pool()
    assert executor is not None, "a process pool starts here"
    theirs = await asyncio.gather(*(executor.run(os.nice, 0) for _ in range(4)))
    assert theirs == [min(19, os.nice(0) + NICENESS)] * 4
