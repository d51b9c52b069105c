"""Writes counted per key (bot/store/counts.py): a read is kept only if no write of its
key began or ended while it ran, whatever became of that write."""

from __future__ import annotations

import pytest

from bot.store.counts import WriteCounts


def test_a_read_between_writes_stays_current() -> None:
    counts: WriteCounts[int] = WriteCounts()
    with counts.counting(1):
        pass
    stamp = counts.stamp(1)
    assert not counts.moved(1, stamp)
    with counts.counting(2):  # another key's write
        pass
    assert not counts.moved(1, stamp)


def test_a_write_that_began_or_ended_during_a_read_moves_the_count() -> None:
    counts: WriteCounts[str] = WriteCounts()
    before = counts.stamp("m")
    with counts.counting("m"):
        during = counts.stamp("m")
        assert counts.moved("m", before)  # began since
    assert counts.moved("m", during)  # ended since
    assert counts.moved("m", before)


def test_a_failed_write_is_counted_too() -> None:
    counts: WriteCounts[int] = WriteCounts()
    stamp = counts.stamp(7)
    with pytest.raises(RuntimeError), counts.counting(7):
        raise RuntimeError("the database refused it")
    assert counts.moved(7, stamp) and counts.stamp(7) == stamp + 2


def test_a_dropped_key_starts_again_from_nothing() -> None:
    counts: WriteCounts[int] = WriteCounts()
    with counts.counting(3):
        pass
    counts.drop(3)
    assert counts.stamp(3) == 0
