"""Writes counted per key, for the read caches of a database no other process writes.

Why: a read runs in a database thread while the event loop goes on, so a write of the
same key may begin or end while it runs, and the read may or may not have seen it.
Counting every write of a key when it begins and when it ends tells that apart: a read
taken at one count is kept only if the count did not move meanwhile. The store's read
cache (:class:`bot.store.store._ReadCache`) and its outbox copy
(:class:`bot.store.mirror.OutboxMirror`) both keep reads by this rule.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Generic, TypeVar

K = TypeVar("K")


class WriteCounts(Generic[K]):
    """Writes begun and ended, per key."""

    def __init__(self) -> None:
        self._counts: dict[K, int] = {}

    def stamp(self, key: K) -> int:
        """The count now: taken before a read, compared after it (:meth:`moved`)."""
        return self._counts.get(key, 0)

    def moved(self, key: K, stamp: int) -> bool:
        """Whether a write of ``key`` began or ended since ``stamp`` was taken."""
        return self._counts.get(key, 0) != stamp

    @contextlib.contextmanager
    def counting(self, key: K) -> Iterator[None]:
        """Around one write of ``key``: counted when it begins and when it ends, however
        it ends (failed or cancelled writes too: the database may hold them or not)."""
        self._counts[key] = self._counts.get(key, 0) + 1
        try:
            yield
        finally:
            self._counts[key] = self._counts.get(key, 0) + 1

    def drop(self, key: K) -> None:
        """Forget ``key`` (its match was deleted: nothing reads it again)."""
        self._counts.pop(key, None)
