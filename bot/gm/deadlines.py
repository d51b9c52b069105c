"""Decision deadlines: the half-time reminder, then the AI decides for the seat."""

from __future__ import annotations

import logging

from bot.engine import IllegalDecision, StaleDecision
from bot.gm.msg import Msg
from bot.gm.play import PlayMixin
from bot.i18n import t

log = logging.getLogger(__name__)


class DeadlinesMixin(PlayMixin):
    """Timers fired by ``tick`` (every few seconds, and by tests)."""

    # --- timers ----------------------------------------------------------------------------
    async def tick(self) -> None:
        """Fire due reminders and deadlines (called every few seconds, and by tests)."""
        now = self.clock.now()
        for dl in await self.store.deadlines():
            if dl.due_at <= now:
                await self._expire(dl.match_id, dl.key)
            elif dl.remind_at <= now and not dl.reminded:
                await self._remind(dl.match_id, dl.key, dl.due_at)

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
            if seat.user_id is None or seat.ai:
                return
            text = t(
                live.lang,
                "timer.remind",
                user=f"<@{seat.user_id}>",
                what=d.subject or seat.name,
                ts=int(due_at),
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
            try:
                await self._commit(live, choice, match.version, by_ai=True)
            except (StaleDecision, IllegalDecision):
                log.exception("timeout choice refused in match %s", mid)
                return
            name = f"<@{seat.user_id}>" if seat.user_id is not None else seat.name
            who = f"{name} ({d.subject})" if d.subject else name
            await self._post(live, Msg(content=t(live.lang, "timer.expired", who=who)))
            await self._advance(live)
            await self._deliver_private(live)
