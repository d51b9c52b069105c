"""The long-lived bot's garbage collection at quiet moments (issue 16 item 5).

The policy is checked with an injected CPU clock and the real collector; the bot's start
and stop with the real task.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import weakref
from collections.abc import Iterator

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
    c._heap = c._at_full = sys.getallocatedblocks()
    c.quiet()  # the first look's reference point (not counted as a look)
    c._quiet = 0
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


@pytest.mark.usefixtures("collector_off")
def test_a_busy_process_steps_at_every_look_and_never_rescans_what_survived() -> None:
    """Under load each look collects what is new, between callbacks; the survivors go to
    an older generation that the next step does not scan."""
    clock = Clock()
    c = make(clock, young_min=10**9)
    cycles(500)
    kept = [Cycle() for _ in range(300)]
    clock.spend(0.25, cpu_share=0.9)
    assert c.look() == "young"
    assert alive() == 300
    young = {id(o) for o in gc.get_objects(0)}
    assert not any(id(k) in young for k in kept)  # the survivors are older now
    clock.spend(0.25, cpu_share=0.9)
    assert c.look() == "young"  # busy: a step even with little new
    assert len(kept) == 300


@pytest.mark.usefixtures("collector_off")
def test_a_quiet_process_steps_only_when_enough_piled_up() -> None:
    clock = Clock()
    c = make(clock, young_min=2_000)
    clock.spend(0.25, cpu_share=0.0)
    assert c.look() is None
    cycles(1_500)  # 3,000 objects: each cycle and its attributes
    clock.spend(0.25, cpu_share=0.0)
    assert c.look() == "young"
    assert alive() == 0
    assert c.stats.collections == {"young": 1}


@pytest.mark.usefixtures("collector_off")
def test_a_full_collection_waits_for_quiet_seconds_and_finds_cycles_among_kept() -> None:
    """Cycles among objects a step kept wait for a full collection: once the heap grew by
    ``full_share`` since the last one, at the eighth quiet look in a row (two seconds)."""
    clock = Clock()
    two = blocks_for(0.02)
    c = make(clock, young_min=100, full_share=0.01, deep_share=10.0, min_heap=0)
    kept = [Cycle() for _ in range(two)]
    clock.spend(0.25, cpu_share=0.9)
    assert c.look() == "young"  # busy: kept, in an older generation
    kept.clear()  # their cycles become garbage: young steps cannot see them
    assert alive() > 0
    for _ in range(7):
        clock.spend(0.25, cpu_share=0.0)
        assert c.look() is None  # quiet, but not for long enough
    clock.spend(0.25, cpu_share=0.0)
    frozen = gc.get_freeze_count()
    assert c.look() == "full"
    assert alive() == 0
    assert gc.get_freeze_count() >= frozen  # what survived is frozen: never scanned again
    assert c._at_full <= sys.getallocatedblocks() + 100  # counted again
    clock.spend(0.25, cpu_share=0.0)
    assert c.look() is None  # nothing kept since


@pytest.mark.usefixtures("collector_off")
def test_a_deep_collection_after_a_quiet_minute_finds_cycles_among_frozen_objects() -> None:
    """What a full collection froze is only scanned again by a deep one: once the heap
    grew by ``deep_share`` since the last, after ``deep_quiet_looks`` quiet looks."""
    clock = Clock()
    two = blocks_for(0.02)
    c = make(
        clock, young_min=100, full_share=0.01, deep_share=0.01, deep_quiet_looks=20, min_heap=0
    )
    kept = [Cycle() for _ in range(two)]
    clock.spend(0.25, cpu_share=0.9)
    assert c.look() == "young"
    looks = []
    for _ in range(8):
        clock.spend(0.25, cpu_share=0.0)
        looks.append(c.look())
    assert looks[-1] == "full" and set(looks[:-1]) == {None}
    kept.clear()  # garbage among frozen objects: no full collection sees it
    for _ in range(11):
        clock.spend(0.25, cpu_share=0.0)
        assert c.look() is None
    assert alive() > 0
    clock.spend(0.25, cpu_share=0.0)
    assert c.look() == "deep"  # the twentieth quiet look
    assert alive() == 0
    assert c._heap == c._at_full


@pytest.mark.usefixtures("collector_off")
def test_objects_kept_past_the_forced_share_are_collected_even_under_load() -> None:
    """The bound on memory: a bot busy for hours that kept cyclic garbage still gets it
    collected."""
    clock = Clock()
    two, four = blocks_for(0.02), blocks_for(0.04)  # (it collects: before the test)
    c = make(clock, forced_share=0.05, deep_forced_share=10.0, min_heap=0)
    kept = [Cycle() for _ in range(two)]
    clock.spend(0.25, cpu_share=1.0)
    assert c.look() == "young"  # grew by 2%: under 5%
    kept.clear()  # garbage among kept objects
    cycles(four)
    clock.spend(0.25, cpu_share=1.0)
    assert c.look() == "forced"  # 6%: past 5%, busy or not
    assert alive() == 0


@pytest.mark.usefixtures("collector_off")
def test_garbage_among_frozen_objects_past_the_deep_bound_is_collected_under_load() -> None:
    clock = Clock()
    two = blocks_for(0.02)
    c = make(clock, full_share=0.01, deep_forced_share=0.03, min_heap=0)
    kept = [Cycle() for _ in range(two)]
    for _ in range(8):  # a quiet moment: a full collection freezes them
        clock.spend(0.25, cpu_share=0.0)
        c.look()
    assert c.stats.collections.get("full") == 1
    kept.clear()  # garbage among frozen objects
    more = [Cycle() for _ in range(two)]
    clock.spend(0.25, cpu_share=1.0)
    assert c.look() == "forced-deep"  # 4% since the last deep one: past 3%, busy
    assert alive() == len(more)


async def test_start_turns_automatic_collection_off_and_stop_gives_it_back() -> None:
    assert gc.isenabled()
    c = QuietCollector(
        CollectorPolicy(check_every=0.01, quiet_cpu=2.0, young_min=1, full_share=100.0)
    )
    c.start()
    try:
        assert not gc.isenabled() and c.running
        cycles(50)
        for _ in range(100):
            await asyncio.sleep(0.01)
            if c.stats.collections.get("young"):
                break
        assert c.stats.collections.get("young")  # a process always quiet: looks collect
    finally:
        await c.stop()
    assert gc.isenabled() and not c.running
