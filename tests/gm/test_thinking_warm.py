"""``thinking.warm`` starts every AI worker process before the first search, so no search
starts one on the event loop (issue 16 item 5)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

from bot.gm import thinking
from bot.gm.workers import WORKERS


@pytest.fixture(autouse=True)
def fresh_pool() -> Iterator[None]:
    thinking.shutdown()
    yield
    thinking.shutdown()


def test_warm_starts_every_worker_and_a_search_then_starts_none() -> None:
    thinking.warm()
    executor = thinking.pool()
    assert executor is not None, "the process pool did not start"
    started = executor.pids
    assert len(started) == WORKERS
    for pid in started:
        os.kill(pid, 0)  # alive

    async def jobs() -> list[int]:
        return list(await asyncio.gather(*(executor.run(abs, -k) for k in range(8))))

    assert asyncio.run(jobs()) == list(range(8))
    assert thinking.pool() is executor and executor.pids == started
