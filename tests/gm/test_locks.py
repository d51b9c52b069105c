"""Per-match and per-channel locks live while they are used, not for the process's life."""

from __future__ import annotations

import asyncio
import gc
import random
from pathlib import Path

from bot.gm.base import LockTable
from tests.cogs.driver import Driver
from tests.cogs.test_full_matches import open_and_fill


async def test_contenders_meet_the_same_lock_and_an_unused_one_goes() -> None:
    table = LockTable()
    order: list[str] = []

    async def use(name: str, pause: float) -> None:
        async with table[7]:
            order.append(f"{name} in")
            await asyncio.sleep(pause)
            order.append(f"{name} out")

    await asyncio.gather(use("a", 0.02), use("b", 0.0), use("c", 0.0))
    assert order == ["a in", "a out", "b in", "b out", "c in", "c out"]
    assert len(table) == 0  # freed by reference counting alone
    gc.collect()
    assert len(table) == 0


async def test_a_held_lock_stays_the_one_handed_out() -> None:
    table = LockTable()
    held = table[1]
    async with held:
        assert table[1] is held and table[1].locked()
        assert table[2] is not held
    assert len(table) == 1  # ``held`` still references it


async def test_whole_matches_leave_no_lock_behind(tmp_path: Path) -> None:
    """The game master used to keep one lock per match ever played."""
    async with Driver(tmp_path).running() as d:
        for seed in range(2):
            mid = await open_and_fill(
                d, "mad-arena", d.users[:4], mode="mad-arena:ultimate-warrior"
            )
            await d.play_out(mid, random.Random(seed))
        await d.settle()
        assert d.bot is not None
        assert len(d.bot.gm._locks) == 0 and len(d.bot.gm._channel_locks) == 0
