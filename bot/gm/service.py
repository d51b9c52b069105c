"""The game master service: matches, locks, decisions, AI seats and timers.

One :class:`asyncio.Lock` per match serialises every change; each decision is
applied with the version its button was drawn for (the engine refuses stale
ones) and committed in one store transaction, so a double click or two
concurrent clicks apply a decision exactly once. AI thinking and rendering run
in worker threads. Deadlines live in the store, so timers survive a restart.

The parts live in modules named for what they hold, each a layer over the
previous ones: ``base`` (loading, locks) < ``posting`` < ``ending`` < ``apply``
(decisions, AI seats, recovery) < ``lobby``, and ``apply`` < ``play`` (private
prompts) < ``commands``, ``deadlines``.
"""

from __future__ import annotations

from bot.gm.commands import CommandsMixin
from bot.gm.deadlines import DeadlinesMixin
from bot.gm.live import ACTIVE, MAX_AI_STEPS, Live, t_text
from bot.gm.lobby import UPLOAD_MAX, LobbyMixin

__all__ = ["ACTIVE", "MAX_AI_STEPS", "UPLOAD_MAX", "GameMaster", "Live", "t_text"]


class GameMaster(LobbyMixin, CommandsMixin, DeadlinesMixin):
    """Everything the Discord layer decides, without discord."""

    async def recover(self) -> None:
        """Resume matches at start; with a shared database only in the process holding
        the timers lease (the others load matches when they are used)."""
        if self.timer_lease is not None and not await self.timer_lease.renew():
            return
        await super().recover()

    async def tick(self) -> None:
        """Timers and outbox retries; with a shared database only in the lease holder,
        which, on taking the lease over from a dead process, first resumes its matches."""
        if self.timer_lease is not None:
            was = self.timer_lease.held
            if not await self.timer_lease.renew():
                return
            if not was:
                await super().recover()
        await super().tick()
