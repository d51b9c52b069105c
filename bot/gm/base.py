"""The game master's core: live matches in memory, one lock per match, reloading.

The other parts of :class:`bot.gm.service.GameMaster` (lobby, play, posting,
deadlines...) are mixins over this base, each in its own module.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from bot.engine import Decision, Match
from bot.gm import timers as tm
from bot.gm.clock import Clock, SystemClock
from bot.gm.lease import Lease
from bot.gm.live import ACTIVE, Live
from bot.gm.publisher import Publisher
from bot.store.records import MatchRecord

if TYPE_CHECKING:
    from bot.store import Store

log = logging.getLogger(__name__)
T = TypeVar("T")

ENDED_KEPT = 64
"""Ended matches kept in memory until their log is posted (:meth:`Base._keep_ended`):
a few per second end under load, and each is posted within moments."""

CPU_WORKERS = 2
"""AI thinking, rendering and logs running at once: as many as the machine's cores (2
here). More would not finish sooner, only take the GIL from the event loop more often."""
_cpu_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)
SWITCH_INTERVAL = 0.001
"""GIL switch interval for the bot process (Python's default is 5 ms): with CPU threads
busy, the event loop gets the GIL back within about a millisecond, so clicks are
acknowledged while a tick's AI and images run."""


def tune_threads() -> None:
    """Give the event loop the GIL back sooner when worker threads are busy (the bot's
    startup and ``bench/bench_loop.py`` call it)."""
    sys.setswitchinterval(SWITCH_INTERVAL)


async def run_cpu(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a worker thread (AI, rendering, logs), at most ``CPU_WORKERS`` at
    once per event loop, off the event loop."""
    loop = asyncio.get_running_loop()
    slots = _cpu_slots.get(loop)
    if slots is None:
        slots = _cpu_slots[loop] = asyncio.Semaphore(CPU_WORKERS)
    async with slots:
        return await asyncio.to_thread(fn, *args)


class LockTable:
    """One lock per key (a match, a channel), kept only while someone holds or awaits it.

    Why: a table that kept every lock it ever made held one per match ever played, for
    the life of the process. Held weakly, a lock lives exactly as long as a coroutine
    uses it (``async with table[key]`` keeps it referenced through the block and its
    wait), so everyone contending for a key meets the same lock, and an unused one goes
    with its last user."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __getitem__(self, key: int) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        return len(self._locks)


class Base:
    """State shared by every part of the game master."""

    def __init__(
        self,
        store: Store,
        publisher: Publisher,
        clock: Clock | None = None,
    ) -> None:
        self.store = store
        self.publisher = publisher
        self.clock = clock or SystemClock()
        self._live: dict[int, Live] = {}
        self._locks = LockTable()
        self._channel_locks = LockTable()
        self._ended: OrderedDict[int, Match] = OrderedDict()
        """Matches that ended or were closed here, holding their whole history: their log
        is written from them (:meth:`_keep_ended`)."""
        self._must_reload: set[int] = set()
        """Matches whose in-memory state may be ahead of the store (a failed commit):
        reloaded from the store before the next decision."""
        self._must_advance: set[int] = set()
        """Matches whose AI seats could not commit (a failing store): they play on the
        next access."""
        self.timer_lease: Lease | None = (
            Lease(store, self.clock) if getattr(store, "shared", False) else None
        )
        """With a database other processes share (PostgreSQL): only the holder of this
        lease runs timers and recovery (:mod:`bot.gm.lease`); None with SQLite."""

    async def _render(
        self,
        match: Match,
        lang: str,
        seat: int | None = None,
        decision: Decision | None = None,
    ) -> bytes | None:
        """The image of ``match`` for ``seat`` (public: None); None if drawing failed.
        With ``decision`` (a private prompt of ``seat``) its legal targets are marked."""
        from bot.gm import drawing  # drawing uses run_cpu from here

        try:
            data = await drawing.render(match, seat, lang, decision)
        except Exception:
            log.exception("render failed for %s", match.game_id)
            return None
        return data or None

    def _keep_ended(self, live: Live) -> None:
        """``live``'s match has ended (or was closed): keep it for its log, which is then
        written from it rather than from a replay of the stored decisions (issue 16: a
        replay took 17 ms on average in a load run, 40-55 ms for a long match, under the
        interpreter lock, in a thread beside the event loop, at every match's end). Only a match holding every event since setup is kept; one
        reloaded from a snapshot has lost the earlier ones and is replayed as before."""
        match = live.match
        if match is None or not match.whole_history:
            return
        self._ended[live.mid] = match
        self._ended.move_to_end(live.mid)
        while len(self._ended) > ENDED_KEPT:
            self._ended.popitem(last=False)

    def lock(self, mid: int) -> asyncio.Lock:
        return self._locks[mid]

    # --- loading -------------------------------------------------------------------
    async def _get(self, mid: int) -> Live | None:
        live = self._live.get(mid)
        if live is not None:
            if mid in self._must_reload:
                # Raises while the store still fails: better an error than a wrong state.
                live.match = await self.store.load_match(mid)
                self._must_reload.discard(mid)
                await self._restore_public(live)
            elif self.timer_lease is not None and not await self._in_step(live):
                self._live.pop(mid, None)  # another process moved it on: read it again
                return await self._get(mid)
            return live
        rec = await self.store.get(mid, snapshot=False)
        if rec is None or rec.status not in ACTIVE:
            return None
        live = Live(rec)
        if rec.status == "live":
            live.match = await self.store.load_match(mid)
            await self._restore_public(live)
            live.deadlines = {d.key: d.due_at for d in await self.store.deadlines(mid)}
            live.timers = await self._load_timers(mid)
        self._live[mid] = live
        return live

    async def _in_step(self, live: Live) -> bool:
        """Whether ``live`` is still what the shared database holds (status, version and,
        for a lobby, its last change): one small read, no snapshot."""
        head = await self.store.match_head(live.mid)
        if head is None or head[0] != live.rec.status:
            return False
        if live.match is not None:
            return head[1] == live.match.version
        rec = await self.store.get(live.mid, snapshot=False)
        return rec is not None and rec.updated_at == live.rec.updated_at

    async def _reload(self, live: Live) -> None:
        """Put the stored match back in ``live`` after a failed commit (drafts are kept).

        If even reading fails, the match stays marked and :meth:`_get` retries
        before anything else is decided.
        """
        self._must_reload.add(live.mid)
        try:
            live.match = await self.store.load_match(live.mid)
        except Exception:
            log.exception("match %s: reloading from the store failed too", live.mid)
            return
        self._must_reload.discard(live.mid)
        await self._restore_public(live)

    async def _restore_public(self, live: Live) -> None:
        """The public state stored with the match's last commit (events not posted yet,
        the round board); rebuilt from the pending decisions for a match stored without."""
        state = await self.store.public_state(live.mid)
        if state is not None:
            live.restore_public(state)
        else:
            self._rebuild_round(live)

    # Once a match starts, the store's ``options`` column holds the game's effective
    # options only (what a replay needs); the table's own settings (deadlines) are the
    # match's ``settings`` in the store, which ``start_match`` keeps.
    async def _save_timers(self, mid: int, timers: dict[str, int]) -> None:
        settings = await self.store.match_settings(mid)
        settings[tm.SETTINGS_KEY] = {k: int(v) for k, v in timers.items()}
        await self.store.set_match_settings(mid, settings)

    async def _load_timers(self, mid: int) -> dict[str, int]:
        saved = (await self.store.match_settings(mid)).get(tm.SETTINGS_KEY) or {}
        out = dict(tm.DEFAULTS)
        out.update({k: int(v) for k, v in saved.items() if k in out})
        return out

    @staticmethod
    def _rebuild_round(live: Live) -> None:
        """After a restart: the round board is what is pending plus what was answered since."""
        match = live.match
        assert match is not None
        pending = match.pending()
        if not pending:
            return
        start = min(match.pending_since.get(d.key, match.version) for d in pending)
        keys: dict[str, tuple[int, str | None]] = {}
        for c in match.choices[start:]:
            keys[c.key] = (c.seat, None)
        for d in pending:
            keys[d.key] = (d.seat, d.subject)
        live.round_keys = keys

    async def _here(self, channel_id: int, user_id: int) -> MatchRecord | None:
        """The match a command typed in ``channel_id`` is about.

        The channel's (or thread's) own match; else, in thread mode, the one
        match of this parent channel where the user is seated.
        """
        rec = await self.store.active_in_channel(channel_id, snapshot=False)
        if rec is not None:
            return rec
        # Indexed by the user's seats; no snapshot is read (or parsed).
        mine = await self.store.active_of_user_in_channel(channel_id, user_id)
        if len(mine) > 1:
            mine = [r for r in mine if r.status == "live"]
        return mine[0] if len(mine) == 1 else None

    async def live_in(self, channel_id: int) -> Live | None:
        rec = await self.store.active_in_channel(channel_id, snapshot=False)
        if rec is None:
            return None
        return await self._get(rec.id)

    # --- play ----------------------------------------------------------------------------
    def _seats_of(self, live: Live, user_id: int) -> list[int]:
        seats = live.match.seats if live.match is not None else live.rec.seats
        return [i for i, s in enumerate(seats) if s.user_id == user_id]

    def _mine(self, live: Live, user_id: int) -> list[Decision]:
        match = live.match
        assert match is not None
        return [
            d
            for d in match.pending()
            if match.seats[d.seat].user_id == user_id and not match.seats[d.seat].ai
        ]
