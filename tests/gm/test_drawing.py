"""Images drawn in worker processes: the same bytes as in a thread, a loop that stays free,
threads again when a worker dies."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Iterator

import pytest

from bot.engine import Match, SeatSpec
from bot.engine.match import reply_choice
from bot.engine.registry import all_games
from bot.gm import drawing
from bot.gm.workers import NICENESS
from bot.render.cache import IMAGES
from bot.render.common import clear_drawing_caches


@pytest.fixture(scope="module")
def pool() -> Iterator[None]:
    assert drawing.start(), "the drawing processes start here"
    yield
    drawing.shutdown()


def played(game: str, seed: str, steps: int) -> Match:
    """A match of ``game`` with AI seats, its first ``steps`` decisions answered."""
    info = next(i for i in all_games() if i.id == game)
    players = min(info.modes[0].player_counts)
    m = Match.create(game, [SeatSpec(name=f"P{k}", ai=True) for k in range(players)], seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if m.over:
            break
        d = m.pending()[0]
        m.apply(reply_choice(d, m.game.ai_choose(m.state, d, rnd, "easy")))
    return m


GAMES = [i.id for i in all_games() if not i.id.startswith("test-")]
"""The bot's games (other tests register test games in this process only)."""


@pytest.mark.parametrize("game", GAMES)
async def test_a_worker_draws_the_bytes_a_thread_draws(pool: None, game: str) -> None:
    m = played(game, f"draw-{game}", 6)
    IMAGES.clear()
    public = await drawing.render(m, None, "fr")
    d = m.pending()[0]
    prompt = await drawing.render(m, d.seat, "en", d)
    IMAGES.clear()
    assert public == m.render(None, "fr")
    assert prompt == m.render(d.seat, "en", d)
    assert public.startswith(b"\x89PNG")


async def test_a_drawn_view_is_kept_and_not_drawn_again(
    pool: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = played("mad", "draw-cache", 3)
    IMAGES.clear()
    first = await drawing.render(m, None, "en")

    def never(*args: object) -> bytes:
        raise AssertionError("drawn twice")

    monkeypatch.setattr(drawing, "draw_in_worker", never)
    assert await drawing.render(m, None, "en") == first


async def test_without_the_pool_threads_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drawing, "_pool", None)
    m = played("arena", "draw-thread", 4)
    assert await drawing.render(m, None, "en") == m.render(None, "en")


async def test_drawing_leaves_this_process_free(pool: None) -> None:
    """The bot's process only computes views and keys: its CPU time (immune to the
    machine's load, unlike a lag measure) is a small part of drawing in threads."""
    matches = [
        played(game, f"draw-cpu-{game}-{i}", 10 + i)
        for game in ("madsteam", "ultimate-warriorz", "mad-arena")
        for i in range(3)
    ]

    async def draw_all() -> float:
        IMAGES.clear()
        clear_drawing_caches()  # a thread would draw what this process never drew
        start = time.process_time()
        images = await asyncio.gather(
            *(drawing.render(m, None, lang) for m in matches for lang in ("en", "fr"))
        )
        assert all(i.startswith(b"\x89PNG") for i in images)
        return time.process_time() - start

    in_workers = await draw_all()
    pool_was = drawing._pool
    drawing._pool = None
    try:
        in_threads = await draw_all()
    finally:
        drawing._pool = pool_was
    assert in_workers < 0.5 * in_threads, (in_workers, in_threads)


async def test_a_dead_worker_falls_back_to_threads_then_a_new_pool() -> None:
    assert drawing.start()
    try:
        pool = drawing._pool
        assert pool is not None
        for pid in pool.pids:  # a worker killed (out of memory, an operator)
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.3)
        m = played("mad-arena", "draw-dead", 5)
        IMAGES.clear()
        assert await drawing.render(m, None, "en") == m.render(None, "en")
        for _ in range(100):  # a new pool starts in the background
            if drawing.started() and drawing._pool is not pool:
                break
            await asyncio.sleep(0.1)
        assert drawing.started() and drawing._pool is not pool
        IMAGES.clear()
        assert await drawing.render(m, None, "fr") == m.render(None, "fr")
    finally:
        drawing.shutdown()


async def test_the_drawing_processes_run_below_the_bot() -> None:
    """The event loop takes a core before a drawing does (``bot.gm.workers``)."""
    assert drawing.start()
    try:
        assert drawing._pool is not None
        theirs = await asyncio.gather(*(drawing._pool.run(os.nice, 0) for _ in range(4)))
        assert theirs == [min(19, os.nice(0) + NICENESS)] * 4
    finally:
        drawing.shutdown()
