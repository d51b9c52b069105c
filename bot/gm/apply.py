"""Applying decisions: commit to the store, let AI seats play, reach the next board."""

from __future__ import annotations

import asyncio
import logging

from bot.engine import Choice, Decision, IllegalDecision, Match, StaleDecision
from bot.engine.decisions import Allocation, Many, Order
from bot.engine.events import AnyEvent
from bot.gm import present
from bot.gm.ending import EndingMixin
from bot.gm.live import MAX_AI_STEPS, Live, t_text
from bot.gm.posting import Out
from bot.gm.thinking import ai_choice
from bot.store.records import StoreConflict

log = logging.getLogger(__name__)

RECOVER_BATCH = 16
"""Matches resumed at once on start (their loading and AI work overlap in threads)."""


class CommitFailed(IllegalDecision):
    """The store did not take a decision (disk full, database locked...).

    Nothing changed: the match was put back to what the store holds, so the
    player can make the same choice again (the same button works).
    """


def fallback_choice(decision: Decision) -> Choice:
    """A minimal answer of the decision's shape, for when the AI fails (never a rule).

    One: the first option; Many: the first ``min`` options; Order: the options as
    listed; Allocation: every quantity at its minimum, raised in order until each
    total reaches its minimum.
    """
    ask = decision.ask
    ids = [o.id for o in decision.options]
    if isinstance(ask, Many):
        return Choice(seat=decision.seat, key=decision.key, options=ids[: ask.min])
    if isinstance(ask, Order):
        return Choice(seat=decision.seat, key=decision.key, options=ids)
    if isinstance(ask, Allocation):
        amounts = {q.id: q.min for q in ask.quantities}
        limits = {q.id: q.max for q in ask.quantities}
        for total in ask.totals:
            of = total.of or list(amounts)
            for qid in of:
                missing = (total.min or 0) - sum(amounts[x] for x in of)
                if missing <= 0:
                    break
                amounts[qid] += min(missing, limits[qid] - amounts[qid])
        return Choice(seat=decision.seat, key=decision.key, amounts=amounts)
    return Choice(seat=decision.seat, key=decision.key, option=ids[0])


class ApplyMixin(EndingMixin):
    """The heart: apply a choice, commit it with what it shows, advance AI seats."""

    # --- the heart: apply, plan the posts, commit them together, deliver ---------------
    async def _commit(
        self,
        live: Live,
        choice: Choice,
        expected: int | None,
        by_ai: bool,
        before: list[Out] | None = None,
    ) -> list[AnyEvent]:
        """Apply ``choice``, and store it with every public post it implies (``before``
        first: e.g. "time is up"), in one transaction; then deliver them."""
        match = live.match
        assert match is not None
        label = match.round_label()
        events = match.apply(choice, expected_version=expected)
        # Private events for human seats are stored with the decision, undelivered,
        # so a restart before the player looks does not lose them.
        notices = [
            (s, e.text)
            for e in events
            for s in sorted(set(e.visible_to or []))
            if s < len(match.seats) and not match.seats[s].ai
        ]
        try:
            plan = await self._plan(live, events, label, before=before, answered=choice.key)
            await self.store.commit_decision(
                live.mid,
                choice,
                match,
                by_ai=by_ai,
                notices=notices,
                outbox=plan.entries(),
                public_state=plan.shadow.public_state(),
                deadlines=plan.timers,
            )
        except StoreConflict:
            # Someone else's write won: reload the truth and call this one stale.
            live.match = await self.store.load_match(live.mid)
            await self._restore_public(live)
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
        live.adopt(plan.shadow)
        live.noticed.update(s for s, _ in notices)
        if match.over:
            live.deadlines.clear()
            self._live.pop(live.mid, None)
            self._keep_ended(live)
        await self._flush(live.mid)
        await self._after_commit(live)
        return events

    async def _start_live(self, live: Live, match: Match, before: list[Out]) -> None:
        """The lobby becomes a match: stored with what it shows (``before``: the lobby
        closed, the introduction; then the setup's step and the first round board), in
        one transaction, so a crash right after Start still posts the first board."""
        shadow_live = live.shadow()
        shadow_live.match = match
        shadow_live.batch = []
        plan = await self._plan(
            shadow_live, list(match.events), match.round_label(), before=before, force_step=True
        )
        await self.store.start_match(
            live.mid,
            match,
            outbox=plan.entries(),
            public_state=plan.shadow.public_state(),
            deadlines=plan.timers,
        )
        rec = await self.store.get(live.mid, snapshot=False)
        if rec is not None:
            live.rec = rec
        live.match = match
        live.adopt(plan.shadow)
        if match.over:
            self._live.pop(live.mid, None)
            self._keep_ended(live)
        await self._flush(live.mid)
        await self._after_commit(live)
        if not match.over:
            await self._advance(live, post_round=False)

    async def _ai_choice(self, match: Match, decision: Decision) -> Choice:
        try:
            return await ai_choice(match, decision)
        except Exception:
            log.exception(
                "AI failed on %s in %s; taking a minimal legal answer",
                decision.key,
                match.game_id,
            )
            return fallback_choice(decision)

    async def _advance(
        self, live: Live, *, force_step: bool = False, post_round: bool = True
    ) -> None:
        """Let AI seats play (each commit stores and posts what it shows), then make sure
        the round board and its timers are there."""
        match = live.match
        assert match is not None
        for _ in range(MAX_AI_STEPS):
            if match.over:
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
                # An AI bug must not stall the table: log it and play a minimal answer.
                log.exception("AI choice refused in match %s", live.mid)
                try:
                    await self._commit(live, fallback_choice(ai[0]), match.version, by_ai=True)
                except CommitFailed:
                    self._must_advance.add(live.mid)
                    return
        if not match.over:
            await self._round(live, post_round)

    async def _get(self, mid: int) -> Live | None:
        """The live match; AI seats whose commit failed earlier play now (lock held)."""
        live = await super()._get(mid)
        if live is not None and live.match is not None and mid in self._must_advance:
            self._must_advance.discard(mid)
            await self._advance(live)
        return live

    async def recover(self) -> None:
        """On start: reload live matches, deliver what they had not posted, let AI seats
        catch up, restore timers; in bounded concurrent batches (loading runs in threads)."""
        ids = await self.store.active_ids()
        for start in range(0, len(ids), RECOVER_BATCH):
            await asyncio.gather(
                *(self._recover_one(mid) for mid in ids[start : start + RECOVER_BATCH])
            )
        # Finished or closed matches may still owe posts (a crash right after the end).
        for mid in await self.store.outbox_matches():
            async with self.lock(mid):
                await self._flush(mid)

    async def _recover_one(self, mid: int) -> None:
        async with self.lock(mid):
            self._live.pop(mid, None)
            try:
                await self._flush(mid)  # what was committed but not posted, first
                live = await self._get(mid)
                if live is not None and live.match is not None:
                    await self._advance(live, post_round=False)
                elif (
                    live is not None
                    and "lobby" not in await self.store.messages(mid)
                    and not await self.store.outbox(mid, limit=1)
                ):
                    # Opened, then a crash before its message was stored: post it now.
                    rec = live.rec
                    msg = present.lobby_msg(
                        mid, rec.game, rec.mode, rec.options, rec.seats, rec.host_id, live.lang
                    )
                    await self._post(live, msg, role="lobby")
            except Exception:
                # One broken match (a game no longer installed...) must not stop the others.
                log.exception("could not resume match %s", mid)
                self._live.pop(mid, None)
