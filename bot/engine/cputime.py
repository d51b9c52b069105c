"""CPU time of one AI answer, for the AI trials (tests and benchmarks).

Why: the trials bound and report each answer's time. Wall time counts whatever else
the machine runs (a test worker shares 2 cores), process time counts the process's
other threads, and either counts a garbage collection that the process's earlier
garbage happens to trigger mid-answer (an Arena! answer of 4-11 ms counted 1.46 s of
process CPU once in a test worker that had run hundreds of tests). This counts the
answering thread's own CPU with the collector paused for the answer.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def answer_time(times: list[float]) -> Iterator[None]:
    """Appends to ``times`` the CPU seconds of the block's own thread, collector paused."""
    collecting = gc.isenabled()
    gc.disable()
    start = time.thread_time()
    try:
        yield
    finally:
        times.append(time.thread_time() - start)
        if collecting:
            gc.enable()
