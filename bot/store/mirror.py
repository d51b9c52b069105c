"""The undelivered outbox rows of the matches this process writes, kept as it wrote them.

Why (issue 16): every commit that implies a post or an edit is followed by a flush that
read the match's undelivered rows back from the database, about 200 reads a second
under load: a hop to the reader's thread on the way to every public result (the thread
woken, the interpreter lock handed over and back, the payload's JSON parsed again) for
rows this very process had just written. The rows' ids come back from their inserts
(``RETURNING id``), so what a read would return is known without reading.

Only for a database no other process writes (SQLite; with Postgres another bot process
may add rows, so ``enabled`` is off), like the store's other read caches. A match is
*known* once a read returned all of its undelivered rows (never assumed otherwise). From
then on each write of its rows updates the copy when the write succeeded, and forgets the
copy when the write failed or was cancelled (the database may or may not have the rows:
the next flush reads them again). A read that overlapped a write of the same match is
not kept (it may or may not have seen the write).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from bot.store.counts import WriteCounts
from bot.store.records import OutboxItem


@dataclass
class MirrorWrite:
    """What one write did to a match's undelivered rows, told by the writer once its
    statements succeeded: rows ``added`` (with their ids), ids ``gone`` (delivered)."""

    added: list[OutboxItem] = field(default_factory=list)
    gone: set[int] = field(default_factory=set)
    done: bool = False
    """Set by :meth:`succeeded`: without it the write counts as failed (the copy is
    forgotten, since the database may hold what the copy does not)."""

    def succeeded(self, added: Iterable[OutboxItem] = (), gone: Iterable[int] = ()) -> None:
        self.added.extend(added)
        self.gone.update(gone)
        self.done = True


class OutboxMirror:
    """Each known match's undelivered outbox rows, in delivery order (by id)."""

    def __init__(self, enabled: bool, limit: int = 5000) -> None:
        self.enabled = enabled
        self._limit = limit
        self._rows: dict[int, list[OutboxItem]] = {}
        self._writes: WriteCounts[int] = WriteCounts()
        """Writes begun and ended per match: a read is kept only if this did not move."""
        self.hits = 0
        """Reads answered from the copy (diagnostics and tests)."""

    def get(self, match_id: int, limit: int) -> list[OutboxItem] | None:
        """The first ``limit`` undelivered rows, or None when the match is not known."""
        rows = self._rows.get(match_id) if self.enabled else None
        if rows is None:
            return None
        self._rows[match_id] = self._rows.pop(match_id)  # the most recently used last
        self.hits += 1
        return rows[:limit]

    def stamp(self, match_id: int) -> int:
        """Taken before a read of the database, given back to :meth:`keep`."""
        return self._writes.stamp(match_id)

    def keep(self, match_id: int, stamp: int, rows: list[OutboxItem], complete: bool) -> None:
        """What a read found (``rows`` in id order, as the read sorts them), if it found
        every undelivered row (``complete``) and no write of the match began or ended
        since ``stamp``."""
        if not self.enabled or not complete or self._writes.moved(match_id, stamp):
            return
        self._rows.pop(match_id, None)
        self._rows[match_id] = list(rows)
        if len(self._rows) > self._limit:
            del self._rows[next(iter(self._rows))]  # the least recently used: read again

    @contextlib.contextmanager
    def writing(self, match_id: int) -> Iterator[MirrorWrite]:
        """Around a write of the match's outbox rows; the writer calls
        :meth:`MirrorWrite.succeeded` once its statements are in the database."""
        write = MirrorWrite()
        try:
            with self._writes.counting(match_id):
                yield write
        finally:
            rows = self._rows.get(match_id)
            if rows is not None:
                if not write.done:
                    del self._rows[match_id]
                else:
                    kept = [r for r in rows if r.id not in write.gone] if write.gone else rows
                    kept.extend(r for r in write.added if r.id not in write.gone)
                    kept.sort(key=lambda r: r.id)
                    self._rows[match_id] = kept

    def attempted(self, item_id: int, attempts: int) -> None:
        """A delivery of row ``item_id`` failed: its copy counts ``attempts`` (a rare
        path, so the rows are searched rather than indexed)."""
        for rows in self._rows.values():
            for i, row in enumerate(rows):
                if row.id == item_id:
                    rows[i] = row.model_copy(update={"attempts": attempts})
                    return

    def drop(self, match_id: int) -> None:
        """Forget the match altogether (deleted: nothing reads it again)."""
        self._writes.drop(match_id)
        self._rows.pop(match_id, None)
