"""What reaches the channel: step posts, the round board, DM prompts, edits, via the outbox.

Every public post or edit a commit implies is planned BEFORE that commit (on a
shadow of the match's public state, :meth:`Live.shadow`), rendered, and stored
in the commit's own transaction as outbox rows (``docs/store.md``, "Outbox").
Only then is it delivered, in order, by :meth:`PostingMixin._flush`; a row is
marked delivered only once Discord took it, so a restart delivers whatever is
left, before anything new for that match.

Channel calls are paced (:mod:`bot.gm.pacing`): what may not go yet waits in the
outbox, where edits of one message are merged into the newest, and a wake per channel
flushes it once the channel may speak again (a restart delivers it anyway: it is stored).
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.engine import Decision, Match
from bot.engine.events import AnyEvent
from bot.engine.log import markdown_log
from bot.engine.text import lang_of
from bot.gm import present
from bot.gm.base import Base, run_cpu
from bot.gm.live import Live
from bot.gm.msg import Attachment, Msg
from bot.gm.pacing import Kind, Pacer, default_pacer
from bot.gm.publisher import DmResult, RetryLater, msg_from_json, msg_to_json
from bot.gm.table import Image, board_name, summary_msgs, table_msg
from bot.i18n import t
from bot.render.cache import view_json
from bot.store.records import OutboxEntry, OutboxItem

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 720
"""Deliveries of one outbox row refused this many times (about an hour of 5-second ticks:
a channel deleted, the bot removed) are given up, so one dead channel does not hold its
match's later posts forever; a Discord outage shorter than that loses nothing."""

OUTBOX_BATCH = 50
"""Outbox rows read and delivered at a time."""

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
_early: contextvars.ContextVar[Callable[[Msg], None] | None] = contextvars.ContextVar(
    "arena_early_answer", default=None
)


@contextmanager
def answering(user_id: int, early: Callable[[Msg], None] | None = None) -> Iterator[set[int]]:
    """While the Discord layer answers ``user_id``'s interaction: public deliveries are
    only noted (the set yielded: match ids), so the clicker's own confirmation goes
    first and the outbox is delivered right after (:meth:`PostingMixin.deliver_later`);
    and that user's follow-up prompts come in the reply, never also by DM. ``early``:
    given the clicked prompt's new face as soon as it is known (:func:`answer_early`)."""
    mids: set[int] = set()
    t1 = _deferred.set(mids)
    t2 = _clicker.set(user_id)
    t3 = _early.set(early)
    try:
        yield mids
    finally:
        _deferred.reset(t1)
        _clicker.reset(t2)
        _early.reset(t3)


def answer_early(update: Msg) -> None:
    """The clicked prompt's new face, known before the rest of the click's handling (a
    pick committed, before the AI seats reply and the next prompts are drawn): the
    Discord layer may show it at once (issue 16; ``cogs/deferral.py``). A copy is given;
    the reply still carries the whole answer, which is shown too if it differs."""
    early = _early.get()
    if early is not None:
        early(replace(update))


def _board_text(match: Match, lang: str) -> list[str]:
    """The public lines a game shows beside its image (``Game.board_text``), if any."""
    try:
        return list(match.board_text(None, lang))
    except Exception:
        log.exception("board_text failed for %s", match.game_id)
        return []


def _as_shown(msg: Msg, view: str | None) -> tuple[dict[str, Any], str | None]:
    """What a table message shows, to compare with what it showed: its text and buttons,
    and the key of the view its image shows. The upload itself is left out, so the table
    just posted with its image is not edited again when nothing changed (the same image
    is then kept, not uploaded: ``keep_files``); so are the pings, which only a post
    sends (an edit never pings: the same table without them shows the same)."""
    kept = replace(msg, files=[], keep_files=msg.keep_files or bool(msg.files), mentions=[])
    return msg_to_json(kept), view


def _view_key(match: Match, lang: str) -> str:
    """What the public image depends on: the public view and the language (the renderer
    is a pure function of them), so an unchanged view is never drawn or sent again."""
    raw = view_json(match.view(None)) + b"|" + lang.encode()
    return hashlib.sha1(raw, usedforsecurity=False).hexdigest()


TABLE_PNGS_SLACK = 32
"""Boards of matches no longer in memory kept at most, before they are dropped at once
(a match's last board serves its summary right after it ends)."""


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
    """Attach the match log in this language, built on delivery from the store's replay or
    the very match kept at its end (the committed log is final, so the same file after
    any restart)."""

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
        """The last public board drawn per match in memory (view key, PNG): a summary and
        the next table show the same state without drawing it twice. Only for the matches
        in memory (:meth:`_keep_table_png`): kept for every match ever played, it grew a
        long-lived bot by one picture (50-400 kB) per match."""
        self._dm_later: dict[int, set[str]] = {}
        self.pacer: Pacer | None = default_pacer(self.clock)
        """The pacing of channel calls (None: every row goes at once). Real time only by
        default; a test or benchmark sets its own (:func:`bot.gm.pacing.default_pacer`)."""
        self._wakes: dict[int, _Wake] = {}
        """The flush each channel waits for, if its rows are held for pace."""
        self.pace_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        """How a wake waits (a test under a manual clock makes it wait for its tick)."""

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
        name = board_name(live.mid)
        # The view's key only when it can matter (it serialises and hashes the whole
        # public view): a step with no checkpoint keeps the image whatever it is.
        key = None if not fresh and not refresh else _view_key(match, live.lang)
        if not fresh and (key is None or key == live.table_view):
            # The message keeps what it shows (no gallery when it never had an image).
            return Image(name, None) if live.table_view is not None else None
        assert key is not None
        cached = self._table_pngs.get(live.mid)
        data = cached[1] if cached is not None and cached[0] == key else None
        if data is None:
            data = await self._render(match, live.lang)
            if data is None:
                return None
            self._keep_table_png(live.mid, key, data)
        live.table_view = key
        return Image(name, data)

    def _keep_table_png(self, mid: int, key: str, data: bytes) -> None:
        """Keep match ``mid``'s latest board; the boards of matches no longer in memory
        (finished, or idle and let go) are dropped once they outnumber the slack."""
        self._table_pngs[mid] = (key, data)
        if len(self._table_pngs) > len(self._live) + TABLE_PNGS_SLACK:
            for gone in [m for m in self._table_pngs if m not in self._live and m != mid]:
                del self._table_pngs[gone]

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
        shown = _as_shown(msg, live.table_view)
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

        True once nothing is left. A row Discord did not take stops its channel (kept for
        the next flush: a wake after a back-off, the next commit, the timer tick or a
        restart), so posts never overtake each other. Rows the pacer holds back wait for
        their channel's wake; meanwhile the edits of one message are merged into the
        newest (:func:`_units`), and a post that does not depend on a held edit goes
        first. While a click is being answered (:func:`answering`) it only notes the match.
        """
        deferred = _deferred.get()
        if deferred is not None:
            deferred.add(mid)
            return True
        while True:
            try:
                items = await self.store.outbox(mid, limit=OUTBOX_BATCH)
            except Exception:
                log.exception("match %s: reading the outbox failed", mid)
                return False
            if not items:
                return True
            if not await self._flush_batch(mid, items):
                return False
            if len(items) < OUTBOX_BATCH:
                # All of it was delivered, and nothing adds rows to this match while its
                # lock is held: no second read (one hop to the database less per flush).
                # A row stored otherwise would wait for the next flush or the tick.
                return True

    async def _flush_batch(self, mid: int, items: list[OutboxItem]) -> bool:
        """Deliver one batch of outbox rows; True when all of them reached Discord."""
        cache: dict[str, tuple[int, int]] | None = None

        async def roles() -> dict[str, tuple[int, int]]:
            nonlocal cache
            if cache is None:
                cache = await self.store.messages(mid)
            return cache

        pacer = self.pacer
        if _repeats(items):
            units = _units(items, set(await roles()))
        else:
            units = [_Unit(item, item.payload) for item in items]
        urgent = _awaited(units)
        blocked: set[int] = set()
        """Channels where a post waits: nothing later goes there (posts keep their order)."""
        held: set[tuple[int, str]] = set()
        """(channel, role) of the edits held back: a post giving that role away waits."""
        complete = True
        for i, unit in enumerate(units):
            item = unit.item
            channel = item.channel_id
            if channel in blocked or (item.kind == "post" and _depends(item, channel, held)):
                blocked.add(channel)
                complete = False
                if pacer is not None:
                    for row in unit.rows:
                        pacer.hold(row.id)
                continue
            known = await roles() if item.role else {}
            if pacer is not None:
                posts = item.kind == "post" or _creates(item, unit.payload, known)
                # An edit a post waits for (a table becoming its summary) goes as one.
                kind: Kind = "post" if posts or i in urgent else "edit"
                cost = _cost(item, unit.payload, known)
                counted = not self._exempt(item, known)
                wait = pacer.wait(channel, kind, cost, counted) if cost else 0.0
                if wait > 0:
                    complete = False
                    for row in unit.rows:
                        pacer.hold(row.id)
                    self._wake_later(channel, mid, wait)
                    if posts:
                        blocked.add(channel)
                    elif item.role is not None:
                        held.add((channel, item.role))
                    continue
                if cost:
                    pacer.spend(channel, kind, cost, counted)
            try:
                done = await self._deliver(item, unit.payload, unit.replaces, known)
            except Exception:
                log.exception("match %s: delivering outbox row %s failed", mid, item.id)
                done = False
            if item.role is not None:
                cache = None  # the delivery may have given a role to a new message
            if done:
                if pacer is not None:
                    pacer.released([row.id for row in unit.rows], merged=len(unit.replaces))
                continue
            complete = False
            blocked.add(channel)
            if pacer is not None:
                self._wake_later(channel, mid, pacer.refused(channel))
        return complete

    def _exempt(self, item: OutboxItem, known: dict[str, tuple[int, int]]) -> bool:
        """An edit of a posted message the publisher can make through a click's token,
        which Discord does not count in the bot's global limit (``Publisher.exempt``)."""
        if item.kind != "edit" or item.role is None or item.role not in known:
            return False
        exempt = getattr(self.publisher, "exempt", None)
        return exempt is not None and bool(exempt(known[item.role][1]))

    def _wake_later(self, channel_id: int, mid: int, delay: float) -> None:
        """Flush ``mid`` again in ``delay`` seconds, when ``channel_id`` may speak again.

        One wake per channel: a later one joins the one already armed, an earlier one
        replaces it. The wake survives nothing: after a restart the stored rows are
        delivered by recovery anyway.
        """
        pacer = self.pacer
        assert pacer is not None
        now = pacer.now()
        due = now + delay
        wake = self._wakes.get(channel_id)
        if wake is not None and not wake.fired:
            if wake.due <= due + WAKE_SLACK:
                wake.mids.add(mid)
                return
            wake.cancel()
        mids = {mid} | (wake.mids if wake is not None and not wake.fired else set())
        wake = _Wake(due=due, armed_at=now, mids=mids)
        # A fresh context: a wake armed while a click is answered must not defer its flush.
        wake.task = asyncio.get_running_loop().create_task(
            self._wake(channel_id, wake, delay),
            name=f"arena-pace-{channel_id}",
            context=contextvars.Context(),
        )
        self._wakes[channel_id] = wake

    async def _wake(self, channel_id: int, wake: _Wake, delay: float) -> None:
        await self.pace_sleep(delay)
        wake.fired = True
        if self._wakes.get(channel_id) is wake:
            del self._wakes[channel_id]
        pacer = self.pacer
        if pacer is None or pacer.now() <= wake.armed_at:
            return  # a clock that does not follow real time (a test's): its tick flushes
        for mid in sorted(wake.mids):
            try:
                async with self.lock(mid):
                    await self._flush(mid)
            except Exception:
                log.exception("match %s: the paced flush failed", mid)

    def stop_pacing(self) -> None:
        """Cancel the armed wakes (the bot is closing; the rows stay in the outbox)."""
        for wake in list(self._wakes.values()):
            if not wake.fired:
                wake.cancel()
        self._wakes.clear()

    async def _deliver(
        self,
        item: OutboxItem,
        payload: dict[str, Any] | None = None,
        replaces: Sequence[OutboxItem] = (),
        roles: dict[str, tuple[int, int]] | None = None,
    ) -> bool:
        """One outbox row to Discord, with ``payload`` (the row's own, or merged with the
        older edits it ``replaces``); True once it is there (or given up)."""
        payload = item.payload if payload is None else payload
        msg = msg_from_json(payload.get("msg", {}))
        if payload.get("log"):
            msg.files.append(await self._log_file(item.match_id, str(payload["log"])))
        if roles is None:
            roles = await self.store.messages(item.match_id) if item.role else {}
        where = roles.get(item.role) if item.role else None
        if item.kind == "edit":
            try:
                edited = where is not None and await self.publisher.edit(where[0], where[1], msg)
            except RetryLater:
                return await self._refused(item, replaces)
            if edited and where is not None:
                await self._delivered(item, replaces, where[1])
                return True
            if not payload.get("create", True):
                await self._delivered(item, replaces, None)
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
            return await self._refused(item, replaces)
        await self._delivered(item, replaces, message_id, role=item.role)
        return True

    async def _delivered(
        self,
        item: OutboxItem,
        replaces: Sequence[OutboxItem],
        message_id: int | None,
        role: str | None = None,
    ) -> None:
        """Discord has ``item``: the older edits merged into it are marked first, so a
        crash in between leaves ``item`` alone, which keeps what they brought."""
        for old in replaces:
            await self.store.outbox_delivered(old, None)
        await self.store.outbox_delivered(item, message_id, role=role)

    async def _refused(self, item: OutboxItem, replaces: Sequence[OutboxItem] = ()) -> bool:
        """Discord did not take ``item``: retry later (False), or give it up (True) after
        ``MAX_ATTEMPTS`` refusals."""
        attempts = await self.store.outbox_failed(item.id)
        if attempts < MAX_ATTEMPTS:
            return False
        log.error(
            "match %s: giving up outbox row %s after %s tries", item.match_id, item.id, attempts
        )
        await self._delivered(item, replaces, None)
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

    async def _ended_as_stored(self, mid: int) -> Match | None:
        """The match kept at its end (:meth:`_keep_ended`) if the store holds that very
        match (version, seats, mode, options), else None: the replay of the stored log
        would give the same match, roll for roll."""
        kept = self._ended.pop(mid, None)
        if kept is None:
            return None
        rec = await self.store.get(mid, snapshot=False)
        if (
            rec is None
            or rec.version != kept.version
            or rec.seats != kept.seats
            or rec.mode != kept.mode
            or rec.options != kept.options
        ):
            return None
        return kept

    async def _log_file(self, mid: int, lang: str) -> Attachment:
        """The match log, built from the store (seed, options, logged decisions).

        A match reloaded after a restart holds only the events since then; the
        replay of the stored log has them all, so the attached log verifies after
        any number of restarts. A match that ended here holding its whole history is
        that very replay already (:meth:`_keep_ended`): it is used when it is exactly
        what the store holds. Only if the replay fails (which ``verify`` would report
        too) is the stored snapshot's match used, so players still get a log.
        """
        source = await self._ended_as_stored(mid)
        if source is None:
            try:
                source = await self.store.replay_match(mid)
            except Exception:
                log.exception(
                    "match %s: the stored log does not replay; log from the snapshot", mid
                )
                source = await self.store.load_match(mid)
        text = await run_cpu(markdown_log, source, lang)
        return Attachment(f"match{mid}-log.md", text.encode())


WAKE_SLACK = 0.05
"""Seconds by which a new wake may come later than the armed one and still join it."""


@dataclass
class _Wake:
    """A flush armed for when a channel may speak again."""

    due: float
    armed_at: float
    mids: set[int]
    task: asyncio.Task[None] | None = None
    fired: bool = False

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()


@dataclass
class _Unit:
    """One delivery: an outbox row, with the older edits of the same message merged
    into it (``replaces``) and the payload that makes the message what they all would."""

    item: OutboxItem
    payload: dict[str, Any]
    replaces: list[OutboxItem] = field(default_factory=list)

    @property
    def rows(self) -> list[OutboxItem]:
        return [*self.replaces, self.item]


def _mergeable(item: OutboxItem) -> bool:
    """An edit a newer edit of the same message may replace (nothing half-sent)."""
    return (
        item.kind == "edit"
        and item.role is not None
        and item.message_id is None
        and not item.payload.get("log")
    )


def _repeats(items: list[OutboxItem]) -> bool:
    """Whether some message is edited twice among ``items`` (only then is merging tried)."""
    seen: set[tuple[int, str | None]] = set()
    for item in items:
        if _mergeable(item):
            key = (item.channel_id, item.role)
            if key in seen:
                return True
            seen.add(key)
    return False


def _units(items: list[OutboxItem], known: set[str]) -> list[_Unit]:
    """The deliveries of ``items`` (outbox rows in order): an edit of a message edited
    again later is merged into that later edit, in its place, so the posts between them
    do not wait for it (only the latest state of a message is sent). Never across a post
    that gives the message's role to another message, nor, for a role with no message
    yet (``known``: the roles that have one), across any post: that edit posts it."""
    units: list[_Unit | None] = []
    open_: dict[tuple[int, str], int] = {}
    for item in items:
        unit = _Unit(item, item.payload)
        if _mergeable(item):
            assert item.role is not None
            key = (item.channel_id, item.role)
            j = open_.get(key)
            prev = units[j] if j is not None else None
            if j is not None and prev is not None:
                units[j] = None
                unit = _Unit(item, _merged(prev.payload, item.payload), prev.rows)
            open_[key] = len(units)
        elif item.kind == "post":
            for key in list(open_):
                ch, role = key
                if ch == item.channel_id and (
                    role == item.role
                    or role not in known
                    or (item.payload.get("retire") and role == LEGACY_BOARD)
                ):
                    del open_[key]
        elif item.role is not None:
            open_.pop((item.channel_id, item.role), None)
        units.append(unit)
    return [u for u in units if u is not None]


def _merged(older: dict[str, Any], newer: dict[str, Any]) -> dict[str, Any]:
    """``newer`` as it must be sent in place of ``older`` then ``newer``: when it keeps the
    message's attachments it keeps what ``older`` left there (its new image, or none);
    and it posts the message anew if it is gone when either would have."""
    out = dict(newer)
    mine, theirs = dict(newer.get("msg", {})), older.get("msg", {})
    if not mine.get("files") and mine.get("keep_files"):
        if theirs.get("files"):
            mine["files"] = theirs["files"]
            mine.pop("keep_files", None)
        elif not theirs.get("keep_files"):
            mine.pop("keep_files", None)  # ``older`` cleared them
        out["msg"] = mine
    if older.get("create", True):
        out.pop("create", None)
    return out


def _awaited(units: list[_Unit]) -> set[int]:
    """Indexes of the edits a later post of the same channel depends on (:func:`_depends`):
    paced as posts, so the post is not held behind an edit spacing."""
    latest: dict[tuple[int, str], int] = {}
    out: set[int] = set()
    for i, unit in enumerate(units):
        item = unit.item
        if item.role is None:
            continue
        if item.kind == "edit":
            latest[(item.channel_id, item.role)] = i
            continue
        roles = [item.role, LEGACY_BOARD] if item.payload.get("retire") else [item.role]
        out |= {j for r in roles if (j := latest.get((item.channel_id, r))) is not None}
    return out


def _depends(item: OutboxItem, channel: int, held: set[tuple[int, str]]) -> bool:
    """Whether post ``item`` must wait for a held edit: one of the message whose role it
    takes over (or whose buttons it retires)."""
    if item.role is None:
        return False
    if (channel, item.role) in held:
        return True
    return bool(item.payload.get("retire")) and (channel, LEGACY_BOARD) in held


def _creates(item: OutboxItem, payload: dict[str, Any], known: dict[str, Any]) -> bool:
    """An edit of a role with no message yet posts one: it keeps the order of posts."""
    return item.role not in known and bool(payload.get("create", True))


def _cost(item: OutboxItem, payload: dict[str, Any], known: dict[str, tuple[int, int]]) -> int:
    """The channel calls delivering ``item`` makes: a post with a retire makes two (when
    there is a message to retire); a post already made (a repeat) only its retire."""
    if item.kind == "edit":
        return 1
    calls = 0 if item.message_id else 1
    if payload.get("retire"):
        old = known.get(LEGACY_BOARD) if item.role == TABLE else known.get(item.role or "")
        calls += old is not None
    return calls
