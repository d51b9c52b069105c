"""Who runs the timers when several bot processes share one PostgreSQL database.

Deadlines, reminders, outbox retries and the resumption of matches at start
must happen in exactly one process, or a timeout would be posted twice. The
process holding the ``timers`` lease (a row of the store's ``leases`` table)
does them; it renews the lease on every tick, and when it dies (stops
renewing) another process takes the lease over once it has expired, at most
``ttl`` seconds later. With SQLite there is one process and no lease.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from typing import TYPE_CHECKING

from bot.gm.clock import Clock

if TYPE_CHECKING:
    from bot.store import Store

log = logging.getLogger(__name__)

TIMERS = "timers"
LEASE_TTL = 30.0
"""Seconds a lease lasts without renewal: six missed ticks of 5 s before a takeover."""


def process_name() -> str:
    """A name unique to this process (host, pid and a random part), for the lease rows."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Lease:
    """One named lease in the store, held (or not) by this process."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        name: str = TIMERS,
        owner: str | None = None,
        ttl: float = LEASE_TTL,
    ) -> None:
        self.store = store
        self.clock = clock
        self.name = name
        self.owner = owner or process_name()
        self.ttl = ttl
        self.held = False
        """Whether the last :meth:`renew` took or kept the lease."""

    async def renew(self) -> bool:
        """Take the lease if it is free or expired, renew it if it is ours; whether we
        hold it now. Changes of holder are logged."""
        held = await self.store.take_lease(self.name, self.owner, self.clock.now(), self.ttl)
        if held != self.held:
            log.info("lease %r %s by %s", self.name, "taken" if held else "lost", self.owner)
        self.held = held
        return held

    async def release(self) -> None:
        """Give the lease up on a clean shutdown, so another process need not wait."""
        if self.held:
            await self.store.release_lease(self.name, self.owner)
            self.held = False
