"""When a long-lived bot collects garbage: in small steps between callbacks, each of which
freezes what it kept, and everything only when nobody is playing.

Why (issue 16 item 5, no callback over 50 ms): CPython collects young objects when the
count of objects allocated minus those freed passes a threshold, inside whatever
callback allocated the last one, and every tenth or twentieth time it collects again
what survived the young collections. Under load each click frees an old match state
while it builds the new one, so a young collection came only after two to four times
its threshold of new objects had piled up, and the older collection scanned again the
states of every match being played: 40-90 ms for a young one and 120-210 ms for an older
one on 2 cores at 120-180 clicks/s, several a minute, inside clicks' callbacks. Nothing
came of that work: the bot makes no cyclic garbage that outlives a step below
(interactions, files and views are unlinked or weakly held; with every step's survivors
frozen, a collection of the whole heap after 100 seconds of the load benchmark, about
12,000 clicks, found no unreachable object at all, with steps a quarter and a tenth of a
second apart).

So, once start-up is frozen (:class:`bot.app.ArenaBot`), automatic collection is off and
this task looks at the process every :attr:`CollectorPolicy.check_every` seconds, as a
callback of its own:

- while the process is busy (its CPU over :attr:`~CollectorPolicy.quiet_cpu` of a core
  since the last look), or when :attr:`~CollectorPolicy.young_min` new objects piled up,
  it steps: it freezes what was made since the last step, and one step in
  :attr:`~CollectorPolicy.scan_every` (every one after a scan that found garbage, and
  every quiet one) first collects it (``young``; the others are ``freeze``): a scan
  covers a tenth of a second of new objects, 16 ms at worst on 2 cores at 130 clicks/s,
  and nothing a step kept is ever scanned again by a step. Frozen objects still die by
  reference counting as all objects do; only a cycle among them waits;
- once the process has been idle for :attr:`~CollectorPolicy.idle_seconds` (looks in a
  row under :attr:`~CollectorPolicy.idle_cpu` of a core: nobody is clicking) and
  the heap grew by :attr:`~CollectorPolicy.deep_share` since the last such collection
  (CPython's own rule for its full collections is a quarter of the long-lived objects),
  it collects everything, frozen objects too, and freezes the survivors again
  (``deep``): the cycles among kept objects are found there, at a few hundred
  milliseconds per million objects, when nobody waits for them;
- whatever the load, once the heap grew by :attr:`~CollectorPolicy.deep_forced_share`
  since the last deep collection, it makes one anyway (``forced-deep``, logged): the
  bound on memory if a bot busy for hours without an idle minute kept cyclic garbage.

An earlier version kept the steps' survivors unfrozen until two quiet seconds and
collected them then: that collection scanned the live states of every match played
since the last one (90-150 ms), met the first clicks of the next burst, and was forced
under sustained load once the heap doubled (200-400 ms), for no garbage found.

The heap is counted in the interpreter's small memory blocks (``sys.getallocatedblocks``,
a sum over its arenas, cheap): counting objects walks all of them, tens of milliseconds
in a big heap.
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

Kind = Literal["young", "freeze", "deep", "forced-deep"]


@dataclass(frozen=True)
class CollectorPolicy:
    """The collector's settings (measured with ``bench/bench_load.py``, README "Load")."""

    check_every: float = 0.1
    """Seconds between two looks: what a young step scans is what was made in that time
    (at 0.25 s, steps of up to 25-38 ms under load and a loop lag p99 of 17.8-19.2 ms; at
    0.1 s, 16 ms and 14.6-14.7 ms, for the same CPU: README "Load")."""
    quiet_cpu: float = 0.25
    """The process's CPU share of one core since the last look under which it is quiet
    (a few dozen clicks/s): its new objects wait for ``young_min`` of them."""
    scan_every: int = 10
    """A busy process's steps: one in this many scans what is new (``young``, one a
    second at ``check_every``); the others only freeze it (``freeze``: no scan, no cost).
    The bot makes no cyclic garbage under load (its young steps found none in 412 of 412
    steps of a 40 s load run, 6,492 clicks), and scanning at every look took 6% of the
    event loop's time (its worst callbacks, 15-21 ms) for nothing; a sampled scan still
    notices a path that starts making garbage, and from then on every step scans until
    one finds none. What a freeze kept unscanned waits for a deep collection."""
    young_min: int = 2_000
    """New objects (allocated minus freed) worth a young step while quiet (a busy process
    steps at every look: its old objects' deaths hide its new ones from this count)."""
    idle_cpu: float = 0.05
    """The process's CPU share of one core since the last look under which it is idle (at
    most a click or two in a look)."""
    idle_seconds: float = 60.0
    """Idle time, in looks in a row, before a deep collection (nobody is playing)."""
    deep_share: float = 0.25
    """The heap's growth since the last deep collection, as a share of it then, worth a
    deep one after an idle minute."""
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
    found: int = 0
    """Unreachable objects the young steps' scans found."""
    seconds: float = 0.0
    """Time spent collecting and freezing, in all (on the event loop)."""


class QuietCollector:
    """Collects garbage in small steps and everything when idle (see the module). ``cpu``
    and ``clock`` are the process's CPU seconds and a monotonic clock, injectable for
    tests."""

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
        self._idle = 0
        """Idle looks in a row."""
        self._since_scan = self.policy.scan_every - 1
        """Steps since the last one that scanned (the first step scans)."""
        self._suspect = False
        """The last scan found garbage: every step scans until one finds none."""
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
        self._heap = sys.getallocatedblocks()
        self._idle = 0
        self._last_cpu, self._last_time = self._cpu(), self._clock()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="arena-collector")

    async def stop(self) -> None:
        """Stop looking and give collection back to CPython as it was, frozen objects
        included (the steps froze what they kept)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
        gc.unfreeze()
        if self._was_enabled:
            gc.enable()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.policy.check_every)
            try:
                self.look()
            except Exception:  # never let the collector's bookkeeping end the task
                log.exception("garbage collector look failed")

    def load(self) -> float:
        """The process's CPU share of one core since the last look (and counts the idle
        looks in a row)."""
        cpu, now = self._cpu(), self._clock()
        spent, elapsed = cpu - self._last_cpu, now - self._last_time
        self._last_cpu, self._last_time = cpu, now
        load = spent / elapsed if elapsed > 0 else 0.0
        self._idle = self._idle + 1 if load < self.policy.idle_cpu else 0
        return load

    def look(self) -> Kind | None:
        """One look: the collection it made, if any."""
        p = self.policy
        self.stats.looks += 1
        new = gc.get_count()[0]
        load = self.load()
        heap = max(self._heap, p.min_heap)
        grown = sys.getallocatedblocks() - self._heap
        if grown >= p.deep_forced_share * heap:
            self._deep("forced-deep")
            log.info("deep garbage collection forced: the heap grew by %d blocks", grown)
            return "forced-deep"
        if self._idle >= round(p.idle_seconds / p.check_every) and grown >= p.deep_share * heap:
            self._deep("deep")
            return "deep"
        busy = load >= p.quiet_cpu
        if busy or new >= p.young_min:
            started = time.perf_counter()
            self._since_scan += 1
            kind: Kind = "freeze"
            if not busy or self._suspect or self._since_scan >= p.scan_every:
                found = gc.collect(0)  # what is new since the last step
                self.stats.found += found
                self._suspect = found > 0
                self._since_scan = 0
                kind = "young"
            gc.freeze()  # what survived: never scanned again but by a deep collection
            self._count(kind, time.perf_counter() - started)
            return kind
        return None

    def _deep(self, kind: Kind) -> None:
        """Collect everything, frozen objects too (start-up's included), then freeze what
        survived again."""
        started = time.perf_counter()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._heap = sys.getallocatedblocks()
        self._count(kind, time.perf_counter() - started)

    def _count(self, kind: Kind, took: float) -> None:
        s = self.stats
        s.collections[kind] = s.collections.get(kind, 0) + 1
        s.worst[kind] = max(s.worst.get(kind, 0.0), took)
        s.seconds += took
