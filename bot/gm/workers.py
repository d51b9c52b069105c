"""What the bot's worker processes (AI searches, drawing) have in common.

Why a lower priority: on a machine with as many busy workers as cores, the operating
system shares the cores equally between the event loop and the workers, so a click's
acknowledgement and every other match wait behind a second of search or a burst of
images (issue 16: loop lag p99 115 ms, worst 2.2 s on 2 cores). With the workers at a
lower priority the loop takes a core whenever it has work and the workers use the rest:
their results come a little later under load, the acknowledgements do not.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
from multiprocessing.context import BaseContext
from typing import cast

from bot.gm.loop_pool import PER_WORKER, Context, LoopPool

WORKERS = os.cpu_count() or 1
"""Processes per pool: one per core (more would not finish sooner)."""
NO_PROCESSES: tuple[type[Exception], ...] = (OSError, ImportError, NotImplementedError)
"""What starting a process pool raises where processes cannot run (no semaphores, no
process support: :mod:`multiprocessing` raises ``NotImplementedError`` there); the
callers then work in threads."""
NICENESS = 15
"""Added to a worker's niceness (0 by default on Linux; 19 is the lowest priority).
Measured with ``bench/bench_load.py`` (45 s at clients thinking 0.4 s, runs alternated on 2
cores): at 10 the event loop's lag p99 was 20.2-30.5 ms in six runs, at 15 16.8-18.6 ms in
two (the same rate and result p95: 159-162 clicks/s, 0.90-1.00 s), at 19 13.5-22.3 ms in
four but the workers' results came later (result p95 0.90-1.49 s against 0.92-1.11 s)."""


def lower_priority() -> None:
    """A worker process's initializer: run below the bot's own process. Ignored where the
    platform has no niceness (Windows) or refuses it."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(NICENESS)


MMAP_THRESHOLD = 32 * 2**20
"""Allocations from this size up get their own mapping (glibc's largest setting): below
it, a picture's buffers (1-4 MB) come from the heap, reused from one picture to the next."""
TRIM_THRESHOLD = 64 * 2**20
"""Free memory kept at the heap's top before it is given back to the system."""
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameters (``malloc.h``)."""


def keep_freed_memory() -> None:
    """A worker's initializer: keep freed memory for the next picture rather than give it
    back to the system. With glibc's defaults a drawing worker handed back its canvases'
    and PNG buffers' memory after each picture and took it again page by page at the next:
    229 page faults per picture, 15% of the drawing workers' CPU in the kernel under load
    (issue 16, ``bench/bench_load.py``; 3 faults per picture with these settings, the same
    peak memory over a load run's 3,221 pictures). Where the C library has no ``mallopt``
    (not glibc) nothing changes."""
    with contextlib.suppress(OSError, AttributeError):
        mallopt = ctypes.CDLL(None).mallopt
        mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)


def worker_setup() -> None:
    """Every worker process's initializer: a lower priority, freed memory kept."""
    lower_priority()
    keep_freed_memory()


def process_pool(preload: str, per_worker: int = PER_WORKER) -> LoopPool:
    """A pool of :data:`WORKERS` processes set up by :func:`worker_setup`, forked from a
    small server that imported only ``preload`` (fast to start, no copy of the bot's threads
    or sockets, never the bot's ``__main__``), or spawned where there is no fork server; started
    (blocking: in a thread at start-up), each sent at most ``per_worker`` jobs at once.
    Raises one of :data:`NO_PROCESSES` where processes cannot run."""
    ctx: BaseContext
    try:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([preload])
    except ValueError:
        ctx = multiprocessing.get_context("spawn")
    pool = LoopPool(cast(Context, ctx), WORKERS, worker_setup, per_worker)
    pool.start()
    return pool
