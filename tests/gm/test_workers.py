"""The worker processes' set-up (``bot.gm.workers``): freed memory kept between pictures."""

from __future__ import annotations

import ctypes
import subprocess
import sys
from typing import Any

import pytest

from bot.gm import drawing, workers

HAS_MALLOPT = hasattr(ctypes.CDLL(None), "mallopt")

PICTURES = """
import resource, sys
from bot.engine import Match, SeatSpec
from bot.gm.workers import keep_freed_memory
if sys.argv[1] == "kept":
    keep_freed_memory()
pictures = []
for game in ("mad", "arena", "madsteam"):
    m = Match.create(game, [SeatSpec(name=f"P{i}", ai=True) for i in range(2)], seed="faults")
    pictures.append((m.game, m.view(None)))
for game, view in pictures:
    game.render(view, "en")
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    for game, view in pictures:
        game.render(view, "en")
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def page_faults(mode: str) -> int:
    """Minor page faults of 30 boards drawn in a fresh process, after a first of each."""
    out = subprocess.run(
        [sys.executable, "-c", PICTURES, mode], capture_output=True, text=True, check=True
    )
    return int(out.stdout.split()[-1])


@pytest.mark.skipif(not HAS_MALLOPT, reason="the C library has no mallopt (not glibc)")
def test_a_worker_takes_no_new_pages_for_each_picture() -> None:
    """Issue 16: with the C library's defaults each picture gave its buffers' memory back
    and faulted it in again page by page (15% of the drawing workers' CPU in the kernel)."""
    default, kept = page_faults("default"), page_faults("kept")
    assert default > 3000, default  # hundreds a picture: the defaults still give memory back
    assert kept * 10 < default, (kept, default)


def test_worker_setup_lowers_the_priority_and_keeps_freed_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[Any, ...]] = []

    class Mallopt:
        """Like a ctypes function: takes ``argtypes``, then calls."""

        argtypes: Any = None

        def __call__(self, *args: Any) -> int:
            calls.append(args)
            return 1

    class Libc:
        mallopt = Mallopt()

    monkeypatch.setattr(workers.ctypes, "CDLL", lambda name: Libc())
    monkeypatch.setattr(workers.os, "nice", lambda n: calls.append(("nice", n)) or n)
    workers.worker_setup()
    assert calls == [
        ("nice", workers.NICENESS),
        (workers.M_MMAP_THRESHOLD, workers.MMAP_THRESHOLD),
        (workers.M_TRIM_THRESHOLD, workers.TRIM_THRESHOLD),
    ]


def test_without_mallopt_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers.ctypes, "CDLL", lambda name: object())
    workers.keep_freed_memory()  # no AttributeError: another C library is left alone


def test_the_pools_start_their_workers_with_it() -> None:
    assert drawing.start()
    try:
        assert drawing._pool is not None
        assert drawing._pool._initializer is workers.worker_setup
    finally:
        drawing.shutdown()
