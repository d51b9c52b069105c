"""When a long-lived bot collects garbage: in small steps between callbacks while it is
busy, and fully at quiet moments.

Why (issue 16 item 5, no callback over 50 ms): CPython collects young objects when the
count of objects allocated minus those freed passes a threshold, inside whatever
callback allocated the last one, and every tenth or twentieth time it collects again
what survived the young collections. Under load each click frees an old match state
while it builds the new one, so a young collection came only after two to four times
its threshold of new objects had piled up, and the older collection scanned again the
states of every match being played: 40-90 ms for a young one and 120-210 ms for an older
one on 2 cores at 120-180 clicks/s, several a minute, inside clicks' callbacks. Nothing
came of that work: the bot makes no cyclic garbage under load (interactions, files and
views are unlinked or weakly held; a full collection after 11,600 clicks found none).

So, once start-up is frozen (:class:`bot.app.ArenaBot`), automatic collection is off and
this task looks at the process every :attr:`CollectorPolicy.check_every` seconds, as a
callback of its own:

- while the process is busy, or when enough new objects piled up, it collects what was
  made since the last look (``young``, generation 0; what survives goes to the next
  generation, which no step scans): a step scans a quarter of a second of new objects
  and never scans them again;
- once the process has been quiet for :attr:`~CollectorPolicy.quiet_looks` looks (its CPU
  under :attr:`~CollectorPolicy.quiet_cpu` of a core) and the heap grew by
  :attr:`~CollectorPolicy.full_share` since the last such collection, it collects all
  that is not frozen and freezes what survives (``full``): the cycles that formed among
  the objects the steps kept are found there, and each full collection scans only what
  came since the one before (90-150 ms on 2 cores with 100 matches being played, whose
  live states are always that new);
- once the process has been quiet for a minute (:attr:`~CollectorPolicy.deep_quiet_looks`)
  and the heap grew by :attr:`~CollectorPolicy.deep_share` since the last deep collection
  (CPython's own rule for its full collections is a quarter of the long-lived objects),
  it collects everything, frozen objects too (``deep``): cycles among older objects are
  found there, when nobody is playing;
- whatever the load, once the heap grew by :attr:`~CollectorPolicy.forced_share` since
  the last full collection, it makes one anyway (``forced``, logged), and once it grew by
  :attr:`~CollectorPolicy.deep_forced_share` since the last deep one, a deep one
  (``forced-deep``, logged): the bounds on memory if a bot busy for hours made cyclic
  garbage among objects it kept.

The heap is counted in the interpreter's small memory blocks (``sys.getallocatedblocks``,
a sum over its arenas, cheap): counting objects walks all of them, tens of milliseconds
in a big heap.

Objects still die by reference counting as they always do; only cycles wait for a
collection.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

log = logging.getLogger(__name__)

Kind = Literal["young", "full", "deep", "forced", "forced-deep"]


@dataclass(frozen=True)
class CollectorPolicy:
    """The collector's settings (measured with ``bench/bench_load.py``, README "Load")."""

    check_every: float = 0.25
    """Seconds between two looks: what a young step scans is what survived this long."""
    quiet_cpu: float = 0.25
    """The process's CPU share of one core since the last look under which it is quiet
    (a few dozen clicks/s)."""
    quiet_looks: int = 8
    """Quiet looks in a row before a full collection (two seconds: not the first instant
    of a lull, which may be the start of a burst)."""
    deep_quiet_looks: int = 240
    """Quiet looks in a row before a deep collection (a minute: nobody is playing)."""
    young_min: int = 2_000
    """New objects (allocated minus freed) worth a young step while quiet (a busy process
    steps at every look: its old objects' deaths hide its new ones from this count)."""
    full_share: float = 0.1
    """The heap's growth since the last full collection, as a share of the heap after the
    last deep one, worth a full one at a quiet moment (what it scans)."""
    deep_share: float = 0.25
    """The heap's growth since the last deep collection, as a share of it then, worth a
    deep one after a quiet minute."""
    forced_share: float = 1.0
    """The heap's growth since the last full collection, as a share of the heap after the
    last deep one, that forces a full one whatever the load (what it scans: its size)."""
    deep_forced_share: float = 4.0
    """The heap's growth since the last deep collection, as a share of it then, that
    forces a deep one whatever the load (memory at most five times as large before)."""
    min_heap: int = 500_000
    """The heap the shares are taken of, at least, in memory blocks (a small bot)."""


@dataclass
class CollectorStats:
    """What the collector did, for the load benchmark and the logs."""

    looks: int = 0
    collections: dict[str, int] = field(default_factory=dict)
    worst: dict[str, float] = field(default_factory=dict)
    """Seconds of the longest collection of each kind."""


class QuietCollector:
    """Collects garbage in small steps and at quiet moments (see the module). ``cpu`` and
    ``clock`` are the process's CPU seconds and a monotonic clock, injectable for tests."""

    def __init__(
        self,
        policy: CollectorPolicy | None = None,
        *,
        cpu: Callable[[], float] = time.process_time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.policy = policy or CollectorPolicy()
        self.stats = CollectorStats()
        self._cpu = cpu
        self._clock = clock
        self._task: asyncio.Task[None] | None = None
        self._was_enabled = True
        self._heap = 0
        """Memory blocks in use after the last deep collection (or at start)."""
        self._at_full = 0
        """Memory blocks in use after the last full or deep collection (or at start)."""
        self._quiet = 0
        """Quiet looks in a row."""
        self._last_cpu = 0.0
        self._last_time = 0.0

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Turn automatic collection off and start looking (in the running loop). The heap
        is counted as it is now."""
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._heap = self._at_full = sys.getallocatedblocks()
        self._quiet = 0
        self._last_cpu, self._last_time = self._cpu(), self._clock()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="arena-collector")

    async def stop(self) -> None:
        """Stop looking and give collection back to CPython as it was."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
        if self._was_enabled:
            gc.enable()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.policy.check_every)
            try:
                self.look()
            except Exception:  # never let the collector's bookkeeping end the task
                log.exception("garbage collector look failed")

    def quiet(self) -> bool:
        """Whether the process used less than ``quiet_cpu`` of a core since the last look
        (and counts the quiet looks in a row)."""
        cpu, now = self._cpu(), self._clock()
        spent, elapsed = cpu - self._last_cpu, now - self._last_time
        self._last_cpu, self._last_time = cpu, now
        quiet = elapsed > 0 and spent / elapsed < self.policy.quiet_cpu
        self._quiet = self._quiet + 1 if quiet else 0
        return quiet

    def look(self) -> Kind | None:
        """One look: the collection it made, if any."""
        p = self.policy
        self.stats.looks += 1
        new = gc.get_count()[0]
        heap = max(self._heap, p.min_heap)
        blocks = sys.getallocatedblocks()
        grown = blocks - self._heap
        quiet = self.quiet()
        if grown >= p.deep_forced_share * heap:
            self._deep("forced-deep")
            log.info("deep garbage collection forced: the heap grew by %d blocks", grown)
            return "forced-deep"
        if self._quiet >= p.deep_quiet_looks and grown >= p.deep_share * heap:
            self._deep("deep")
            return "deep"
        since_full = blocks - self._at_full
        if since_full >= p.forced_share * heap:
            self._full("forced")
            log.info("garbage collection forced: the heap grew by %d blocks", since_full)
            return "forced"
        if self._quiet >= p.quiet_looks and since_full >= p.full_share * heap:
            self._full("full")
            return "full"
        if not quiet or new >= p.young_min:
            started = time.perf_counter()
            gc.collect(0)  # what is new: the survivors go to generation 1, never scanned here
            self._count("young", time.perf_counter() - started)
            return "young"
        return None

    def _full(self, kind: Kind) -> None:
        """Collect all that is not frozen (what came since the last full collection), then
        freeze what survived."""
        started = time.perf_counter()
        gc.collect()
        gc.freeze()
        self._at_full = sys.getallocatedblocks()
        self._count(kind, time.perf_counter() - started)

    def _deep(self, kind: Kind) -> None:
        """Collect everything, frozen objects too (start-up's included), then freeze what
        survived again."""
        started = time.perf_counter()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._heap = self._at_full = sys.getallocatedblocks()
        self._count(kind, time.perf_counter() - started)

    def _count(self, kind: Kind, took: float) -> None:
        s = self.stats
        s.collections[kind] = s.collections.get(kind, 0) + 1
        s.worst[kind] = max(s.worst.get(kind, 0.0), took)
