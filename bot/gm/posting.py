"""What reaches the channel: step posts, the round board, DM prompts, edits."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict

from bot.engine import Decision, Match
from bot.engine.text import lang_of
from bot.gm import present
from bot.gm.base import Base
from bot.gm.live import Live
from bot.gm.msg import Msg
from bot.gm.prompts import decision_msg
from bot.gm.publisher import DmResult
from bot.i18n import t

log = logging.getLogger(__name__)


class PostingMixin(Base):
    """Posting and editing the public messages of a match, and DM prompts."""

    async def _post_step(self, live: Live) -> None:
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
        for msg in present.step_msgs(title, lines, image, f"match{live.mid}-v{match.version}.png"):
            await self._post(live, msg)

    @staticmethod
    async def _render(match: Match, lang: str, seat: int | None = None) -> bytes | None:
        try:
            data = await asyncio.to_thread(match.render, seat, lang)
        except Exception:
            log.exception("render failed for %s", match.game_id)
            return None
        return data or None

    async def _round(self, live: Live, post: bool) -> None:
        """Post or refresh the round board; arm deadlines; deliver DM prompts."""
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
                await self.store.set_deadline(live.mid, d.key, d.seat, now + dur, now + dur / 2)
        who = {(d.seat, d.subject) for d in humans}
        # The same fighters asked again with nothing posted in between (a fighter's
        # successive in-action choices): refresh the board instead of pinging anew.
        continued = bool(new) and live.board_fresh and who == live.board_who
        if new:
            live.round_keys = {d.key: (d.seat, d.subject) for d in humans}
        answered = [v for k, v in live.round_keys.items() if k not in {d.key for d in humans}]
        msg = present.round_msg(live.mid, match, humans, answered, live.deadlines, live.lang)
        if new and not continued:
            previous = (await self.store.messages(live.mid)).get("round")
            posted = await self._post(live, msg, role="round")
            live.board_fresh, live.board_who = True, who
            if previous is not None and posted is not None and previous[1] != posted:
                await self._retire(*previous)
        elif post or continued:
            await self._edit(live, "round", msg)
        if new:
            await self._deliver_dms(live, new)

    async def _deliver_dms(self, live: Live, decisions: list[Decision]) -> None:
        match = live.match
        assert match is not None
        by_user: dict[int, list[Decision]] = defaultdict(list)
        for d in decisions:
            uid = match.seats[d.seat].user_id
            if uid is not None:
                by_user[uid].append(d)
        for uid, ds in by_user.items():
            prefs = await self.store.user_prefs(uid)
            if not prefs.dm or prefs.dm_closed:
                continue
            lang = lang_of(prefs.locale) if prefs.locale else live.lang
            for d in ds:
                msg = self._prompt(live, d, lang)
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

    def _prompt(
        self, live: Live, d: Decision, lang: str, group: int | None = None, page: int = 0
    ) -> Msg:
        match = live.match
        assert match is not None
        return decision_msg(
            live.mid,
            match.version,
            d,
            match.seats[d.seat].name,
            lang,
            group=group,
            page=page,
            due_at=live.deadlines.get(d.key),
        )

    # --- posting helpers ---------------------------------------------------------------
    async def _retire(self, channel_id: int, message_id: int) -> None:
        """A new round board supersedes the old one: its "Make your choice" button goes."""
        retire = getattr(self.publisher, "retire", None)
        if retire is None:
            return
        try:
            await retire(channel_id, message_id)
        except Exception:
            log.exception("retiring board %s failed", message_id)

    async def _post(self, live: Live, msg: Msg, role: str | None = None) -> int | None:
        mid = await self.publisher.send(live.target, msg)
        if mid is not None and role is not None:
            await self.store.set_message(live.mid, role, live.target, mid)
        return mid

    async def _edit(self, live: Live, role: str, msg: Msg, create: bool = True) -> None:
        where = (await self.store.messages(live.mid)).get(role)
        if where is not None and await self.publisher.edit(where[0], where[1], msg):
            return
        if create:
            await self._post(live, msg, role=role)
