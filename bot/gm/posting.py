"""What reaches the channel: step posts, the round board, DM prompts, edits, via the outbox.

Every public post or edit a commit implies is planned BEFORE that commit (on a
shadow of the match's public state, :meth:`Live.shadow`), rendered, and stored
in the commit's own transaction as outbox rows (``docs/store.md``, "Outbox").
Only then is it delivered, in order, by :meth:`PostingMixin._flush`; a row is
marked delivered only once Discord took it, so a restart delivers whatever is
left, before anything new for that match.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine import Decision
from bot.engine.events import AnyEvent
from bot.engine.log import markdown_log
from bot.engine.text import lang_of
from bot.gm import present
from bot.gm.base import Base, run_cpu
from bot.gm.live import Live
from bot.gm.msg import Attachment, Msg
from bot.gm.publisher import DmResult, RetryLater, msg_from_json, msg_to_json
from bot.i18n import t
from bot.store.records import OutboxEntry, OutboxItem

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 720
"""Deliveries of one outbox row refused this many times (about an hour of 5-second ticks:
a channel deleted, the bot removed) are given up, so one dead channel does not hold its
match's later posts forever; a Discord outage shorter than that loses nothing."""

Timer = tuple[str, int, float, float]
"""A deadline to store: (decision key, seat, due_at, remind_at)."""


@dataclass
class Out:
    """One planned public post or edit, before it is stored in the outbox."""

    kind: Literal["post", "edit"]
    msg: Msg
    role: str | None = None
    """``post``: the match message it becomes (``round``); ``edit``: the one it changes."""
    create: bool = True
    """``edit``: post it anew when that message is gone (or was never posted)."""
    retire: bool = False
    """``post`` with a role: remove the buttons of the message that played the role."""
    log_lang: str | None = None
    """Attach the match log in this language, built from the store's replay on delivery
    (the committed log is final, so the same file after any restart)."""

    def entry(self, channel_id: int) -> OutboxEntry:
        payload: dict[str, Any] = {"msg": msg_to_json(self.msg)}
        if self.kind == "edit" and not self.create:
            payload["create"] = False
        if self.retire:
            payload["retire"] = True
        if self.log_lang is not None:
            payload["log"] = self.log_lang
        return OutboxEntry(kind=self.kind, role=self.role, channel_id=channel_id, payload=payload)


@dataclass
class Plan:
    """What a commit implies publicly, computed on a shadow of the live match."""

    shadow: Live
    outs: list[Out] = field(default_factory=list)
    timers: list[Timer] = field(default_factory=list)

    def entries(self) -> list[OutboxEntry]:
        return [o.entry(self.shadow.target) for o in self.outs]


class PostingMixin(Base):
    """Planning, storing and delivering the public messages of a match, and DM prompts."""

    # Defined by the later layers: the final result (``ending``) and the private prompt
    # of a decision with its seat's board (``play``, which draws structured answers too).
    _finish_outs: Callable[[Live], Awaitable[list[Out]]]
    _private_prompt: Callable[[Live, Decision, str], Awaitable[Msg]]

    # --- planning (before the commit) ---------------------------------------------------
    async def _plan(
        self,
        live: Live,
        events: list[AnyEvent],
        label: int,
        *,
        before: list[Out] | None = None,
        force_step: bool = False,
        answered: str | None = None,
    ) -> Plan:
        """The posts and edits that follow ``events`` (just applied to ``live.match``).

        The step post when the batch reaches a checkpoint (or ``force_step``), then the
        final result when the match is over, else the round board once no AI seat is
        to play. ``live`` is not changed: the plan works on a shadow. ``answered``: the
        key just answered, whose timer the commit clears (a re-asked key gets a new one).
        """
        shadow = live.shadow()
        if answered is not None:
            shadow.deadlines.pop(answered, None)
        match = shadow.match
        assert match is not None
        plan = Plan(shadow, outs=list(before or []))
        if not shadow.batch:
            shadow.batch_round = label
        shadow.batch.extend(events)
        if force_step or (shadow.batch and match.game.checkpoint(shadow.batch)):
            plan.outs += await self._step_outs(shadow)
        if match.over:
            plan.outs += await self._finish_outs(shadow)
            shadow.deadlines.clear()
        elif not any(match.seats[d.seat].ai for d in match.pending()):
            self._round_outs(plan, post=True)
        return plan

    async def _step_outs(self, live: Live) -> list[Out]:
        match = live.match
        assert match is not None
        lang = live.lang
        lines = present.log_lines(live.batch, lang)
        live.board_fresh = False
        live.batch = []
        image = await self._render(match, lang)
        label = live.batch_round if live.batch_round is not None else match.round_label()
        live.batch_round = None
        title = t(lang, "step.title", game=match.game.info.names.get(lang), round=label)
        filename = f"match{live.mid}-v{match.version}.png"
        return [Out("post", m) for m in present.step_msgs(title, lines, image, filename)]

    def _round_outs(self, plan: Plan, post: bool) -> None:
        """The round board (posted anew, or edited) and the timers of its decisions."""
        live = plan.shadow
        match = live.match
        assert match is not None
        pending = match.pending()
        humans = [d for d in pending if not match.seats[d.seat].ai]
        new = [d for d in humans if d.key not in live.round_keys]
        now = self.clock.now()
        for d in humans:
            if d.key not in live.deadlines:
                dur = live.timers[d.timing]
                live.deadlines[d.key] = now + dur
                plan.timers.append((d.key, d.seat, now + dur, now + dur / 2))
        who = {(d.seat, d.subject) for d in humans}
        # The same fighters asked again with nothing posted in between (a fighter's
        # successive in-action choices): refresh the board instead of pinging anew.
        continued = bool(new) and live.board_fresh and who == live.board_who
        if new:
            live.round_keys = {d.key: (d.seat, d.subject) for d in humans}
        answered = [v for k, v in live.round_keys.items() if k not in {d.key for d in humans}]
        msg = present.round_msg(live.mid, match, humans, answered, live.deadlines, live.lang)
        shown = msg_to_json(msg)
        if new and not continued:
            plan.outs.append(Out("post", msg, role="round", retire=True))
            live.board_fresh, live.board_who = True, who
            live.board_last = shown
        elif (post or continued) and shown != live.board_last:
            plan.outs.append(Out("edit", msg, role="round"))
            live.board_last = shown
        live.to_dm = [d.key for d in new]

    async def _round(self, live: Live, post: bool) -> None:
        """Outside a commit (a seat given back, a restart): refresh the board, arm timers."""
        match = live.match
        assert match is not None
        plan = Plan(live.shadow())
        self._round_outs(plan, post)
        if plan.outs or plan.timers or plan.shadow.round_keys != live.round_keys:
            await self.store.add_public(
                live.mid,
                plan.entries(),
                public_state=plan.shadow.public_state(),
                deadlines=plan.timers,
            )
        live.adopt(plan.shadow)
        await self._flush(live.mid)
        await self._after_commit(live)

    async def _after_commit(self, live: Live) -> None:
        """Private follow-ups of a stored board: DM prompts of the decisions it asked anew."""
        match = live.match
        if match is None or not live.to_dm:
            return
        keys, live.to_dm = set(live.to_dm), []
        await self._deliver_dms(live, [d for d in match.pending() if d.key in keys])

    async def _deliver_dms(self, live: Live, decisions: list[Decision]) -> None:
        match = live.match
        assert match is not None
        by_user: dict[int, list[Decision]] = defaultdict(list)
        for d in decisions:
            uid = match.seats[d.seat].user_id
            if uid is not None and not match.seats[d.seat].ai:
                by_user[uid].append(d)
        for uid, ds in by_user.items():
            prefs = await self.store.user_prefs(uid)
            if not prefs.dm or prefs.dm_closed:
                continue
            lang = lang_of(prefs.locale) if prefs.locale else live.lang
            for d in ds:
                msg = await self._private_prompt(live, d, lang)
                msg.content = (
                    t(lang, "dm.header", mid=live.mid, where=f"<#{live.target}>")
                    + "\n"
                    + (msg.content or "")
                )
                result = await self.publisher.dm(uid, msg)
                if result is DmResult.CLOSED:
                    await self.store.set_user_prefs(uid, dm_closed=True)
                    await self._post(
                        live,
                        Msg(content=t(live.lang, "dm.closed", user=f"<@{uid}>"), mentions=[uid]),
                    )
                    break
                if result is DmResult.FAILED:
                    break

    # --- outbox: storing outside a commit, delivering -----------------------------------
    async def _queue(self, live: Live, outs: list[Out]) -> None:
        """Store posts no decision implies, then deliver (in order after earlier ones)."""
        await self.store.add_public(live.mid, [o.entry(live.target) for o in outs])
        await self._flush(live.mid)

    async def _post(self, live: Live, msg: Msg, role: str | None = None) -> None:
        await self._queue(live, [Out("post", msg, role=role)])

    async def _edit(self, live: Live, role: str, msg: Msg, create: bool = True) -> None:
        await self._queue(live, [Out("edit", msg, role=role, create=create)])

    async def _flush(self, mid: int) -> bool:
        """Deliver the match's undelivered outbox rows, oldest first (its lock held).

        Stops at the first row Discord did not take (kept for the next flush: the
        next commit, the timer tick or a restart), so posts never overtake each other.
        """
        while True:
            try:
                items = await self.store.outbox(mid, limit=50)
            except Exception:
                log.exception("match %s: reading the outbox failed", mid)
                return False
            if not items:
                return True
            for item in items:
                try:
                    done = await self._deliver(item)
                except Exception:
                    log.exception("match %s: delivering outbox row %s failed", mid, item.id)
                    done = False
                if not done:
                    return False

    async def _deliver(self, item: OutboxItem) -> bool:
        """One outbox row to Discord; True once it is there (or given up)."""
        payload = item.payload
        msg = msg_from_json(payload.get("msg", {}))
        if payload.get("log"):
            msg.files.append(await self._log_file(item.match_id, str(payload["log"])))
        roles = await self.store.messages(item.match_id) if item.role else {}
        where = roles.get(item.role) if item.role else None
        if item.kind == "edit":
            try:
                edited = where is not None and await self.publisher.edit(where[0], where[1], msg)
            except RetryLater:
                return await self._refused(item)
            if edited and where is not None:
                await self.store.outbox_delivered(item, where[1])
                return True
            if not payload.get("create", True):
                await self.store.outbox_delivered(item, None)
                return True
        elif payload.get("retire") and where is not None:
            # Before the post, so a repeat after a crash retires the same message again.
            await self._retire(*where)
        message_id = item.message_id or await self._send(item, msg)
        if message_id is None:
            return await self._refused(item)
        await self.store.outbox_delivered(item, message_id, role=item.role)
        return True

    async def _refused(self, item: OutboxItem) -> bool:
        """Discord did not take ``item``: retry later (False), or give it up (True) after
        ``MAX_ATTEMPTS`` refusals."""
        attempts = await self.store.outbox_failed(item.id)
        if attempts < MAX_ATTEMPTS:
            return False
        log.error(
            "match %s: giving up outbox row %s after %s tries", item.match_id, item.id, attempts
        )
        await self.store.outbox_delivered(item, None)
        return True

    async def _send(self, item: OutboxItem, msg: Msg) -> int | None:
        """Post, with a nonce Discord deduplicates when the publisher supports it."""
        send_once = getattr(self.publisher, "send_once", None)
        if send_once is not None:
            result: int | None = await send_once(item.channel_id, msg, f"arena-{item.id}")
            return result
        return await self.publisher.send(item.channel_id, msg)

    async def _retire(self, channel_id: int, message_id: int) -> None:
        """A new round board supersedes the old one: its "Make your choice" button goes."""
        retire = getattr(self.publisher, "retire", None)
        if retire is None:
            return
        try:
            await retire(channel_id, message_id)
        except Exception:
            log.exception("retiring board %s failed", message_id)

    async def _log_file(self, mid: int, lang: str) -> Attachment:
        """The match log, built from the store (seed, options, logged decisions).

        A match reloaded after a restart holds only the events since then; the
        replay of the stored log has them all, so the attached log verifies after
        any number of restarts. Only if that replay fails (which ``verify`` would
        report too) is the stored snapshot's match used, so players still get a log.
        """
        try:
            source = await self.store.replay_match(mid)
        except Exception:
            log.exception("match %s: the stored log does not replay; log from the snapshot", mid)
            source = await self.store.load_match(mid)
        text = await run_cpu(markdown_log, source, lang)
        return Attachment(f"match{mid}-log.md", text.encode())
