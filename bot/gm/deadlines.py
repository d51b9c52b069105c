"""Decision deadlines: the half-time reminder, then the AI decides for the seat.

An absent player (issue 11 item 6) costs one deadline per turn, not one per
sub-step: when a deadline expires the AI answers that decision and every further
decision of the same seat and subject in that turn or action at once. At the
second expiry of a seat in a match, the seat goes on autopilot with one public
notice, whose button gives it back in one click (so does the round board's).
"""

from __future__ import annotations

import asyncio
import logging

from bot.engine import Decision, IllegalDecision, StaleDecision
from bot.engine.match import Match
from bot.gm.apply import CommitFailed
from bot.gm.ids import Resume
from bot.gm.live import Live
from bot.gm.msg import Button, Msg
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
AWAY_AFTER = 2
"""Expired deadlines of one seat in a match that put it on autopilot."""
TURN_STEPS = 200
"""Most decisions the AI answers for an absent seat after one expiry (a whole action)."""
TURN_TIMINGS = ("turn", "action")
"""Decisions that continue a seat's turn or action (never a next round's pick or a reaction)."""


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
            since = match.version
            try:
                await self._commit(live, choice, match.version, by_ai=True, before=before)
            except (StaleDecision, IllegalDecision):
                log.exception("timeout choice refused in match %s", mid)
                return
            if not _unseen(d) and seat.user_id is not None and not seat.ai:
                await self._finish_turn(live, d, since)
                if live.match is not None and not live.match.over:
                    await self._count_absence(live, d.seat)
            if live.match is not None and not live.match.over:
                await self._advance(live)
            await self._deliver_private(live)

    @staticmethod
    def _continuation(match: Match, d: Decision, since: int) -> Decision | None:
        """The next decision of ``d``'s turn: one asked since version ``since`` for the same
        seat and subject, a turn or in-action step (a new round's pick is a new turn); or
        one asked with ``d`` for the same seat and of its kind (its other fighters' picks),
        so one absence costs one expiry, not one per fighter."""
        for x in match.pending():
            if x.seat != d.seat or _unseen(x):
                continue
            asked = match.pending_since.get(x.key, 0)
            if x.subject == d.subject and x.timing in TURN_TIMINGS and asked > since:
                return x
            if x.timing == d.timing and x.kind == d.kind and asked <= since:
                return x
        return None

    async def _finish_turn(self, live: Live, d: Decision, since: int) -> None:
        """The AI plays the rest of the absent seat's turn or action at once (AI seats'
        answers in between, such as a reaction, are played as usual)."""
        for _ in range(TURN_STEPS):
            match = live.match
            if match is None or match.over:
                return
            nxt = self._continuation(match, d, since)
            if nxt is None:
                ai = [x for x in match.pending() if match.seats[x.seat].ai]
                if not ai:
                    return
                nxt = ai[0]
            elif match.seats[nxt.seat].ai:
                return  # the seat was handed to the AI meanwhile: _advance plays it
            try:
                await self._commit(
                    live, await self._ai_choice(match, nxt), match.version, by_ai=True
                )
            except CommitFailed:
                self._must_advance.add(live.mid)
                return
            except (StaleDecision, IllegalDecision):
                log.exception("absent seat's choice refused in match %s", live.mid)
                return

    async def _count_absence(self, live: Live, seat: int) -> None:
        """One more expiry for ``seat``; at the second the seat goes on autopilot, with one
        public notice carrying the button that gives it back."""
        match = live.match
        assert match is not None
        live.absent[seat] = live.absent.get(seat, 0) + 1
        outs: list[Out] = []
        if live.absent[seat] >= AWAY_AFTER:
            live.absent[seat] = 0
            live.away[seat] = match.version
            seats = list(match.seats)
            seats[seat] = seats[seat].model_copy(update={"ai": True})
            await self.store.set_seats(live.mid, seats)
            match.seats = seats
            lang = live.lang
            notice = Msg(
                content=t(lang, "absent.autopilot", who=f"<@{match.seats[seat].user_id}>"),
                rows=[
                    [
                        Button(
                            t(lang, "absent.take_back"),
                            Resume(live.mid, match.version).encode(),
                            "primary",
                            emoji="🙋",
                        )
                    ]
                ],
            )
            outs.append(Out("post", notice))
        await self.store.add_public(
            live.mid, [o.entry(live.target) for o in outs], public_state=live.public_state()
        )
        await self._flush(live.mid)
