"""Decision deadlines: the half-time reminder, then the AI decides for the seat."""

from __future__ import annotations

import asyncio
import logging

from bot.engine import Decision, IllegalDecision, StaleDecision
from bot.gm.msg import Msg
from bot.gm.play import PlayMixin
from bot.gm.posting import Out
from bot.gm.prompts import subject_name
from bot.i18n import t
from bot.store.records import Deadline

log = logging.getLogger(__name__)

TICK_BATCH = 64
"""Due timers read per query; a tick reads batches until nothing is due."""
TICK_PARALLEL = 8
"""Matches handled at once within a batch (their AI and rendering overlap in threads)."""


def _unseen(d: Decision) -> bool:
    """A secret reaction (Ultimate Warriorz's lucky charm): the public never learns it
    was offered unless it is used, so neither a reminder nor "time is up" is posted."""
    return d.secret and d.timing == "reaction"


class DeadlinesMixin(PlayMixin):
    """Timers fired by ``tick`` (every few seconds, and by tests)."""

    # --- timers ----------------------------------------------------------------------------
    async def tick(self) -> None:
        """Deliver posts still owed, then fire due reminders and deadlines.

        Only due timers are read (an indexed range, in batches of ``TICK_BATCH``);
        timers of different matches fire concurrently, one match's in order.
        """
        for mid in await self.store.outbox_matches():
            async with self.lock(mid):
                await self._flush(mid)
        now = self.clock.now()
        seen: set[tuple[int, str, bool]] = set()
        while True:
            due = await self.store.due_deadlines(now, limit=TICK_BATCH)
            fresh = [dl for dl in due if (dl.match_id, dl.key, dl.due_at <= now) not in seen]
            if not fresh:
                return
            by_match: dict[int, list[Deadline]] = {}
            for dl in fresh:
                seen.add((dl.match_id, dl.key, dl.due_at <= now))
                by_match.setdefault(dl.match_id, []).append(dl)
            groups = list(by_match.values())
            for start in range(0, len(groups), TICK_PARALLEL):
                await asyncio.gather(
                    *(self._fire(group, now) for group in groups[start : start + TICK_PARALLEL])
                )

    async def _fire(self, group: list[Deadline], now: float) -> None:
        for dl in group:
            try:
                if dl.due_at <= now:
                    await self._expire(dl.match_id, dl.key)
                elif dl.remind_at <= now and not dl.reminded:
                    await self._remind(dl.match_id, dl.key, dl.due_at)
            except Exception:
                log.exception("timer %s of match %s failed", dl.key, dl.match_id)

    async def _remind(self, mid: int, key: str, due_at: float) -> None:
        async with self.lock(mid):
            await self.store.mark_reminded(mid, key)
            live = await self._get(mid)
            if live is None or live.match is None:
                return
            d = live.match.decision(key)
            if d is None:
                return
            seat = live.match.seats[d.seat]
            if seat.user_id is None or seat.ai or _unseen(d):
                return
            info = live.match.game.info
            what = subject_name(d.subject, live.lang, info) if d.subject else seat.name
            text = t(
                live.lang, "timer.remind", user=f"<@{seat.user_id}>", what=what, ts=int(due_at)
            )
            await self._post(live, Msg(content=text, mentions=[seat.user_id]))

    async def _expire(self, mid: int, key: str) -> None:
        async with self.lock(mid):
            live = await self._get(mid)
            if live is None or live.match is None:
                await self.store.clear_deadline(mid, key)
                return
            match = live.match
            d = match.decision(key)
            if d is None:
                live.deadlines.pop(key, None)
                await self.store.clear_deadline(mid, key)
                return
            seat = match.seats[d.seat]
            choice = await self._ai_choice(match, d)
            name = f"<@{seat.user_id}>" if seat.user_id is not None else seat.name
            if d.subject:
                name = f"{name} ({subject_name(d.subject, live.lang, match.game.info)})"
            # "Time is up" goes out with the decision it explains, before what follows;
            # never for a secret reaction, whose very offer the channel must not learn.
            notice = Out("post", Msg(content=t(live.lang, "timer.expired", who=name)))
            before = [] if _unseen(d) else [notice]
            try:
                await self._commit(live, choice, match.version, by_ai=True, before=before)
            except (StaleDecision, IllegalDecision):
                log.exception("timeout choice refused in match %s", mid)
                return
            if live.match is not None and not live.match.over:
                await self._advance(live)
            await self._deliver_private(live)
