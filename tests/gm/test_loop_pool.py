"""The worker processes the event loop drives itself (``bot.gm.loop_pool``): every result
reaches its own caller, large jobs and results travel whole, a failing job fails alone, a
dead worker breaks the pool as an executor's does, and no thread runs in the bot for it."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import cast

import pytest

from bot.gm import loop_pool
from bot.gm.loop_pool import PER_WORKER, READ_SIZE, Context, LoopPool, _frame, _unframe

from .test_lockedio import needs_lockedio


def echo(value: object, delay: float = 0.0) -> object:
    """A job: ``value`` back, after ``delay`` seconds."""
    if delay:
        time.sleep(delay)
    return value


def fail(message: str) -> None:
    raise ValueError(message)


def pid() -> int:
    return os.getpid()


def die() -> None:
    """An initializer that ends its worker at once."""
    os._exit(3)


@pytest.fixture(params=["chosen", "os"])
def pool(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[LoopPool]:
    """A pool of 2 workers, its sockets read and written as the module chose
    (``bot.gm.lockedio`` where it was built) or with ``os.read`` and ``os.write``."""
    if request.param == "os":
        monkeypatch.setattr(loop_pool, "_read_now", os.read)
        monkeypatch.setattr(loop_pool, "_write_now", os.write)
    p = LoopPool(cast(Context, multiprocessing.get_context("forkserver")), 2)
    p.start()
    yield p
    p.shutdown()


def test_frames_are_multiprocessing_s() -> None:
    """A worker reads and writes with ``Connection.recv_bytes``/``send_bytes``: the same
    length prefix, taken apart whole or not at all."""
    buf = bytearray(_frame(b"abc") + _frame(b"") + _frame(b"x" * 70_000)[:100])
    assert _unframe(buf) == b"abc"
    assert _unframe(buf) == b""
    assert _unframe(buf) is None and len(buf) == 100  # the third is not whole yet
    a, b = multiprocessing.Pipe()
    a.send_bytes(b"hello")
    assert bytes(b.recv_bytes()) == b"hello"
    os.write(a.fileno(), _frame(b"from the loop"))
    assert b.recv_bytes() == b"from the loop"


async def test_each_caller_gets_its_own_result_in_any_number(pool: LoopPool) -> None:
    jobs = 20 * PER_WORKER * 2
    results = await asyncio.gather(*(pool.run(echo, k, 0.001 * (k % 3)) for k in range(jobs)))
    assert results == list(range(jobs))


async def test_large_jobs_and_results_travel_whole(pool: LoopPool) -> None:
    """Larger than a socket's buffer and than one read: written as the socket drains and
    read in pieces."""
    big = os.urandom(4 * 1024 * 1024)
    results = await asyncio.gather(*(pool.run(echo, big[k:]) for k in range(5)))
    assert results == [big[k:] for k in range(5)]
    assert len(big) > 10 * READ_SIZE


async def test_a_failing_job_fails_alone(pool: LoopPool) -> None:
    with pytest.raises(ValueError, match="no such move"):
        await pool.run(fail, "no such move")
    with pytest.raises(pickle.PicklingError):
        await pool.run(echo, threading.Lock())  # an argument that cannot travel
    assert await pool.run(echo, "still here") == "still here"
    assert not pool.broken


async def test_a_cancelled_caller_does_not_shift_the_results(pool: LoopPool) -> None:
    slow = [asyncio.ensure_future(pool.run(echo, f"slow{k}", 0.05)) for k in range(4)]
    await asyncio.sleep(0.01)
    slow[0].cancel()
    slow[3].cancel()
    later = await asyncio.gather(*(pool.run(echo, k) for k in range(6)))
    assert later == list(range(6))
    assert [await s for s in slow[1:3]] == ["slow1", "slow2"]


async def test_no_thread_runs_for_the_pool(pool: LoopPool) -> None:
    before = {t.ident for t in threading.enumerate()}
    await asyncio.gather(*(pool.run(echo, k) for k in range(50)))
    assert {t.ident for t in threading.enumerate()} <= before
    ran_in = set(await asyncio.gather(*(pool.run(pid) for _ in range(20))))
    assert ran_in and ran_in <= pool.pids  # every job ran in one of the pool's workers
    assert os.getpid() not in pool.pids


async def test_a_dead_worker_breaks_the_pool(pool: LoopPool) -> None:
    waiting = [asyncio.ensure_future(pool.run(echo, k, 1.0)) for k in range(6)]
    await asyncio.sleep(0.2)
    os.kill(next(iter(pool.pids)), signal.SIGKILL)
    for w in waiting:
        with pytest.raises(BrokenProcessPool):
            await w
    assert pool.broken
    with pytest.raises(BrokenProcessPool):
        await pool.run(echo, 1)


@needs_lockedio
async def test_a_socket_found_blocking_breaks_the_pool() -> None:
    """``lockedio`` refuses a blocking descriptor (holding the lock through a wait would
    stop every thread): a worker's socket found so is no longer the pool's, and the pool
    breaks as for a failed socket, rather than raising in the loop's callback."""
    p = LoopPool(cast(Context, multiprocessing.get_context("forkserver")), 1)
    p.start()
    try:
        os.set_blocking(p._workers[0].fd, True)
        with pytest.raises(BrokenProcessPool, match="non-blocking"):
            await p.run(echo, 1)
        assert p.broken
    finally:
        p.shutdown()


async def test_a_shutdown_from_a_thread_fails_what_waits(pool: LoopPool) -> None:
    waiting = asyncio.ensure_future(pool.run(echo, "late", 5.0))
    await asyncio.sleep(0.1)
    pids = pool.pids
    started = time.monotonic()
    await asyncio.to_thread(pool.shutdown)
    with pytest.raises(BrokenProcessPool):
        await waiting
    assert time.monotonic() - started < 8
    for p in pids:  # every worker exited (or was killed)
        with pytest.raises(ProcessLookupError):
            os.kill(p, 0)


def test_one_pool_serves_one_loop_after_another(pool: LoopPool) -> None:
    """Tests run each on a new event loop: the pool follows."""
    assert asyncio.run(pool.run(echo, "first")) == "first"
    assert asyncio.run(pool.run(echo, "second")) == "second"


async def test_one_job_at_a_time_never_waits_behind_a_long_one() -> None:
    """The AI's pool (``per_worker=1``): while one worker runs a long search, the other
    takes every quick job; with two per worker one of them would wait for the search."""
    p = LoopPool(cast(Context, multiprocessing.get_context("forkserver")), 2, per_worker=1)
    p.start()
    try:
        long = asyncio.ensure_future(p.run(echo, "long", 1.5))
        await asyncio.sleep(0.05)
        started = time.monotonic()
        quick = await asyncio.gather(*(p.run(echo, k, 0.01) for k in range(4)))
        assert quick == list(range(4))
        assert time.monotonic() - started < 1.0
        assert await long == "long"
    finally:
        p.shutdown()


def test_a_worker_that_cannot_start_is_an_os_error() -> None:
    """What the callers catch to fall back to threads (``NO_PROCESSES``)."""
    p = LoopPool(cast(Context, multiprocessing.get_context("forkserver")), 2, die)
    with pytest.raises(OSError, match="before it was ready"):
        p.start()
    assert not p.pids
