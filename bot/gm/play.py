"""Private prompts and the clicks on them, typed moves and private notices."""

from __future__ import annotations

import logging
import secrets
from collections import OrderedDict
from typing import Any

from bot.engine import Choice, Decision, GameInfo, IllegalDecision, StaleDecision
from bot.engine.decisions import Allocation
from bot.engine.drafts import Draft
from bot.engine.text import lang_of
from bot.gm import ids
from bot.gm.apply import ApplyMixin
from bot.gm.ids import key_tag
from bot.gm.live import DraftSlot, Live
from bot.gm.msg import CONTENT_MAX, Actor, Attachment, Msg, Reply, clip
from bot.gm.posting import Out, answer_early
from bot.gm.prompts import (
    SELECTS_MAX,
    DraftRef,
    amounts_offered,
    decision_msg,
    draft_msg,
    offered,
    subject_name,
)
from bot.gm.retired import EDIT_WINDOW, OpenPrompt, PromptEdit, prompt_id, retired_msg, still_open
from bot.i18n import CATALOGUES, t

log = logging.getLogger(__name__)

BOARD_CACHE = 32
"""Seat images kept in memory, by (match, seat, language, version): the prompts of one
reply, or a second "Make your choice" before anything moved, reuse one drawing."""

FORGET_EVERY = 60.0
"""Seconds between two sweeps of the prompts past their edit window (a match's own are
also dropped whenever it moves)."""

ImageKey = tuple[int, int, str, int, str | None]
"""(match, seat, language, version, the prompted decision's key: its marks)."""


class PlayMixin(ApplyMixin):
    """What a player does with their private prompts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seat_images: OrderedDict[ImageKey, bytes] = OrderedDict()
        self._open_prompts: dict[int, dict[int, OpenPrompt]] = {}
        """Private prompts players still have on screen, by match then message id."""
        self._forgotten_at = float("-inf")
        """When prompts past their edit window were last dropped."""

    # --- the seat's own board (issue 11 item 4, issue 13 item 5) --------------------------
    async def _seat_image(
        self, live: Live, seat: int, lang: str, decision: Decision | None = None
    ) -> Attachment | None:
        """The image of ``seat``'s own view (its hand, shelter or position) now, for its
        player only, with ``decision``'s legal targets marked by the buttons' labels; drawn
        in a worker thread once per version. None if the game draws none."""
        match = live.match
        assert match is not None
        key = (live.mid, seat, lang, match.version, decision.key if decision else None)
        data = self._seat_images.get(key)
        if data is None:
            data = await self._render(match, lang, seat, decision)
            if data is None:
                return None
            for old in [k for k in self._seat_images if k[:3] == key[:3] and k[3] != key[3]]:
                del self._seat_images[old]  # an older version of this board
            self._seat_images[key] = data
            while len(self._seat_images) > BOARD_CACHE:
                self._seat_images.popitem(last=False)
        else:
            self._seat_images.move_to_end(key)
        return Attachment(f"match{live.mid}-seat{seat + 1}-v{match.version}.png", data)

    async def _with_board(
        self, live: Live, seat: int, lang: str, msg: Msg, decision: Decision | None = None
    ) -> Msg:
        """``msg`` (private) carrying ``seat``'s own board image (``decision``'s targets marked)."""
        image = await self._seat_image(live, seat, lang, decision)
        msg.secret = True
        if image is not None:
            msg.files = [*msg.files, image]
        return msg

    async def _prompts(self, live: Live, decisions: list[Decision], lang: str) -> list[Msg]:
        """New private prompt messages, each with the board of the seat it asks."""
        return [
            await self._with_board(live, d.seat, lang, self._prompt(live, d, lang), d)
            for d in decisions
        ]

    async def _private_prompt(self, live: Live, d: Decision, lang: str) -> Msg:
        """One new private prompt with its seat's board (a DM prompt)."""
        return await self._with_board(live, d.seat, lang, self._prompt(live, d, lang), d)

    async def _redrawn(self, live: Live, d: Decision, lang: str, ver: int, msg: Msg) -> Msg:
        """``msg`` replacing a prompt drawn at version ``ver``: it keeps the board image it
        has (no upload on every draft click) unless the match moved since, then a new one."""
        match = live.match
        assert match is not None
        msg.secret = True
        msg.keep_files = True
        if ver != match.version:
            image = await self._seat_image(live, d.seat, lang, d)
            if image is not None:
                msg.files = [image]
        return msg

    async def _boards(self, live: Live, seats: list[int], lang: str, note: str) -> list[Msg]:
        """``/arena hand`` with nothing awaited: each of the user's seats' own board."""
        match = live.match
        assert match is not None
        out: list[Msg] = []
        for seat in seats:
            text = t(lang, "board.yours", who=match.seats[seat].name) + "\n" + note
            out.append(
                await self._with_board(live, seat, lang, Msg(content=clip(text, CONTENT_MAX)))
            )
        return out

    async def hand(self, mid: int, actor: Actor) -> Reply:
        """The clicking user's private prompts for everything awaited from them."""
        async with self.lock(mid):
            live = await self._get(mid)
            return await self._hand(live, actor)

    async def resume(self, mid: int, ver: int, actor: Actor) -> Reply:
        """The absence notice's button: the clicking player's seats the AI took for absence
        at version ``ver`` are theirs again, then their prompts. Anyone else's click, or an
        id of another version, changes nothing."""
        async with self.lock(mid):
            live = await self._get(mid)
            if live is None or live.match is None:
                return await self._hand(live, actor)
            mine = self._seats_of(live, actor.user_id)
            back = [i for i in mine if live.away.get(i) == ver and live.match.seats[i].ai]
            if not back:
                return await self._hand(live, actor)
            await self._take_back(live, actor, back)
            return await self._hand(live, actor, intro=t(actor.lang, "autopilot.off"))

    async def _hand(self, live: Live | None, actor: Actor, intro: str | None = None) -> Reply:
        lang = actor.lang
        if live is None:
            return Reply.say(t(lang, "err.no_match"))
        if live.match is None:
            return Reply.say(t(lang, "err.not_started"))
        if not self._seats_of(live, actor.user_id):
            return self._spectator(actor)
        seats = self._seats_of(live, actor.user_id)
        if any(live.match.seats[i].ai for i in seats) and not self._mine(live, actor.user_id):
            return Reply(private=await self._boards(live, seats, lang, t(lang, "err.autopilot")))
        mine = self._mine(live, actor.user_id)
        out: list[Msg] = [Msg(content=intro)] if intro else []
        # Private notices not shown yet (from before a restart, or an AI move for this seat).
        secrets = await self._take_private(live, actor.user_id, lang)
        if secrets:
            out.append(Msg(content=clip("\n".join(secrets), CONTENT_MAX)))
        if not mine:
            # Nothing to choose: the player's own board on demand, in their language.
            out += await self._boards(live, seats, lang, t(lang, "err.nothing_awaited"))
        out += await self._prompts(live, mine, lang)
        return Reply(private=out)

    async def _take_back(self, live: Live, actor: Actor, seats: list[int]) -> None:
        """Seats put on autopilot for absence, given back to their player (the notice's
        button), with one public line."""
        match = live.match
        assert match is not None
        new = list(match.seats)
        for i in seats:
            new[i] = new[i].model_copy(update={"ai": False})
            live.away.pop(i, None)
            live.absent.pop(i, None)
        await self.store.set_seats(live.mid, new)
        match.seats = new
        notice = Out(
            "post", Msg(content=t(live.lang, "autopilot.off_public", who=f"<@{actor.user_id}>"))
        )
        await self.store.add_public(
            live.mid, [notice.entry(live.target)], public_state=live.public_state()
        )
        await self._flush(live.mid)
        await self._advance(live)

    def _find(self, live: Live, tag: str) -> Decision | None:
        assert live.match is not None
        for d in live.match.pending():
            if key_tag(d.key) == tag:
                return d
        return None

    async def component(
        self,
        mid: int,
        action: str,
        ver: int,
        arg: str | None,
        actor: Actor,
        values: list[str] | None = None,
    ) -> Reply:
        """A prompt click given by its parts: read back through the typed codec."""
        c = ids.parse(f"am:{mid}:{action}:{ver}" + (f":{arg}" if arg is not None else ""))
        if c is None:
            return Reply.say(t(actor.lang, "err.not_offered"))
        return await self.click(c, actor, values)

    async def click(self, c: ids.ComponentId, actor: Actor, values: list[str] | None) -> Reply:
        """Every private-prompt component: pick, group, back, page, select, drafts.

        A click counts only if the prompt we would draw for that decision at that
        version offers exactly that component (and that select value): anything
        else (a forged index, ``o+1``, a version from the future) is refused
        politely and changes nothing.
        """
        async with self.lock(c.mid):
            live = await self._get(c.mid)
            lang = actor.lang
            if live is None:
                return Reply.say(t(lang, "err.no_match"))
            if live.match is None:
                return Reply.say(t(lang, "err.not_started"))
            match = live.match
            if c.ver > match.version or not isinstance(c, ids.Tagged):
                return Reply.say(t(lang, "err.not_offered"))
            d = self._find(live, c.tag)
            if d is None or (c.ver < match.version and match.pending_since.get(d.key, 0) > c.ver):
                if isinstance(c, ids.Draft):
                    # The step this draft answered is gone: say so, then the fresh prompts.
                    reply = await self._hand(live, actor, intro=t(lang, "draft.gone"))
                    reply.strip = True
                    return reply
                return await self._stale(live, actor)
            if match.seats[d.seat].user_id != actor.user_id:
                if not self._seats_of(live, actor.user_id):
                    return self._spectator(actor)
                return Reply.say(t(lang, "err.not_your_seat"))
            if isinstance(c, ids.Draft) != d.structured:
                return Reply.say(t(lang, "err.not_offered"))  # a draft id on a plain prompt...
            if isinstance(c, ids.Draft):
                return await self._draft_click(live, d, c, actor, values)
            if not _offered(c, d, lang, match.game.info, values):
                return Reply.say(t(lang, "err.not_offered"))
            if isinstance(c, ids.Back):
                return await self._update(live, d, lang, c.ver)
            if isinstance(c, ids.Group):
                return await self._update(live, d, lang, c.ver, group=c.n)
            if isinstance(c, ids.Page):
                return await self._update(live, d, lang, c.ver, page=c.n)
            index = c.n if isinstance(c, ids.Pick) else -1
            if isinstance(c, ids.Menu):
                picked = ids.parse_menu_value((values or [""])[0])
                if picked is not None and picked.kind == "g":
                    return await self._update(live, d, lang, c.ver, group=picked.index)
                index = picked.index if picked is not None else -1
            if not 0 <= index < len(d.options):
                return Reply.say(t(lang, "err.not_offered"))
            return await self._decide(live, d, d.options[index].id, c.ver, actor)

    async def _decide(
        self, live: Live, d: Decision, option_id: str, ver: int, actor: Actor
    ) -> Reply:
        opt = d.option(option_id)
        label = opt.label.get(actor.lang) if opt else option_id
        choice = Choice(seat=d.seat, key=d.key, option=option_id)
        return await self._decide_choice(live, d, choice, label, ver, actor)

    async def _decide_choice(
        self, live: Live, d: Decision, choice: Choice, label: str, ver: int, actor: Actor
    ) -> Reply:
        """Commit one answer (one option, or a confirmed draft) and show what follows."""
        lang = actor.lang
        match = live.match
        assert match is not None
        for p in self._open_prompts.get(live.mid, {}).values():
            if p.seat == d.seat and p.tag == key_tag(d.key):
                p.by_player = True  # its other copies: "you answered it elsewhere"
        try:
            await self._commit(live, choice, ver, by_ai=False)
        except StaleDecision:
            return await self._stale(live, actor)
        except IllegalDecision as exc:
            return Reply.say(exc.reason.get(lang))
        live.drafts.pop((d.seat, d.key), None)
        info = match.game.info
        done = Msg(
            content=t(
                lang,
                "prompt.done",
                who=subject_name(d.subject, lang, info) if d.subject else match.seats[d.seat].name,
                choice=label,
            )
        )
        # The clicker sees their answer taken, with what it told them alone, now rather
        # than after the AI seats' replies (the Discord layer may show it at once).
        await self._tell_privately(live, actor, done)
        answer_early(done)
        before = match.version
        live.noticed.clear()
        await self._advance(live)
        if live.noticed & set(self._seats_of(live, actor.user_id)):
            # The AI seats' moves told this player more (no read of the store otherwise).
            await self._tell_privately(live, actor, done)
        if live.match is None or match.over:
            return Reply(update=done)
        follow = [
            x
            for x in self._mine(live, actor.user_id)
            if match.pending_since.get(x.key, 0) >= before
        ]
        return Reply(update=done, private=await self._prompts(live, follow, lang))

    # --- prompts --------------------------------------------------------------------------
    async def _update(self, live: Live, d: Decision, lang: str, ver: int, **kw: Any) -> Reply:
        """The clicked prompt (drawn at ``ver``) redrawn in place, keeping its board image."""
        return Reply(
            update=await self._redrawn(live, d, lang, ver, self._prompt(live, d, lang, **kw))
        )

    def _prompt(
        self,
        live: Live,
        d: Decision,
        lang: str,
        group: int | None = None,
        page: int = 0,
        notice: str | None = None,
    ) -> Msg:
        """The private prompt for ``d``: its options, or its draft for a structured answer."""
        match = live.match
        assert match is not None
        info = match.game.info
        name = match.seats[d.seat].name
        due = live.deadlines.get(d.key)
        if not d.structured:
            return decision_msg(
                live.mid,
                match.version,
                d,
                name,
                lang,
                group=group,
                page=page,
                due_at=due,
                info=info,
            )
        slot = self._slot(live, d)
        draft = slot.draft if slot else Draft(key=d.key, seat=d.seat)
        ref = DraftRef(slot.did, slot.rev) if slot else DraftRef()
        return draft_msg(
            live.mid,
            match.version,
            d,
            draft,
            ref,
            name,
            lang,
            info=info,
            due_at=due,
            focus=slot.focus if slot else 0,
            notice=notice,
        )

    # --- drafts ---------------------------------------------------------------------------
    @staticmethod
    def _slot(live: Live, d: Decision) -> DraftSlot | None:
        """The draft in progress for ``d``, if it still fits the decision pending now.

        Drafts of decisions no longer pending (answered, timed out, re-asked) are dropped.
        """
        match = live.match
        assert match is not None
        pending = {x.key: x for x in match.pending()}
        for (seat, key), s in list(live.drafts.items()):
            x = pending.get(key)
            if (
                x is None
                or x.seat != seat
                or s.since != match.pending_since.get(key, 0)
                or not s.draft.valid_for(x)
            ):
                del live.drafts[(seat, key)]
        return live.drafts.get((d.seat, d.key))

    async def _draft_click(
        self,
        live: Live,
        d: Decision,
        c: ids.Draft,
        actor: Actor,
        values: list[str] | None,
    ) -> Reply:
        """One click on a draft prompt: change the draft and redraw, or Confirm it.

        The click must be one the prompt of this draft at this revision offered
        (:func:`bot.gm.prompts.draft_msg`, drawn again here); anything else changes nothing.
        """
        lang = actor.lang
        match = live.match
        assert match is not None
        slot = self._slot(live, d)
        if slot is not None and (c.did != slot.did or c.rev != slot.rev):
            # Another copy of this prompt moved on meanwhile: show where the draft is.
            return await self._update(live, d, lang, c.ver, notice=t(lang, "draft.behind"))
        if slot is None and c.rev != 0:
            # A draft this process does not know: the bot restarted (or it was dropped).
            return await self._update(live, d, lang, c.ver, notice=t(lang, "draft.lost"))
        draft = slot.draft if slot else Draft(key=d.key, seat=d.seat)
        ref = DraftRef(c.did, c.rev)
        focus = slot.focus if slot else 0
        custom_id = c.encode()
        info = match.game.info
        if not any(
            draft_msg(c.mid, c.ver, d, draft, ref, "", x, info=info, focus=focus).offers(
                custom_id, values
            )
            for x in _langs(lang)
        ):
            return Reply.say(t(lang, "err.not_offered"))
        if slot is None:
            slot = DraftSlot(
                draft=draft,
                did=secrets.token_hex(3),
                since=match.pending_since.get(d.key, 0),
            )
            live.drafts[(d.seat, d.key)] = slot
        ask = d.ask
        try:
            if isinstance(c, ids.DraftConfirm):
                problem = slot.draft.problem(d)
                if problem is not None:
                    return await self._update(live, d, lang, c.ver, notice=problem.get(lang))
                choice = slot.draft.choice(d)
                label = slot.draft.summary(d).get(lang)
                return await self._decide_choice(live, d, choice, label, c.ver, actor)
            if isinstance(c, ids.DraftBack):
                new = slot.draft.back()
            elif isinstance(c, ids.DraftToggle):
                new = slot.draft.toggle(d, d.options[c.index].id)
            elif isinstance(c, ids.DraftAmount):
                assert isinstance(ask, Allocation)
                new = slot.draft.set_amount(d, ask.quantities[c.quantity].id, c.amount)
            elif isinstance(c, ids.DraftMenu):
                picked = self._draft_select(d, slot, c, (values or [""])[0])
                if picked is None:
                    return Reply.say(t(lang, "err.not_offered"))
                new = picked
            else:
                return Reply.say(t(lang, "err.not_offered"))
        except IllegalDecision as exc:
            return await self._update(live, d, lang, c.ver, notice=exc.reason.get(lang))
        slot.draft = new
        slot.rev += 1
        return await self._update(live, d, lang, c.ver)

    @staticmethod
    def _draft_select(d: Decision, slot: DraftSlot, c: ids.DraftMenu, value: str) -> Draft | None:
        """A draft select's value, matched exactly against the values that select offered.

        ``o<n>``: the n-th select of options (value: an option index); ``q<i>``: the
        amounts of quantity i; ``f``: which quantity to show (the draft is unchanged).
        """
        ask = d.ask
        if c.part == "f" and isinstance(ask, Allocation):
            offered = [str(i) for i in range(len(ask.quantities))]
            if value not in offered:
                return None
            slot.focus = offered.index(value)
            return slot.draft
        if c.part == "o" and 0 <= c.n < SELECTS_MAX:
            indexes = range(c.n * 25, min(len(d.options), (c.n + 1) * 25))
            offered = [str(i) for i in indexes]
            if value not in offered:
                return None
            return slot.draft.toggle(d, d.options[indexes[offered.index(value)]].id)
        if c.part == "q" and isinstance(ask, Allocation) and 0 <= c.n < len(ask.quantities):
            q = ask.quantities[c.n]
            amounts = amounts_offered(q)
            offered = [str(a) for a in amounts]
            if value not in offered:
                return None
            return slot.draft.set_amount(d, q.id, amounts[offered.index(value)])
        return None

    async def _take_private(self, live: Live, user_id: int, lang: str) -> list[str]:
        """Texts of the stored private notices for this user's seats; handed over once.

        A notice addressed to several of the user's seats (team mode) is shown once.
        """
        seats = self._seats_of(live, user_id)
        if not seats:
            return []
        mine = await self.store.notices(live.mid, seats)
        if not mine:
            return []
        await self.store.mark_notices_delivered(n.id for n in mine)
        texts: list[str] = []
        seen: set[tuple[int, str]] = set()
        for n in mine:
            text = n.text.get(lang)
            if (n.version, text) not in seen:
                seen.add((n.version, text))
                texts.append(text)
        return texts

    async def _deliver_private(self, live: Live) -> None:
        """Private notices nobody collected by clicking (an AI move for an absent seat): by DM."""
        match = live.match
        if match is None:
            return
        for uid in {s.user_id for s in match.seats if s.user_id is not None}:
            prefs = await self.store.user_prefs(uid)
            if not prefs.dm or prefs.dm_closed:
                continue
            lang = lang_of(prefs.locale) if prefs.locale else live.lang
            texts = await self._take_private(live, uid, lang)
            if texts:
                await self.publisher.dm(uid, Msg(content=clip("\n".join(texts), CONTENT_MAX)))

    # --- prompts on players' screens, retired truthfully (issue 11.8) ---------------------
    async def prompt_shown(
        self, message_id: int, user_id: int, lang: str, msg: Msg, edit: PromptEdit
    ) -> None:
        """The Discord layer showed ``msg`` privately to ``user_id`` as ``message_id``,
        editable through ``edit``: kept until its decision no longer waits for it.
        Shown after the match already moved on (an AI commit in between): retired now."""
        c = prompt_id(msg)
        live = self._live.get(c.mid) if c is not None else None
        if c is None or live is None or live.match is None:
            return
        d = self._find(live, c.tag)
        if d is None or live.match.seats[d.seat].user_id != user_id:
            return
        p = OpenPrompt(
            mid=c.mid,
            tag=c.tag,
            ver=c.ver,
            seat=d.seat,
            lang=lang,
            shown_at=self.clock.now(),
            edit=edit,
        )
        self._forget_old_prompts(p.shown_at)
        self._open_prompts.setdefault(c.mid, {})[message_id] = p
        await self._retire_prompts(live)

    def _forget_old_prompts(self, now: float) -> None:
        """Prompts no longer editable are forgotten (also those of a match that ended
        without a commit, such as an abandoned one); every prompt is looked at once a
        :data:`FORGET_EVERY` at most, not on every prompt shown (a busy bot holds many)."""
        if now - self._forgotten_at < FORGET_EVERY:
            return
        self._forgotten_at = now
        for mid, prompts in list(self._open_prompts.items()):
            for message_id, p in list(prompts.items()):
                if now - p.shown_at > EDIT_WINDOW:
                    prompts.pop(message_id, None)
            if not prompts:
                self._open_prompts.pop(mid, None)

    def prompt_clicked(self, message_id: int) -> OpenPrompt | None:
        """A click on a shown prompt: its own answer replaces it, so it is no longer
        retired by others' moves (given back by :meth:`prompt_kept` if it stays). A
        match left with none is forgotten (its last prompt clicked: the match may be over)."""
        for mid, prompts in self._open_prompts.items():
            p = prompts.pop(message_id, None)
            if p is not None:
                if not prompts:
                    del self._open_prompts[mid]
                return p
        return None

    def prompt_kept(self, message_id: int, p: OpenPrompt) -> None:
        """The clicked prompt stays as it was (the click was refused): still watched."""
        self._open_prompts.setdefault(p.mid, {})[message_id] = p

    async def _after_commit(self, live: Live) -> None:
        await super()._after_commit(live)
        await self._retire_prompts(live)

    async def _retire_prompts(self, live: Live) -> None:
        """Edit every open prompt of the match whose decision no longer waits for it
        (answered by the AI, the seat on autopilot, re-asked, the match over)."""
        prompts = self._open_prompts.get(live.mid)
        match = live.match
        if not prompts or match is None:
            return
        now = self.clock.now()
        for message_id, p in list(prompts.items()):
            if now - p.shown_at > EDIT_WINDOW:
                prompts.pop(message_id, None)  # no longer editable: a click gets err.stale
                continue
            if still_open(match, p):
                continue
            if prompts.pop(message_id, None) is None:
                continue  # clicked meanwhile: its own answer replaces it
            try:
                await p.edit(retired_msg(match, p))
            except Exception as exc:  # gone, token expired, rate limited: a click says stale
                log.info("match %s: could not retire prompt %s: %s", live.mid, message_id, exc)
        if not prompts or match.over:
            self._open_prompts.pop(live.mid, None)

    @staticmethod
    def _spectator(actor: Actor) -> Reply:
        """Issue 11.8: someone without a seat is told they are watching, and how to play
        the next match; never "not your seat" as if they had another one."""
        return Reply.say(t(actor.lang, "watch.spectator"))

    async def _tell_privately(self, live: Live, actor: Actor, msg: Msg) -> None:
        """``msg`` followed by what the match told ``actor`` alone and they have not read."""
        secrets = await self._take_private(live, actor.user_id, actor.lang)
        if secrets:
            msg.content = clip(f"{msg.content}\n" + "\n".join(secrets), CONTENT_MAX)

    async def _stale(self, live: Live, actor: Actor) -> Reply:
        reply = await self._hand(live, actor, intro=t(actor.lang, "err.stale"))
        reply.strip = True
        return reply

    async def play_text(self, channel_id: int, actor: Actor, text: str) -> Reply:
        """A typed move (``/arena play``), read by the game's own notation."""
        lang = actor.lang
        rec = await self._here(channel_id, actor.user_id)
        if rec is None:
            return Reply.say(t(lang, "err.no_match_here"))
        async with self.lock(rec.id):
            live = await self._get(rec.id)
            if live is None or live.match is None:
                return Reply.say(t(lang, "err.not_started"))
            mine = self._mine(live, actor.user_id)
            if not mine:
                if not self._seats_of(live, actor.user_id):
                    return self._spectator(actor)
                return Reply.say(t(lang, "err.nothing_awaited"))
            match = live.match
            for d in mine:
                if d.structured:
                    continue  # built in its prompt, click by click
                try:
                    option = match.game.parse_option(match.state, d, text)
                except Exception:
                    log.exception("parse_option failed")
                    option = None
                if option is not None and d.option(option) is not None:
                    reply = await self._decide(live, d, option, match.version, actor)
                    if reply.update is not None:
                        reply.private.insert(0, reply.update)
                        reply.update = None
                    return reply
            sample = ", ".join(f"`{o.id}`" for o in mine[0].options[:10])
            return Reply.say(t(lang, "err.unreadable", text=text, sample=sample))


def _offered(
    c: ids.Tagged, d: Decision, lang: str, info: GameInfo, values: list[str] | None
) -> bool:
    """Whether a prompt we would draw for ``d`` at the click's version offers exactly this
    component (and value); the views where it would be are searched first."""
    option: int | None = None
    page: int | None = None
    if isinstance(c, ids.Pick):
        option = c.n
    elif isinstance(c, ids.Menu):
        page = c.page
        picked = ids.parse_menu_value((values or [""])[0])
        option = picked.index if picked is not None and picked.kind == "o" else None
    return offered(
        c.mid, c.ver, d, _langs(lang), info, c.encode(), values, option=option, page=page
    )


def _langs(first: str) -> tuple[str, ...]:
    """The reader's language first, then the others: a prompt may have been drawn in any."""
    return (first, *(x for x in CATALOGUES if x != first))
