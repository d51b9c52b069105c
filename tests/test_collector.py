"""The long-lived bot's garbage collection in steps and when idle (issue 16 item 5).

The policy is checked with an injected CPU clock and the real collector; the bot's start
and stop with the real task.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from collections.abc import Iterable, Iterator

import pytest

from bot.collector import CollectorPolicy, QuietCollector


class Cycle:
    """An object in a reference cycle: only a collection frees it."""

    def __init__(self) -> None:
        self.me = self
        self.load = [0] * 30  # a few memory blocks (the heap is counted in blocks)
        LIVE.add(self)


LIVE: weakref.WeakSet[Cycle] = weakref.WeakSet()
"""Every live :class:`Cycle`."""


class Clock:
    """A monotonic clock and the process's CPU seconds, moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0
        self.cpu = 0.0

    def spend(self, seconds: float, cpu_share: float) -> None:
        self.now += seconds
        self.cpu += seconds * cpu_share


@pytest.fixture
def collector_off() -> Iterator[None]:
    """Automatic collection off for the test, as the collector leaves it, then restored."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


def make(clock: Clock, **policy: float) -> QuietCollector:
    c = QuietCollector(CollectorPolicy(**policy), cpu=lambda: clock.cpu, clock=lambda: clock.now)  # type: ignore[arg-type]
    c._heap = sys.getallocatedblocks()
    c.load()  # the first look's reference point (not counted as a look)
    c._idle = 0
    return c


def cycles(n: int) -> None:
    for _ in range(n):
        Cycle()


def blocks_for(share: float) -> int:
    """How many cycles make the heap grow by about ``share``."""
    before = sys.getallocatedblocks()
    probe = [Cycle() for _ in range(1_000)]
    per = max(1.0, (sys.getallocatedblocks() - before) / len(probe))
    heap = before
    del probe
    gc.collect()
    return int(share * heap / per) + 1


def alive() -> int:
    return len(LIVE)


def tracked(objects: Iterable[object]) -> bool:
    """Whether any of ``objects`` is in a generation a collection scans (not frozen)."""
    ids = {id(o) for o in objects}
    return any(id(o) in ids for o in gc.get_objects())


@pytest.mark.usefixtures("collector_off")
def test_a_busy_process_steps_at_every_look_and_freezes_what_survived() -> None:
    """Under load each look collects what is new, between callbacks, and freezes the
    survivors: no later step scans them again."""
    clock = Clock()
    c = make(clock, young_min=10**9)
    cycles(500)
    kept = [Cycle() for _ in range(300)]
    frozen = gc.get_freeze_count()
    clock.spend(0.25, cpu_share=0.9)
    assert c.look() == "young"
    assert alive() == 300
    assert not tracked(kept)
    assert gc.get_freeze_count() >= frozen + 300
    clock.spend(0.25, cpu_share=0.9)
    assert c.look() == "young"  # busy: a step even with little new
    assert len(kept) == 300


@pytest.mark.usefixtures("collector_off")
def test_a_busy_process_scans_one_step_in_scan_every_and_freezes_at_the_others() -> None:
    """A busy step that does not scan only freezes what is new (no cost): a cycle made
    then is kept, frozen, for a deep collection; the ``scan_every``-th step scans again."""
    clock = Clock()
    c = make(clock, young_min=10**9, scan_every=4)
    clock.spend(0.1, cpu_share=0.9)
    assert c.look() == "young"  # the first step scans (nothing to find)
    kinds = []
    for _ in range(3):
        cycles(10)
        clock.spend(0.1, cpu_share=0.9)
        kinds.append(c.look())
    assert kinds == ["freeze", "freeze", "freeze"]
    assert alive() == 30  # frozen unscanned: only a deep collection finds them
    later = [Cycle() for _ in range(5)]
    later.clear()  # garbage before the 4th step since the scan: that step scans it
    clock.spend(0.1, cpu_share=0.9)
    assert c.look() == "young"
    assert alive() == 30
    assert c.stats.collections == {"young": 2, "freeze": 3}


@pytest.mark.usefixtures("collector_off")
def test_a_scan_that_finds_garbage_makes_every_step_scan_until_one_finds_none() -> None:
    clock = Clock()
    c = make(clock, young_min=10**9, scan_every=10)
    clock.spend(0.1, cpu_share=0.9)
    assert c.look() == "young"
    for _ in range(9):
        clock.spend(0.1, cpu_share=0.9)
        assert c.look() == "freeze"
    cycles(20)
    clock.spend(0.1, cpu_share=0.9)
    assert c.look() == "young"  # the 10th: finds the 20 cycles
    assert alive() == 0
    cycles(20)
    clock.spend(0.1, cpu_share=0.9)
    assert c.look() == "young"  # suspect: scans again, finds more
    assert alive() == 0
    clock.spend(0.1, cpu_share=0.9)
    assert c.look() == "young"  # finds none: back to one in ten
    clock.spend(0.1, cpu_share=0.9)
    assert c.look() == "freeze"


class Probe:
    """An object outside any cycle, tracked by the collector (it has a ``__dict__``)."""


@pytest.mark.usefixtures("collector_off")
def test_a_frozen_object_still_dies_by_reference_counting() -> None:
    clock = Clock()
    c = make(clock)
    probe = Probe()
    dead = weakref.ref(probe)
    assert gc.is_tracked(probe)
    clock.spend(0.25, cpu_share=0.9)
    assert c.look() == "young"
    assert not tracked([probe])
    del probe
    assert dead() is None  # no collection needed


@pytest.mark.usefixtures("collector_off")
def test_a_quiet_process_steps_only_when_enough_piled_up() -> None:
    clock = Clock()
    c = make(clock, young_min=2_000)
    clock.spend(0.25, cpu_share=0.1)  # quiet, not idle
    assert c.look() is None
    cycles(1_500)  # 3,000 objects: each cycle and its attributes
    clock.spend(0.25, cpu_share=0.1)
    assert c.look() == "young"
    assert alive() == 0
    assert c.stats.collections == {"young": 1}


@pytest.mark.usefixtures("collector_off")
def test_cycles_among_kept_objects_wait_for_an_idle_minute() -> None:
    """Cycles among objects a step kept (frozen) are found by a deep collection: once the
    heap grew by ``deep_share`` since the last one, once ``idle_seconds`` passed in idle
    looks in a row; a look that is only quiet starts the count again."""
    clock = Clock()
    two = blocks_for(0.02)
    c = make(
        clock, check_every=0.25, young_min=10**9, deep_share=0.01, idle_seconds=5.0, min_heap=0
    )
    kept = [Cycle() for _ in range(two)]
    clock.spend(0.25, cpu_share=0.9)
    assert c.look() == "young"  # busy: kept, frozen
    kept.clear()  # their cycles become garbage: no step can see them
    for _ in range(19):
        clock.spend(0.25, cpu_share=0.01)
        assert c.look() is None  # idle, but not for long enough
    clock.spend(0.25, cpu_share=0.1)  # a click: quiet, not idle
    assert c.look() is None
    for _ in range(19):
        clock.spend(0.25, cpu_share=0.0)
        assert c.look() is None
    assert alive() > 0
    clock.spend(0.25, cpu_share=0.0)
    assert c.look() == "deep"  # the twentieth idle look in a row
    assert alive() == 0
    assert c._heap <= sys.getallocatedblocks() + 100  # counted again
    clock.spend(0.25, cpu_share=0.0)
    assert c.look() is None  # the heap has not grown since


@pytest.mark.usefixtures("collector_off")
def test_an_idle_minute_without_growth_collects_nothing() -> None:
    """A deep collection scans everything: not worth it for a heap that did not grow."""
    clock = Clock()
    c = make(clock, check_every=0.25, young_min=10**9, deep_share=0.5, idle_seconds=1.0, min_heap=0)
    kept = [Cycle() for _ in range(blocks_for(0.02))]
    clock.spend(0.25, cpu_share=0.9)
    assert c.look() == "young"
    kept.clear()
    looks = []
    for _ in range(10):
        clock.spend(0.25, cpu_share=0.0)
        looks.append(c.look())
    assert set(looks) == {None}
    assert alive() > 0


@pytest.mark.usefixtures("collector_off")
def test_garbage_among_frozen_objects_past_the_deep_bound_is_collected_under_load() -> None:
    """The bound on memory: a bot busy for hours that kept cyclic garbage still gets it
    collected."""
    clock = Clock()
    two, four = blocks_for(0.02), blocks_for(0.04)  # (it collects: before the test)
    c = make(clock, deep_forced_share=0.05, min_heap=0)
    kept = [Cycle() for _ in range(two)]
    clock.spend(0.25, cpu_share=1.0)
    assert c.look() == "young"  # grew by 2%: under 5%
    kept.clear()  # garbage among frozen objects
    more = [Cycle() for _ in range(four)]
    clock.spend(0.25, cpu_share=1.0)
    assert c.look() == "forced-deep"  # 6% since the last deep one: past 5%, busy
    assert alive() == len(more)


async def test_start_turns_automatic_collection_off_and_stop_gives_it_back() -> None:
    assert gc.isenabled()
    c = QuietCollector(CollectorPolicy(check_every=0.01, quiet_cpu=2.0, young_min=1))
    c.start()
    try:
        assert not gc.isenabled() and c.running
        cycles(50)
        for _ in range(100):
            await asyncio.sleep(0.01)
            if c.stats.collections.get("young"):
                break
        assert c.stats.collections.get("young")  # a process always quiet: looks collect
        assert gc.get_freeze_count() > 0
    finally:
        await c.stop()
    assert gc.isenabled() and not c.running
    assert gc.get_freeze_count() == 0  # what the steps froze is scanned again
