"""The end of a match: its podium (issue 11.9), its closing, and the rematch it offers."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine import Match, SeatSpec
from bot.gm import present
from bot.gm import timers as tm
from bot.gm.ids import lobby_id
from bot.gm.live import Live
from bot.gm.msg import (
    Actor,
    Block,
    Button,
    FileBlock,
    Msg,
    Reply,
    Rule,
    TextBlock,
    clip,
)
from bot.gm.posting import TABLE, Out, PostingMixin
from bot.gm.table import summary_msgs
from bot.i18n import CATALOGUES, t

log = logging.getLogger(__name__)

PODIUM_COLOUR = 0x50C878
MEDALS = ("🥇", "🥈", "🥉")


def log_name(mid: int) -> str:
    return f"match{mid}-log.md"


def has_dice(match: Match) -> bool:
    """Whether the fairness data means anything to players: the match drew from its
    seeded stream (dice, shuffles; a game without chance shows none). Read from the
    stream's counter, which is part of the match's state, so the podium says the same
    after any number of restarts (the events in memory are only those since the last)."""
    return match.dice.counter > 0


def scores_label(game_id: str, lang: str) -> str:
    """What a game's final scores count (``end.scores.<game>``), else a plain "Scores"."""
    key = f"end.scores.{game_id}"
    return t(lang, key) if key in CATALOGUES["en"] else t(lang, "end.scores")


def podium_msg(live: Live, match: Match, lang: str) -> Msg:
    """Who won, with mentions (each human player pinged once, the match is over), the
    labelled scores in order, the fairness data for a game with dice, the log file (built
    on delivery) and the Rematch button. The final image is on the summary just above."""
    out = match.outcome()
    assert out is not None
    mid = live.mid
    info = match.game.info

    def name(seat: int) -> str:
        s = match.seats[seat]
        return f"<@{s.user_id}>" if s.user_id is not None and not s.ai else f"🤖 {s.name}"

    names = [name(w) for w in out.winners]
    if not names:
        result = t(lang, "end.nobody")
    elif out.half:
        result = t(lang, "end.half", names=", ".join(names))
    elif out.shared or len(names) > 1:
        result = t(lang, "end.shared", names=", ".join(names))
    else:
        result = t(lang, "end.winner", names=names[0])
    blocks: list[Block] = [
        TextBlock(f"## {t(lang, 'end.title', game=info.names.get(lang), mid=mid)}"),
        TextBlock(clip(f"**{result}**\n{out.reason.get(lang)}", 1500)),
    ]
    if out.scores:
        ranked = sorted(out.scores.items(), key=lambda kv: (-kv[1], int(kv[0])))
        lines = []
        for i, (seat, value) in enumerate(ranked):
            medal = MEDALS[i] if i < len(MEDALS) and value == ranked[i][1] else "▫️"
            lines.append(f"{medal} {name(int(seat))} — **{value:g}**")
        label = scores_label(info.id, lang)
        blocks.append(TextBlock(clip(f"**{label}**\n" + "\n".join(lines), 1200)))
    if has_dice(match):
        blocks += [
            Rule(),
            TextBlock(
                f"**{t(lang, 'end.seed')}**\n"
                + t(lang, "end.seed_text", seed=match.seed, sha=match.commitment)
            ),
        ]
    else:
        blocks.append(TextBlock(t(lang, "end.log_only")))
    blocks.append(FileBlock(log_name(mid)))
    humans = sorted({s.user_id for s in match.seats if s.user_id is not None and not s.ai})
    rematch = Button(t(lang, "end.rematch"), lobby_id(mid, "rematch"), "success", emoji="🔁")
    return Msg(layout=blocks, rows=[[rematch]], mentions=humans, accent=PODIUM_COLOUR)


class EndingMixin(PostingMixin):
    """A match that is over, abandoned or cancelled; and its rematch."""

    # Defined by the lobby layer: opening a lobby (``/arena start``'s own code).
    open_lobby: Callable[..., Awaitable[Reply]]

    async def _finish_outs(self, live: Live) -> list[Out]:
        """The podium, planned with the last commit (after the last summary, which shows
        the final image); the log is attached on delivery, built from the store."""
        match = live.match
        assert match is not None
        return [Out("post", podium_msg(live, match, live.lang), log_lang=live.lang)]

    async def _close(self, live: Live, actor: Actor, status: str) -> Reply:
        lang = live.lang
        text = t(lang, "close." + status, who=f"<@{actor.user_id}>", mid=live.mid)
        rec = live.rec
        if rec.status == "lobby":
            msg = present.lobby_msg(
                rec.id, rec.game, rec.mode, rec.options, rec.seats, rec.host_id, lang, closed=text
            )
            outs = [Out("edit", msg, role="lobby", create=False)]
        else:
            match = live.match
            assert match is not None
            label = live.batch_round if live.batch_round is not None else match.round_label()
            lines = present.log_lines(live.batch, lang)
            story = summary_msgs(live.mid, match, label, lines, None, lang)
            outs = [Out("edit", story[0], role=TABLE, create=False)]
            outs += [Out("post", m) for m in story[1:]]
            closing = Msg(
                layout=[TextBlock(text), FileBlock(log_name(live.mid))],
                mentions=[],
                accent=present.COLOUR,
            )
            outs.append(Out("post", closing, log_lang=lang))
        # The status and what it shows, in one transaction (its timers go with it).
        await self.store.set_status(live.mid, status, outbox=[o.entry(live.target) for o in outs])
        self._live.pop(live.mid, None)
        self._keep_ended(live)
        live.deadlines.clear()
        await self._flush(live.mid)
        return Reply.say(t(actor.lang, "close.done", mid=live.mid))

    async def rematch(self, mid: int, actor: Actor) -> Reply:
        """The podium's Rematch: a lobby with the same game, mode, seats and options,
        opened by ``/arena start``'s own code in the same channel, hosted by the clicker.

        Only a player of that match may open it (a spectator is told so, kindly); the
        players can still leave it, and the host starts it as any lobby.
        """
        lang = actor.lang
        old = await self.store.get(mid, snapshot=False)
        if old is None:
            return Reply.say(t(lang, "err.no_match"))
        if actor.user_id not in {s.user_id for s in old.seats if not s.ai}:
            return Reply.say(t(lang, "end.rematch_players"))
        reply = await self.open_lobby(
            actor,
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            guild_locale=old.locale,
            game_id=old.game,
            mode=old.mode,
            upload=None,
        )
        new = await self._new_lobby_of(old.channel_id, actor.user_id)
        if new is None:
            return reply  # refused (a match already there...): the lobby's own answer
        async with self.lock(new):
            live = await self._get(new)
            if live is None or live.rec.status != "lobby":
                return reply
            host = next(s for s in old.seats if s.user_id == actor.user_id)
            seats = [host.model_copy()] + [
                s.model_copy() for s in old.seats if s.user_id != actor.user_id or s.ai
            ]
            played = await self.store.match_settings(mid)
            options = _rematch_options(live.rec.options, old.options, played, seats)
            await self.store.update_lobby(new, seats=seats, options=options)
            live.timers = tm.timers(options)
            rec = await self.store.get(new, snapshot=False)
            if rec is not None:
                live.rec = rec
                msg = present.lobby_msg(
                    new, rec.game, rec.mode, rec.options, rec.seats, rec.host_id, live.lang
                )
                await self._edit(live, "lobby", msg)
        return reply

    async def _new_lobby_of(self, channel_id: int, user_id: int) -> int | None:
        """The lobby ``user_id`` just opened from ``channel_id`` (its thread, or there)."""
        mine = [
            r
            for r in await self.store.active_of_user_in_channel(channel_id, user_id)
            if r.status == "lobby" and r.host_id == user_id
        ]
        return max((r.id for r in mine), default=None)


def _rematch_options(
    fresh: dict[str, Any],
    played: dict[str, Any],
    settings: dict[str, Any],
    seats: list[SeatSpec],
) -> dict[str, Any]:
    """The new lobby's options: its defaults, with every option the match was played
    with, its deadlines (kept in the match's settings once started) and its AI level."""
    out = {**fresh, **played}
    timers = settings.get(tm.SETTINGS_KEY)
    if timers:
        out[tm.TIMERS_KEY] = dict(timers)
    level = next((s.ai_level for s in seats if s.ai and s.ai_level), None)
    if level is not None:
        out[present.AI_LEVEL_KEY] = level
    return out
