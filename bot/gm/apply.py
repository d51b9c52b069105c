"""Applying decisions: commit to the store, let AI seats play, reach the next board."""

from __future__ import annotations

import asyncio
import logging

from bot.engine import Choice, Decision, IllegalDecision, Match, StaleDecision
from bot.engine.events import AnyEvent
from bot.gm.ending import EndingMixin
from bot.gm.live import MAX_AI_STEPS, Live, t_text
from bot.store.records import StoreConflict

log = logging.getLogger(__name__)


class CommitFailed(IllegalDecision):
    """The store did not take a decision (disk full, database locked...).

    Nothing changed: the match was put back to what the store holds, so the
    player can make the same choice again (the same button works).
    """


class ApplyMixin(EndingMixin):
    """The heart: apply a choice, commit it, advance AI seats and post."""

    # --- the heart: apply, let AI seats play, post -------------------------------------
    async def _commit(
        self, live: Live, choice: Choice, expected: int | None, by_ai: bool
    ) -> list[AnyEvent]:
        match = live.match
        assert match is not None
        label = match.round_label()
        events = match.apply(choice, expected_version=expected)
        if not live.batch:
            live.batch_round = label
        # Private events for human seats are stored with the decision, undelivered,
        # so a restart before the player looks does not lose them.
        notices = [
            (s, e.text)
            for e in events
            for s in sorted(set(e.visible_to or []))
            if s < len(match.seats) and not match.seats[s].ai
        ]
        try:
            await self.store.commit_decision(live.mid, choice, match, by_ai=by_ai, notices=notices)
        except StoreConflict:
            # Someone else's write won: reload the truth and call this one stale.
            live.match = await self.store.load_match(live.mid)
            self._rebuild_round(live)
            raise StaleDecision(t_text("err.stale")) from None
        except Exception:
            # The in-memory match is now ahead of the file: put the stored one back
            # before anything else is decided, and ask the player to try again.
            log.exception("match %s: committing %s failed", live.mid, choice.key)
            await self._reload(live)
            raise CommitFailed(t_text("err.commit_failed")) from None
        except BaseException:
            self._must_reload.add(live.mid)  # cancelled mid-commit: reload on next access
            raise
        live.batch.extend(events)
        if choice.key in live.deadlines:
            live.deadlines.pop(choice.key, None)
            await self.store.clear_deadline(live.mid, choice.key)
        return events

    async def _ai_choice(self, match: Match, decision: Decision) -> Choice:
        try:
            return await asyncio.to_thread(match.ai_choice, decision)
        except Exception:
            log.exception(
                "AI failed on %s in %s; taking the first legal option", decision.key, match.game_id
            )
            return Choice(seat=decision.seat, key=decision.key, option=decision.options[0].id)

    async def _advance(
        self, live: Live, *, force_step: bool = False, post_round: bool = True
    ) -> None:
        """Let AI seats play, post steps at checkpoints, then the round board and timers."""
        match = live.match
        assert match is not None
        for _ in range(MAX_AI_STEPS):
            if force_step or (live.batch and match.game.checkpoint(live.batch)):
                await self._post_step(live)
                force_step = False
            if match.over:
                await self._finish(live)
                return
            ai = [d for d in match.pending() if match.seats[d.seat].ai]
            if not ai:
                break
            choice = await self._ai_choice(match, ai[0])
            try:
                await self._commit(live, choice, match.version, by_ai=True)
            except CommitFailed:
                # The store is failing: the match is back to its stored state; its
                # AI seats play again on the next access (``_get``), not here.
                self._must_advance.add(live.mid)
                return
            except IllegalDecision:
                # An AI bug must not stall the table: log it and play the first legal option.
                log.exception("AI choice refused in match %s", live.mid)
                first = ai[0].options[0].id
                fallback = Choice(seat=ai[0].seat, key=ai[0].key, option=first)
                try:
                    await self._commit(live, fallback, match.version, by_ai=True)
                except CommitFailed:
                    self._must_advance.add(live.mid)
                    return
        await self._round(live, post_round)

    async def _get(self, mid: int) -> Live | None:
        """The live match; AI seats whose commit failed earlier play now (lock held)."""
        live = await super()._get(mid)
        if live is not None and live.match is not None and mid in self._must_advance:
            self._must_advance.discard(mid)
            await self._advance(live)
        return live

    async def recover(self) -> None:
        """On start: reload live matches, let AI seats catch up, restore timers."""
        for rec in await self.store.active_matches():
            async with self.lock(rec.id):
                self._live.pop(rec.id, None)
                try:
                    live = await self._get(rec.id)
                    if live is not None and live.match is not None:
                        await self._advance(live, post_round=False)
                except Exception:
                    # One broken match (a game no longer installed...) must not stop the others.
                    log.exception("could not resume match %s", rec.id)
                    self._live.pop(rec.id, None)
