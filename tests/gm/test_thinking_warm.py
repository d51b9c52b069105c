"""``thinking.warm`` starts every AI worker process before the first search, so no search
starts one on the event loop (issue 16 item 5)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.gm import thinking


@pytest.fixture(autouse=True)
def fresh_pool() -> Iterator[None]:
    thinking.shutdown()
    yield
    thinking.shutdown()


def test_warm_starts_every_worker_and_a_search_then_starts_none() -> None:
    thinking.warm()
    executor = thinking.pool()
    assert executor is not None, "the process pool did not start"
    started = dict(executor._processes)  # the pool's own table of worker processes
    assert len(started) == thinking.WORKERS
    assert all(p.is_alive() for p in started.values())
    assert executor.submit(abs, -3).result() == 3
    assert dict(executor._processes) == started
