"""What reaches the channel: step posts, the round board, DM prompts, edits, via the outbox.

Every public post or edit a commit implies is planned BEFORE that commit (on a
shadow of the match's public state, :meth:`Live.shadow`), rendered, and stored
in the commit's own transaction as outbox rows (``docs/store.md``, "Outbox").
Only then is it delivered, in order, by :meth:`PostingMixin._flush`; a row is
marked delivered only once Discord took it, so a restart delivers whatever is
left, before anything new for that match.
"""

from __future__ import annotations

import contextvars
import hashlib
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine import Decision, Match
from bot.engine.events import AnyEvent
from bot.engine.log import markdown_log
from bot.engine.text import lang_of
from bot.gm import present
from bot.gm.base import Base, run_cpu
from bot.gm.live import Live
from bot.gm.msg import Attachment, Msg
from bot.gm.publisher import DmResult, RetryLater, msg_from_json, msg_to_json
from bot.gm.table import Image, board_name, summary_msgs, table_msg
from bot.i18n import t
from bot.store.records import OutboxEntry, OutboxItem

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 720
"""Deliveries of one outbox row refused this many times (about an hour of 5-second ticks:
a channel deleted, the bot removed) are given up, so one dead channel does not hold its
match's later posts forever; a Discord outage shorter than that loses nothing."""

Timer = tuple[str, int, float, float]
"""A deadline to store: (decision key, seat, due_at, remind_at)."""

PING_TIMINGS = ("pick", "turn")
"""Decisions that begin a player's turn or pick (``Decision.timing``): the only ones that
ping, once per round; in-action choices and reactions are follow-up steps."""

TABLE = "table"
"""The role of the live table message (the current period's; older ones are summaries)."""
LEGACY_BOARD = "round"
"""The role of the round board of the older layout: retired when a table is posted."""

_deferred: contextvars.ContextVar[set[int] | None] = contextvars.ContextVar(
    "arena_deferred_flush", default=None
)
_clicker: contextvars.ContextVar[int | None] = contextvars.ContextVar("arena_clicker", default=None)


@contextmanager
def answering(user_id: int) -> Iterator[set[int]]:
    """While the Discord layer answers ``user_id``'s interaction: public deliveries are
    only noted (the set yielded: match ids), so the clicker's own confirmation goes
    first and the outbox is delivered right after (:meth:`PostingMixin.deliver_later`);
    and that user's follow-up prompts come in the reply, never also by DM."""
    mids: set[int] = set()
    t1 = _deferred.set(mids)
    t2 = _clicker.set(user_id)
    try:
        yield mids
    finally:
        _deferred.reset(t1)
        _clicker.reset(t2)


def _board_text(match: Match, lang: str) -> list[str]:
    """The public lines a game shows beside its image (``Game.board_text``), if any."""
    try:
        return list(match.board_text(None, lang))
    except Exception:
        log.exception("board_text failed for %s", match.game_id)
        return []


def _view_key(match: Match, lang: str) -> str:
    """What the public image depends on: the public view and the language (the renderer
    is a pure function of them), so an unchanged view is never drawn or sent again."""
    raw = match.view(None).model_dump_json() + "|" + lang
    return hashlib.sha1(raw.encode(), usedforsecurity=False).hexdigest()


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
    events: list[AnyEvent] = field(default_factory=list)
    """The events this plan follows: a checkpoint among them (``Game.checkpoint``) redraws
    the live table's image; smaller steps edit its text only."""

    def entries(self) -> list[OutboxEntry]:
        return [o.entry(self.shadow.target) for o in self.outs]


class PostingMixin(Base):
    """Planning, storing and delivering the public messages of a match, and DM prompts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._table_pngs: dict[int, tuple[str, bytes]] = {}
        self._dm_later: dict[int, set[str]] = {}
        """The last public board drawn per match (view key, PNG): a summary and the next
        table show the same state without drawing it twice."""

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

        The events join the current period's log (the live table shows its last lines);
        a period ends when the round changes (or a player whose turn begins must be
        pinged): its table is edited into its summary. At the end of the match the
        last summary gets the final image and the podium follows; else the live table
        is posted or edited once no AI seat is to play. ``live`` is not changed: the
        plan works on a shadow. ``answered``: the key just answered, whose timer the
        commit clears (a re-asked key gets a new one). ``force_step`` is kept for
        callers of the older layout: every event reaches the table anyway.
        """
        shadow = live.shadow()
        if answered is not None:
            shadow.deadlines.pop(answered, None)
        match = shadow.match
        assert match is not None
        plan = Plan(shadow, outs=list(before or []), events=list(events))
        if shadow.batch_round is None:
            shadow.batch_round = label
        elif label != shadow.batch_round and shadow.table_open:
            await self._close_period(plan)  # the round moved on before these events
            shadow.batch_round = label
        shadow.batch.extend(events)
        if match.over:
            await self._close_period(plan)
            plan.outs += await self._finish_outs(shadow)
            shadow.deadlines.clear()
        elif not any(match.seats[d.seat].ai for d in match.pending()):
            await self._table_outs(plan, post=True)
        elif match.round_label() != shadow.batch_round and shadow.table_open:
            # AI seats play on into the next round: the finished round gets its summary.
            await self._close_period(plan)
        return plan

    async def _image(self, live: Live, fresh: bool, refresh: bool = True) -> Image | None:
        """The public board now, for the table or a summary: uploaded only when the view
        changed since the table message last showed it (or ``fresh``: a new message).
        Without ``refresh`` (no checkpoint since: an in-action step) the table keeps the
        image it has; its text tells the step."""
        match = live.match
        assert match is not None
        key = _view_key(match, live.lang)
        name = board_name(live.mid)
        if not fresh and (key == live.table_view or not refresh):
            # The message keeps what it shows (no gallery when it never had an image).
            return Image(name, None) if live.table_view is not None else None
        cached = self._table_pngs.get(live.mid)
        data = cached[1] if cached is not None and cached[0] == key else None
        if data is None:
            data = await self._render(match, live.lang)
            if data is None:
                return None
            self._table_pngs[live.mid] = (key, data)
        live.table_view = key
        return Image(name, data)

    async def _close_period(self, plan: Plan) -> None:
        """The period's table becomes its summary (final image, complete public log, no
        button). Events of a stretch with no table message (the setup, AI seats playing
        into a new round) open the next table's log instead; only the match's end, with
        no table at all, posts them as a summary of their own."""
        live = plan.shadow
        match = live.match
        assert match is not None
        lang = live.lang
        lines = present.log_lines(live.batch, lang)
        label = live.batch_round if live.batch_round is not None else match.round_label()
        if live.table_open:
            image = await self._image(live, fresh=False)
            first, *rest = summary_msgs(live.mid, match, label, lines, image, lang)
            plan.outs.append(Out("edit", first, role=TABLE, create=False))
            plan.outs += [Out("post", m) for m in rest]
        elif lines:
            image = await self._image(live, fresh=True)
            plan.outs += [
                Out("post", m) for m in summary_msgs(live.mid, match, label, lines, image, lang)
            ]
        live.batch = []
        live.batch_round = match.round_label()
        live.table_open = False
        live.table_view = None
        live.board_last = None

    async def _table_outs(self, plan: Plan, post: bool) -> None:
        """The live table (posted anew, or edited) and the timers of its decisions.

        A new table message is posted when the round changed, or when a player whose
        turn or pick begins (:data:`PING_TIMINGS`) has not been pinged this round (the
        message that pings them); otherwise the table is edited in place, and an edit
        never pings.
        """
        live = plan.shadow
        match = live.match
        assert match is not None
        label = match.round_label()
        if live.batch_round != label and live.table_open:
            await self._close_period(plan)
        live.batch_round = label
        if live.pinged_round != label:
            live.pinged, live.pinged_round = set(), label
        pending = match.pending()
        humans = [d for d in pending if not match.seats[d.seat].ai]
        new = [d for d in humans if d.key not in live.round_keys]
        now = self.clock.now()
        for d in humans:
            if d.key not in live.deadlines:
                dur = live.timers[d.timing]
                live.deadlines[d.key] = now + dur
                plan.timers.append((d.key, d.seat, now + dur, now + dur / 2))
        if new:
            live.round_keys = {d.key: (d.seat, d.subject) for d in humans}
        answered = [v for k, v in live.round_keys.items() if k not in {d.key for d in humans}]
        begins = {d.seat for d in new if d.timing in PING_TIMINGS and d.seat not in live.pinged}
        if begins and live.table_open:
            await self._close_period(plan)
            live.pinged_round = label
        live.pinged |= begins
        ping = sorted(
            {
                u
                for s in begins
                if (u := match.seats[s].user_id) is not None and not match.seats[s].ai
            }
        )
        fresh = not live.table_open
        refresh = bool(plan.events) and match.game.checkpoint(plan.events)
        image = await self._image(live, fresh=fresh, refresh=refresh)
        lines = present.log_lines(live.batch, live.lang)
        msg = table_msg(
            live.mid,
            match,
            label,
            humans,
            answered,
            live.deadlines,
            lines,
            image,
            live.lang,
            ping,
            board=_board_text(match, live.lang),
        )
        shown = msg_to_json(msg)
        if fresh:
            plan.outs.append(Out("post", msg, role=TABLE, retire=True))
            live.table_open = True
            live.board_last = shown
        elif (post or new) and shown != live.board_last:
            plan.outs.append(Out("edit", msg, role=TABLE))
            live.board_last = shown
        live.to_dm = [d.key for d in new]

    async def _round(self, live: Live, post: bool) -> None:
        """Outside a commit (a seat given back, a restart): refresh the table, arm timers."""
        match = live.match
        assert match is not None
        plan = Plan(live.shadow())
        await self._table_outs(plan, post)
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
        """Private follow-ups of a stored table: DM prompts of the decisions it asked anew
        (after the clicker's own answer when a click is being answered)."""
        match = live.match
        if match is None or not live.to_dm:
            return
        keys, live.to_dm = set(live.to_dm), []
        if _deferred.get() is not None:
            self._dm_later.setdefault(live.mid, set()).update(keys)
            return
        await self._deliver_dms(live, [d for d in match.pending() if d.key in keys])

    async def deliver_later(self, mids: set[int]) -> None:
        """After an interaction was answered: deliver what its commits stored (the
        outbox, then the DM prompts of other players), each match under its lock."""
        for mid in sorted(mids):
            async with self.lock(mid):
                await self._flush(mid)
                keys = self._dm_later.pop(mid, set())
                live = self._live.get(mid)
                if keys and live is not None and live.match is not None:
                    pending = [d for d in live.match.pending() if d.key in keys]
                    await self._deliver_dms(live, pending)

    async def _deliver_dms(self, live: Live, decisions: list[Decision]) -> None:
        match = live.match
        assert match is not None
        by_user: dict[int, list[Decision]] = defaultdict(list)
        clicker = _clicker.get()
        for d in decisions:
            uid = match.seats[d.seat].user_id
            if uid == clicker:
                continue  # their next prompts come in the answer to their click
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
        Successive edits of one message are coalesced: only the newest is sent (pacing a
        busy channel; Discord's 429s are retried by discord.py, then by the outbox).
        While a click is being answered (:func:`answering`) it only notes the match.
        """
        deferred = _deferred.get()
        if deferred is not None:
            deferred.add(mid)
            return True
        while True:
            try:
                items = await self.store.outbox(mid, limit=50)
            except Exception:
                log.exception("match %s: reading the outbox failed", mid)
                return False
            if not items:
                return True
            for i, item in enumerate(items):
                if i + 1 < len(items) and _superseded(item, items[i + 1]):
                    await self.store.outbox_delivered(item, None)
                    continue
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
        elif payload.get("retire"):
            # Before the post, so a repeat after a crash retires the same message again.
            # A table retires the older layout's round board (its own earlier messages
            # are summaries by then, which keep what they say).
            old = roles.get(LEGACY_BOARD) if item.role == TABLE else where
            if old is not None:
                await self._retire(*old)
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


def _superseded(item: OutboxItem, after: OutboxItem) -> bool:
    """``item`` is an edit the next row replaces entirely: the same message edited again
    with everything it needs (its own image, or none kept from ``item``)."""
    if item.kind != "edit" or after.kind != "edit" or item.message_id is not None:
        return False
    if item.role is None or item.role != after.role or item.channel_id != after.channel_id:
        return False
    mine, theirs = item.payload.get("msg", {}), after.payload.get("msg", {})
    if item.payload.get("log"):
        return False
    return bool(theirs.get("files")) or not mine.get("files")
